// Harness (session 37): C whose rows take no float4 stores as the tile lies on them (N not a multiple of 4, a moved
// edge tile's part, a split's workspace of such rows) stored by store_c's 4-byte path ("4-byte") against
// kgen::sgemm::store_c_shifted ("shifted": each row's float4 groups shifted onto its 16-byte boundaries by warp
// shuffles, Config's kShiftedStore). The spec's tiles that store that way (all but the 8x16 thread tiles, whose C
// goes through shared memory: store_c_staged), each built both ways into one binary per layout (-DLAYOUT 0-3: nn nt
// tn tt); every variant checked against cuBLAS first, then timed in interleaved rounds over operand sets rotated
// past the 50 MB L2 (bench/harness/sgemm_harness.h). Shapes from the first argument; script:
// bench/harness/sgemm_knobs.sh shifted -. Session 37's call 1 ran the first five tiles below with the header then,
// which also sent a moved edge tile's part of an aligned C through the shuffles; call 5 all of them with the header
// as committed, which keeps that part on the 4-byte stores. Results: bench/results/h200-2026-11-28-session37.md.
#include "bench/harness/sgemm_harness.h"

template <bool SHIFTED, int BM, int BN, int BK, int WM, int WN, int TM, int TN, int MB, int S, int SPLIT, int MAP,
          int O, bool FILL, bool R>
struct Cfg : kgen::sgemm::Config<BM, BN, BK, WM, WN, TM, TN, MB, true, kA, kB, S, SPLIT, MAP, O, false, FILL, R, 0> {
  static constexpr bool kShiftedStore = SHIFTED;
};

using V = Variant;
#define VAR(name, SHIFTED, ...)                                                                        \
  V {                                                                                                  \
    name, kgen::sgemm::launch<Cfg<SHIFTED, __VA_ARGS__>>, kgen::workspace_bytes<Cfg<SHIFTED, __VA_ARGS__>> \
  }
#define BOTH(name, ...) VAR(name " 4-byte", false, __VA_ARGS__), VAR(name " shifted", true, __VA_ARGS__)

// The spec's tiles (kernels/generated): BM, BN, BK, WM, WN, TM, TN, min blocks an SM, stages, split, lane map, FFMA
// order, fill, mbarrier ring.
static const V kVariants[] = {
    BOTH("128x128x16 lc fz s3", 128, 128, 16, 32, 64, 8, 8, 1, 3, 1, 1, 1, false, kRing),
    BOTH("128x128x16 lc fq s3", 128, 128, 16, 32, 64, 8, 8, 1, 3, 1, 1, 2, false, kRing),
    BOTH("128x128x16 s3", 128, 128, 16, 32, 64, 8, 8, 1, 3, 1, 0, 0, false, false),
    BOTH("128x128x16 lc fq s3 k32f", 128, 128, 16, 32, 64, 8, 8, 1, 3, 32, 1, 2, true, kRing),
    BOTH("128x64x8 s4 o3", 128, 64, 8, 64, 32, 8, 8, 3, 4, 1, 0, 0, false, false),
    BOTH("64x64x8 t8x4 s4 o4 mb", 64, 64, 8, 32, 32, 8, 4, 4, 4, 1, 0, 0, false, true),
    BOTH("64x64x8 t4x8 s4 o4 k128", 64, 64, 8, 32, 32, 4, 8, 4, 4, 128, 0, 0, false, false),
};
constexpr int kN = sizeof(kVariants) / sizeof(kVariants[0]);

int main(int argc, char** argv) { return run_shapes(argc, argv, kVariants, kN, 5, no_extra); }
