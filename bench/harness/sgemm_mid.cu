// Harness (session 26): kgen's small tiles against cuBLAS SGEMM (pedantic math) at mid-size shapes, where cuBLAS runs
// 64x64x8, 32x64x8 and 128x64x8 tiles of 64-128 threads (bench/results/h100-2026-11-27-session26.md, from
// bench/harness/cublas_kernels.cu under Nsight Compute) and kgen falls to 0.6-0.8x of it. One layout per build
// (-DLAYOUT 0-3: nn nt tn tt); the variants below are Configs of kgen/sgemm.cuh launched through
// kgen::sgemm::launch, every one checked against cuBLAS first (largest difference relative to the largest |C|), then
// timed in interleaved rounds (bench/harness/timing.h) over operand sets rotated past the 50 MB L2. One CSV line per
// (shape, variant): layout,M,N,K,variant,ms,graph_ms,x_cublas,reldiff. Shapes from the first argument
// ("886x886x886,466x2321x233"); a second argument "prof" launches each variant once per shape after the check, for
// Nsight Compute, and times nothing. With -I to a copy of kernels/include patched by
// bench/harness/sgemm-issue-order.patch first, -DKGEN_ISSUE_AT moves the barrier ring's copies within a k tile.
// Build on the GPU machine from the repository root:
//   nvcc -O3 -std=c++17 -DKGEN_ARCH=sm90 -DLAYOUT=1 -I kernels/include -I . \
//     -gencode=arch=compute_90,code=sm_90 -o /tmp/sgemm_mid bench/harness/sgemm_mid.cu -lcublas
#include <string.h>

#include "bench/harness/sgemm_harness.h"

using V = Variant;
#define VAR CFG_VARIANT

static const V kVariants[] = {
    VAR("64x64x8 t4x8 s4 (spec)", 64, 64, 8, 32, 32, 4, 8, 4, 4),
    VAR("64x64x8 t4x8 s4 ring", 64, 64, 8, 32, 32, 4, 8, 4, 4, 1, 0, 0, false, false, true),
    VAR("64x64x8 t8x4 s4", 64, 64, 8, 32, 32, 8, 4, 4, 4),
    VAR("64x64x8 t8x4 s4 ring", 64, 64, 8, 32, 32, 8, 4, 4, 4, 1, 0, 0, false, false, true),
    VAR("64x64x8 w64x16 t8x4 s4", 64, 64, 8, 64, 16, 8, 4, 4, 4),
    VAR("32x64x8 t4x8 s4 mb8", 32, 64, 8, 32, 32, 4, 8, 8, 4),
    VAR("32x64x8 t8x4 s4 mb8", 32, 64, 8, 32, 32, 8, 4, 8, 4),
    VAR("64x64x8 t4x8 s4 fill (spec)", 64, 64, 8, 32, 32, 4, 8, 4, 4, 32, 0, 0, false, true),
    VAR("64x64x8 t8x4 s4 fill", 64, 64, 8, 32, 32, 8, 4, 4, 4, 32, 0, 0, false, true),
    VAR("64x64x8 t8x4 s4 ring fill", 64, 64, 8, 32, 32, 8, 4, 4, 4, 32, 0, 0, false, true, true),
    VAR("128x64x8 t8x8 s4 (spec)", 128, 64, 8, 64, 32, 8, 8, 3, 4),
    VAR("128x128x16 lc fz s3 k2c (spec)", 128, 128, 16, 32, 64, 8, 8, 1, 3, 2, 1, 1, true, false, kRing),
    VAR("128x128x16 lc fz s3 (spec)", 128, 128, 16, 32, 64, 8, 8, 1, 3, 1, 1, 1, false, false, kRing),
    VAR("128x256x16 s3 (spec)", 128, 256, 16, 64, 64, 8, 16, 1, 3),
};
constexpr int kN = sizeof(kVariants) / sizeof(kVariants[0]);

int main(int argc, char** argv) { return run_shapes(argc, argv, kVariants, kN, 7, no_extra); }
