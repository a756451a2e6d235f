// Harness (session 63): tiles for C with a side of about 140-320 and a short K (270-700), where even kgen's fastest
// instance ran 0.79-0.85x cuBLAS on an H200 (bench/results/h200-2026-12-02-session62.md: 185x4529x269,
// 151x3509x272, 3197x155x667). Against the spec's small tiles split to fill the GPU it times the same tiles whole and
// at two fixed splits, 64x64 tiles of four warps of 64x16 (cuBLAS's xmma 64x64x8 arranges its four warps 1x4:
// bench/results/h200-2026-12-01-session58.md), 4 stages of 16, and tiles of two warps. One layout per build
// (-DLAYOUT 0-3: nn nt tn tt); output as bench/harness/sgemm_mid.cu's (run_shapes in bench/harness/sgemm_harness.h).
// Build on the GPU machine from the repository root:
//   nvcc -O3 -std=c++17 -DKGEN_ARCH=sm90 -DLAYOUT=0 -I kernels/include -I . \
//     -gencode=arch=compute_90,code=sm_90 -o /tmp/sgemm_shortk bench/harness/sgemm_shortk.cu -lcublas
#include "bench/harness/sgemm_harness.h"

using V = Variant;
#define VAR CFG_VARIANT

// LayoutCfg<BM, BN, BK, WM, WN, TM, TN, MB, S, SPLIT, MAP, O, CL, FILL, R>
static const V kVariants[] = {
    VAR("64x64x16 s3 o4 fill (spec)", 64, 64, 16, 32, 32, 8, 4, 4, 3, 32, 0, 0, false, true, kRing),
    VAR("64x64x16 s3 o4 whole", 64, 64, 16, 32, 32, 8, 4, 4, 3, 1, 0, 0, false, false, kRing),
    VAR("64x64x16 s3 o4 k2", 64, 64, 16, 32, 32, 8, 4, 4, 3, 2, 0, 0, false, false, kRing),
    VAR("64x64x16 s4 o4 fill", 64, 64, 16, 32, 32, 8, 4, 4, 4, 32, 0, 0, false, true, kRing),
    VAR("64x64x16 w64x16 s3 o4 fill", 64, 64, 16, 64, 16, 8, 4, 4, 3, 32, 0, 0, false, true, kRing),
    VAR("64x64x16 w64x16 s3 o4 whole", 64, 64, 16, 64, 16, 8, 4, 4, 3, 1, 0, 0, false, false, kRing),
    VAR("64x64x8 s4 o4 fill (spec)", 64, 64, 8, 32, 32, 8, 4, 4, 4, 32, 0, 0, false, true),
    VAR("64x64x8 s4 o4 mb whole (spec)", 64, 64, 8, 32, 32, 8, 4, 4, 4, 1, 0, 0, false, false, true),
    VAR("64x64x8 w64x16 s4 o4 fill", 64, 64, 8, 64, 16, 8, 4, 4, 4, 32, 0, 0, false, true),
    VAR("64x64x8 w64x16 s4 o4 whole", 64, 64, 8, 64, 16, 8, 4, 4, 4, 1, 0, 0, false, false),
    VAR("64x128x16 s3 o3 fill lc (spec)", 64, 128, 16, 32, 64, 8, 8, 3, 3, 32, 1, 0, false, true, kRing),
    VAR("64x128x16 s3 o3 whole lc", 64, 128, 16, 32, 64, 8, 8, 3, 3, 1, 1, 0, false, false, kRing),
    VAR("32x128x16 s3 o5 fill (spec)", 32, 128, 16, 32, 32, 8, 4, 5, 3, 32, 0, 0, false, true, kRing),
    VAR("128x32x16 s3 o5 fill (spec)", 128, 32, 16, 32, 32, 8, 4, 5, 3, 32, 0, 0, false, true, kRing),
    VAR("32x32x8 t4x4 s4 o12 fill (spec)", 32, 32, 8, 32, 16, 4, 4, 12, 4, 32, 0, 0, false, true, kRing),
    VAR("64x32x16 2w s3 o8 fill", 64, 32, 16, 32, 32, 8, 4, 8, 3, 32, 0, 0, false, true, kRing),
    VAR("32x64x16 2w s3 o8 fill", 32, 64, 16, 32, 32, 8, 4, 8, 3, 32, 0, 0, false, true, kRing),
    VAR("128x64x8 s4 o3 fill (spec)", 128, 64, 8, 64, 32, 8, 8, 3, 4, 32, 0, 0, false, true),
};
constexpr int kN = sizeof(kVariants) / sizeof(kVariants[0]);

int main(int argc, char** argv) { return run_shapes(argc, argv, kVariants, kN, 7, no_extra); }
