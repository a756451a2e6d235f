// Harness (session 43): where the 8x16 thread tiles issue their cp.async copies of the tile kStages - 1 ahead, at
// the shapes where the dispatch tables pick them. Session 42 (bench/harness/sgemm_late_copies.cu) timed the whole
// 128x256x16 tile at 2048^3 with the copies before its last k step's fragment reads 1.5-6% faster than first, in
// every layout; the tables run these tiles split (k4, k32f) at 768^3, 1024^3 and on long or skinny shapes, where
// that was not measured. Each variant shadows Config's kCopyPlace (kgen::sgemm::CopyPlace: first, before the last
// step's reads, late), whole, 4 splits and fill splits (up to 32), of 128x256x16 and 256x128x16 (64x64 warps, 3
// stages, lanes by row, FFMAs by row: the spec's). One binary per layout (-DLAYOUT 0-3: nn nt tn tt); every variant
// checked against cuBLAS first, then timed in interleaved rounds over operand sets rotated past the 50 MB L2
// (bench/harness/sgemm_harness.h). Build on the GPU machine:
//   nvcc -O3 -std=c++17 -DKGEN_ARCH=sm90 -DLAYOUT=2 -I kernels/include -I . \
//     -gencode=arch=compute_90,code=sm_90 -o /tmp/place bench/harness/sgemm_copy_place.cu -lcublas
//   /tmp/place 768x768x768,1024x1024x1024,2048x2048x2048
#include "bench/harness/sgemm_harness.h"

using kgen::sgemm::CopyPlace;
using kgen::sgemm::kCopiesBeforeLastStep;
using kgen::sgemm::kCopiesFirst;
using kgen::sgemm::kCopiesLate;

// Cfg is the spec's 8x16 thread tile of BM x BN x 16 in this build's layout, SPLIT-way split (FILL: up to SPLIT,
// the fewest whose launch finishes first), with its copies issued at P.
template <CopyPlace P, int BM, int BN, int SPLIT, bool FILL>
struct Cfg : LayoutCfg<BM, BN, 16, 64, 64, 8, 16, 1, 3, SPLIT, 0, 0, false, FILL> {
  static constexpr CopyPlace kCopyPlace = P;
};

#define VAR(name, ...) \
  Variant { name, kgen::sgemm::launch<Cfg<__VA_ARGS__>>, kgen::workspace_bytes<Cfg<__VA_ARGS__>> }
// PLACES is a tiling's three variants, one per place.
#define PLACES(name, ...)                                                                      \
  VAR(name " first", kCopiesFirst, __VA_ARGS__), VAR(name " before", kCopiesBeforeLastStep, __VA_ARGS__), \
      VAR(name " late", kCopiesLate, __VA_ARGS__)

static const Variant kVariants[] = {
    PLACES("128x256", 128, 256, 1, false),     PLACES("128x256 k4", 128, 256, 4, false),
    PLACES("128x256 k32f", 128, 256, 32, true), PLACES("256x128", 256, 128, 1, false),
    PLACES("256x128 k4", 256, 128, 4, false),  PLACES("256x128 k32f", 256, 128, 32, true),
};
constexpr int kN = sizeof(kVariants) / sizeof(kVariants[0]);

int main(int argc, char** argv) { return run_shapes(argc, argv, kVariants, kN, 9, no_extra); }
