// Harness (session 35): C stored through shared memory (kgen::sgemm::store_c_staged: whole rows of C, 32
// consecutive elements a warp instruction) against the 4-byte stores of store_c's element path, where C's rows
// take no float4 stores (N not a multiple of 4) or a moved edge tile stores part of its tile. The same spec tiles
// are built twice into one binary: against the tree's kgen/sgemm.cuh with the staged store forced on every tile
// (Config's kStagedStore, which the tree sets for the 8x16 thread tiles alone: "staged") and against the header in
// OLD_HEADER, the parent commit's with its namespace renamed ("4-byte"). One layout per build (-DLAYOUT 0-3: nn
// nt tn tt); every variant checked against cuBLAS first, then timed in interleaved rounds over operand sets rotated
// past the 50 MB L2 (bench/harness/sgemm_harness.h). Shapes from the first argument. Script:
// bench/harness/sgemm_staged.sh.
#include "bench/harness/sgemm_harness.h"
#include OLD_HEADER

template <template <int, int, int, int, int, int, int, int, bool, kgen::Order, kgen::Order, int, int, int, int, bool,
                    bool, bool, int> class C,
          int BM, int BN, int BK, int WM, int WN, int TM, int TN, int MB, int S, int SPLIT, int MAP, int O, bool FILL,
          bool R>
using Cfg = C<BM, BN, BK, WM, WN, TM, TN, MB, true, kA, kB, S, SPLIT, MAP, O, false, FILL, R, 0>;

template <class Base>
struct Staged : Base {
  static constexpr bool kStagedStore = true;
};

using V = Variant;
#define NEW(name, ...)                                                                         \
  V {                                                                                          \
    name " staged", kgen::sgemm::launch<Staged<Cfg<kgen::sgemm::Config, __VA_ARGS__>>>,        \
        kgen::workspace_bytes<Staged<Cfg<kgen::sgemm::Config, __VA_ARGS__>>>                   \
  }
#define OLD(name, ...)                                                                         \
  V {                                                                                          \
    name " 4-byte", kgen::sgemm_old::launch<Cfg<kgen::sgemm_old::Config, __VA_ARGS__>>,        \
        kgen::workspace_bytes<Cfg<kgen::sgemm_old::Config, __VA_ARGS__>>                       \
  }
#define BOTH(name, ...) OLD(name, __VA_ARGS__), NEW(name, __VA_ARGS__)

// The spec's instances (kernels/generated): BM, BN, BK, WM, WN, TM, TN, min blocks an SM, stages, split, lane
// map, FFMA order, fill, mbarrier ring.
static const V kVariants[] = {
    BOTH("128x128x16 lc fz s3", 128, 128, 16, 32, 64, 8, 8, 1, 3, 1, 1, 1, false, kRing),
    BOTH("64x64x8 t8x4 s4 o4 mb", 64, 64, 8, 32, 32, 8, 4, 4, 4, 1, 0, 0, false, true),
    BOTH("128x64x8 s4 o3", 128, 64, 8, 64, 32, 8, 8, 3, 4, 1, 0, 0, false, false),
    BOTH("256x128x16 t8x16 s3 k32f", 256, 128, 16, 64, 64, 8, 16, 1, 3, 32, 0, 0, true, false),
};
constexpr int kN = sizeof(kVariants) / sizeof(kVariants[0]);

int main(int argc, char** argv) { return run_shapes(argc, argv, kVariants, kN, 5, no_extra); }
