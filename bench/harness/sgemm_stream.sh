#!/usr/bin/env bash
# Session 29's device call for bench/harness/sgemm_stream.cu: builds it for each layout in parallel (ptxas's register
# counts in $OUT/ptxas-stream.txt), checks every variant under compute-sanitizer memcheck at CHECK_SHAPES in nt and tn
# and racecheck in nt ($OUT/sanitize-stream.txt), then times every variant against cuBLAS at SHAPES in each layout
# ($OUT/stream-<layout>.csv).
#   [SHAPES=...] [CHECK_SHAPES=...] [LAYOUTS=...] [SRC=sgemm_stream_ab.cu] bash bench/harness/sgemm_stream.sh
#   (repository root, GPU machine; SRC: the harness to build, sgemm_stream.cu by default)
set -uo pipefail
OUT=${OUT:-/tmp/out}
SHAPES=${SHAPES:-1024x1024x1024,2048x2048x2048,1792x1792x1792,1536x1536x1536,4096x4096x4096,3072x3072x3072}
CHECK_SHAPES=${CHECK_SHAPES:-256x384x160,384x256x2048,128x128x48}
LAYOUTS=${LAYOUTS:-0 1 2 3}
mkdir -p "$OUT"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.sm,temperature.gpu,power.draw --format=csv |
  tee -a "$OUT/device.txt"
nvcc --version | tail -1 | tee -a "$OUT/device.txt"
flags=(-O3 -std=c++17 -DKGEN_ARCH=sm90 -I kernels/include -I . -gencode=arch=compute_90,code=sm_90)
t0=$(date +%s)
for layout in 0 1 2 3; do
  nvcc "${flags[@]}" -DLAYOUT=$layout -Xptxas -v -o /tmp/stream-$layout bench/harness/${SRC:-sgemm_stream.cu} -lcublas \
    >/tmp/ptxas-stream-$layout.txt 2>&1 &
done
wait
for f in /tmp/ptxas-stream-*.txt; do
  echo "== $f"
  cat "$f"
done >"$OUT/ptxas-stream.txt"
echo "build: $(($(date +%s) - t0)) s" | tee -a "$OUT/device.txt"
for layout in 1 2; do
  t1=$(date +%s)
  timeout 90 compute-sanitizer --tool memcheck /tmp/stream-$layout "$CHECK_SHAPES" check >>"$OUT/sanitize-stream.txt" 2>&1
  echo "memcheck layout $layout: exit $? in $(($(date +%s) - t1)) s" | tee -a "$OUT/device.txt"
done
t1=$(date +%s)
timeout 90 compute-sanitizer --tool racecheck /tmp/stream-1 256x384x160 check >>"$OUT/sanitize-stream.txt" 2>&1
echo "racecheck layout 1: exit $? in $(($(date +%s) - t1)) s" | tee -a "$OUT/device.txt"
names=(nn nt tn tt)
for layout in $LAYOUTS; do
  t1=$(date +%s)
  timeout 150 /tmp/stream-$layout "$SHAPES" >>"$OUT/stream-${names[$layout]}.csv" 2>&1
  echo "stream-${names[$layout]}: exit $? in $(($(date +%s) - t1)) s" | tee -a "$OUT/device.txt"
done
