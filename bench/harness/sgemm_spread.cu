// Harness (session 58): the cp.async copies of the tile kStages - 1 ahead issued a share in every k step
// (kgen::sgemm::kCopiesSpread), interleaved with the multiply-adds as cuBLAS's xmma kernels interleave theirs,
// against each tile's own place (Config::kCopyPlace: first for the small tiles). Nsight Compute's per-instruction
// samples of the 128x32x16 tile at 6416x158x529 nn (bench/results/h200-2026-12-01-session58.md) showed its warps
// waiting on the burst of 20 copies a tile (their 64-bit address chains, and registers an address still in flight
// holds) where cuBLAS's 128x32x8 kernel, on the same grid, spreads 10 copies a tile among its FFMAs. One layout per
// build (-DLAYOUT 0-3: nn nt tn tt); output as bench/harness/sgemm_mid.cu's (run_shapes in
// bench/harness/sgemm_harness.h). Build on the GPU machine from the repository root:
//   nvcc -O3 -std=c++17 -DKGEN_ARCH=sm90 -DLAYOUT=1 -I kernels/include -I . \
//     -gencode=arch=compute_90,code=sm_90 -o /tmp/sgemm_spread bench/harness/sgemm_spread.cu -lcublas
#include "bench/harness/sgemm_harness.h"

#ifndef SET
#define SET 1
#endif

// First is the tile Base with its copies first (kgen::sgemm::kCopiesFirst), as the 64x64x8 tile of 8x4 threads had
// them when these calls ran: since then Config spreads them.
template <class Base>
using First = Placed<kgen::sgemm::kCopiesFirst, Base>;
// Spread is the tile Base with its copies spread over its first STEPS k steps.
template <class Base, int STEPS = Base::BK>
struct Spread : Placed<kgen::sgemm::kCopiesSpread, Base> {
  static constexpr int kSpreadSteps = STEPS;
};

// LayoutCfg<BM, BN, BK, WM, WN, TM, TN, MB, S, SPLIT, MAP, O, CL, FILL, R>; the spec's tiles (their block K, stages,
// blocks an SM, splits and ring) and some in one more stage.
template <int S>
using T128x32 = LayoutCfg<128, 32, 16, 32, 32, 8, 4, 5, S, 32, 0, 0, false, true, kRing>;
template <int S>
using T32x128 = LayoutCfg<32, 128, 16, 32, 32, 8, 4, 6, S, 32, 0, 0, false, true, kRing>;
template <int S>
using T64x64x16 = LayoutCfg<64, 64, 16, 32, 32, 8, 4, 4, S, 32, 0, 0, false, true, kRing>;
template <int S>
using T64x64x8 = First<LayoutCfg<64, 64, 8, 32, 32, 8, 4, 4, S, 32, 0, 0, false, true>>;
using T64x64x8mb = LayoutCfg<64, 64, 8, 32, 32, 8, 4, 4, 4, 1, 0, 0, false, false, true>;
template <int S>
using T64x128 = LayoutCfg<64, 128, 16, 32, 64, 8, 8, 3, S, 32, 1, 0, false, true, kRing>;
using T128x64 = LayoutCfg<128, 64, 8, 64, 32, 8, 8, 3, 4>;

#define V1 TYPE_VARIANT

