#!/usr/bin/env bash
# One device call for new SGEMM instances (NEW, a regular expression of their
# names): build the library, run their tests (tests/gemm -short, with the
# cuBLAS cross-check), tune them alone over the grid and shapes of a previous
# full tune whose times of the other instances they join (MERGE, that tune's
# -tune-raw file, and SEED, its -tune-seed: bench -tune -tune-merge), bench
# them by name beside the engine and cuBLAS at SHAPES, then memcheck and
# racecheck them at small odd shapes. Results go to $OUT: device.txt,
# tune.txt, tune-raw.json.gz, the merged table (<gpu>.yaml), new.{txt,json},
# checks.tar.gz (the logs). TESTS (default TestEveryInstanceAgainstCPU) is
# the tests/gemm tests of which the new instances' subtests run (each names
# its subtests shape/instance/...); SANITIZE=0 leaves the sanitizers out,
# SANITIZE_RUN (a -test.run pattern) runs them over other subtests than the
# small odd shapes of TestEveryInstanceAgainstCPU.
#   source .devicecarry/setup.sh && NEW='_k32f$' MERGE=bench/results/...-raw.json.gz SEED=25 \
#     SHAPES=886x886x886,466x2321x233 bash tools/device/gpu-tune-new.sh
set -uo pipefail
TESTS=${TESTS:-TestEveryInstanceAgainstCPU}
SANITIZE=${SANITIZE:-1}
: "${NEW:?NEW: a regular expression of the new instance names}" "${MERGE:?MERGE: the -tune-raw file of the previous tune}"
: "${SEED:?SEED: the -tune-seed of the previous tune}" "${SHAPES:?SHAPES: shapes MxNxK to bench the new instances at}"
# shellcheck source=tools/device/lib.sh
source tools/device/lib.sh
device_build
go test -tags cublas -c -o /tmp/gemm.test ./tests/gemm || exit 1
step tests 120 /tmp/gemm.test -test.short -test.count=1 -test.v -test.run "($TESTS)/.*/.*$NEW"
# The table written to $OUT keeps the other families' grids of the committed one.
cp kernels/tuning/*.yaml "$OUT"/
t0=$(date +%s)
timeout 200 go run ./tools/bench -tune -tune-families sgemm -tune-seed "$SEED" -filter "$NEW" -tune-merge "$MERGE" \
  -tune-raw "$OUT/tune-raw.json" -tune-out "$OUT" >"$OUT/tune.txt" 2>&1
echo "tune: exit $? in $(($(date +%s) - t0)) s" | tee -a "$OUT/device.txt"
t0=$(date +%s)
timeout 150 go run ./tools/bench -families sgemm -no-progress -sizes '' -ladder-n 0 -filter "$NEW" -shapes "$SHAPES" \
  -json "$OUT/new.json" >"$OUT/new.txt" 2>&1
echo "bench: exit $? in $(($(date +%s) - t0)) s" | tee -a "$OUT/device.txt"
small='1x1x1|35x79x19|128x128x128|257x383x77|516x260x84'
[ "$SANITIZE" = 1 ] && step memcheck 70 compute-sanitizer --tool memcheck --error-exitcode 9 /tmp/gemm.test -test.short -test.v \
  -test.run "${SANITIZE_RUN:-TestEveryInstanceAgainstCPU/^($small)/.*$NEW}"
[ "$SANITIZE" = 1 ] && step racecheck 70 compute-sanitizer --tool racecheck --error-exitcode 9 /tmp/gemm.test -test.short -test.v \
  -test.run "${SANITIZE_RUN:-TestEveryInstanceAgainstCPU/^(35x79x19|516x260x84)/.*$NEW}"
(cd "$OUT" && tar czf checks.tar.gz ./*.log && rm -f ./*.log && gzip -f tune-raw.json)
grep -E '^tune: (worst|merged|wrote)' "$OUT/tune.txt"
