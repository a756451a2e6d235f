# Shared start of the device scripts (gpu-run.sh, gpu-check.sh,
# gpu-sgemm.sh, gpu-tune-new.sh): source it from the repository root after
# .devicecarry/setup.sh. It creates $OUT, records the GPU (with its clocks,
# temperature and power), nvcc and Go in $OUT/device.txt, and exports what
# the cgo builds and the GPU tests need; device_build builds the library
# (device_build_arch one arch's kernels of it, the others stubbed),
# step runs and records one test binary or sanitizer; on exit,
# device_fit_out packs $OUT into what the device tool brings back. Pack what
# the device needs with tools/device/pack.sh (Go, the vendored modules, CUDA
# 11.8 headers in .devicecarry/, small enough to travel with the tree) and
# carry it.
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"

# device_fit_out: the device tool brings back at most 8 files of $OUT (the
# rest are left out, as session 62's tune file was). Where a script wrote
# more, it keeps device.txt and packs the others, folders and all, into
# out.tar.gz.
device_fit_out() {
  local n
  n=$(find "$OUT" -type f | wc -l)
  [ "$n" -le 8 ] && return
  (cd "$OUT" && find . -type f ! -name device.txt ! -name out.tar.gz -print0 |
    tar czf out.tar.gz --null -T - --remove-files) &&
    echo "device_fit_out: $n files in \$OUT, all but device.txt packed into out.tar.gz" | tee -a "$OUT/device.txt"
}
trap device_fit_out EXIT
{
  nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.sm,temperature.gpu,power.draw --format=csv
  nvcc --version | tail -2
  go version
} 2>&1 | tee "$OUT/device.txt"
# This machine has a GPU: a test that finds none must fail, not skip
# (internal/gputest reads this).
export KGEN_REQUIRE_GPU=1
export CGO_CFLAGS="-I${CUDA118_INCLUDE:-/usr/include}" # gorgonia.org/cu needs the 11.8 headers
export CGO_LDFLAGS="-L${CUDA_HOME:-/usr/local/cuda}/lib64"

# device_build builds every kernel into the library (log: $OUT/build.log),
# records how long it took, and exits the script when the build fails.
device_build() {
  local start
  start=$(date +%s)
  make -j"$(nproc)" lib >"$OUT/build.log" 2>&1 || {
    tail -40 "$OUT/build.log"
    exit 1
  }
  echo "build: $(($(date +%s) - start)) s" | tee -a "$OUT/device.txt"
}

# device_build_arch ARCH (e.g. sm90) builds ARCH's kernels alone, about a
# quarter of device_build's time (123 s against 393 on an H200's machine,
# session 61), and archives them with the other archs' launchers stubbed to
# return an error: a GPU of ARCH never calls those (the bindings dispatch to
# its own arch), and one that did would fail its tests, not pass them. For
# checks and timing on the device when its time is short; a later `make lib`
# builds the rest and archives the whole library again.
device_build_arch() {
  local arch=$1 start objs
  start=$(date +%s)
  objs=$(grep -oE "\\\$\(KGEN_BUILD\)/$arch/[A-Za-z0-9_]+\.o" kernels/generated/kernels.mk |
    sed 's/\$(KGEN_BUILD)/build/' | sort -u)
  [ -n "$objs" ] || { echo "device_build_arch: no kernels for $arch in kernels/generated/kernels.mk"; exit 1; }
  # shellcheck disable=SC2086 # one make target a word
  make -j"$(nproc)" $objs build/runtime/kgen_runtime.o build/libkgen_cublas.a >"$OUT/build.log" 2>&1 || {
    tail -40 "$OUT/build.log"
    exit 1
  }
  grep -ohE "\bkgen_[A-Za-z0-9_]+_sm[0-9]+\b" kernels/generated/kgen_kernels.h | grep -v "_${arch}\$" | sort -u |
    sed 's/.*/int &(void) { return 1; }/' >/tmp/kgen-stubs.c
  gcc -c -fPIC /tmp/kgen-stubs.c -o build/stubs.o || exit 1
  rm -f build/libkgen.a && ar rcs build/libkgen.a "build/$arch"/*.o build/runtime/kgen_runtime.o build/stubs.o
  echo "build ($arch alone, the other archs' launchers stubbed): $(($(date +%s) - start)) s" | tee -a "$OUT/device.txt"
}

# step runs a test binary or sanitizer from /tmp with a time limit, its
# output in $OUT/<name>.log, and records in $OUT/device.txt its exit status,
# time, subtests passed, failed and skipped, and any sanitizer summary.
#   step name timeout command...
step() {
  local name=$1 limit=$2 t0
  shift 2
  t0=$(date +%s)
  (cd /tmp && timeout -k 5 "$limit" "$@" >"$OUT/$name.log" 2>&1)
  local st=$?
  echo "$name: exit $st in $(($(date +%s) - t0)) s, $(grep -c -- '--- PASS' "$OUT/$name.log") passed," \
    "$(grep -c -- '--- FAIL' "$OUT/$name.log") failed, $(grep -c -- '--- SKIP' "$OUT/$name.log") skipped" \
    "$(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$OUT/$name.log")" | tee -a "$OUT/device.txt"
}
