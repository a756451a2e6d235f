// Harness (session 46): the shared-memory wavefronts of the cp.async copies. ncu's per-instruction counters at
// 1024^3 nn (bench/results/h200-2026-11-29-session46.md) put all of the 128x128x16 tile's excess global sectors
// and shared wavefronts on its copies: the 16-byte copies of the m/n-contiguous operand (rows of BN + 4 floats, so
// most rows start off a 128-byte line) move 1.5x the ideal sectors and 2.6x the ideal wavefronts, the 4-byte
// copies of the k-contiguous one (16 k x 2 rows a warp, bank 4k + mn: two stores a bank) 3x the wavefronts.
// bench/harness/sgemm-copy-banks.patch adds two knobs to a copy of the headers, each a macro: -DKGEN_COPY_MAP=1
// maps the 4-byte copies 8 k x 4 rows to a warp (32 banks; session 8 ran it on the H100's kernels of then, 1-4%
// slower), -DKGEN_PAD0=1 leaves the m/n-contiguous operand's rows unpadded. One binary per layout (-DLAYOUT 0-3:
// nn nt tn tt) and knob setting, each running the tables' picks at 768^3-2048^3: the 128x128x16 tile by columns in
// quads_zigzag order split 4 ways and up to 32 (fill), whole in rows_zigzag order, and the 256x128x16 tile of 8x16
// threads split up to 32; every variant checked against cuBLAS first, then timed against it in interleaved rounds
// over operand sets rotated past the 50 MB L2 (bench/harness/sgemm_harness.h). Session 46's call 2 ran the 16
// builds in the order 00 11 10 01 01 10 11 00 (KGEN_COPY_MAP, KGEN_PAD0) per layout. The patch applies to the
// headers before the change this led to (main b32bfee; kgen::sgemm::Config::kUnpaddedRows since). Build on the GPU
// machine:
//   mkdir -p /tmp/cb && git archive b32bfee kernels/include | tar -x -C /tmp/cb
//   patch -p1 -d /tmp/cb < bench/harness/sgemm-copy-banks.patch
//   nvcc -O3 -std=c++17 -DKGEN_ARCH=sm90 -DLAYOUT=0 -DKGEN_COPY_MAP=1 -DKGEN_PAD0=1 -I /tmp/cb/kernels/include -I . \
//     -gencode=arch=compute_90,code=sm_90 -o /tmp/cb-0-11 bench/harness/sgemm_copy_banks.cu -lcublas
//   /tmp/cb-0-11 768x768x768,1024x1024x1024,2048x2048x2048
#include "bench/harness/sgemm_harness.h"

#if !defined(KGEN_COPY_MAP) || !defined(KGEN_PAD0)
#error "build with -DKGEN_COPY_MAP=0|1 -DKGEN_PAD0=0|1 against headers patched with sgemm-copy-banks.patch"
#endif
#define KNOB_STR2(x) #x
#define KNOB_STR(x) KNOB_STR2(x)
#define TAG "map" KNOB_STR(KGEN_COPY_MAP) " pad0 " KNOB_STR(KGEN_PAD0) " "

static const Variant kVariants[] = {
    CFG_VARIANT(TAG "fq k4", 128, 128, 16, 32, 64, 8, 8, 1, 3, 4, 1, 2, false, false, kRing),
    CFG_VARIANT(TAG "fq k32f", 128, 128, 16, 32, 64, 8, 8, 1, 3, 32, 1, 2, false, true, kRing),
    CFG_VARIANT(TAG "fz", 128, 128, 16, 32, 64, 8, 8, 1, 3, 1, 1, 1, false, false, kRing),
    CFG_VARIANT(TAG "256x128 k32f", 256, 128, 16, 64, 64, 8, 16, 1, 3, 32, 0, 0, false, true),
};
constexpr int kN = sizeof(kVariants) / sizeof(kVariants[0]);

int main(int argc, char** argv) { return run_shapes(argc, argv, kVariants, kN, 9, no_extra); }
