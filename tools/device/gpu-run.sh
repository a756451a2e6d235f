#!/usr/bin/env bash
# One device call: build the kernels with the machine's nvcc, record ptxas
# resource usage, run every test (with the cuBLAS cross-check), run the bench.
# Results go to $OUT (the device tool brings them back). Usage on the device:
#   source .devicecarry/setup.sh && bash tools/device/gpu-run.sh [bench flags...]
set -uo pipefail
# shellcheck source=tools/device/lib.sh
source tools/device/lib.sh
# The packed toolchain leaves out src/go/doc, which go/format needs: restore it
# from .devicecarry/go-doc-src.tar when it was carried.
if [ -f .devicecarry/go-doc-src.tar ] && [ ! -d "$(go env GOROOT)/src/go/doc/comment" ]; then
  tar -C "$(go env GOROOT)/src/go" -xf .devicecarry/go-doc-src.tar
fi
device_build

# Registers, shared memory and spills of every sm_90 kernel.
for f in kernels/generated/*.cu; do
  n=$(basename "$f" .cu)
  printf '%s: ' "$n"
  nvcc -O3 -std=c++17 -I kernels/include -I . -DKGEN_ARCH=sm90 -gencode=arch=compute_90,code=sm_90 \
    -Xptxas -v -c "$f" -o /dev/null 2>&1 | grep -E 'registers|spill' | tr -s ' ' | paste -sd' '
done | tee "$OUT/ptxas.txt"

# The GF(2^8) kernels' host emulation, then compute-sanitizer (memcheck, and
# racecheck: the kernels use shared memory) over the GPU tests of the
# families at small odd shapes (-short).
make host-test 2>&1 | tail -1 | tee "$OUT/sanitizer.txt"
go test -c -o /tmp/gf256.test ./tests/gf256 && go test -c -o /tmp/gemm.test ./tests/gemm
for tool in memcheck racecheck; do
  compute-sanitizer --tool "$tool" --error-exitcode 9 /tmp/gf256.test -test.short \
    -test.run 'TestEveryInstanceBitExact|TestDefaultChoice|TestBadInputIsAnError' 2>&1 | tail -3 | sed "s/^/gf256 $tool: /"
  compute-sanitizer --tool "$tool" --error-exitcode 9 /tmp/gemm.test -test.short \
    -test.run 'TestDegenerateShapes|TestColumnMajorC' 2>&1 | tail -3 | sed "s/^/gemm $tool: /"
done | tee -a "$OUT/sanitizer.txt"

time go test -tags cublas -count=1 -v ./... >"$OUT/test.log" 2>&1
echo "tests exit $?" | tee -a "$OUT/test.log"
grep -E '^(ok|FAIL)' "$OUT/test.log"
grep -E -- '--- FAIL' "$OUT/test.log" | head -30
echo "subtests: $(grep -cE -- '--- PASS' "$OUT/test.log") passed, $(grep -cE -- '--- FAIL' "$OUT/test.log") failed, $(grep -cE -- '--- SKIP' "$OUT/test.log") skipped"

go run ./tools/bench -json "$OUT/bench.json" -csv "$OUT/bench.csv" -svg "$OUT/bench.svg" "$@" 2>&1 | tee "$OUT/bench.txt" | tail -60
