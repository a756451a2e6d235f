// Harness (session 40): the 64x64 tile of two warps of 32x64 (threads of 8x8, the 128x128 tile's warps and loop in a
// quarter of its area; 64 threads, up to 8 blocks an SM) and its neighbours, against cuBLAS SGEMM (pedantic math) and
// the spec's 1024^3 instances. One layout per build (-DLAYOUT 0-3: nn nt tn tt); each variant is a Config of
// kgen/sgemm.cuh launched through kgen::sgemm::launch, checked against cuBLAS, then timed in interleaved rounds
// (bench/harness/timing.h) over operand sets rotated past the L2. CSV: layout,M,N,K,variant,ms,graph_ms,x_cublas,
// reldiff. A second argument "prof" launches each variant once per shape, for Nsight Compute.
// Results: bench/results/h200-2026-11-29-session40.md. Build on the GPU machine from the repository root:
//   nvcc -O3 -std=c++17 -DKGEN_ARCH=sm90 -DLAYOUT=0 -I kernels/include -I . \
//     -gencode=arch=compute_90,code=sm_90 -o /tmp/two_warps bench/harness/sgemm_two_warps.cu -lcublas

#include <string.h>

#include "bench/harness/sgemm_harness.h"

using V = Variant;
#define VAR CFG_VARIANT

static const V kVariants[] = {
    VAR("A 64x64x16 w32x64 s3 o8 lc fz (spec)", 64, 64, 16, 32, 64, 8, 8, 8, 3, 1, 1, 1, false, false, kRing),
    VAR("B 64x64x16 s3 o8 barrier", 64, 64, 16, 32, 64, 8, 8, 8, 3, 1, 1, 1, false, false, false),
    VAR("C 64x64x16 s4 o4", 64, 64, 16, 32, 64, 8, 8, 4, 4, 1, 1, 1, false, false, kRing),
    VAR("D 64x64x8 s4 o8", 64, 64, 8, 32, 64, 8, 8, 8, 4, 1, 1, 1, false, false, kRing),
    VAR("E 64x64x16 s3 o8 lanes rows", 64, 64, 16, 32, 64, 8, 8, 8, 3, 1, 0, 1, false, false, kRing),
    VAR("F 64x64x16 s3 o4", 64, 64, 16, 32, 64, 8, 8, 4, 3, 1, 1, 1, false, false, kRing),
    VAR("G 64x64x16 s3 o8 fma rows", 64, 64, 16, 32, 64, 8, 8, 8, 3, 1, 1, 0, false, false, kRing),
    VAR("H 64x128x16 w32x64 s3 o4", 64, 128, 16, 32, 64, 8, 8, 4, 3, 1, 1, 1, false, false, kRing),
    VAR("I 128x64x16 w32x64 s3 o4", 128, 64, 16, 32, 64, 8, 8, 4, 3, 1, 1, 1, false, false, kRing),
    VAR("J 64x64x16 s3 o8 fill (spec)", 64, 64, 16, 32, 64, 8, 8, 8, 3, 32, 1, 1, false, true, kRing),
    VAR("K 128x128x16 lc fz s3 fill (spec)", 128, 128, 16, 32, 64, 8, 8, 1, 3, 32, 1, 1, false, true, kRing),
    VAR("L 256x128x16 s3 fill (spec)", 256, 128, 16, 64, 64, 8, 16, 1, 3, 32, 0, 0, false, true, false),
    VAR("M 128x128x16 lc fz s3 k2c (spec)", 128, 128, 16, 32, 64, 8, 8, 1, 3, 2, 1, 1, true, false, kRing),
};
constexpr int kN = sizeof(kVariants) / sizeof(kVariants[0]);

int main(int argc, char** argv) { return run_shapes(argc, argv, kVariants, kN, 7, no_extra); }
