// Harness (session 40): the two-warp 64x64 tile of sgemm_two_warps.cu with a k-contiguous operand's tile kept
// k-contiguous in shared memory (Config's KSMEM_ from bench/harness/sgemm-ksmem.patch: 16-byte copies, fragments
// read 4 k of a row at a time), bounded for 8, 4 or 2 blocks an SM, against the spec's 1024^3 instances. Output as
// sgemm_two_warps.cu's. Results: bench/results/h200-2026-11-29-session40.md. Build on the GPU machine from the
// repository root, against a copy of the headers with the patch applied:
//   H=/tmp/ksh; rm -rf $H && mkdir -p $H && cp -r kernels $H/ && patch -s -d $H -p1 < bench/harness/sgemm-ksmem.patch
//   nvcc -O3 -std=c++17 -DKGEN_ARCH=sm90 -DLAYOUT=0 -I $H/kernels/include -I kernels/include -I . \
//     -gencode=arch=compute_90,code=sm_90 -o /tmp/two_warps_ks bench/harness/sgemm_two_warps_ks.cu -lcublas

#include <string.h>

#include "bench/harness/sgemm_harness.h"

template <int BM, int BN, int BK, int WM, int WN, int TM, int TN, int MB, int S, int SPLIT = 1, int MAP = 0, int O = 0,
          bool CL = false, bool FILL = false, bool R = false, int KS = 0>
using Cfg = kgen::sgemm::Config<BM, BN, BK, WM, WN, TM, TN, MB, true, kA, kB, S, SPLIT, MAP, O, CL, FILL, R,
                                kgen::sgemm::kTailWhole, KS>;

using V = Variant;
#define VAR(name, ...) \
  V { name, kgen::sgemm::launch<Cfg<__VA_ARGS__>>, kgen::workspace_bytes<Cfg<__VA_ARGS__>> }
#define W2(name, MB, R, KS) VAR(name, 64, 64, 16, 32, 64, 8, 8, MB, 3, 1, 1, 1, false, false, R, KS)

// The patch keeps one operand's tile k-contiguous: in nt, where both are, A's.
constexpr int kKsA = (LAYOUT == 0 || LAYOUT == 1) ? 1 : 0, kKsB = LAYOUT == 3 ? 2 : 0;

static const V kVariants[] = {
    W2("w2 o8", 8, kRing, 0),
    W2("w2 o8 barrier", 8, false, 0),
    W2("w2 o8 ks", 8, kRing, kKsA | kKsB),
    W2("w2 o8 ks barrier", 8, false, kKsA | kKsB),
    W2("w2 o4 ks", 4, kRing, kKsA | kKsB),
    W2("w2 o4 ks barrier", 4, false, kKsA | kKsB),
    W2("w2 o2 ks barrier", 2, false, kKsA | kKsB),
    W2("w2 o4 ksA barrier", 4, false, kKsA),
    W2("w2 o4 ksB barrier", 4, false, kKsB),
    VAR("w2 o4 ks barrier k2c", 64, 64, 16, 32, 64, 8, 8, 4, 3, 2, 1, 1, true, false, false, kKsA | kKsB),
    VAR("K 128x128x16 lc fz s3 fill (spec)", 128, 128, 16, 32, 64, 8, 8, 1, 3, 32, 1, 1, false, true, kRing),
    VAR("L 256x128x16 s3 fill (spec)", 256, 128, 16, 64, 64, 8, 16, 1, 3, 32, 0, 0, false, true, false),
    VAR("M 128x128x16 lc fz s3 k2c (spec)", 128, 128, 16, 32, 64, 8, 8, 1, 3, 2, 1, 1, true, false, kRing),
};
constexpr int kN = sizeof(kVariants) / sizeof(kVariants[0]);

int main(int argc, char** argv) { return run_shapes(argc, argv, kVariants, kN, 7, no_extra); }
