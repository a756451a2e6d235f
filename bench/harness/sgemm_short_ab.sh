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
source bench/harness/launcher_ab.sh
ab_includes $B left fill loop any
for v in left fill loop; do
  loop=false
  [ $v = loop ] && loop=true
  ab_edit $B $v "kLiveA && K::kShortLoop>" "kLiveA && $loop>"
  ab_edit $B $v "kLiveB && K::kShortLoop>" "kLiveB && $loop>"
done
ab_edit $B fill "if (!LIVE || i < live) cp_async4(stage + s_off + i * kStride * 4, g + i * g_stride, true);" \
  "{ const bool in = !LIVE || i < live; cp_async4(stage + s_off + i * kStride * 4, in ? g + i * g_stride : g, in); }"
ab_edit $B any $'  if (kHasShort<K> && (M < K::BM || N < K::BN)) return kEdgesShort;\n' ""
ab_build $B "$INSTS" "$VARIANTS"
ab_regs $B "$INSTS" "$VARIANTS" 'ELi(1|4)E' | tee "$OUT/short-ab-regs.txt"
ab_time $B "$INSTS" "$VARIANTS" "$SHAPES" 300 | tee "$OUT/short-ab.txt"
