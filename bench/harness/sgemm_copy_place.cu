// Harness (session 43): where the 8x16 thread tiles issue their cp.async copies of the tile kStages - 1 ahead, at
// the shapes where the dispatch tables pick them. Session 42 (bench/harness/sgemm_late_copies.cu) timed the whole
// 128x256x16 tile at 2048^3 with the copies before its last k step's fragment reads 1.5-6% faster than first, in
// every layout; the tables run these tiles split (k4, k32f) at 768^3, 1024^3 and on long or skinny shapes, where
// that was not measured. Each variant shadows Config's kCopyPlace (kgen::sgemm::CopyPlace: first, before the last
// step's reads, late), whole, 4 splits and fill splits (up to 32), of 128x256x16 and 256x128x16 (64x64 warps, 3
// stages, lanes by row, FFMAs by row: the spec's) (-DSET=1, call 1); -DSET=2 (call 4) the 128x128x16 tile by columns
// split, in quads_zigzag and rows_zigzag order. One binary per layout (-DLAYOUT 0-3: nn nt tn tt); every variant
// checked against cuBLAS first, then timed in interleaved rounds over operand sets rotated past the 50 MB L2
// (bench/harness/sgemm_harness.h). Results: bench/results/h200-2026-11-29-session43.md. Build on the GPU machine:
//   nvcc -O3 -std=c++17 -DKGEN_ARCH=sm90 -DLAYOUT=2 -I kernels/include -I . \
//     -gencode=arch=compute_90,code=sm_90 -o /tmp/place bench/harness/sgemm_copy_place.cu -lcublas
//   /tmp/place 768x768x768,1024x1024x1024,2048x2048x2048
#include "bench/harness/sgemm_harness.h"

using kgen::sgemm::kCopiesBeforeLastStep;
using kgen::sgemm::kCopiesFirst;
using kgen::sgemm::kCopiesLate;

// Tile8x16 is the spec's 8x16 thread tile of BM x BN x 16 in this build's layout (64x64 warps, 3 stages, lanes and
// FFMAs by row), SPLIT-way split (FILL: up to SPLIT, the fewest whose launch finishes first).
template <int BM, int BN, int SPLIT, bool FILL>
using Tile8x16 = LayoutCfg<BM, BN, 16, 64, 64, 8, 16, 1, 3, SPLIT, 0, 0, false, FILL>;
// Tile8x8 is the spec's 128x128x16 tile of 8x8 threads by columns (32x64 warps, 3 stages, the ring where the layout
// has a k-contiguous operand) in FFMA order ORDER, split as Tile8x16.
template <int ORDER, int SPLIT, bool FILL>
using Tile8x8 = LayoutCfg<128, 128, 16, 32, 64, 8, 8, 1, 3, SPLIT, 1, ORDER, false, FILL, kRing>;

// VAR is the tile of its last arguments with its copies at P.
#define VAR(name, P, ...) TYPE_VARIANT(name, Placed<P, __VA_ARGS__>)
// PLACES is a tile's three variants, one per place.
#define PLACES(name, ...)                                                                                  \
  VAR(name " first", kCopiesFirst, __VA_ARGS__), VAR(name " before", kCopiesBeforeLastStep, __VA_ARGS__), \
      VAR(name " late", kCopiesLate, __VA_ARGS__)

#ifndef SET
#define SET 1
#endif

#if SET == 2
// Call 4: the 128x128 tile split as the tables run it: in quads_zigzag FFMA order (nt's pick at 1024^3 and on
// skinny shapes), and in rows_zigzag (late since session 42) for reference.
static const Variant kVariants[] = {
    PLACES("fq k32f", Tile8x8<2, 32, true>),
    PLACES("fq k4", Tile8x8<2, 4, false>),
    VAR("fz k32f first", kCopiesFirst, Tile8x8<1, 32, true>),
    VAR("fz k32f late", kCopiesLate, Tile8x8<1, 32, true>),
};
#else
static const Variant kVariants[] = {
    PLACES("128x256", Tile8x16<128, 256, 1, false>),     PLACES("128x256 k4", Tile8x16<128, 256, 4, false>),
    PLACES("128x256 k32f", Tile8x16<128, 256, 32, true>), PLACES("256x128", Tile8x16<256, 128, 1, false>),
    PLACES("256x128 k4", Tile8x16<256, 128, 4, false>),  PLACES("256x128 k32f", Tile8x16<256, 128, 32, true>),
};
#endif
constexpr int kN = sizeof(kVariants) / sizeof(kVariants[0]);

int main(int argc, char** argv) { return run_shapes(argc, argv, kVariants, kN, 9, no_extra); }
