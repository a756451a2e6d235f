#!/bin/bash
# Session 32: the kRuns copy path (gemm_kernel<K, kEdgesRuns>) against the element path it replaces, in one run:
# bench/harness/sgemm_variants.cu -DSET=11 built twice for nn and tt (the layouts with one k-contiguous operand),
# once with the tree's kgen/sgemm.cuh and once with the one in the directory $1 (e.g. the parent commit's, as
# $1/kgen/sgemm.cuh), then each run at the sizes $2 (default 886,1023,2047,4097: every row unaligned). Output
# under $OUT.
set -euo pipefail
OLD=$1
SIZES=${2:-886,1023,2047,4097}
for L in 0 3; do
  for v in new old; do
    inc=()
    [ "$v" = old ] && inc=(-I "$OLD")
    nvcc -O3 -std=c++17 -DKGEN_ARCH=sm90 -DSET=11 -DLAYOUT=$L "${inc[@]}" -I kernels/include -I . \
      -gencode=arch=compute_90,code=sm_90 -o /tmp/runs-$v-$L bench/harness/sgemm_variants.cu -lcublas &
  done
done
wait
for L in 0 3; do
  for v in old new; do
    echo "== $v"
    /tmp/runs-$v-$L "$SIZES"
  done | tee "$OUT/runs-$L.txt"
done
