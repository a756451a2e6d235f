// Harness (session 42): lane maps by lane bit. A warp's thread grid is 32 / kLanesN rows (lm) by kLanesN columns
// (ln); a map here takes lm from the lane bits in MASK and ln from the others, each packed low to high. Every
// fragment read (LDS.128) of the k loop fetches the float4 of each lane's lm (A) or ln (B), and an LDS.128 whose
// float4 depends on both lane bits 0 and 1 takes 4 shared-memory wavefronts, else 2 (bench/harness/lds_wavefronts.cu):
// the maps that put bit 0 in one coordinate and bit 1 in the other read every fragment in 2.
//   -DSET=1 (default): the spec's 128x128x16 tile (8x8 threads, a 4 x 8 grid: lm 2 bits), every MASK of 2 bits; 3
//     (bits 0,1) is the spec's lanes by column, 24 (bits 3,4) by row, 17 (bits 0,4) row pairs.
//   -DSET=2: the 8x16 thread tiles (128x256x16, 256x128x16; an 8 x 4 grid: lm 3 bits); 28 (bits 2,3,4) is the spec's
//     lanes by row.
// Output as sgemm_mid.cu's. Build on the GPU machine from the repository root:
//   nvcc -O3 -std=c++17 -DKGEN_ARCH=sm90 -DLAYOUT=2 -DSET=1 -I kernels/include -I . \
//     -gencode=arch=compute_90,code=sm_90 -o /tmp/lanes bench/harness/sgemm_lanes.cu -lcublas
// Results: bench/results/h200-2026-11-29-session42.md (calls 1 and 2, built on the headers of commit cc4bbab, whose
// 128x128 tile issued its copies before the first k step; since then it issues them late: Config's kCopyPlace).
#include "bench/harness/sgemm_harness.h"

#ifndef SET
#define SET 1
#endif

// Lanes is Base with lanes placed by MASK (the specialisations of lane_coords and lane_of below).
template <class Base, int MASK>
struct Lanes : Base {};

// pext_lane packs the bits of lane that mask selects, low to high; pdep_lane is its inverse.
__host__ __device__ constexpr int pext_lane(int lane, int mask) {
  int v = 0, o = 0;
  for (int b = 0; b < 5; ++b)
    if (mask >> b & 1) v |= ((lane >> b) & 1) << o++;
  return v;
}
__host__ __device__ constexpr int pdep_lane(int v, int mask) {
  int lane = 0, o = 0;
  for (int b = 0; b < 5; ++b)
    if (mask >> b & 1) lane |= ((v >> o++) & 1) << b;
  return lane;
}

#define LANES(BASE, MASK)                                                                     \
  namespace kgen {                                                                            \
  namespace sgemm {                                                                           \
  template <>                                                                                 \
  __host__ __device__ inline void lane_coords<Lanes<BASE, MASK>>(int lane, int& lm, int& ln) { \
    lm = pext_lane(lane, MASK);                                                               \
    ln = pext_lane(lane, 31 & ~(MASK));                                                       \
  }                                                                                           \
  template <>                                                                                 \
  __host__ __device__ constexpr int lane_of<Lanes<BASE, MASK>>(int lm, int ln) {              \
    return pdep_lane(lm, MASK) | pdep_lane(ln, 31 & ~(MASK));                                 \
  }                                                                                           \
  }                                                                                           \
  }

// Each set is one list, X(name, base, mask), that both declares the maps (LANES) and names the variants (LANE_V): a
// variant whose map had no specialisation would run its base's lanes under the map's name.
#if SET == 1
#define MAPS(X)                                          \
  X("lm bits 0+1 (columns)", SpecTile, 3)                \
  X("lm bits 3+4 (rows)", SpecTile, 24)                  \
  X("lm bits 0+4 (row pairs)", SpecTile, 17)             \
  X("lm bits 0+2", SpecTile, 5)                          \
  X("lm bits 1+2", SpecTile, 6)                          \
  X("lm bits 0+3", SpecTile, 9)                          \
  X("lm bits 1+3", SpecTile, 10)                         \
  X("lm bits 2+3", SpecTile, 12)                         \
  X("lm bits 1+4", SpecTile, 18)                         \
  X("lm bits 2+4", SpecTile, 20)
#define SPECS V{"spec (lanes by column)", kgen::sgemm::launch<SpecTile>, nullptr},
#else
// The spec's 8x16 thread tiles: warps of 64x64, 3 stages, FFMA order O (0 rows, 1 rows_zigzag).
template <int BM, int BN, int O>
using Wide = LayoutCfg<BM, BN, 16, 64, 64, 8, 16, 1, 3, 1, 0, O>;
using W256 = Wide<128, 256, 0>;
using W256z = Wide<128, 256, 1>;
using W128 = Wide<256, 128, 0>;
using W128z = Wide<256, 128, 1>;
#define MAPS(X)                                          \
  X("128x256 lm 2+3+4 (rows)", W256, 28)                 \
  X("128x256 lm 0+1+2", W256, 7)                         \
  X("128x256 lm 0+2+3", W256, 13)                        \
  X("128x256 lm 0+2+4", W256, 21)                        \
  X("128x256 lm 0+3+4", W256, 25)                        \
  X("128x256 lm 1+2+3", W256, 14)                        \
  X("128x256 lm 1+2+4", W256, 22)                        \
  X("128x256 lm 1+3+4", W256, 26)                        \
  X("128x256 fz lm 2+3+4 (rows)", W256z, 28)             \
  X("128x256 fz lm 0+2+3", W256z, 13)                    \
  X("128x256 fz lm 1+3+4", W256z, 26)                    \
  X("256x128 lm 2+3+4 (rows)", W128, 28)                 \
  X("256x128 lm 0+2+3", W128, 13)                        \
  X("256x128 lm 1+3+4", W128, 26)                        \
  X("256x128 fz lm 2+3+4 (rows)", W128z, 28)             \
  X("256x128 fz lm 0+2+3", W128z, 13)
#define SPECS                                            \
  V{"128x128 spec", kgen::sgemm::launch<SpecTile>, nullptr}, \
      V{"128x256 spec", kgen::sgemm::launch<W256>, nullptr},
#endif

using V = Variant;
#define DECLARE(name, BASE, MASK) LANES(BASE, MASK)
#define LANE_V(name, BASE, MASK) V{name, kgen::sgemm::launch<Lanes<BASE, MASK>>, nullptr},
MAPS(DECLARE)
static const V kVariants[] = {SPECS MAPS(LANE_V)};
constexpr int kN = sizeof(kVariants) / sizeof(kVariants[0]);

int main(int argc, char** argv) { return run_shapes(argc, argv, kVariants, kN, 9, no_extra); }
