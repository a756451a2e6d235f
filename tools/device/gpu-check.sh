#!/usr/bin/env bash
# One device call that checks correctness without the bench: build every
# kernel, run the GF(2^8) host emulation, compute-sanitizer (memcheck and
# racecheck) over the GPU tests of every family at small shapes, then the
# GPU test packages with a GPU required. Logs go to $OUT.
#   source .devicecarry/setup.sh && bash tools/device/gpu-check.sh [go test -run pattern]
set -uo pipefail
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
{
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
  nvcc --version | tail -1
} 2>&1 | tee "$OUT/device.txt"
export KGEN_REQUIRE_GPU=1
export CGO_CFLAGS="-I${CUDA118_INCLUDE:-/usr/include}"
export CGO_LDFLAGS="-L${CUDA_HOME:-/usr/local/cuda}/lib64"
start=$(date +%s)
make -j"$(nproc)" lib >"$OUT/build.log" 2>&1 || { tail -40 "$OUT/build.log"; exit 1; }
echo "build: $(($(date +%s) - start)) s" | tee -a "$OUT/device.txt"
make host-test 2>&1 | grep -E "passed|failed" | tee -a "$OUT/device.txt"

go test -c -o /tmp/gf256.test ./tests/gf256 && go test -c -o /tmp/gemm.test ./tests/gemm
for tool in memcheck racecheck; do
  timeout 150 compute-sanitizer --tool "$tool" --error-exitcode 9 /tmp/gf256.test -test.short \
    -test.run 'TestEveryInstanceBitExact|TestBadInputIsAnError' >"$OUT/sanitizer-gf256-$tool.log" 2>&1
  echo "sanitizer $tool gf256: exit $? $(tail -1 "$OUT/sanitizer-gf256-$tool.log")" | tee -a "$OUT/device.txt"
done
# Every family that uses shared memory gets racecheck too (sgemm, hgemm and
# hgemv all stage tiles or x there).
go test -c -o /tmp/hgemv.test ./tests/hgemv && go test -c -o /tmp/hgemm.test ./tests/hgemm
sanitize() { # tool family binary run-pattern
  timeout 150 compute-sanitizer --tool "$1" --error-exitcode 9 "$3" -test.short -test.run "$4" \
    >"$OUT/sanitizer-$2-$1.log" 2>&1
  echo "sanitizer $1 $2: exit $? $(tail -1 "$OUT/sanitizer-$2-$1.log")" | tee -a "$OUT/device.txt"
}
for tool in memcheck racecheck; do
  sanitize "$tool" gemm /tmp/gemm.test 'TestDegenerateShapes'
  # Small odd shapes only: the sanitizers slow kernels a hundredfold.
  sanitize "$tool" hgemv /tmp/hgemv.test 'TestEveryInstance/.*/(7x7|33x256|4097x1)/'
  sanitize "$tool" hgemm /tmp/hgemm.test 'TestEveryInstanceAgainstFloat64/^(35x79x19|257x129x63)/'
done

pkgs="./go/cuda ./go/gf256 ./go/rs ./tests/gf256 ./tests/hgemv ./tests/hgemm ./tests/gemm"
timeout 300 go test -short -count=1 -v ${1:+-run "$1"} $pkgs >"$OUT/test.log" 2>&1
echo "tests exit $?" | tee -a "$OUT/device.txt"
grep -E '^(ok|FAIL|---)' "$OUT/test.log" | grep -v -- '--- PASS' | head -40
echo "subtests: $(grep -cE -- '--- PASS' "$OUT/test.log") passed, $(grep -cE -- '--- FAIL' "$OUT/test.log") failed, $(grep -cE -- '--- SKIP' "$OUT/test.log") skipped" | tee -a "$OUT/device.txt"
gzip -f "$OUT/test.log" "$OUT/build.log"
