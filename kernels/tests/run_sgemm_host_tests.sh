#!/bin/sh
# Builds and runs the host tests of the SGEMM kernels' shifted store of C
# (no GPU needed):
#   kernels/tests/run_sgemm_host_tests.sh
# Exits with the test program's status, or nvcc's when the build fails.
# NVCC and NVCC_FLAGS override the compiler and add flags.
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
nvcc=${NVCC:-nvcc}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
# The test calls store_c_shifted on the host and instantiates no kernel;
# sm_80 is the oldest arch kgen targets. KGEN_ARCH only names launcher symbols.
# shellcheck disable=SC2086
"$nvcc" -std=c++17 -O2 -arch=sm_80 ${NVCC_FLAGS:-} -DKGEN_ARCH=host \
  -I "$root/kernels/include" -I "$root" \
  -o "$out/sgemm_host_test" "$root/kernels/tests/sgemm_host_test.cu"
"$out/sgemm_host_test"
