// Harness (session 36): how many of a k tile's steps multiply_tile unrolls (Config's kKkUnroll, from
// bench/harness/sgemm-kk-unroll.patch, which bench/harness/sgemm_knobs.sh applies to a copy of the headers), at
// block K 16 and 32. Fully unrolled (the spec's tiles), the 128x128x16 tile's k loop is some 1180 instructions, 19 KB
// of code for each k tile; unrolled 8 steps at a time it is half of that, at the cost of a loop's branch and address
// arithmetic. The same spec tiles are built with each unroll into one binary per layout (-DLAYOUT 0-3: nn nt tn tt);
// every variant checked against cuBLAS first, then timed in interleaved rounds over operand sets rotated past the
// 50 MB L2 (bench/harness/sgemm_harness.h). Shapes from the first argument. Results:
// bench/results/h200-2026-11-28-session36.md.
#include "bench/harness/sgemm_harness.h"

template <int U, int BM, int BN, int BK, int WM, int WN, int TM, int TN, int MB, int S, int SPLIT, int MAP, int O,
          bool FILL, bool R>
struct Cfg : kgen::sgemm::Config<BM, BN, BK, WM, WN, TM, TN, MB, true, kA, kB, S, SPLIT, MAP, O, false, FILL, R, 0> {
  static constexpr int kKkUnroll = U;
};

using V = Variant;
#define VAR(name, U, ...) \
  V { name " u" #U, kgen::sgemm::launch<Cfg<U, __VA_ARGS__>>, kgen::workspace_bytes<Cfg<U, __VA_ARGS__>> }

// The spec's tiles (kernels/generated) in BK 16 and 32, each unrolled as the name's u says: BM, BN, BK, WM, WN, TM,
// TN, min blocks an SM, stages, split, lane map, FFMA order, fill, mbarrier ring. The 128x128 tile is the spec's
// (its kernels take 123-128 registers, two blocks an SM) and, with m2, capped at 128 registers by its launch bounds,
// since ptxas takes some of the partly unrolled kernels to 129-132.
static const V kVariants[] = {
    VAR("128x128x16 lc fz s3", 16, 128, 128, 16, 32, 64, 8, 8, 1, 3, 1, 1, 1, false, kRing),
    VAR("m2 128x128x16 lc fz s3", 16, 128, 128, 16, 32, 64, 8, 8, 2, 3, 1, 1, 1, false, kRing),
    VAR("m2 128x128x16 lc fz s3", 8, 128, 128, 16, 32, 64, 8, 8, 2, 3, 1, 1, 1, false, kRing),
    VAR("m2 128x128x32 lc fz s3", 32, 128, 128, 32, 32, 64, 8, 8, 2, 3, 1, 1, 1, false, kRing),
    VAR("m2 128x128x32 lc fz s3", 16, 128, 128, 32, 32, 64, 8, 8, 2, 3, 1, 1, 1, false, kRing),
    VAR("m2 128x128x32 lc fz s3", 8, 128, 128, 32, 32, 64, 8, 8, 2, 3, 1, 1, 1, false, kRing),
    VAR("256x128x16 t8x16 s3", 16, 256, 128, 16, 64, 64, 8, 16, 1, 3, 1, 0, 0, false, false),
    VAR("256x128x16 t8x16 s3", 8, 256, 128, 16, 64, 64, 8, 16, 1, 3, 1, 0, 0, false, false),
    VAR("256x128x32 t8x16 s3", 16, 256, 128, 32, 64, 64, 8, 16, 1, 3, 1, 0, 0, false, false),
    VAR("128x256x16 t8x16 s3", 16, 128, 256, 16, 64, 64, 8, 16, 1, 3, 1, 0, 0, false, false),
    VAR("128x256x16 t8x16 s3", 8, 128, 256, 16, 64, 64, 8, 16, 1, 3, 1, 0, 0, false, false),
    VAR("128x256x32 t8x16 s3", 16, 128, 256, 32, 64, 64, 8, 16, 1, 3, 1, 0, 0, false, false),
};
constexpr int kN = sizeof(kVariants) / sizeof(kVariants[0]);

int main(int argc, char** argv) { return run_shapes(argc, argv, kVariants, kN, 5, no_extra); }
