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
for v in old all; do
  rm -rf $B/inc-$v && mkdir -p $B/inc-$v && cp -r kernels/include/kgen $B/inc-$v/
done
python3 - "$B" <<'PY'
import sys
b = sys.argv[1]
old = "if (i * STEPS / kElems != step || (SKIP && !live)) continue;"
for v, cond in (("old", "i * STEPS / kElems != step"), ("all", "i * STEPS / kElems != step || !live")):
    p = f"{b}/inc-{v}/kgen/sgemm.cuh"
    s = open(p).read()
    assert s.count(old) == 1, "kgen/sgemm.cuh no longer has what the variants change"
    open(p, "w").write(s.replace(old, f"if ({cond}) continue;"))
PY
F="-O3 -std=c++17 -DKGEN_ARCH=sm90 -gencode=arch=compute_90,code=sm_90"
for i in $INSTS; do
  for v in $VARIANTS; do
    inc=kernels/include
    [ $v != tree ] && inc=$B/inc-$v
    (nvcc $F -I $inc -I . -c kernels/generated/$i.cu -o $B/$i-$v.o &&
      nvcc $F -DFN=kgen_${i}_sm90 bench/harness/sgemm_launcher_ab.cu $B/$i-$v.o -o $B/$i-$v) >$B/$i-$v.log 2>&1 &
  done
done
wait
for i in $INSTS; do
  for v in $VARIANTS; do
    echo "$i $v $(cuobjdump --dump-resource-usage $B/$i-$v.o | grep -oE 'REG:[0-9]+' | paste -sd' ')"
  done
done | tee "$OUT/elem-ab-regs.txt"
for r in $(seq "$ROUNDS"); do
  for s in $SHAPES; do
    for i in $INSTS; do
      for v in $VARIANTS; do
        echo "$i $v $($B/$i-$v "$(echo $i | cut -d_ -f2)" ${s//x/ } 200)"
      done
    done
  done
done | tee "$OUT/elem-ab.txt"
