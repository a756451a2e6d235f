#!/bin/sh
# Builds and runs the host tests of the GF(2^8) kernels (no GPU needed):
#   kernels/tests/run_host_tests.sh
# Exits with the test program's status, or nvcc's when the build fails.
# NVCC and NVCC_FLAGS override the compiler and add flags (for example
# NVCC_FLAGS="-ccbin g++-11" when nvcc refuses the default host compiler).
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
nvcc=${NVCC:-nvcc}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
# The device code is compiled too (the header holds kernels); sm_80 is the
# oldest arch kgen targets. KGEN_ARCH only names launcher symbols.
# shellcheck disable=SC2086
"$nvcc" -std=c++17 -O2 -arch=sm_80 ${NVCC_FLAGS:-} -DKGEN_ARCH=host \
  -I "$root/kernels/include" -I "$root" \
  -o "$out/gf256_host_test" "$root/kernels/tests/gf256_host_test.cu"
"$out/gf256_host_test"
