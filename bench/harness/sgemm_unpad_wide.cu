// Harness (session 47): unpadded shared-memory rows for the 128x256x16 tile of 8x16 threads. Session 46 unpadded
// the m/n-contiguous A's rows (tn, tt) and, in tn, B's, in the 256x128x16 tile of the same threads
// (kgen::sgemm::Config::kUnpaddedRows: 2.5-4.4% faster split, bench/results/h200-2026-11-29-session46.md), and left
// the 128x256 tile padded, unmeasured. This harness runs the spec's 128x256 tilings (whole, and split 4 ways) and,
// as a control the change leaves as it is, the 256x128 tile whole. Build it twice per layout: against the headers
// as they are (the 128x256 tile unpadded since session 47: TAG "unpad ") and against a copy without that tile's
// line of kUnpaddedRows (padded, as before: TAG "base "); run the two builds in turns. Every variant is checked
// against cuBLAS first, then timed against it in interleaved rounds over operand sets rotated past the 50 MB L2
// (bench/harness/sgemm_harness.h). Session 47's call 5 ran tn and tt in the order base, unpad, unpad, base
// (bench/results/h200-2026-11-30-session47.md). Build on the GPU machine:
//   mkdir -p /tmp/p && cp -r kernels /tmp/p/
//   sed -i '/(BM == 128 && BN == 256 && TM == 8 && TN == 16) ||/d' /tmp/p/kernels/include/kgen/sgemm.cuh
//   nvcc -O3 -std=c++17 -DKGEN_ARCH=sm90 -DLAYOUT=2 '-DTAG="base "' -I /tmp/p/kernels/include -I . \
//     -gencode=arch=compute_90,code=sm_90 -o /tmp/wide-2-base bench/harness/sgemm_unpad_wide.cu -lcublas
//   nvcc -O3 -std=c++17 -DKGEN_ARCH=sm90 -DLAYOUT=2 '-DTAG="unpad "' -I kernels/include -I . \
//     -gencode=arch=compute_90,code=sm_90 -o /tmp/wide-2-unpad bench/harness/sgemm_unpad_wide.cu -lcublas
//   /tmp/wide-2-base 768x768x768,1024x1024x1024,2048x2048x2048,4096x4096x4096,128x8192x8192
#include "bench/harness/sgemm_harness.h"

#ifndef TAG
#define TAG ""
#endif

static const Variant kVariants[] = {
    CFG_VARIANT(TAG "128x256", 128, 256, 16, 64, 64, 8, 16, 1, 3, 1, 0, 0, false, false),
    CFG_VARIANT(TAG "128x256 k4", 128, 256, 16, 64, 64, 8, 16, 1, 3, 4, 0, 0, false, false),
    CFG_VARIANT(TAG "256x128", 256, 128, 16, 64, 64, 8, 16, 1, 3, 1, 0, 0, false, false),
};
constexpr int kN = sizeof(kVariants) / sizeof(kVariants[0]);

int main(int argc, char** argv) { return run_shapes(argc, argv, kVariants, kN, 9, no_extra); }
