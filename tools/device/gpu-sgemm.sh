#!/usr/bin/env bash
# One device call for a change to the SGEMM kernels alone: build the library,
# run tests/gemm (-short, with the cuBLAS cross-check), compute-sanitizer
# memcheck over the SGEMM tests at small odd shapes and at 128^3 (whole
# tiles with one operand's rows unaligned) and over the graph captures of
# the instances with a workspace, the bench's sgemm section with
# the flags given, if any, then racecheck at small odd shapes. Logs go to
# $OUT.
#   source .devicecarry/setup.sh && bash tools/device/gpu-sgemm.sh [bench flags...]
set -uo pipefail
# shellcheck source=tools/device/lib.sh
source tools/device/lib.sh
device_build

# Test binaries run directly (a timed-out `go test` leaves its binary on the GPU).
go test -tags cublas -c -o /tmp/gemm.test ./tests/gemm || exit 1
step tests 240 /tmp/gemm.test -test.short -test.count=1 -test.v -test.timeout 230s
grep -E -- '--- FAIL' "$OUT/tests.log" | head -20
# A run pattern that selects some instances fails the tests' own "every
# instance ran" count: the verdict is the sanitizer's summary (exit 9 on
# errors) and the subtests' own results.
step memcheck 150 compute-sanitizer --tool memcheck --error-exitcode 9 /tmp/gemm.test -test.short -test.v \
  -test.run 'TestDegenerateShapes|TestWorkspaceInGraphs|TestEveryInstanceAgainstCPU/^(1x1x1|35x79x19|128x128x128|257x383x77|516x260x84)/'
if [ $# -gt 0 ]; then
  t0=$(date +%s)
  go run ./tools/bench -families sgemm -no-progress -json "$OUT/sgemm.json" "$@" >"$OUT/sgemm.txt" 2>&1
  echo "sgemm bench: exit $? in $(($(date +%s) - t0)) s" | tee -a "$OUT/device.txt"
  grep -E '^\s+sgemm .*engine' "$OUT/sgemm.txt" | sed 's/  */ /g' | tail -50
fi
# racecheck last: the slowest step (every instance: 214 s on an H100).
# RACE_RUN narrows it, e.g. to the instances a change touched:
#   RACE_RUN='TestEveryInstanceAgainstCPU/^(35x79x19|516x260x84)/.*_k32f'
step racecheck 240 compute-sanitizer --tool racecheck --error-exitcode 9 /tmp/gemm.test -test.short -test.v \
  -test.run "${RACE_RUN:-TestEveryInstanceAgainstCPU/^(35x79x19|516x260x84)/}"
gzip -f "$OUT"/*.log
