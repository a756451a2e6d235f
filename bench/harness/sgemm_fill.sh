#!/usr/bin/env bash
# Session 22's device call for bench/harness/sgemm_fill.cu: builds it for nn
# and tn and its three tiles in parallel (ptxas's register counts in
# $OUT/ptxas-*.txt, with those of the spec's fill instances), then runs each
# build in turn; the CSV lines go to $OUT/fill-<layout>-<tile>.csv. SHAPES
# ("518x429x255,...") replaces the harness's own shapes.
#   [SHAPES=...] bash bench/harness/sgemm_fill.sh   (from the repository root, on the GPU machine)
set -uo pipefail
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.sm,temperature.gpu,power.draw --format=csv | tee "$OUT/device.txt"
nvcc --version | tail -1 | tee -a "$OUT/device.txt"
flags=(-O3 -std=c++17 -DKGEN_ARCH=sm90 -I kernels/include -I . -gencode=arch=compute_90,code=sm_90)
t0=$(date +%s)
for layout in 0 2; do
  for tile in 0 1 2; do
    nvcc "${flags[@]}" -DLAYOUT=$layout -DTILE=$tile -Xptxas -v -o /tmp/fill-$layout-$tile \
      bench/harness/sgemm_fill.cu -lcublas >"$OUT/ptxas-fill-$layout-$tile.txt" 2>&1 &
  done
done
for f in kernels/generated/sgemm_*_k*f_*.cu kernels/generated/sgemm_*_k*f.cu; do
  nvcc "${flags[@]}" -Xptxas -v -c "$f" -o /tmp/"$(basename "$f" .cu)".o >"$OUT/ptxas-$(basename "$f" .cu).txt" 2>&1 &
done
wait
echo "build: $(($(date +%s) - t0)) s" | tee -a "$OUT/device.txt"
for f in "$OUT"/ptxas-*.txt; do
  echo "$(basename "$f" .txt): $(grep -o 'Used [0-9]* registers' "$f" | awk '{print $2}' | tr '\n' ' ')$(grep -o '[0-9]* bytes spill stores' "$f" | sort -u | tr '\n' ' ')"
done | tee -a "$OUT/device.txt"
for layout in 0 2; do
  for tile in 0 1 2; do
    name=$([ $layout = 0 ] && echo nn || echo tn)-$tile
    t1=$(date +%s)
    timeout 150 /tmp/fill-$layout-$tile ${SHAPES:+"$SHAPES"} >"$OUT/fill-$name.csv" 2>&1
    echo "fill-$name: exit $? in $(($(date +%s) - t1)) s; $(head -1 "$OUT/fill-$name.csv")" | tee -a "$OUT/device.txt"
  done
done
