// Harness (session 55): the tiles for C with a short side, where the engine ran 0.78-0.92x cuBLAS on an H200
// (139x5237x2706, 162x7850x1255, 156x6888x4872, 1200x5000x2400, 400x400x8000; h200-2026-11-30-session53.md and
// -session54.md): the spec's small tiles split to fill the GPU (64x64x16, 128x64x8, and the 64x128x16 of session 53)
// against tiles with a side of 32, whose last row (or column) of tiles wastes less of C at M (or N) of 129-160, each
// split to fill as the spec's. One layout per build (-DLAYOUT 0-3: nn nt tn tt; the ring as the spec's small tiles
// take it: mbarriers but in tn). Every variant checked against cuBLAS first, then timed in interleaved rounds over
// operand sets rotated past the 50 MB L2 (bench/harness/sgemm_harness.h's run_shapes): one CSV line per (shape,
// variant), layout,M,N,K,variant,ms,graph_ms,x_cublas,reldiff,blocks_per_sm (of the kernel without edges).
// Build on the GPU machine from the repository root (bench/harness/sgemm_skinny.sh builds and runs every layout):
//   nvcc -O3 -std=c++17 -DKGEN_ARCH=sm90 -DLAYOUT=0 -I kernels/include -I . \
//     -gencode=arch=compute_90,code=sm_90 -o /tmp/sgemm_skinny bench/harness/sgemm_skinny.cu -lcublas
#include "bench/harness/sgemm_harness.h"

// Each variant's Config: block, warp and thread tiles, blocks an SM, stages, up to 32 splits chosen to fill the GPU
// (kgen::fill_splits), lanes (0 by row, 1 by column), FFMA order 0, the ring where the spec's small tiles take it.
template <int BM, int BN, int BK, int WM, int WN, int TM, int TN, int MB, int S, int MAP = 0>
using Fill = LayoutCfg<BM, BN, BK, WM, WN, TM, TN, MB, S, 32, MAP, 0, false, true, kRing>;
using Spec64x64 = Fill<64, 64, 16, 32, 32, 8, 4, 4, 3>;
using Spec128x64 = LayoutCfg<128, 64, 8, 64, 32, 8, 8, 3, 4, 32, 0, 0, false, true>;  // no ring in any layout
using Wide64x128 = Fill<64, 128, 16, 32, 64, 8, 8, 3, 3, 1>;                          // session 53's, not kept
using Rows32x128 = Fill<32, 128, 16, 32, 32, 8, 4, 6, 3>;
using Rows32x64 = Fill<32, 64, 16, 32, 32, 8, 4, 8, 3>;
using Cols128x32 = Fill<128, 32, 16, 32, 32, 8, 4, 6, 3>;

// blocks_per_sm is K's kernel without edges' blocks an SM (the occupancy API).
template <class K>
int blocks_per_sm() {
  int n = 0;
  CK(kgen::sgemm::prepare<K>());
  CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, kgen::sgemm::gemm_kernel<K, false>, K::kThreads,
                                                   K::kSmemBytes));
  return n;
}

// Entry is a Variant of K and its blocks an SM.
struct Entry {
  Variant v;
  int (*per_sm)();
};
template <class K>
constexpr Entry entry(const char* name) {
  return Entry{Variant{name, kgen::sgemm::launch<K>, kgen::workspace_bytes<K>}, blocks_per_sm<K>};
}

static const Entry kEntries[] = {
    entry<Spec64x64>("64x64x16_t8x4"),         entry<Spec128x64>("128x64x8_t8x8"),
    entry<Wide64x128>("64x128x16_t8x8_lc"),    entry<Rows32x128>("32x128x16_w32x32_t8x4"),
    entry<Rows32x64>("32x64x16_w32x32_t8x4"),  entry<Cols128x32>("128x32x16_w32x32_t8x4"),
};
constexpr int kCount = sizeof(kEntries) / sizeof(kEntries[0]);

int main(int argc, char** argv) {
  Variant vs[kCount];
  int per_sm[kCount + 1] = {0};  // element c for variant c - 1; 0 is cuBLAS
  for (int i = 0; i < kCount; ++i) vs[i] = kEntries[i].v, per_sm[i + 1] = kEntries[i].per_sm();
  return run_shapes(argc, argv, vs, kCount, 5, [&](int c, int, int, int) { printf(",%d", per_sm[c]); });
}
