#!/bin/bash
# Shared by the A/B scripts that build spec instances against changed copies of kernels/include and time them
# (sgemm_short_ab.sh, sgemm_elem_ab.sh); source it, then:
#   ab_includes DIR V...           copy kernels/include/kgen to DIR/inc-V for each variant V (to edit, then build)
#   ab_edit DIR V OLD NEW          in DIR/inc-V/kgen/sgemm.cuh, replace every OLD by NEW (an error if OLD is absent)
#   ab_build DIR "INSTS" "VARIANTS" build each instance per variant (variant tree: kernels/include as it is) with
#                                  bench/harness/sgemm_launcher_ab.cu into DIR/<instance>-<variant>, in parallel
#   ab_regs DIR "INSTS" "VARIANTS" [PATTERN]
#                                  one line per build: instance, variant, registers of its kernels (with PATTERN,
#                                  those whose name's next line matches it, as the kernel's template arguments)
#   ab_time DIR "INSTS" "VARIANTS" "SHAPES" LAUNCHES [ROUNDS]
#                                  one line per (round, shape, instance, variant): the launcher's median and sum of C,
#                                  the variants of one instance timed one after another, ROUNDS (1) times interleaved
# Sessions 61-64; results under bench/results (each script names its sessions').

AB_FLAGS="-O3 -std=c++17 -DKGEN_ARCH=sm90 -gencode=arch=compute_90,code=sm_90"

ab_includes() {
  local dir=$1 v
  shift
  for v in "$@"; do
    rm -rf "$dir/inc-$v" && mkdir -p "$dir/inc-$v" && cp -r kernels/include/kgen "$dir/inc-$v/"
  done
}

ab_edit() {
  python3 - "$@" <<'PY'
import sys
d, v, old, new = sys.argv[1:]
p = f"{d}/inc-{v}/kgen/sgemm.cuh"
s = open(p).read()
if old not in s:
    sys.exit(f"{p}: no longer has what variant {v} changes: {old!r}")
open(p, "w").write(s.replace(old, new))
PY
}

ab_build() {
  local dir=$1 insts=$2 variants=$3 i v inc
  for i in $insts; do
    for v in $variants; do
      inc=kernels/include
      [ "$v" != tree ] && inc=$dir/inc-$v
      (nvcc $AB_FLAGS -I "$inc" -I . -c "kernels/generated/$i.cu" -o "$dir/$i-$v.o" &&
        nvcc $AB_FLAGS -DFN="kgen_${i}_sm90" bench/harness/sgemm_launcher_ab.cu "$dir/$i-$v.o" -o "$dir/$i-$v") \
        >"$dir/$i-$v.log" 2>&1 &
    done
  done
  wait
}

ab_regs() {
  local dir=$1 insts=$2 variants=$3 pattern=${4:-} i v usage
  for i in $insts; do
    for v in $variants; do
      usage=$(cuobjdump --dump-resource-usage "$dir/$i-$v.o")
      if [ -n "$pattern" ]; then
        usage=$(echo "$usage" | grep -A1 -E "$pattern" | grep -oE "$pattern|REG:[0-9]+")
      else
        usage=$(echo "$usage" | grep -oE 'REG:[0-9]+')
      fi
      echo "$i $v $(echo "$usage" | paste -sd' ')"
    done
  done
}

ab_time() {
  local dir=$1 insts=$2 variants=$3 shapes=$4 launches=$5 rounds=${6:-1} r s i v
  for r in $(seq "$rounds"); do
    for s in $shapes; do
      for i in $insts; do
        for v in $variants; do
          echo "$i $v $("$dir/$i-$v" "$(echo "$i" | cut -d_ -f2)" ${s//x/ } "$launches")"
        done
      done
    done
  done
}
