#!/bin/sh
# Builds and runs the host tests of the fp16 tensor-core GEMM (no GPU needed):
#   kernels/tests/run_hgemm_host_tests.sh
# Exits with the test program's status, or nvcc's when the build fails.
# NVCC and NVCC_FLAGS override the compiler and add flags (for example
# NVCC_FLAGS="-ccbin g++-11" when nvcc refuses the default host compiler).
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
nvcc=${NVCC:-nvcc}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
# The test instantiates no kernel, so no device code is generated; sm_80 is
# the oldest arch kgen targets (mma.sync m16n8k16, ldmatrix, cp.async).
# KGEN_ARCH only names launcher symbols.
# shellcheck disable=SC2086
"$nvcc" -std=c++17 -O2 -arch=sm_80 ${NVCC_FLAGS:-} -DKGEN_ARCH=host \
  -I "$root/kernels/include" -I "$root" \
  -o "$out/hgemm_host_test" "$root/kernels/tests/hgemm_host_test.cu"
"$out/hgemm_host_test"
