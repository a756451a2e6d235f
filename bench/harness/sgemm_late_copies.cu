// Harness (session 42): the cp.async copies of the tile kStages - 1 ahead issued late in a tile instead of before
// its first fragment reads. Per-instruction sampling at 2048^3 tn (bench/results/h200-2026-11-29-session42.md, call
// 3) put the 8x16 tile's largest stalls on the first fragment read after the copies (long scoreboard) and the FFMA
// that uses it, as session 36 found. Config's kCopyStep P (headers of commit cc4bbab with
// bench/harness/sgemm-copy-place.patch and bench/harness/sgemm-copy-late.patch; see the latter): -1 issues the copies
// between tiles (the spec's then), P < 100 before step P's fragment reads, P >= 100 after step P - 100's reads,
// before its multiply-adds. -DSET=1 (default, call 4): the spec's 128x128x16 tile by column in rows_zigzag, the 8x16
// tiles, 128x256x8 in 4 stages; -DSET=2 (call 5): the other 8x8 tiles the tables pick. One binary per layout
// (-DLAYOUT 0-3: nn nt tn tt); every variant checked against cuBLAS first, then timed in interleaved rounds over
// operand sets rotated past the 50 MB L2 (bench/harness/sgemm_harness.h). Build on the GPU machine:
//   H=/tmp/late  # the headers, as sgemm-copy-late.patch says
//   nvcc -O3 -std=c++17 -DKGEN_ARCH=sm90 -DLAYOUT=2 -DSET=1 -I $H/kernels/include -I . \
//     -gencode=arch=compute_90,code=sm_90 -o /tmp/late bench/harness/sgemm_late_copies.cu -lcublas
//   /tmp/late 2048x2048x2048,4096x4096x4096,2048x2048x8192
#include "bench/harness/sgemm_harness.h"

// Cfg is LayoutCfg's tile with its copies issued at step P.
template <int P, int BM, int BN, int BK, int WM, int WN, int TM, int TN, int MB, int S, int MAP, int O, bool R,
          int SPLIT = 1>
struct Cfg : LayoutCfg<BM, BN, BK, WM, WN, TM, TN, MB, S, SPLIT, MAP, O, false, false, R> {
  static constexpr int kCopyStep = P;
  static constexpr bool kCopyRuns = false;
};

using V = Variant;
#define VAR(name, P, ...)                                            \
  V {                                                               \
    name " p" #P, kgen::sgemm::launch<Cfg<P, __VA_ARGS__>>,          \
        kgen::workspace_bytes<Cfg<P, __VA_ARGS__>>                   \
  }

#ifndef SET
#define SET 1
#endif

#if SET == 2
// Call 5: the other tiles of 8x8 threads the tables pick (quads_zigzag, rows; 4 splits of 128x128x8; 2 splits).
static const V kVariants[] = {
    VAR("128x128x16 lc fz s3", -1, 128, 128, 16, 32, 64, 8, 8, 1, 3, 1, 1, kRing),
    VAR("128x128x16 lc fz s3", 115, 128, 128, 16, 32, 64, 8, 8, 1, 3, 1, 1, kRing),
    VAR("128x128x16 lc fq s3", -1, 128, 128, 16, 32, 64, 8, 8, 1, 3, 1, 2, kRing),
    VAR("128x128x16 lc fq s3", 115, 128, 128, 16, 32, 64, 8, 8, 1, 3, 1, 2, kRing),
    VAR("128x128x16 lc s3", -1, 128, 128, 16, 32, 64, 8, 8, 1, 3, 1, 0, kRing),
    VAR("128x128x16 lc s3", 115, 128, 128, 16, 32, 64, 8, 8, 1, 3, 1, 0, kRing),
    VAR("128x128x8 lc s4 k4", -1, 128, 128, 8, 32, 64, 8, 8, 2, 4, 1, 0, false, 4),
    VAR("128x128x8 lc s4 k4", 107, 128, 128, 8, 32, 64, 8, 8, 2, 4, 1, 0, false, 4),
    VAR("128x128x16 lc s3 k2", -1, 128, 128, 16, 32, 64, 8, 8, 1, 3, 1, 0, kRing, 2),
    VAR("128x128x16 lc s3 k2", 115, 128, 128, 16, 32, 64, 8, 8, 1, 3, 1, 0, kRing, 2),
};
#else
static const V kVariants[] = {
    VAR("128x128x16 lc fz s3", -1, 128, 128, 16, 32, 64, 8, 8, 1, 3, 1, 1, kRing),
    VAR("128x128x16 lc fz s3", 8, 128, 128, 16, 32, 64, 8, 8, 1, 3, 1, 1, kRing),
    VAR("128x128x16 lc fz s3", 15, 128, 128, 16, 32, 64, 8, 8, 1, 3, 1, 1, kRing),
    VAR("128x128x16 lc fz s3", 115, 128, 128, 16, 32, 64, 8, 8, 1, 3, 1, 1, kRing),
    VAR("128x128x16 lc fz s4", 115, 128, 128, 16, 32, 64, 8, 8, 1, 4, 1, 1, kRing),
    VAR("128x256x16 t8x16 s3", -1, 128, 256, 16, 64, 64, 8, 16, 1, 3, 0, 0, false),
    VAR("128x256x16 t8x16 s3", 8, 128, 256, 16, 64, 64, 8, 16, 1, 3, 0, 0, false),
    VAR("128x256x16 t8x16 s3", 12, 128, 256, 16, 64, 64, 8, 16, 1, 3, 0, 0, false),
    VAR("128x256x16 t8x16 s3", 15, 128, 256, 16, 64, 64, 8, 16, 1, 3, 0, 0, false),
    VAR("128x256x16 t8x16 s3", 115, 128, 256, 16, 64, 64, 8, 16, 1, 3, 0, 0, false),
    VAR("128x256x16 t8x16 s4", 115, 128, 256, 16, 64, 64, 8, 16, 1, 4, 0, 0, false),
    VAR("128x256x16 t8x16 fz s3", 115, 128, 256, 16, 64, 64, 8, 16, 1, 3, 0, 1, false),
    VAR("128x256x8 t8x16 s4", -1, 128, 256, 8, 64, 64, 8, 16, 1, 4, 0, 0, false),
    VAR("128x256x8 t8x16 s4", 107, 128, 256, 8, 64, 64, 8, 16, 1, 4, 0, 0, false),
    VAR("256x128x16 t8x16 s3", -1, 256, 128, 16, 64, 64, 8, 16, 1, 3, 0, 0, false),
    VAR("256x128x16 t8x16 s3", 115, 256, 128, 16, 64, 64, 8, 16, 1, 3, 0, 0, false),
    VAR("256x128x16 t8x16 s4", 115, 256, 128, 16, 64, 64, 8, 16, 1, 4, 0, 0, false),
};
#endif
constexpr int kN = sizeof(kVariants) / sizeof(kVariants[0]);

int main(int argc, char** argv) { return run_shapes(argc, argv, kVariants, kN, 9, no_extra); }