#if SET == 2
// Call 7: the 64x64x8 tiles split to fill the GPU (threads of 8x4 and of 4x8) and whole (4x8), copies first or
// spread over the 8 k steps, at 14 random shapes of seed 58.
template <int TM, int TN, int SPLIT, bool FILL>
using T64x64x8t = First<LayoutCfg<64, 64, 8, 32, 32, TM, TN, 4, 4, SPLIT, 0, 0, false, FILL>>;
static const Variant kVariants[] = {
    V1("64x64x8 t8x4 fill", T64x64x8t<8, 4, 32, true>),
    V1("64x64x8 t8x4 fill spread8", Spread<T64x64x8t<8, 4, 32, true>>),
    V1("64x64x8 t4x8 fill", T64x64x8t<4, 8, 32, true>),
    V1("64x64x8 t4x8 fill spread8", Spread<T64x64x8t<4, 8, 32, true>>),
    V1("64x64x8 t4x8", T64x64x8t<4, 8, 1, false>),
    V1("64x64x8 t4x8 spread8", Spread<T64x64x8t<4, 8, 1, false>>),
    V1("64x64x8 t8x4", T64x64x8t<8, 4, 1, false>),
    V1("64x64x8 t8x4 spread8", Spread<T64x64x8t<8, 4, 1, false>>),
};
#elif SET == 0
// Call 5: ten of the spec's tiles (their own block K, stages, blocks an SM, splits, ring, lanes and FFMA order), each
// with its copies where Config puts them and spread over all its k steps.
using S128x32o6 = LayoutCfg<128, 32, 16, 32, 32, 8, 4, 6, 3, 32, 0, 0, false, true, kRing>;
using S128x128fz = LayoutCfg<128, 128, 16, 32, 64, 8, 8, 1, 3, 1, 1, 1, false, false, kRing>;
using S256x128k32f = LayoutCfg<256, 128, 16, 64, 64, 8, 16, 1, 3, 32, 0, 0, false, true>;
#define PAIR(name, ...) V1(name, __VA_ARGS__), V1(name " spread", Spread<__VA_ARGS__>)
static const Variant kVariants[] = {
    PAIR("128x32x16 o6 fill", S128x32o6),  PAIR("128x32x16 o5 fill", T128x32<3>),
    PAIR("32x128x16 o6 fill", T32x128<3>), PAIR("64x64x16 s3 fill", T64x64x16<3>),
    PAIR("64x64x8 s4 fill", T64x64x8<4>),  PAIR("64x64x8 s4 mb", T64x64x8mb),
    PAIR("64x128x16 lc fill", T64x128<3>), PAIR("128x64x8 s4", T128x64),
    PAIR("128x128x16 lc fz", S128x128fz),  PAIR("256x128x16 k32f", S256x128k32f),
};
#else
// Call 6 (SET 1): the small tiles in 3 and 4 stages, copies where Config puts them or spread over the first 4, 8
// or 16 k steps.
static const Variant kVariants[] = {
    V1("64x64x8 s4 fill", T64x64x8<4>),
    V1("64x64x8 s4 fill spread8", Spread<T64x64x8<4>>),
    V1("64x64x8 s4 fill spread4", Spread<T64x64x8<4>, 4>),
    V1("64x64x8 s5 fill spread8", Spread<T64x64x8<5>>),
    V1("64x64x8 s4 mb", T64x64x8mb),
    V1("64x64x8 s4 mb spread4", Spread<T64x64x8mb, 4>),
    V1("128x32x16 o5 s3 fill", T128x32<3>),
    V1("128x32x16 o5 s3 fill spread8", Spread<T128x32<3>, 8>),
    V1("128x32x16 o5 s4 fill", T128x32<4>),
    V1("128x32x16 o5 s4 fill spread16", Spread<T128x32<4>>),
    V1("128x32x16 o5 s4 fill spread8", Spread<T128x32<4>, 8>),
    V1("64x64x16 s3 fill", T64x64x16<3>),
    V1("64x64x16 s3 fill spread8", Spread<T64x64x16<3>, 8>),
    V1("64x64x16 s4 fill", T64x64x16<4>),
    V1("64x64x16 s4 fill spread16", Spread<T64x64x16<4>>),
    V1("64x64x16 s4 fill spread8", Spread<T64x64x16<4>, 8>),
    V1("32x128x16 s3 fill", T32x128<3>),
    V1("32x128x16 s4 fill spread8", Spread<T32x128<4>, 8>),
    V1("64x128x16 s3 fill", T64x128<3>),
    V1("64x128x16 s4 fill spread8", Spread<T64x128<4>, 8>),
    V1("128x64x8 s4", T128x64),
    V1("128x64x8 s4 spread8", Spread<T128x64>),
    V1("128x64x8 s4 spread4", Spread<T128x64, 4>),
};
#endif
constexpr int kN = sizeof(kVariants) / sizeof(kVariants[0]);

int main(int argc, char** argv) { return run_shapes(argc, argv, kVariants, kN, 7, no_extra); }
