// Harness (session 40): the 128x128x16 tile (lanes by column) in 2 splits summed in a cluster (the spec's k2c, FFMA
// order rows), in the two other FFMA orders and with the barrier ring, against its workspace twin (k2), the tail
// instance (tail: cluster, kgen::tail_plan), the fill splits and the 256x128 tile's 4 splits, at 1024^3 and the
// shapes where the H100's tables took the cluster split. Output as sgemm_two_warps.cu's. Results:
// bench/results/h200-2026-11-29-session40.md. Build on the GPU machine from the repository root:
//   nvcc -O3 -std=c++17 -DKGEN_ARCH=sm90 -DLAYOUT=0 -I kernels/include -I . \
//     -gencode=arch=compute_90,code=sm_90 -o /tmp/k2c bench/harness/sgemm_k2c_orders.cu -lcublas

#include <string.h>

#include "bench/harness/sgemm_harness.h"

using V = Variant;
#define VAR CFG_VARIANT
#define C2(name, O, CL, R) VAR(name, 128, 128, 16, 32, 64, 8, 8, 1, 3, 2, 1, O, CL, false, R)

static const V kVariants[] = {
    C2("k2c rows (spec)", 0, true, kRing),
    C2("k2c fz", 1, true, kRing),
    C2("k2c fq", 2, true, kRing),
    C2("k2c rows barrier", 0, true, false),
    C2("k2c fz barrier", 1, true, false),
    C2("k2 rows (spec)", 0, false, kRing),
    C2("k2 fz", 1, false, kRing),
    VAR("tc fz (spec)", 128, 128, 16, 32, 64, 8, 8, 1, 3, 1, 1, 1, false, false, kRing, kgen::sgemm::kTailCluster),
    VAR("fill fz (spec)", 128, 128, 16, 32, 64, 8, 8, 1, 3, 32, 1, 1, false, true, kRing),
    VAR("256x128 fill (spec)", 256, 128, 16, 64, 64, 8, 16, 1, 3, 32, 0, 0, false, true, false),
    VAR("256x128 k4 (spec)", 256, 128, 16, 64, 64, 8, 16, 1, 3, 4, 0, 0, false, false, false),
};
constexpr int kN = sizeof(kVariants) / sizeof(kVariants[0]);

int main(int argc, char** argv) { return run_shapes(argc, argv, kVariants, kN, 7, no_extra); }
