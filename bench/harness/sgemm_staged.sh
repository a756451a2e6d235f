#!/bin/bash
# Session 35: C stored through shared memory (store_c_staged) against store_c's 4-byte stores, in one run:
# bench/harness/sgemm_staged.cu built for every layout, each binary holding the spec's tiles built against the
# tree's kgen/sgemm.cuh and against the header $1 (the parent commit's kgen/sgemm.cuh, its namespace renamed here),
# then run at the shapes $2 (MxNxK,...). Output under $OUT: staged-<layout>.csv, ptxas-staged.txt.
set -euo pipefail
OLD=$1
SHAPES=$2
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
sed 's/^namespace sgemm {/namespace sgemm_old {/' "$OLD" >/tmp/sgemm_old.cuh
t0=$(date +%s)
for L in 0 1 2 3; do
  nvcc -O3 -std=c++17 -DKGEN_ARCH=sm90 -DLAYOUT=$L -DOLD_HEADER='"/tmp/sgemm_old.cuh"' -I kernels/include -I . \
    -gencode=arch=compute_90,code=sm_90 -Xptxas -v -o /tmp/staged-$L bench/harness/sgemm_staged.cu -lcublas \
    >/tmp/ptxas-staged-$L.txt 2>&1 &
done
wait
cat /tmp/ptxas-staged-*.txt >"$OUT/ptxas-staged.txt"
echo "staged build: $(($(date +%s) - t0)) s"
names=(nn nt tn tt)
for L in 0 1 2 3; do
  t1=$(date +%s)
  timeout 150 /tmp/staged-$L "$SHAPES" >"$OUT/staged-${names[$L]}.csv" 2>&1
  echo "staged ${names[$L]}: exit $? in $(($(date +%s) - t1)) s"
done
