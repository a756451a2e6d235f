#!/bin/bash
# Session 36: a harness whose Config knobs come from a patch of kgen/sgemm.cuh (- for none), applied to a copy of the headers,
# built for every layout in parallel (ptxas's registers in $OUT/ptxas-<name>.txt) and run at the shapes $3
# (MxNxK,...); output $OUT/<name>-<layout>.csv. Then Nsight Compute over one layout's variants ($4, default tn) at
# $5 (harness "prof"): issue, stalls by reason, instructions executed ($OUT/ncu-<name>-<layout>.txt).
#   bash bench/harness/sgemm_knobs.sh unroll sgemm-kk-unroll.patch 2048x2048x2048,4096x4096x4096 nn 4096x4096x4096
#   bash bench/harness/sgemm_knobs.sh copystep sgemm-copy-place.patch 2048x2048x2048,4096x4096x4096 tn 2048x2048x2048
#   bash bench/harness/sgemm_knobs.sh shifted - 7934x1157x140,1023x1023x1023 nt 7934x1157x140
set -uo pipefail
NAME=$1
PATCH=$2
SHAPES=$3
PROF_LAYOUT=${4:-tn}
PROF=${5:-2048x2048x2048}
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
INC=/tmp/inc-$NAME
rm -rf "$INC" && cp -r kernels/include "$INC" || exit 1
[ "$PATCH" = - ] || patch -s -p3 -d "$INC" <"bench/harness/$PATCH" || exit 1
names=(nn nt tn tt)
t0=$(date +%s)
for L in 0 1 2 3; do
  nvcc -O3 -std=c++17 -DKGEN_ARCH=sm90 -DLAYOUT=$L -I "$INC" -I . -gencode=arch=compute_90,code=sm_90 \
    -Xptxas -v -o "/tmp/$NAME-$L" "bench/harness/sgemm_$NAME.cu" -lcublas >"/tmp/ptxas-$NAME-$L.txt" 2>&1 &
done
wait
cat /tmp/ptxas-"$NAME"-*.txt >"$OUT/ptxas-$NAME.txt"
echo "$NAME build: $(($(date +%s) - t0)) s"
for L in 0 1 2 3; do
  t1=$(date +%s)
  timeout 150 "/tmp/$NAME-$L" "$SHAPES" >"$OUT/$NAME-${names[$L]}.csv" 2>&1
  echo "$NAME ${names[$L]}: exit $? in $(($(date +%s) - t1)) s"
done
M=gpu__time_duration.sum,sm__cycles_active.avg,smsp__inst_executed.sum
M=$M,smsp__issue_active.avg.pct_of_peak_sustained_active
M=$M,smsp__warps_active.avg.per_cycle_active,sm__pipe_fma_cycles_active.avg.pct_of_peak_sustained_active
for s in barrier dispatch_stall long_scoreboard math_pipe_throttle mio_throttle not_selected selected \
  short_scoreboard wait no_instruction branch_resolving; do
  M=$M,smsp__average_warps_issue_stalled_${s}_per_issue_active.ratio
done
for L in 0 1 2 3; do
  [ "${names[$L]}" = "$PROF_LAYOUT" ] || continue
  t1=$(date +%s)
  timeout 200 ncu --clock-control none --kernel-name regex:gemm_kernel --metrics "$M" "/tmp/$NAME-$L" "$PROF" prof \
    >"$OUT/ncu-$NAME-$PROF_LAYOUT.txt" 2>&1
  echo "ncu $PROF_LAYOUT: exit $? in $(($(date +%s) - t1)) s"
done
