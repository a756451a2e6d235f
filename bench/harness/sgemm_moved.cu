// Harness (session 50): the kernel for problems whose edge tiles all move inside C and take 16-byte copies
// (kgen::sgemm::kEdgesMoved, Config::kMovedKernel), against the kernel with the element path built in (kEdgesAny),
// which ran them before. Offline, on session 48's H200 tune (h200-2026-11-30-session48-call1-tune-sgemm-merged-
// raw.json.gz), tn's 128x128x16 tiles by columns in quads_zigzag and rows_zigzag order ran aligned shapes that are
// not whole tiles 7-16% slower than the plain 128x128x16 tile, where whole tiles run them 7-11% faster
// (6888x6888x156: 0.4435 and 0.4351 ms against 0.3828), and in their SASS the kEdgesAny kernel's k loop reads two
// registers of one bank parity in 606 and 569 FFMAs, the fast kernel's in 311 and 153 (bench/harness/sass_loops.py).
// Each variant is a spec tiling with kMovedKernel shadowed on ("moved") and off ("any"), whatever Config's rule
// (which these results chose) says. -DSET picks the tilings: 1, the 128x128x16 tile by columns in quads_zigzag,
// rows_zigzag and rows FFMA order with the layout's ring (the spec's lc_fq, lc_fz and lc in tn; lc_fq_mb, lc_fz_mb
// and lc_mb in the others); 2, the other tiles the tables pick (256x128x16 and 128x256x16 of 8x16 threads,
// 128x64x8, 64x64x8 of 8x4 threads). Every variant is checked against cuBLAS first, then timed in interleaved
// rounds over operand sets rotated past the 50 MB L2 (bench/harness/sgemm_harness.h). Results:
// bench/results/h200-2026-11-30-session50.md. Build on the GPU machine, one binary per layout and set:
//   nvcc -O3 -std=c++17 -DKGEN_ARCH=sm90 -DLAYOUT=2 -DSET=1 -I kernels/include -I . \
//     -gencode=arch=compute_90,code=sm_90 -o /tmp/moved-2-1 bench/harness/sgemm_moved.cu -lcublas
//   /tmp/moved-2-1 6888x6888x156,312x312x11584,724x724x8192,1000x3000x500,2000x2000x2000,156x6888x4872,2048x2048x2048
#include "bench/harness/sgemm_harness.h"

// WithMoved is the tile Base with kMovedKernel set to MOVED, whatever Config's rule says.
template <bool MOVED, class Base>
struct WithMoved : Base {
  static constexpr bool kMovedKernel = MOVED;
};

// PAIR is a tiling's two variants: with kEdgesMoved for the moved tiles, and with kEdgesAny.
#define MOVED_VARIANT(name, MOVED, ...)                                               \
  Variant {                                                                           \
    name, kgen::sgemm::launch<WithMoved<MOVED, __VA_ARGS__>>,                         \
        kgen::workspace_bytes<WithMoved<MOVED, __VA_ARGS__>>                          \
  }
#define PAIR(name, ...) MOVED_VARIANT(name " moved", true, __VA_ARGS__), MOVED_VARIANT(name " any", false, __VA_ARGS__)

#ifndef SET
#define SET 1
#endif

#if SET == 1
// The 128x128x16 tile by columns (32x64 warps, 8x8 threads, 3 stages) in quads_zigzag (2), rows_zigzag (1) and rows
// (0) FFMA order, with this layout's ring (kRing).
template <int ORDER>
using ByColumns = LayoutCfg<128, 128, 16, 32, 64, 8, 8, 1, 3, 1, 1, ORDER, false, false, kRing>;
static const Variant kVariants[] = {PAIR("fq", ByColumns<2>), PAIR("fz", ByColumns<1>), PAIR("lc", ByColumns<0>)};
#elif SET == 2
static const Variant kVariants[] = {
    PAIR("256x128", LayoutCfg<256, 128, 16, 64, 64, 8, 16, 1, 3>),
    PAIR("128x256", LayoutCfg<128, 256, 16, 64, 64, 8, 16, 1, 3>),
    PAIR("128x64x8", LayoutCfg<128, 64, 8, 64, 32, 8, 8, 3, 4>),
    PAIR("64x64x8 t8x4", LayoutCfg<64, 64, 8, 32, 32, 8, 4, 4, 4>),
};
#else
#error "SET is 1 or 2"
#endif
constexpr int kN = sizeof(kVariants) / sizeof(kVariants[0]);

int main(int argc, char** argv) { return run_shapes(argc, argv, kVariants, kN, 9, no_extra); }
