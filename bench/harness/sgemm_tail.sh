#!/usr/bin/env bash
# Session 27's device call for bench/harness/sgemm_tail.cu: builds it for each layout in parallel (ptxas's register
# counts in $OUT/ptxas-tail.txt), checks every variant under compute-sanitizer memcheck at CHECK_SHAPES in nt and tn
# ($OUT/memcheck-tail.txt), then times every variant against cuBLAS at SHAPES in each layout ($OUT/tail-<layout>.csv).
#   [SHAPES=...] [CHECK_SHAPES=...] bash bench/harness/sgemm_tail.sh   (from the repository root, on the GPU machine)
set -uo pipefail
OUT=${OUT:-/tmp/out}
SHAPES=${SHAPES:-896x2432x1024,1024x1024x1024,2048x2048x2048,4096x4096x4096,4097x4097x4097,6144x6144x6144,8192x8192x8192}
CHECK_SHAPES=${CHECK_SHAPES:-896x2432x256,890x2430x253}
mkdir -p "$OUT"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.sm,temperature.gpu,power.draw --format=csv |
  tee "$OUT/device.txt"
nvcc --version | tail -1 | tee -a "$OUT/device.txt"
flags=(-O3 -std=c++17 -DKGEN_ARCH=sm90 -I kernels/include -I . -gencode=arch=compute_90,code=sm_90)
t0=$(date +%s)
for layout in 0 1 2 3; do
  nvcc "${flags[@]}" -DLAYOUT=$layout -Xptxas -v -o /tmp/tail-$layout bench/harness/sgemm_tail.cu -lcublas \
    >/tmp/ptxas-tail-$layout.txt 2>&1 &
done
wait
for f in /tmp/ptxas-tail-*.txt; do
  echo "== $f"
  cat "$f"
done >"$OUT/ptxas-tail.txt"
echo "build: $(($(date +%s) - t0)) s" | tee -a "$OUT/device.txt"
for layout in 1 2; do
  t1=$(date +%s)
  timeout 120 compute-sanitizer --tool memcheck /tmp/tail-$layout "$CHECK_SHAPES" check >>"$OUT/memcheck-tail.txt" 2>&1
  echo "memcheck layout $layout: exit $? in $(($(date +%s) - t1)) s" | tee -a "$OUT/device.txt"
done
names=(nn nt tn tt)
for layout in 0 1 2 3; do
  t1=$(date +%s)
  timeout 150 /tmp/tail-$layout "$SHAPES" >>"$OUT/tail-${names[$layout]}.csv" 2>&1
  echo "tail-${names[$layout]}: exit $? in $(($(date +%s) - t1)) s" | tee -a "$OUT/device.txt"
done
