#!/bin/bash
# Sweep of kgen::sgemm configurations against cuBLAS on one GPU (see
# bench/results/h100-2026-11-23-sgemm-tune.md, -round2.md). Expects
# include/kgen/{sgemm,common}.cuh (patched with k-inner-frag-db.patch for
# gen.py's _i and _d configurations) and kernels/runtime/kgen_status.h beside
# it, and cfg*.cu written by gen.py.
# One device call: build every config in parallel, print ptxas spills, run.
cd "$(dirname "$0")"
OUT=${OUT:-/tmp}
nvidia-smi --query-gpu=name,clocks.max.sm,clocks.sm,temperature.gpu --format=csv,noheader
nvcc --version | tail -1
start=$(date +%s)
ls cfg*.cu | xargs -P 21 -I{} sh -c 'nvcc -std=c++17 -O3 -arch=sm_90 -I include -I . -DKGEN_ARCH=sm90 -Xptxas -v -c {} -o {}.o > {}.log 2>&1 || (echo BUILD FAIL {}; grep -m5 error {}.log)'
nvcc -std=c++17 -O3 -arch=sm_90 -I include -I . -DKGEN_ARCH=sm90 harness.cu cfg*.cu.o -lcublas -o h || exit 1
echo "build $(( $(date +%s) - start )) s"
cat cfg*.cu.log > $OUT/ptxas.txt
echo "nonzero spills:"; grep -h "spill" cfg*.cu.log | grep -v "0 bytes spill stores, 0 bytes spill loads" | sort | uniq -c | head
./h
echo "total $(( $(date +%s) - start )) s"
