#!/usr/bin/env bash
# One device call that checks correctness without the bench: build every
# kernel, run the GF(2^8) host emulation, compute-sanitizer (memcheck and
# racecheck) over the GPU tests of every family at small shapes, then the
# GPU test packages with a GPU required (tests/gemm with its cuBLAS
# cross-check). Logs go to $OUT.
#   source .devicecarry/setup.sh && bash tools/device/gpu-check.sh [go test -run pattern]
# On a fresh machine the whole script takes longer than one device call (the
# build alone about 4 minutes): STEPS picks its parts, e.g. STEPS=memcheck in
# one call, then STEPS=racecheck and STEPS=tests in the next ones while the
# machine is warm (the build is kept); the default is all four of host,
# memcheck, racecheck and tests. FAMILIES (default: all four of gf256,
# gemm, hgemv and hgemm) limits the sanitizers and the tests to some
# families (go/cuda's tests always run).
set -uo pipefail
# shellcheck source=tools/device/lib.sh
source tools/device/lib.sh
STEPS=${STEPS:-host memcheck racecheck tests}
has_step() { [[ " $STEPS " == *" $1 "* ]]; }
FAMILIES=${FAMILIES:-gf256 gemm hgemv hgemm}
has_family() { [[ " $FAMILIES " == *" $1 "* ]]; }
device_build
has_step host && make host-test 2>&1 | grep -E "passed|failed" | tee -a "$OUT/device.txt"

# Test binaries, run directly: `timeout go test` would stop the go command
# and leave its test binary running (and using the GPU) under whatever runs
# next.
for p in tests/gf256 tests/gemm tests/hgemv tests/hgemm go/cuda go/gf256 go/rs; do
  go test -c -o "/tmp/$(echo "$p" | tr / _).test" "./$p" || exit 1
done
# The tests step runs tests/gemm with its cuBLAS cross-check built in (build
# tag cublas, as `make test` on a GPU machine); the sanitizers run the
# binary without it, so that they check kgen's kernels, not cuBLAS's.
if has_step tests; then
  go test -tags cublas -c -o /tmp/tests_gemm_cublas.test ./tests/gemm || exit 1
fi

# compute-sanitizer at small odd shapes (the sanitizers slow kernels a
# hundredfold), memcheck and racecheck: every family stages tiles, x or
# coefficients in shared memory. A run pattern that selects some instances
# fails the test's own "every instance ran" count, so the verdict is the
# sanitizer's summary and exit status 9, and the subtests' own results.
sanitize() { # tool family binary run-pattern
  has_family "$2" || return 0
  (cd /tmp && timeout -k 5 150 compute-sanitizer --tool "$1" --error-exitcode 9 "$3" -test.short -test.v \
    -test.run "$4" >"$OUT/sanitizer-$2-$1.log" 2>&1)
  local st=$?
  echo "sanitizer $1 $2: exit $st (9: errors found), $(grep -c -- '    --- PASS' "$OUT/sanitizer-$2-$1.log") subtests passed," \
    "$(grep -c -- '    --- FAIL' "$OUT/sanitizer-$2-$1.log") failed; $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$OUT/sanitizer-$2-$1.log")" |
    tee -a "$OUT/device.txt"
}
# (TestStreamK's small shapes: stream-K blocks hand partial tiles to their
# owners through global memory and flags, which the other tests' shapes leave
# unused.)
for tool in memcheck racecheck; do
  has_step "$tool" || continue
  sanitize "$tool" gf256 /tmp/tests_gf256.test 'TestEveryInstanceBitExact|TestDefaultChoice|TestBadInputIsAnError|TestQueuedCalls'
  sanitize "$tool" gemm /tmp/tests_gemm.test 'TestDegenerateShapes|TestEveryInstanceAgainstCPU/^(1x1x1|35x79x19|128x128x128)/|TestStreamK/^(128x128x48|256x384x160|125x379x253)/|TestTune'
  sanitize "$tool" hgemv /tmp/tests_hgemv.test 'TestEveryInstance/.*/(7x7|33x256|4097x1)/'
  sanitize "$tool" hgemm /tmp/tests_hgemm.test 'TestEveryInstanceAgainstFloat64/^(35x79x19|257x129x63)/'
done

if has_step tests; then
  : >"$OUT/test.log"
  tests=(/tmp/go_cuda.test)
  has_family gf256 && tests+=(/tmp/go_gf256.test /tmp/go_rs.test /tmp/tests_gf256.test)
  has_family hgemv && tests+=(/tmp/tests_hgemv.test)
  has_family hgemm && tests+=(/tmp/tests_hgemm.test)
  has_family gemm && tests+=(/tmp/tests_gemm_cublas.test)
  for t in "${tests[@]}"; do
    t0=$(date +%s)
    (cd /tmp && timeout -k 5 300 "$t" -test.short -test.count=1 -test.v -test.timeout 290s ${1:+-test.run "$1"} >>"$OUT/test.log" 2>&1)
    st=$? # before any command substitution, which would reset it
    echo "$(basename "$t") exit $st in $(($(date +%s) - t0)) s" | tee -a "$OUT/device.txt"
  done
  grep -E -- '--- FAIL' "$OUT/test.log" | head -40
  echo "subtests: $(grep -cE -- '--- PASS' "$OUT/test.log") passed, $(grep -cE -- '--- FAIL' "$OUT/test.log") failed, $(grep -cE -- '--- SKIP' "$OUT/test.log") skipped" | tee -a "$OUT/device.txt"
  gzip -f "$OUT/test.log"
fi
gzip -f "$OUT/build.log"
