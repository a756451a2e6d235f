#!/usr/bin/env bash
# A device call for one set of bench/harness/sgemm_variants.cu: builds -DSET=$SET for each layout of $LAYOUTS in
# parallel (ptxas's register counts in $OUT/ptxas-$NAME-<layout>.txt), then runs each build $ROUNDS times over the
# square sizes $SIZES; the results go to $OUT/$NAME-<layout>.txt (layouts 0-3: nn nt tn tt; NAME: set$SET unless
# given).
#   SET=7 LAYOUTS="2 0 1 3" SIZES=1024,2048,4096,8192 ROUNDS=2 bash bench/harness/sgemm_set.sh
set -uo pipefail
OUT=${OUT:-/tmp/out}
SET=${SET:?which -DSET}
NAME=${NAME:-set$SET}
LAYOUTS=${LAYOUTS:-2 0 1 3}
SIZES=${SIZES:-2048,4096,8192}
ROUNDS=${ROUNDS:-2}
mkdir -p "$OUT"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.sm,temperature.gpu,power.draw --format=csv |
  tee "$OUT/device.txt"
nvcc --version | tail -1 | tee -a "$OUT/device.txt"
flags=(-O3 -std=c++17 -DKGEN_ARCH=sm90 -DSET="$SET" -I kernels/include -I . -gencode=arch=compute_90,code=sm_90)
t0=$(date +%s)
for layout in $LAYOUTS; do
  nvcc "${flags[@]}" -DLAYOUT="$layout" -Xptxas -v -o "/tmp/$NAME-$layout" bench/harness/sgemm_variants.cu \
    -lcublas >"$OUT/ptxas-$NAME-$layout.txt" 2>&1 &
done
wait
echo "build: $(($(date +%s) - t0)) s" | tee -a "$OUT/device.txt"
for round in $(seq "$ROUNDS"); do
  for layout in $LAYOUTS; do
    t1=$(date +%s)
    timeout 150 "/tmp/$NAME-$layout" "$SIZES" >>"$OUT/$NAME-$layout.txt" 2>&1
    echo "$NAME-$layout round $round: exit $? in $(($(date +%s) - t1)) s" | tee -a "$OUT/device.txt"
  done
done
