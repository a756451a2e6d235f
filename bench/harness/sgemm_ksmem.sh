#!/bin/bash
# Session 32: builds bench/harness/sgemm_variants.cu -DSET=10 with sgemm-ksmem.patch applied to a copy of the
# headers, for nn, nt and tt, in parallel, then runs each at the sizes given ($1, default 2048,4096; none: no
# timing) and at 1023 (every copy on the element path and a partial k tile: a correctness check against cuBLAS).
# Output under $OUT.
# LAYOUTS (default "0 1 3") picks the layouts, DEFS adds defines (-DBIG_TILES: the big tiles' set).
set -euo pipefail
SIZES=${1:-2048,4096}
H=/tmp/ksmem
rm -rf "$H" && mkdir -p "$H" && cp -r kernels "$H/"
patch -s -d "$H" -p1 < bench/harness/sgemm-ksmem.patch
for L in ${LAYOUTS:-0 1 3}; do
  nvcc -O3 -std=c++17 -DKGEN_ARCH=sm90 -DSET=10 ${DEFS:-} -DLAYOUT=$L -I "$H/kernels/include" -I kernels/include -I . \
    -gencode=arch=compute_90,code=sm_90 -Xptxas -v -o /tmp/ks$L bench/harness/sgemm_variants.cu -lcublas \
    > "$OUT/ptxas-$L.txt" 2>&1 &
done
wait
for L in ${LAYOUTS:-0 1 3}; do
  [ "$SIZES" = none ] && break
  /tmp/ks$L "$SIZES" | tee "$OUT/ks-$L.txt"
  /tmp/ks$L 1023 | tee "$OUT/ks-$L-odd.txt"
done
# With NCU=1: Nsight Compute over nn's variants at 4096 (harness "prof"): issue, stalls, shared-memory conflicts.
if [ "${NCU:-0}" = 1 ]; then
  M=gpu__time_duration.sum,sm__cycles_active.avg,smsp__inst_executed.sum,smsp__issue_active.avg.pct_of_peak_sustained_active
  M=$M,smsp__warps_active.avg.per_cycle_active,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum
  M=$M,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum
  for s in barrier dispatch_stall long_scoreboard math_pipe_throttle mio_throttle not_selected selected short_scoreboard wait no_instruction; do
    M=$M,smsp__average_warps_issue_stalled_${s}_per_issue_active.ratio
  done
  timeout 300 ncu --metrics "$M" /tmp/ks0 prof > "$OUT/ncu-nn.txt" 2>&1 || echo "ncu exit $?"
fi
