#!/bin/bash
# Session 36: bench/harness/sgemm_copystep.cu built for every layout in parallel (ptxas's registers in
# $OUT/ptxas-copystep.txt), each run at the shapes $1 (MxNxK,...); output $OUT/copystep-<layout>.csv. Then Nsight
# Compute over tn's variants at $2 (harness "prof"): issue, stalls by reason, instructions executed
# ($OUT/ncu-copystep-tn.txt).
set -uo pipefail
SHAPES=$1
PROF=${2:-4096x4096x4096}
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
# The harness needs Config's knobs from bench/harness/sgemm-copy-place.patch, applied to a copy of the headers.
INC=/tmp/inc-copystep
rm -rf "$INC" && cp -r kernels/include "$INC" && patch -s -p3 -d "$INC" <bench/harness/sgemm-copy-place.patch || exit 1
t0=$(date +%s)
for L in 0 1 2 3; do
  nvcc -O3 -std=c++17 -DKGEN_ARCH=sm90 -DLAYOUT=$L -I "$INC" -I . -gencode=arch=compute_90,code=sm_90 \
    -Xptxas -v -o /tmp/copystep-$L bench/harness/sgemm_copystep.cu -lcublas >/tmp/ptxas-copystep-$L.txt 2>&1 &
done
wait
cat /tmp/ptxas-copystep-*.txt >"$OUT/ptxas-copystep.txt"
echo "copystep build: $(($(date +%s) - t0)) s"
names=(nn nt tn tt)
for L in 0 1 2 3; do
  t1=$(date +%s)
  timeout 150 /tmp/copystep-$L "$SHAPES" >"$OUT/copystep-${names[$L]}.csv" 2>&1
  echo "copystep ${names[$L]}: exit $? in $(($(date +%s) - t1)) s"
done
M=gpu__time_duration.sum,sm__cycles_active.avg,smsp__inst_executed.sum
M=$M,smsp__issue_active.avg.pct_of_peak_sustained_active
M=$M,smsp__warps_active.avg.per_cycle_active,sm__pipe_fma_cycles_active.avg.pct_of_peak_sustained_active
for s in barrier dispatch_stall long_scoreboard math_pipe_throttle mio_throttle not_selected selected \
  short_scoreboard wait no_instruction branch_resolving; do
  M=$M,smsp__average_warps_issue_stalled_${s}_per_issue_active.ratio
done
t1=$(date +%s)
timeout 200 ncu --clock-control none --kernel-name regex:gemm_kernel --metrics "$M" /tmp/copystep-2 "$PROF" prof \
  >"$OUT/ncu-copystep-tn.txt" 2>&1
echo "ncu tn: exit $? in $(($(date +%s) - t1)) s"
