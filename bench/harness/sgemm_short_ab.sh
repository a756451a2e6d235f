#!/bin/bash
# Sessions 61-62: gemm_kernel<K, kEdgesShort> (C shorter than a tile one way) against kEdgesAny's element path, and
# its copies of rows past the matrix other ways, on one GPU: each instance in $INSTS built once per variant with
# bench/harness/sgemm_launcher_ab.cu, from copies of kernels/include changed by python:
#   tree  as committed (copies of rows past the matrix left out; a loop to the bound where Config::kShortLoop);
#   left  the copies unrolled, each predicated on the thread's bound, in every tile (session 61's tree);
#   fill  unrolled, those past the matrix zero-filled (src-size 0) from an address selected inside it (session 60);
#   loop  the copies a loop to the thread's bound, not unrolled, in every tile;
#   any   edges_kind never picks kEdgesShort: such problems take kEdgesAny (the element path, session 59).
# Then registers (cuobjdump) and the times at $SHAPES. VARIANTS picks which of them to build and time (session 61
# ran left, fill, loop and any, whose left was then the tree; session 62 left, loop and any). Results:
# bench/results/h200-2026-12-02-session61.md and -session62.md.
#   bash bench/harness/sgemm_short_ab.sh    (on the GPU machine, from the repository root; output under $OUT)
set -euo pipefail
OUT=${OUT:-/tmp/out}
B=/tmp/short-ab
mkdir -p "$OUT" $B
INSTS=${INSTS:-"sgemm_nn_f32_b128x128x16_w32x64_t8x8_s3_k4_lc_mb sgemm_nn_f32_b128x128x16_w32x64_t8x8_s3_k32f_lc_fz_mb
sgemm_tt_f32_b128x128x16_w32x64_t8x8_s3_k4_lc_mb sgemm_nt_f32_b128x128x16_w32x64_t8x8_s3_k4_lc_mb
sgemm_nn_f32_b128x128x16_w32x64_t8x8_s3_lc_fz_mb_tc sgemm_nt_f32_b64x64x8_w32x32_t4x8_s4_o4_k32f
sgemm_nn_f32_b32x32x8_w32x16_t4x4_s4_o12_k32f_mb"}
SHAPES=${SHAPES:-"4297x127x1508 4265x10x2025 110x3652x2080 299x45x333 13x820x474"}
VARIANTS=${VARIANTS:-"tree left fill loop any"}
for v in left fill loop any; do
  rm -rf $B/inc-$v && mkdir -p $B/inc-$v && cp -r kernels/include/kgen $B/inc-$v/
done
python3 - "$B" <<'PY'
import sys
b = sys.argv[1]
def edit(v, old, new):
    p = f"{b}/inc-{v}/kgen/sgemm.cuh"
    s = open(p).read()
    assert s.count(old) > 0, ("kgen/sgemm.cuh no longer has what the variant changes", v, old)
    open(p, "w").write(s.replace(old, new))
for v, loop in (("left", "false"), ("fill", "false"), ("loop", "true")):
    edit(v, "kLiveA && K::kShortLoop>", f"kLiveA && {loop}>")
    edit(v, "kLiveB && K::kShortLoop>", f"kLiveB && {loop}>")
edit("fill", "if (!LIVE || i < live) cp_async4(stage + s_off + i * kStride * 4, g + i * g_stride, true);",
     "{ const bool in = !LIVE || i < live; cp_async4(stage + s_off + i * kStride * 4, in ? g + i * g_stride : g, in); }")
edit("any", "  if (kHasShort<K> && (M < K::BM || N < K::BN)) return kEdgesShort;\n", "")
PY
F="-O3 -std=c++17 -DKGEN_ARCH=sm90 -gencode=arch=compute_90,code=sm_90"
for i in $INSTS; do
  for v in $VARIANTS; do
    inc=kernels/include
    [ $v != tree ] && inc=$B/inc-$v
    (nvcc $F -I $inc -I . -c kernels/generated/$i.cu -o $B/$i-$v.o &&
      nvcc $F -DFN=kgen_${i}_sm90 bench/harness/sgemm_launcher_ab.cu $B/$i-$v.o -o $B/$i-$v) >$B/$i-$v.log 2>&1 &
  done
done
wait
for i in $INSTS; do
  for v in $VARIANTS; do
    echo "$i $v $(cuobjdump --dump-resource-usage $B/$i-$v.o | grep -A1 -E 'ELi(1|4)E' | grep -oE 'ELi[0-9]E|REG:[0-9]+' | paste -sd' ')"
  done
done | tee "$OUT/short-ab-regs.txt"
for s in $SHAPES; do
  for i in $INSTS; do
    for v in $VARIANTS; do
      echo "$i $v $($B/$i-$v "$(echo $i | cut -d_ -f2)" ${s//x/ } 300)"
    done
  done
done | tee "$OUT/short-ab.txt"
