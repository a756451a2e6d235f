#!/usr/bin/env bash
# Session 55's device call for bench/harness/sgemm_skinny.cu: builds it for every layout in parallel (ptxas's
# register counts in $OUT/ptxas-skinny-<layout>.txt), then runs each build in turn at SHAPES; the CSV lines go to
# $OUT/skinny-<layout>.csv.
#   SHAPES=139x5237x2706,... bash bench/harness/sgemm_skinny.sh   (from the repository root, on the GPU machine)
set -uo pipefail
OUT=${OUT:-/tmp/out}
: "${SHAPES:?SHAPES: MxNxK,...}"
mkdir -p "$OUT"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.sm,temperature.gpu,power.draw --format=csv | tee -a "$OUT/device.txt"
nvcc --version | tail -1 | tee -a "$OUT/device.txt"
flags=(-O3 -std=c++17 -DKGEN_ARCH=sm90 -I kernels/include -I . -gencode=arch=compute_90,code=sm_90)
layouts=(nn nt tn tt)
t0=$(date +%s)
for l in 0 1 2 3; do
  nvcc "${flags[@]}" -DLAYOUT=$l -Xptxas -v -o /tmp/skinny-$l bench/harness/sgemm_skinny.cu -lcublas \
    >"$OUT/ptxas-skinny-${layouts[$l]}.txt" 2>&1 &
done
wait
echo "build: $(($(date +%s) - t0)) s" | tee -a "$OUT/device.txt"
for l in 0 1 2 3; do
  t1=$(date +%s)
  timeout 200 /tmp/skinny-$l "$SHAPES" >"$OUT/skinny-${layouts[$l]}.csv" 2>&1
  echo "skinny-${layouts[$l]}: exit $? in $(($(date +%s) - t1)) s" | tee -a "$OUT/device.txt"
done
