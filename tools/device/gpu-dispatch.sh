#!/usr/bin/env bash
# One device call that checks the SGEMM dispatch at shapes of your choosing:
# build the library, then bench every SGEMM instance by name beside the
# engine's choice and cuBLAS at SHAPES in every layout (bench -instances
# all), so that the bench's dispatch table says, for each problem, how the
# engine's pick ran against the fastest instance timed there, and the rows
# say how the engine ran against cuBLAS. Shapes that no tune measured test
# the table's timing model out of sample. Results go to $OUT: device.txt,
# dispatch.txt.gz (the bench's output), dispatch.json.gz (its -json, the
# picks among it), dispatch.csv; with TESTS=1 first the bench's own tests
# (tests.log).
#   source .devicecarry/setup.sh && SHAPES=5720x227x1293,954x6907x623 bash tools/device/gpu-dispatch.sh
set -uo pipefail
: "${SHAPES:?SHAPES: shapes MxNxK to check the dispatch at}"
LIMIT=${LIMIT:-360}
# shellcheck source=tools/device/lib.sh
source tools/device/lib.sh
device_build
if [ "${TESTS:-0}" = 1 ]; then
  t0=$(date +%s)
  go test -count=1 -v ./tools/bench >"$OUT/tests.log" 2>&1
  echo "tests: exit $? in $(($(date +%s) - t0)) s, $(grep -c -- '--- PASS' "$OUT/tests.log") passed," \
    "$(grep -c -- '--- FAIL' "$OUT/tests.log") failed, $(grep -c -- '--- SKIP' "$OUT/tests.log") skipped" | tee -a "$OUT/device.txt"
fi
go build -o /tmp/bench ./tools/bench || exit 1
t0=$(date +%s)
timeout "$LIMIT" /tmp/bench -families sgemm -no-progress -sizes '' -ladder-n 0 -iters "${ITERS:-10}" -shapes "$SHAPES" \
  -instances all -json "$OUT/dispatch.json" -csv "$OUT/dispatch.csv" >"$OUT/dispatch.txt" 2>&1
echo "bench: exit $? in $(($(date +%s) - t0)) s" | tee -a "$OUT/device.txt"
grep -E '^sgemm: the pick' "$OUT/dispatch.txt"
gzip -f "$OUT/dispatch.txt" "$OUT/dispatch.json"
