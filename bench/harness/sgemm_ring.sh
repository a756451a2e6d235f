#!/usr/bin/env bash
# Session 23's device call for bench/harness/sgemm_variants.cu -DSET=6 (the
# cp.async ring synchronised by mbarriers): builds it for every layout in
# parallel (ptxas's register counts in $OUT/ptxas-ring-<layout>.txt), then
# runs each build twice; the results go to $OUT/ring-<layout>.txt.
#   bash bench/harness/sgemm_ring.sh   (from the repository root, on the GPU machine)
set -uo pipefail
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.sm,temperature.gpu,power.draw --format=csv | tee "$OUT/device.txt"
nvcc --version | tail -1 | tee -a "$OUT/device.txt"
flags=(-O3 -std=c++17 -DKGEN_ARCH=sm90 -DSET=6 -I kernels/include -I . -gencode=arch=compute_90,code=sm_90)
t0=$(date +%s)
for layout in 0 1 2 3; do
  nvcc "${flags[@]}" -DLAYOUT=$layout -Xptxas -v -o /tmp/ring-$layout bench/harness/sgemm_variants.cu -lcublas \
    >"$OUT/ptxas-ring-$layout.txt" 2>&1 &
done
wait
echo "build: $(($(date +%s) - t0)) s" | tee -a "$OUT/device.txt"
for round in 1 2; do
  for layout in 2 0 1 3; do
    t1=$(date +%s)
    timeout 120 /tmp/ring-$layout >>"$OUT/ring-$layout.txt" 2>&1
    echo "ring-$layout round $round: exit $? in $(($(date +%s) - t1)) s" | tee -a "$OUT/device.txt"
  done
done
