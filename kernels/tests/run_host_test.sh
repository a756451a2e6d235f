#!/bin/sh
# Builds and runs one of the kernels' host tests, kernels/tests/<name>.cu,
# with the given arguments:
#   kernels/tests/run_host_test.sh gf256_host_test
#   kernels/tests/run_host_test.sh hgemv_host_test --bench
# Each prints "N passed, M failed"; the script exits with the test's status,
# or nvcc's when the build fails. The GF(2^8), HGEMM, SGEMM and tail-plan tests need no
# GPU; the HGEMV ones also run their cases on a GPU where there is one
# (hgemv_host_test's --bench times the fast configs).
# NVCC and NVCC_FLAGS override the compiler and add flags (for example
# NVCC_FLAGS="-ccbin g++-11" when nvcc refuses the default host compiler);
# HOST_TEST_ARCH picks the device code's arch (default sm_80, the oldest
# kgen targets: mma.sync m16n8k16, ldmatrix, cp.async; sm_90 on an H100).
# KGEN_ARCH only names launcher symbols.
set -eu
name=${1:?usage: run_host_test.sh <test name> [args]}
shift
root=$(cd "$(dirname "$0")/../.." && pwd)
nvcc=${NVCC:-nvcc}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
# shellcheck disable=SC2086
"$nvcc" -std=c++17 -O2 -arch="${HOST_TEST_ARCH:-sm_80}" ${NVCC_FLAGS:-} -DKGEN_ARCH=host \
  -I "$root/kernels/include" -I "$root" \
  -o "$out/$name" "$root/kernels/tests/$name.cu"
"$out/$name" "$@"
