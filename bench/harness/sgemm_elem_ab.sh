#!/bin/bash
# Session 63: the element path's copies (AsyncLoader::init_elem, copy_elem) of a thread whose mn lies past the
# matrix left out, against reading the last mn in each of them (before), on one GPU: each instance in $INSTS built
# once per variant with bench/harness/sgemm_launcher_ab.cu, from copies of kernels/include changed by python:
#   tree  as committed: left out (one predicate a thread, copy_elem's SKIP) in the short kernel (kEdgesShort) alone;
#   old   every copy reads, the mn past the matrix clamped to the last (sessions 24-62);
#   all   left out in every kernel (what calls 3 and 4 of session 63 ran as the tree).
# Calls 2-3 of session 63 also timed two other mappings of the element path's copies, in
# bench/harness/sgemm-elem-mappings.patch (an m/n-contiguous operand's copies 32 apart along mn at constant
# offsets; a k-contiguous operand's fast-path copies as runs of 8 k): not kept. Then registers (cuobjdump) and, in
# ROUNDS interleaved rounds, the median of 200 launches of each variant in VARIANTS at $SHAPES (the sum of C alike
# in all).
# Results: bench/results/h200-2026-12-02-session63.md.
#   bash bench/harness/sgemm_elem_ab.sh    (on the GPU machine, from the repository root; output under $OUT)
set -euo pipefail
OUT=${OUT:-/tmp/out}
B=/tmp/elem-ab
mkdir -p "$OUT" $B
INSTS=${INSTS:-"sgemm_nn_f32_b64x64x8_w32x32_t8x4_s4_o4_k32f sgemm_nn_f32_b64x64x16_w32x32_t8x4_s3_o4_k32f_mb
sgemm_nn_f32_b128x128x16_w32x64_t8x8_s3_k32f_lc_fz_mb sgemm_tt_f32_b128x128x16_w32x64_t8x8_s3_k32f_lc_fz_mb
sgemm_tn_f32_b64x64x16_w32x32_t8x4_s3_o4_k32f sgemm_tn_f32_b256x128x16_w64x64_t8x16_s3_k32f"}
SHAPES=${SHAPES:-"5215x14x1627 3901x17x376 999x3001x501 1023x1023x1023 185x4529x269 40x4094x1438"}
ROUNDS=${ROUNDS:-2}
VARIANTS=${VARIANTS:-"tree old all"}
source bench/harness/launcher_ab.sh
ab_includes $B old all
skip="if (i * STEPS / kElems != step || (SKIP && !live)) continue;"
ab_edit $B old "$skip" "if (i * STEPS / kElems != step) continue;"
ab_edit $B all "$skip" "if (i * STEPS / kElems != step || !live) continue;"
ab_build $B "$INSTS" "$VARIANTS"
ab_regs $B "$INSTS" "$VARIANTS" | tee "$OUT/elem-ab-regs.txt"
ab_time $B "$INSTS" "$VARIANTS" "$SHAPES" 200 "$ROUNDS" | tee "$OUT/elem-ab.txt"
