#!/bin/sh
# Builds and runs the tests of the fp16 GEMV kernels (kgen/hgemv.cuh):
#   kernels/tests/run_hgemv_host_tests.sh [--bench]
# Without a GPU it runs the host emulation and argument checks; with one it
# also runs every case on the device (and --bench times the fast configs).
# Exits with the test program's status, or nvcc's when the build fails.
# NVCC and NVCC_FLAGS override the compiler and add flags (for example
# NVCC_FLAGS="-ccbin g++-11" when nvcc refuses the default host compiler);
# HGEMV_ARCH picks the device code's arch (default sm_80, the oldest kgen
# targets; use sm_90 on an H100).
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
nvcc=${NVCC:-nvcc}
arch=${HGEMV_ARCH:-sm_80}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
# KGEN_ARCH only names launcher symbols.
# shellcheck disable=SC2086
"$nvcc" -std=c++17 -O2 -arch="$arch" ${NVCC_FLAGS:-} -DKGEN_ARCH=host \
  -I "$root/kernels/include" -I "$root" \
  -o "$out/hgemv_host_test" "$root/kernels/tests/hgemv_host_test.cu"
"$out/hgemv_host_test" "$@"
