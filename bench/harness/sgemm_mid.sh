#!/usr/bin/env bash
# Session 26's device call for bench/harness/sgemm_mid.cu: builds it for each layout in parallel (ptxas's register
# counts in $OUT/ptxas-mid.txt), times every variant against cuBLAS at SHAPES in each layout ($OUT/mid-<layout>.csv),
# then profiles the variants and cuBLAS in PROF_LAYOUTS at PROF_SHAPES under Nsight Compute, with the warps' stall
# reasons ($OUT/ncu-<layout>.txt).
#   [SHAPES=...] [PROF_SHAPES=...] bash bench/harness/sgemm_mid.sh   (from the repository root, on the GPU machine)
set -uo pipefail
OUT=${OUT:-/tmp/out}
SHAPES=${SHAPES:-466x2321x233,886x886x886,1000x3000x500,1370x2268x265,627x627x627,518x429x255,362x362x362,1024x1024x1024,464x2320x232,888x888x888}
PROF_SHAPES=${PROF_SHAPES:-466x2321x233,464x2320x232}
PROF_LAYOUTS=${PROF_LAYOUTS-1 0}
mkdir -p "$OUT"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.sm,temperature.gpu,power.draw --format=csv |
  tee "$OUT/device.txt"
nvcc --version | tail -1 | tee -a "$OUT/device.txt"
# ISSUE_ORDERS: the barrier ring's copies issued before (0), after (1) or halfway through (2) a k tile's steps
# (bench/harness/sgemm-issue-order.patch); each layout's CSV then has a column for it first.
ISSUE_ORDERS=${ISSUE_ORDERS:-0}
rm -rf /tmp/issue && mkdir -p /tmp/issue && cp -r kernels /tmp/issue/ && patch -s -d /tmp/issue -p1 <bench/harness/sgemm-issue-order.patch
flags=(-O3 -std=c++17 -DKGEN_ARCH=sm90 -I /tmp/issue/kernels/include -I . -gencode=arch=compute_90,code=sm_90)
t0=$(date +%s)
for layout in 0 1 2 3; do
  for io in $ISSUE_ORDERS; do
    nvcc "${flags[@]}" -DLAYOUT=$layout -DKGEN_ISSUE_AT="$io" -Xptxas -v -o /tmp/mid-$layout-$io \
      bench/harness/sgemm_mid.cu -lcublas >/tmp/ptxas-mid-$layout-$io.txt 2>&1 &
  done
done
wait
for f in /tmp/ptxas-mid-*.txt; do
  echo "== $f"
  cat "$f"
done >"$OUT/ptxas-mid.txt"
echo "build: $(($(date +%s) - t0)) s" | tee -a "$OUT/device.txt"
names=(nn nt tn tt)
for layout in 0 1 2 3; do
  for io in $ISSUE_ORDERS; do
    t1=$(date +%s)
    timeout 150 /tmp/mid-$layout-$io "$SHAPES" | sed "s/^/i$io,/" >>"$OUT/mid-${names[$layout]}.csv" 2>&1
    echo "mid-${names[$layout]} issue order $io: exit $? in $(($(date +%s) - t1)) s" | tee -a "$OUT/device.txt"
  done
done
stalls='regex:smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio'
for layout in $PROF_LAYOUTS; do
  t1=$(date +%s)
  timeout 200 ncu --clock-control none --section SpeedOfLight --section LaunchStats --section Occupancy \
    --section WarpStateStats --section SchedulerStats --section InstructionStats --section MemoryWorkloadAnalysis \
    --section SourceCounters --metrics "$stalls,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum" \
    -k 'regex:gemm_kernel|xmma|Kernel2' /tmp/mid-$layout-${ISSUE_ORDERS%% *} "$PROF_SHAPES" prof >"$OUT/ncu-${names[$layout]}.txt" 2>&1
  echo "ncu ${names[$layout]}: exit $? in $(($(date +%s) - t1)) s" | tee -a "$OUT/device.txt"
done
