// Harness (session 58): tiles for problems with one short side of C (N or M about 150, the other some thousands),
// where even kgen's fastest instance ran 0.70-0.87x cuBLAS on an H200 (bench/results/h200-2026-12-01-session57.md,
// seed 57's 6416x158x529, 7236x153x475, 4707x152x1247, 1097x155x890, 139x2728x1098, 162x2209x407). Against the
// spec's 128x32x16 and 32x128x16 tiles (4 warps of 32x32, threads of 8x4) it times narrower and shallower tiles:
// 64x32 and 32x64 of 2 warps, 64x32 of 4 warps and 32x32 of 2 of 4x4 threads, 4 stages, warps of 64x16, the spec's
// tiles held to 5 or 4 blocks an SM (at 6, 80 registers, their edge kernels spill), each split to fill the GPU as
// the spec's are. (Call 1 ran it before Config spread the 64x64x8 tile's copies over its k steps: its
// "64x64x8 s4 o4 fill (spec)" had them first.) One layout per build (-DLAYOUT 0-3: nn nt tn tt); output as
// bench/harness/sgemm_mid.cu's (run_shapes in bench/harness/sgemm_harness.h). Build on the GPU machine from the
// repository root:
//   nvcc -O3 -std=c++17 -DKGEN_ARCH=sm90 -DLAYOUT=1 -I kernels/include -I . \
//     -gencode=arch=compute_90,code=sm_90 -o /tmp/sgemm_narrow bench/harness/sgemm_narrow.cu -lcublas
#include "bench/harness/sgemm_harness.h"

using V = Variant;
#define VAR CFG_VARIANT

// LayoutCfg<BM, BN, BK, WM, WN, TM, TN, MB, S, SPLIT, MAP, O, CL, FILL, R>
static const V kVariants[] = {
    VAR("128x32x16 s3 o6 fill (spec)", 128, 32, 16, 32, 32, 8, 4, 6, 3, 32, 0, 0, false, true, kRing),
    VAR("128x32x16 s3 o5 fill", 128, 32, 16, 32, 32, 8, 4, 5, 3, 32, 0, 0, false, true, kRing),
    VAR("128x32x16 s3 o4 fill", 128, 32, 16, 32, 32, 8, 4, 4, 3, 32, 0, 0, false, true, kRing),
    VAR("128x32x16 s3 o6 whole", 128, 32, 16, 32, 32, 8, 4, 6, 3, 1, 0, 0, false, false, kRing),
    VAR("128x32x16 s4 o6 fill", 128, 32, 16, 32, 32, 8, 4, 6, 4, 32, 0, 0, false, true, kRing),
    VAR("128x32x16 w64x16 s3 o6 fill", 128, 32, 16, 64, 16, 8, 4, 6, 3, 32, 0, 0, false, true, kRing),
    VAR("64x32x8 2w s4 o10 fill", 64, 32, 8, 32, 32, 8, 4, 10, 4, 32, 0, 0, false, true, kRing),
    VAR("64x32x16 2w s3 o10 fill", 64, 32, 16, 32, 32, 8, 4, 10, 3, 32, 0, 0, false, true, kRing),
    VAR("64x32x16 t4x4 s3 o8 fill", 64, 32, 16, 32, 16, 4, 4, 8, 3, 32, 0, 0, false, true, kRing),
    VAR("32x32x8 t4x4 2w s4 o12 fill", 32, 32, 8, 32, 16, 4, 4, 12, 4, 32, 0, 0, false, true, kRing),
    VAR("64x64x16 s3 o4 fill (spec)", 64, 64, 16, 32, 32, 8, 4, 4, 3, 32, 0, 0, false, true, kRing),
    VAR("64x64x8 s4 o4 fill (spec)", 64, 64, 8, 32, 32, 8, 4, 4, 4, 32, 0, 0, false, true),
    VAR("128x64x8 s4 o3 (spec)", 128, 64, 8, 64, 32, 8, 8, 3, 4),
    VAR("32x128x16 s3 o6 fill (spec)", 32, 128, 16, 32, 32, 8, 4, 6, 3, 32, 0, 0, false, true, kRing),
    VAR("32x128x16 s3 o5 fill", 32, 128, 16, 32, 32, 8, 4, 5, 3, 32, 0, 0, false, true, kRing),
    VAR("32x64x8 2w s4 o10 fill", 32, 64, 8, 32, 32, 8, 4, 10, 4, 32, 0, 0, false, true, kRing),
    VAR("32x64x16 2w s3 o10 fill", 32, 64, 16, 32, 32, 8, 4, 10, 3, 32, 0, 0, false, true, kRing),
};
constexpr int kN = sizeof(kVariants) / sizeof(kVariants[0]);

int main(int argc, char** argv) { return run_shapes(argc, argv, kVariants, kN, 7, no_extra); }
