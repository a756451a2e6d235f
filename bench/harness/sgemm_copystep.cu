// Harness (session 36): where the cp.async pipeline issues the copies of the tile kStages - 1 ahead, and how a
// thread's copies of an m/n-contiguous operand lie (Config's kCopyStep and kCopyRuns, from
// bench/harness/sgemm-copy-place.patch, which bench/harness/sgemm_knobs.sh applies to a copy of the headers).
// kCopyStep -1 issues them between tiles (the spec's), P >= 0 before the fragment reads of k step P; with kCopyRuns a
// thread's copies lie in one row of k, a constant apart, so that they need no address registers of their own.
// Nsight Compute's per-instruction sampling at 2048^3 tn put the 8x16 thread tiles' largest stall (long scoreboard)
// on the first fragment read after the copies, whose destination ptxas takes from a copy's address registers. The
// same spec tiles are built with each setting into one binary per layout (-DLAYOUT 0-3: nn nt tn tt); every variant
// checked against cuBLAS first, then timed in interleaved rounds over operand sets rotated past the 50 MB L2
// (bench/harness/sgemm_harness.h). Shapes from the first argument. Results:
// bench/results/h200-2026-11-28-session36.md.
#include "bench/harness/sgemm_harness.h"

template <int P, bool RUNS, int BM, int BN, int BK, int WM, int WN, int TM, int TN, int MB, int S, int SPLIT, int MAP,
          int O, bool FILL, bool R>
struct Cfg : kgen::sgemm::Config<BM, BN, BK, WM, WN, TM, TN, MB, true, kA, kB, S, SPLIT, MAP, O, false, FILL, R, 0> {
  static constexpr int kCopyStep = P;
  static constexpr bool kCopyRuns = RUNS;
};

using V = Variant;
#define VAR(name, P, RUNS, ...)                                                 \
  V {                                                                          \
    name " p" #P " runs" #RUNS, kgen::sgemm::launch<Cfg<P, RUNS, __VA_ARGS__>>, \
        kgen::workspace_bytes<Cfg<P, RUNS, __VA_ARGS__>>                       \
  }

// The spec's tiles (kernels/generated): BM, BN, BK, WM, WN, TM, TN, min blocks an SM, stages, split, lane map, FFMA
// order, fill, mbarrier ring; p-1 runsfalse is the spec's kernel. Session 36's call 4 ran the runsfalse variants
// (an earlier list), call 5 the p-1 and runstrue ones.
static const V kVariants[] = {
    VAR("128x128x16 lc fz s3", -1, false, 128, 128, 16, 32, 64, 8, 8, 1, 3, 1, 1, 1, false, kRing),
    VAR("128x128x16 lc fz s3", 0, false, 128, 128, 16, 32, 64, 8, 8, 1, 3, 1, 1, 1, false, kRing),
    VAR("128x128x16 lc fz s3", 1, false, 128, 128, 16, 32, 64, 8, 8, 1, 3, 1, 1, 1, false, kRing),
    VAR("128x128x16 lc fz s3", 2, false, 128, 128, 16, 32, 64, 8, 8, 1, 3, 1, 1, 1, false, kRing),
    VAR("128x128x16 lc fz s3", -1, true, 128, 128, 16, 32, 64, 8, 8, 1, 3, 1, 1, 1, false, kRing),
    VAR("128x256x16 t8x16 s3", -1, false, 128, 256, 16, 64, 64, 8, 16, 1, 3, 1, 0, 0, false, false),
    VAR("128x256x16 t8x16 s3", 0, false, 128, 256, 16, 64, 64, 8, 16, 1, 3, 1, 0, 0, false, false),
    VAR("128x256x16 t8x16 s3", 1, false, 128, 256, 16, 64, 64, 8, 16, 1, 3, 1, 0, 0, false, false),
    VAR("128x256x16 t8x16 s3", 2, false, 128, 256, 16, 64, 64, 8, 16, 1, 3, 1, 0, 0, false, false),
    VAR("128x256x16 t8x16 s3", -1, true, 128, 256, 16, 64, 64, 8, 16, 1, 3, 1, 0, 0, false, false),
    VAR("128x256x16 t8x16 s3", 2, true, 128, 256, 16, 64, 64, 8, 16, 1, 3, 1, 0, 0, false, false),
    VAR("256x128x16 t8x16 s3", -1, false, 256, 128, 16, 64, 64, 8, 16, 1, 3, 1, 0, 0, false, false),
    VAR("256x128x16 t8x16 s3", 1, false, 256, 128, 16, 64, 64, 8, 16, 1, 3, 1, 0, 0, false, false),
    VAR("256x128x16 t8x16 s3", 2, false, 256, 128, 16, 64, 64, 8, 16, 1, 3, 1, 0, 0, false, false),
    VAR("256x128x16 t8x16 s3", -1, true, 256, 128, 16, 64, 64, 8, 16, 1, 3, 1, 0, 0, false, false),
    VAR("256x128x16 t8x16 s3", 2, true, 256, 128, 16, 64, 64, 8, 16, 1, 3, 1, 0, 0, false, false),
};
constexpr int kN = sizeof(kVariants) / sizeof(kVariants[0]);

int main(int argc, char** argv) { return run_shapes(argc, argv, kVariants, kN, 5, no_extra); }
