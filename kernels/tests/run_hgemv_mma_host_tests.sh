#!/bin/sh
# Builds and runs the tests of the tensor-core fp16 GEMV (kgen/hgemv_mma.cuh,
# layout N, and kgen/hgemv_mma_t.cuh, layout T):
#   kernels/tests/run_hgemv_mma_host_tests.sh
# Without a GPU it runs the host emulation (the kernel's step loop and loads
# per lane, each warp's mma.sync emulated from its PTX fragment layout) and
# the argument checks; with one it also runs every case on the device.
# NVCC and NVCC_FLAGS override the compiler and add flags; HGEMV_ARCH picks
# the device code's arch (default sm_80; use sm_90 on an H100).
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
nvcc=${NVCC:-nvcc}
arch=${HGEMV_ARCH:-sm_80}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
# shellcheck disable=SC2086
"$nvcc" -std=c++17 -O2 -arch="$arch" ${NVCC_FLAGS:-} -DKGEN_ARCH=host \
  -I "$root/kernels/include" -I "$root" \
  -o "$out/hgemv_mma_host_test" "$root/kernels/tests/hgemv_mma_host_test.cu"
"$out/hgemv_mma_host_test" "$@"
