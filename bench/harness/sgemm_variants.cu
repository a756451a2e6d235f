// Harness (session 8): SGEMM variants of kgen/sgemm.cuh against cuBLAS SGEMM in pedantic math at 2048, 4096 and 8192,
// every layout, in interleaved rounds over operand sets rotated past the L2; every variant checked against cuBLAS
// first. "prof" runs one launch of each at 4096 (for ncu). One set of variants per build (results:
// bench/results/h100-2026-11-24-session8.md):
//   -DSET=0  the 4-byte copies of a k-contiguous operand mapped 8 k x 4 rows to a warp (sgemm-copy-mapping.patch)
//            against the tree's 16 k x 2 rows, for the two big tiles; not kept. Needs the tree's header renamed into
//            namespace sgemm_old as OLD_HEADER, and the patch applied:
//              sed 's/^namespace sgemm {/namespace sgemm_old {/' kernels/include/kgen/sgemm.cuh > /tmp/sgemm_old.cuh
//              patch -p1 < bench/harness/sgemm-copy-mapping.patch
//            and -DOLD_HEADER='"/tmp/sgemm_old.cuh"' below.
//   -DSET=1  lane maps (Config's LANE_MAP: rows, columns, row pairs) and thread tile shapes of the two big tiles,
//            layout -DLAYOUT (0-3: nn nt tn tt).
//   -DSET=2  block tiles and depths around 128x256x16: block K 8 in 4-5 stages, 256x128; layout -DLAYOUT.
//   -DSET=3  deeper pipelines (4-5 stages) and block K 32 for the engine's tiles; layout -DLAYOUT.
//   -DSET=5  (session 14) the copies of the tile STAGES - 1 ahead all before a tile's first k step or a share in each
//            (Config::kSpreadCopies) for the engine's four big tiles; layout -DLAYOUT. Not kept: needs the knob patched
//            into a copy of the headers, as for SET=4 with bench/harness/spread-copies.patch. Results:
//            bench/results/h100-2026-11-24-session14.md.
//   -DSET=6  (session 23) the cp.async ring synchronised by mbarriers instead of one barrier a k tile (Config's
//            RING_, the spec's `sync: mbarrier`), the big tiles in 3 and 4 stages; layout -DLAYOUT.
//   -DSET=7  (session 25) the 128x128x16 tile in 4 warps of 64x64 (threads of 8x16, as the 128x256 tile's and
//            cuBLAS's SIMT kernels), two or three blocks an SM, against the spec's 8 warps of 32x64; layout -DLAYOUT.
//   -DSET=8  (session 31) a k-contiguous operand's whole tiles through registers (Config's STAGED_: 16-byte loads,
//            then 4-byte stores to the k-major tile) instead of 4-byte cp.async copies, barrier or mbarrier ring, for
//            the 128x128x16 tile (bounded for 2 blocks an SM: staged, ptxas took it past 128 registers) and the
//            256x128 and 128x256 tiles; layout -DLAYOUT (tn: the tiles without staging, for reference). Not kept:
//            needs the knob patched into a copy of the headers, as for SET=4 with bench/harness/sgemm-staged.patch.
//            Results: bench/results/h100-2026-11-28-session31.md.
//   -DSET=9  (session 31) the cp.async ring's loop stepping a whole turn of the ring (kStages tiles) at a time
//            (Config's kUnrollRing), each tile's slot a constant, against one tile at a time; layout -DLAYOUT. Not
//            kept: needs the knob patched into a copy of the headers, as for SET=4 with
//            bench/harness/sgemm-unroll-ring.patch. Results: bench/results/h100-2026-11-28-session31.md.
//   -DSET=10 (session 32) a k-contiguous operand's tile kept k-contiguous in shared memory (Config's KSMEM_: 16-byte
//            copies, rows swizzled in 16-byte chunks, fragments read 4 k of a row at a time) against the k-major tile,
//            layouts nn, nt, tt (-DLAYOUT); with -DBIG_TILES instead the 8-warp tiles of 8x16 threads (one block an
//            SM, as cuBLAS's 256x128x8 kernel) in BK 8 and 16, 3 and 4 stages, barrier and mbarrier ring. Not kept:
//            needs the knob patched into a copy of the headers with bench/harness/sgemm-ksmem.patch, which also
//            steps multiply_tile's k loop by a template (kgen::sgemm::unrolled): with the patch's first version
//            (call 4) NVVM left the 8x16 tiles' k loop rolled under #pragma unroll, 128 FFMAs a loop turn (the tree's
//            instances and SET 8's build have it unrolled). Script: bench/harness/sgemm_ksmem.sh. Results:
//            bench/results/h100-2026-11-28-session32.md.
//   -DSET=11 (session 32) whole tiles of odd sizes, every row unaligned, through kRuns (gemm_kernel<K,
//            kEdgesRuns>) against the element path, by building the same variants against the tree's header and the
//            parent commit's (bench/harness/sgemm_runs.sh); layouts nn and tt.
//   -DSET=4  (session 13) the order of a k step's FFMAs in 10 variants for the three big tiles; layout -DLAYOUT.
//            Needs the orders patched into a copy of the header (the spec keeps two of them):
//              mkdir /tmp/h && cp -r kernels /tmp/h/ && patch -d /tmp/h -p1 < bench/harness/sgemm-fma-orders.patch
//            and -I /tmp/h/kernels/include before the others. Results: bench/results/h100-2026-11-24-session13.md.
// Build on the GPU machine from the repository root, e.g.
//   nvcc -O3 -std=c++17 -DKGEN_ARCH=sm90 -DSET=1 -DLAYOUT=0 -I kernels/include -I . \
//     -gencode=arch=compute_90,code=sm_90 -o /tmp/sgemm_variants bench/harness/sgemm_variants.cu -lcublas
#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "bench/harness/cublas_sgemm.h"
#include "bench/harness/timing.h"
#include "kgen/sgemm.cuh"


using kgen::Order;
typedef int (*Launch)(int, int, int, float, const float*, int64_t, const float*, int64_t, float, float*, int64_t,
                      void*, int64_t, cudaStream_t);
struct V {
  std::string name;
  const char* layout;
  Launch f;
};

#ifndef SET
#define SET 1
#endif
#if SET == 0
#include OLD_HEADER

template <int BM, int BN, int WM, int WN, int TM, int TN, Order A, Order B>
using Cfg = kgen::sgemm::Config<BM, BN, 16, WM, WN, TM, TN, 1, true, A, B, 3, 1>;
template <int BM, int BN, int WM, int WN, int TM, int TN, Order A, Order B>
using CfgOld = kgen::sgemm_old::Config<BM, BN, 16, WM, WN, TM, TN, 1, true, A, B, 3, 1>;

#define PAIR(tile, BM, BN, WM, WN, TM, TN, l, A, B)                                                  \
  V{std::string(tile) + " old", l, kgen::sgemm_old::launch<CfgOld<BM, BN, WM, WN, TM, TN, A, B>>}, \
      V{std::string(tile) + " new", l, kgen::sgemm::launch<Cfg<BM, BN, WM, WN, TM, TN, A, B>>}
#define TILES(l, A, B)                                                      \
  PAIR("b128x256x16 w64x64 t8x16 s3", 128, 256, 64, 64, 8, 16, l, A, B), \
      PAIR("b128x128x16 w32x64 t8x8 s3", 128, 128, 32, 64, 8, 8, l, A, B)

static std::vector<V> variants() {
  return {TILES("nn", Order::Row, Order::Row), TILES("nt", Order::Row, Order::Col), TILES("tn", Order::Col, Order::Row),
          TILES("tt", Order::Col, Order::Col)};
}
#else
#ifndef LAYOUT
#define LAYOUT 0
#endif
constexpr Order kA = LAYOUT / 2 ? Order::Col : Order::Row, kB = LAYOUT % 2 ? Order::Col : Order::Row;
const char* const kLayout = LAYOUT == 0 ? "nn" : LAYOUT == 1 ? "nt" : LAYOUT == 2 ? "tn" : "tt";

template <int BM, int BN, int BK, int WM, int WN, int TM, int TN, int S, int MAP>
using Cfg = kgen::sgemm::Config<BM, BN, BK, WM, WN, TM, TN, 1, true, kA, kB, S, 1, MAP>;
#define VAR(name, BM, BN, BK, WM, WN, TM, TN, S, MAP) \
  V{name, kLayout, kgen::sgemm::launch<Cfg<BM, BN, BK, WM, WN, TM, TN, S, MAP>>}

#if SET == 4
// The order of a k step's FFMAs (kFmaOrder, with sgemm-fma-orders.patch): 0 rows of the thread tile,
// 1 columns, 2 rows zigzag, 3 columns zigzag, 4 4x4 quadrants zigzag, 5 row pairs, 6 column pairs, 7 row pairs
// zigzag, 8 4x4 quadrants, 9 2x2 blocks zigzag.
template <class Base, int O>
struct Ord : Base {
  static constexpr int kFmaOrder = O;
};
#define ORD(name, BM, BN, BK, WM, WN, TM, TN, S, MAP, O) \
  V{std::string(name) + " o" #O, kLayout, kgen::sgemm::launch<Ord<Cfg<BM, BN, BK, WM, WN, TM, TN, S, MAP>, O>>}
#define ORDERS(name, BM, BN, BK, WM, WN, TM, TN, S, MAP)                                                 \
  ORD(name, BM, BN, BK, WM, WN, TM, TN, S, MAP, 0), ORD(name, BM, BN, BK, WM, WN, TM, TN, S, MAP, 1),   \
      ORD(name, BM, BN, BK, WM, WN, TM, TN, S, MAP, 2), ORD(name, BM, BN, BK, WM, WN, TM, TN, S, MAP, 3), \
      ORD(name, BM, BN, BK, WM, WN, TM, TN, S, MAP, 4), ORD(name, BM, BN, BK, WM, WN, TM, TN, S, MAP, 5),   \
      ORD(name, BM, BN, BK, WM, WN, TM, TN, S, MAP, 6), ORD(name, BM, BN, BK, WM, WN, TM, TN, S, MAP, 7), \
      ORD(name, BM, BN, BK, WM, WN, TM, TN, S, MAP, 8), ORD(name, BM, BN, BK, WM, WN, TM, TN, S, MAP, 9)
#endif
#if SET == 5
// Session 14: the fast path's cp.async copies of the tile STAGES - 1 ahead issued all before a tile's first k step
// (the tree's) or a share in each k step (Config::kSpreadCopies), for the engine's tiles at 2048-8192.
template <class Base, bool SP>
struct Spr : Base {
  static constexpr bool kSpreadCopies = SP;
};
template <int BM, int BN, int BK, int WM, int WN, int TM, int TN, int S, int MAP, int O>
using CfgO = kgen::sgemm::Config<BM, BN, BK, WM, WN, TM, TN, 1, true, kA, kB, S, 1, MAP, O>;
#define SPR(name, BM, BN, BK, WM, WN, TM, TN, S, MAP, O)                                                        \
  V{std::string(name) + " first", kLayout, kgen::sgemm::launch<Spr<CfgO<BM, BN, BK, WM, WN, TM, TN, S, MAP, O>, false>>}, \
      V{std::string(name) + " spread", kLayout,                                                               \
        kgen::sgemm::launch<Spr<CfgO<BM, BN, BK, WM, WN, TM, TN, S, MAP, O>, true>>}
#endif

#if SET == 6 || SET == 7 || SET == 9 || SET == 11
// Session 23: the cp.async ring synchronised by mbarriers (Config's RING_: the slot of tile t - 1 refilled after tile
// t's multiply-adds, so that warps drift up to a tile apart; "ring1") against one barrier a k tile ("ring0"), for the
// engine's big tiles; layout -DLAYOUT. Call 1 of the session ran this at 49b289a, which also had "ring2" (mbarriers,
// slot refilled before the multiply-adds, as the barrier orders it): results in
// bench/results/h100-2026-11-27-session23.md. SET 7 builds its variants from CfgR too.
template <int BM, int BN, int BK, int WM, int WN, int TM, int TN, int MB, int S, int MAP, int O, bool R>
using CfgR = kgen::sgemm::Config<BM, BN, BK, WM, WN, TM, TN, MB, true, kA, kB, S, 1, MAP, O, false, false, R>;
#define RNG(name, BM, BN, BK, WM, WN, TM, TN, MB, S, MAP, O, R) \
  V{std::string(name) + " ring" #R, kLayout, kgen::sgemm::launch<CfgR<BM, BN, BK, WM, WN, TM, TN, MB, S, MAP, O, R>>}
#endif

#if SET == 9
template <class Base, bool U>
struct Unr : Base {
  static constexpr bool kUnrollRing = U;
};
#define UNR(name, BM, BN, BK, WM, WN, TM, TN, MB, S, MAP, O, R)                                              \
  V{std::string(name) + " by tile", kLayout,                                                                   \
    kgen::sgemm::launch<Unr<CfgR<BM, BN, BK, WM, WN, TM, TN, MB, S, MAP, O, R>, false>>},                  \
      V{std::string(name) + " by turn", kLayout,                                                           \
        kgen::sgemm::launch<Unr<CfgR<BM, BN, BK, WM, WN, TM, TN, MB, S, MAP, O, R>, true>>}
#endif

#if SET == 8
template <int BM, int BN, int WM, int WN, int TM, int TN, int MB, int MAP, int O, bool R, bool ST>
using CfgS = kgen::sgemm::Config<BM, BN, 16, WM, WN, TM, TN, MB, true, kA, kB, 3, 1, MAP, O, false, false, R,
                                 kgen::sgemm::kTailWhole, ST>;
#define STG(name, BM, BN, WM, WN, TM, TN, MB, MAP, O, R, ST) \
  V{name, kLayout, kgen::sgemm::launch<CfgS<BM, BN, WM, WN, TM, TN, MB, MAP, O, R, ST>>}
#endif

#if SET == 10
// Session 32: a k-contiguous operand's tile kept k-contiguous in shared memory (Config's KSMEM_: bit 0 A, bit 1 B;
// 16-byte copies, fragments read 4 k of a row at a time) against the k-major tile. MB is the blocks per SM the
// kernel is bounded for.
template <int BM, int BN, int BK, int WM, int WN, int TM, int TN, int MB, int S, int MAP, int O, bool R, int KS>
using CfgK = kgen::sgemm::Config<BM, BN, BK, WM, WN, TM, TN, MB, true, kA, kB, S, 1, MAP, O, false, false, R,
                                 kgen::sgemm::kTailWhole, KS>;
#define KSM(name, BM, BN, WM, WN, TM, TN, MB, MAP, O, R, KS) \
  V{name, kLayout, kgen::sgemm::launch<CfgK<BM, BN, 16, WM, WN, TM, TN, MB, 3, MAP, O, R, KS>>}
// The big tiles (one block an SM) in BK and stages, with the ring or the barrier, and with KS.
#define BIG(name, BM, BN, BK, S, R, KS) \
  V{name, kLayout, kgen::sgemm::launch<CfgK<BM, BN, BK, 64, 64, 8, 16, 1, S, 0, 0, R, KS>>}
#endif

#if SET == 7
// Session 25: 4 warps of 64x64 on the 128x128 tile. MB is the blocks per SM the kernel is bounded for.
#define WV(name, BM, BN, BK, WM, WN, TM, TN, MB, S, MAP, O, R) \
  V{name, kLayout, kgen::sgemm::launch<CfgR<BM, BN, BK, WM, WN, TM, TN, MB, S, MAP, O, R>>}
#endif

static std::vector<V> variants() {
#if SET == 11
  // Session 32: whole tiles of odd sizes (every row unaligned), where the m/n-contiguous operand takes the element
  // path: the same variants built against the tree's header and against the parent commit's (before kRuns), by
  // bench/harness/sgemm_runs.sh.
  return {
      RNG("b128x128x16 t8x8 lc fz s3", 128, 128, 16, 32, 64, 8, 8, 1, 3, 1, 1, 1),
      RNG("b128x128x16 t8x8 lc fq s3", 128, 128, 16, 32, 64, 8, 8, 1, 3, 1, 2, 1),
      RNG("b128x128x16 t8x8 lc fz s3", 128, 128, 16, 32, 64, 8, 8, 1, 3, 1, 1, 0),
      VAR("b256x128x16 w64x64 t8x16 s3", 256, 128, 16, 64, 64, 8, 16, 3, 0),
      VAR("b128x256x16 w64x64 t8x16 s3", 128, 256, 16, 64, 64, 8, 16, 3, 0),
  };
#elif SET == 10 && defined(BIG_TILES)
  // Call 4: cuBLAS's kernel at 4096^3 nn is 256x128x8, 3 stages, one block an SM (Nsight Compute, call 3).
  return {
      KSM("b128x128x16 t8x8 lc fz mb (spec)", 128, 128, 32, 64, 8, 8, 1, 1, 1, true, 0),
      BIG("b256x128x16 s3", 256, 128, 16, 3, false, 0),
      BIG("b256x128x16 s3 mb", 256, 128, 16, 3, true, 0),
      BIG("b256x128x8 s3", 256, 128, 8, 3, false, 0),
      BIG("b256x128x8 s3 mb", 256, 128, 8, 3, true, 0),
      BIG("b256x128x8 s4 mb", 256, 128, 8, 4, true, 0),
      BIG("b128x256x16 s3", 128, 256, 16, 3, false, 0),
      BIG("b128x256x16 s3 mb", 128, 256, 16, 3, true, 0),
      BIG("b128x256x8 s4 mb", 128, 256, 8, 4, true, 0),
#if LAYOUT == 0 || LAYOUT == 1
      BIG("b256x128x16 s3 mb ksA", 256, 128, 16, 3, true, 1),
#endif
  };
#elif SET == 10
  return {
      KSM("b128x128x16 t8x8 lc fz mb (spec)", 128, 128, 32, 64, 8, 8, 1, 1, 1, true, 0),
      KSM("b128x128x16 t8x8 lc fz (barrier)", 128, 128, 32, 64, 8, 8, 1, 1, 1, false, 0),
#if LAYOUT == 0 || LAYOUT == 1
      KSM("b128x128x16 t8x8 lc fz mb ksA", 128, 128, 32, 64, 8, 8, 1, 1, 1, true, 1),
      KSM("b128x128x16 t8x8 lc fz mb ksA 2/SM", 128, 128, 32, 64, 8, 8, 2, 1, 1, true, 1),
      KSM("b128x128x16 t8x8 lc fz ksA", 128, 128, 32, 64, 8, 8, 1, 1, 1, false, 1),
      KSM("b128x128x16 t8x8 lc fq mb ksA", 128, 128, 32, 64, 8, 8, 1, 1, 2, true, 1),
      KSM("b256x128x16 t8x16 ksA", 256, 128, 64, 64, 8, 16, 1, 0, 0, false, 1),
#endif
#if LAYOUT == 1 || LAYOUT == 3
      KSM("b128x128x16 t8x8 lc fz mb ksB", 128, 128, 32, 64, 8, 8, 1, 1, 1, true, 2),
      KSM("b128x128x16 t8x8 lc fz mb ksB 2/SM", 128, 128, 32, 64, 8, 8, 2, 1, 1, true, 2),
      KSM("b128x128x16 t8x8 lc fz ksB", 128, 128, 32, 64, 8, 8, 1, 1, 1, false, 2),
      KSM("b128x256x16 t8x16 ksB", 128, 256, 64, 64, 8, 16, 1, 0, 0, false, 2),
#endif
  };
#elif SET == 9
  return {
      UNR("b128x128x16 t8x8 lc fz s3", 128, 128, 16, 32, 64, 8, 8, 1, 3, 1, 1, false),
      UNR("b128x128x16 t8x8 lc fz s3 mb", 128, 128, 16, 32, 64, 8, 8, 1, 3, 1, 1, true),
      UNR("b128x128x16 t8x8 lc fq s3 mb", 128, 128, 16, 32, 64, 8, 8, 1, 3, 1, 2, true),
      UNR("b256x128x16 t8x16 s3", 256, 128, 16, 64, 64, 8, 16, 1, 3, 0, 0, false),
  };
#elif SET == 8
  return {
      STG("b128x128x16 t8x8 lc fz", 128, 128, 32, 64, 8, 8, 1, 1, 1, false, false),
      STG("b128x128x16 t8x8 lc fz mb", 128, 128, 32, 64, 8, 8, 1, 1, 1, true, false),
#if LAYOUT != 2
      STG("b128x128x16 t8x8 lc fz st", 128, 128, 32, 64, 8, 8, 2, 1, 1, false, true),
      STG("b128x128x16 t8x8 lc fz mb st", 128, 128, 32, 64, 8, 8, 2, 1, 1, true, true),
      STG("b128x128x16 t8x8 lc fq mb st", 128, 128, 32, 64, 8, 8, 2, 1, 2, true, true),
      STG("b256x128x16 t8x16 st", 256, 128, 64, 64, 8, 16, 1, 0, 0, false, true),
      STG("b128x256x16 t8x16 st", 128, 256, 64, 64, 8, 16, 1, 0, 0, false, true),
#endif
      STG("b256x128x16 t8x16", 256, 128, 64, 64, 8, 16, 1, 0, 0, false, false),
      STG("b128x256x16 t8x16", 128, 256, 64, 64, 8, 16, 1, 0, 0, false, false),
  };
#elif SET == 7
  return {
      WV("b128x128x16 w32x64 t8x8 lc fz s3 (spec)", 128, 128, 16, 32, 64, 8, 8, 1, 3, 1, 1, false),
      WV("b128x128x16 w32x64 t8x8 lc fz s3 mb", 128, 128, 16, 32, 64, 8, 8, 1, 3, 1, 1, true),
      WV("b128x256x16 w64x64 t8x16 s3 (spec)", 128, 256, 16, 64, 64, 8, 16, 1, 3, 0, 0, false),
      WV("b128x128x16 w64x64 t8x16 s3", 128, 128, 16, 64, 64, 8, 16, 1, 3, 0, 0, false),
      WV("b128x128x16 w64x64 t8x16 s3 lc", 128, 128, 16, 64, 64, 8, 16, 1, 3, 1, 0, false),
      WV("b128x128x16 w64x64 t8x16 s3 fz", 128, 128, 16, 64, 64, 8, 16, 1, 3, 0, 1, false),
      WV("b128x128x16 w64x64 t8x16 s3 fq", 128, 128, 16, 64, 64, 8, 16, 1, 3, 0, 2, false),
      WV("b128x128x16 w64x64 t8x16 s3 mb", 128, 128, 16, 64, 64, 8, 16, 1, 3, 0, 0, true),
      WV("b128x128x16 w64x64 t8x16 s4", 128, 128, 16, 64, 64, 8, 16, 1, 4, 0, 0, false),
      WV("b128x128x16 w64x64 t8x16 s3 3/SM", 128, 128, 16, 64, 64, 8, 16, 3, 3, 0, 0, false),
      WV("b128x128x8 w64x64 t8x16 s4", 128, 128, 8, 64, 64, 8, 16, 1, 4, 0, 0, false),
      WV("b128x128x32 w64x64 t8x16 s3", 128, 128, 32, 64, 64, 8, 16, 1, 3, 0, 0, false),
  };
#elif SET == 6
  return {
      RNG("b128x128x16 t8x8 lc fz s3", 128, 128, 16, 32, 64, 8, 8, 1, 3, 1, 1, 0),
      RNG("b128x128x16 t8x8 lc fz s3", 128, 128, 16, 32, 64, 8, 8, 1, 3, 1, 1, 1),
      RNG("b128x128x16 t8x8 lc fz s4", 128, 128, 16, 32, 64, 8, 8, 1, 4, 1, 1, 0),
      RNG("b128x128x16 t8x8 lc fz s4", 128, 128, 16, 32, 64, 8, 8, 1, 4, 1, 1, 1),
      RNG("b128x128x16 t8x8 lc fz s4 mb2", 128, 128, 16, 32, 64, 8, 8, 2, 4, 1, 1, 1),
      RNG("b128x128x16 t8x8 lc fq s3", 128, 128, 16, 32, 64, 8, 8, 1, 3, 1, 2, 0),
      RNG("b128x128x16 t8x8 lc fq s3", 128, 128, 16, 32, 64, 8, 8, 1, 3, 1, 2, 1),
      RNG("b128x128x16 t8x8 lc fq s4", 128, 128, 16, 32, 64, 8, 8, 1, 4, 1, 2, 1),
      RNG("b128x256x16 t8x16 s3", 128, 256, 16, 64, 64, 8, 16, 1, 3, 0, 0, 0),
      RNG("b128x256x16 t8x16 s3", 128, 256, 16, 64, 64, 8, 16, 1, 3, 0, 0, 1),
      RNG("b128x256x16 t8x16 s4", 128, 256, 16, 64, 64, 8, 16, 1, 4, 0, 0, 1),
      RNG("b256x128x16 t8x16 s3", 256, 128, 16, 64, 64, 8, 16, 1, 3, 0, 0, 0),
      RNG("b256x128x16 t8x16 s3", 256, 128, 16, 64, 64, 8, 16, 1, 3, 0, 0, 1),
      RNG("b256x128x16 t8x16 s4", 256, 128, 16, 64, 64, 8, 16, 1, 4, 0, 0, 1),
  };
#elif SET == 5
  return {
      SPR("b128x128x16 t8x8 lc fz", 128, 128, 16, 32, 64, 8, 8, 3, 1, 1),
      SPR("b128x128x16 t8x8 lc fq", 128, 128, 16, 32, 64, 8, 8, 3, 1, 2),
      SPR("b128x256x16 t8x16", 128, 256, 16, 64, 64, 8, 16, 3, 0, 0),
      SPR("b256x128x16 t8x16", 256, 128, 16, 64, 64, 8, 16, 3, 0, 0),
  };
#elif SET == 4
  return {
      ORDERS("b128x256x16 t8x16", 128, 256, 16, 64, 64, 8, 16, 3, 0),
      ORDERS("b256x128x16 t8x16", 256, 128, 16, 64, 64, 8, 16, 3, 0),
      ORDERS("b128x128x16 t8x8 lc", 128, 128, 16, 32, 64, 8, 8, 3, 1),
  };
#elif SET == 1
  return {
      VAR("b128x256x16 w64x64 t8x16 map0", 128, 256, 16, 64, 64, 8, 16, 3, 0),
      VAR("b128x256x16 w64x64 t8x16 map1", 128, 256, 16, 64, 64, 8, 16, 3, 1),
      VAR("b128x256x16 w64x64 t8x16 map2", 128, 256, 16, 64, 64, 8, 16, 3, 2),
      VAR("b128x256x16 w64x64 t16x8 map0", 128, 256, 16, 64, 64, 16, 8, 3, 0),
      VAR("b128x256x16 w64x64 t16x8 map1", 128, 256, 16, 64, 64, 16, 8, 3, 1),
      VAR("b128x256x16 w64x64 t16x8 map2", 128, 256, 16, 64, 64, 16, 8, 3, 2),
      VAR("b128x128x16 w32x64 t8x8 map0", 128, 128, 16, 32, 64, 8, 8, 3, 0),
      VAR("b128x128x16 w32x64 t8x8 map1", 128, 128, 16, 32, 64, 8, 8, 3, 1),
      VAR("b128x128x16 w32x64 t8x8 map2", 128, 128, 16, 32, 64, 8, 8, 3, 2),
  };
#elif SET == 3
  return {
      VAR("b128x256x16 w64x64 t8x16 s3 (engine)", 128, 256, 16, 64, 64, 8, 16, 3, 0),
      VAR("b128x256x16 w64x64 t8x16 s4", 128, 256, 16, 64, 64, 8, 16, 4, 0),
      VAR("b128x256x16 w64x64 t8x16 s5", 128, 256, 16, 64, 64, 8, 16, 5, 0),
      VAR("b128x256x32 w64x64 t8x16 s3", 128, 256, 32, 64, 64, 8, 16, 3, 0),
      VAR("b128x128x16 w32x64 t8x8 s3 lc (engine)", 128, 128, 16, 32, 64, 8, 8, 3, 1),
      VAR("b128x128x16 w32x64 t8x8 s4 lc", 128, 128, 16, 32, 64, 8, 8, 4, 1),
      VAR("b128x128x32 w32x64 t8x8 s3 lc", 128, 128, 32, 32, 64, 8, 8, 3, 1),
      VAR("b256x128x16 w64x64 t8x16 s3 (engine)", 256, 128, 16, 64, 64, 8, 16, 3, 0),
      VAR("b256x128x16 w64x64 t8x16 s4", 256, 128, 16, 64, 64, 8, 16, 4, 0),
  };
#else
  return {
      VAR("b128x256x16 w64x64 t8x16 s3 (engine)", 128, 256, 16, 64, 64, 8, 16, 3, 0),
      VAR("b128x128x16 w32x64 t8x8 s3 lc (engine)", 128, 128, 16, 32, 64, 8, 8, 3, 1),
      VAR("b128x256x8 w64x64 t8x16 s4", 128, 256, 8, 64, 64, 8, 16, 4, 0),
      VAR("b128x256x8 w64x64 t8x16 s5", 128, 256, 8, 64, 64, 8, 16, 5, 0),
      VAR("b256x128x8 w64x64 t8x16 s3", 256, 128, 8, 64, 64, 8, 16, 3, 0),
      VAR("b256x128x8 w64x64 t8x16 s4", 256, 128, 8, 64, 64, 8, 16, 4, 0),
      VAR("b256x128x16 w64x64 t8x16 s3", 256, 128, 16, 64, 64, 8, 16, 3, 0),
      VAR("b256x128x8 w64x64 t16x8 s4 lc", 256, 128, 8, 64, 64, 16, 8, 4, 1),
      VAR("b128x256x8 w64x64 t16x8 s4 lc", 128, 256, 8, 64, 64, 16, 8, 4, 1),
  };
#endif
}
#endif

int main(int argc, char** argv) {
  const bool prof = argc > 1 && strcmp(argv[1], "prof") == 0;
  const CublasSgemm cublas;  // on the default stream, as the variants
  std::vector<V> vs = variants();
  // The square sizes timed: 2048, 4096 and 8192, or those of a first argument such as "1023,4097" (odd sizes: every
  // operand's rows unaligned, every copy 4 bytes).
  std::vector<int> sizes = {2048, 4096, 8192};
  if (argc > 1 && !prof) {
    sizes.clear();
    for (const char* p = argv[1]; *p;) {
      char* end;
      sizes.push_back(static_cast<int>(strtol(p, &end, 10)));
      p = *end == ',' ? end + 1 : end + strlen(end);
    }
  }
  for (int n : sizes) {
    if (prof && n != 4096) continue;
    const size_t e = static_cast<size_t>(n) * n;
    const int sets = static_cast<int>(std::max<size_t>(2, (256u << 20) / (3 * e * 4)));
    std::vector<float*> A(sets), B(sets), Cs(sets);
    std::vector<float> hv(e);
    srand(3);
    for (auto& x : hv) x = rand() / static_cast<float>(RAND_MAX) * 2.f - 1.f;
    for (int s = 0; s < sets; ++s) {
      CK(cudaMalloc(&A[s], e * 4));
      CK(cudaMalloc(&B[s], e * 4));
      CK(cudaMalloc(&Cs[s], e * 4));
      CK(cudaMemcpy(A[s], hv.data(), e * 4, cudaMemcpyHostToDevice));
      CK(cudaMemcpy(B[s], hv.data() + (s % 7), (e - 7) * 4, cudaMemcpyHostToDevice));
    }
    float* Cr;
    CK(cudaMalloc(&Cr, e * 4));
    const char* lays[] = {"nn", "nt", "tn", "tt"};
    for (const char* l : lays) {
      const bool a_col = l[0] == 't', b_col = l[1] == 't';
      std::vector<size_t> idx;
      for (size_t i = 0; i < vs.size(); ++i)
        if (strcmp(vs[i].layout, l) == 0) idx.push_back(i);
      if (idx.empty()) continue;  // a per-layout build (SET 1, 2) has variants in one layout only
      // Correctness against cuBLAS on set 0.
      cublas(nullptr, a_col, b_col, n, n, n, A[0], n, B[0], n, Cr);
      std::vector<float> ref(e), got(e);
      CK(cudaDeviceSynchronize());
      CK(cudaMemcpy(ref.data(), Cr, e * 4, cudaMemcpyDeviceToHost));
      std::vector<double> md(vs.size(), 0);
      for (size_t i : idx) {
        CK(cudaMemset(Cs[0], 0xff, e * 4));
        const int rc = vs[i].f(n, n, n, 1.f, A[0], n, B[0], n, 0.f, Cs[0], n, nullptr, 0, 0);
        CK(cudaDeviceSynchronize());
        if (rc) {
          printf("%s %s launch %d\n", vs[i].name.c_str(), l, rc);
          exit(1);
        }
        if (prof) continue;
        CK(cudaMemcpy(got.data(), Cs[0], e * 4, cudaMemcpyDeviceToHost));
        for (size_t j = 0; j < e; ++j) {
          const double d = fabs(static_cast<double>(got[j]) - ref[j]);
          md[i] = std::isnan(got[j]) ? INFINITY : std::max(md[i], d);
        }
      }
      if (prof) continue;
      const int reps = n == 8192 ? 4 : n == 4096 ? 12 : 40;
      const int rounds = n == 8192 ? 3 : 5;
      cudaEvent_t e0, e1;
      cudaEventCreate(&e0);
      cudaEventCreate(&e1);
      std::vector<std::vector<float>> t(vs.size() + 1);
      for (int r = 0; r < rounds; ++r) {
        for (size_t c = 0; c <= idx.size(); ++c) {
          auto run = [&](int s) {
            if (c == idx.size()) {
              cublas(nullptr, a_col, b_col, n, n, n, A[s], n, B[s], n, Cs[s]);
            } else {
              vs[idx[c]].f(n, n, n, 1.f, A[s], n, B[s], n, 0.f, Cs[s], n, nullptr, 0, 0);
            }
          };
          for (int i = 0; i < 2; ++i) run(i % sets);
          CK(cudaEventRecord(e0));
          for (int i = 0; i < reps; ++i) run(i % sets);
          CK(cudaEventRecord(e1));
          CK(cudaEventSynchronize(e1));
          float ms;
          cudaEventElapsedTime(&ms, e0, e1);
          t[c == idx.size() ? vs.size() : idx[c]].push_back(ms / reps);
        }
      }
      const double flop = 2.0 * n * n * static_cast<double>(n);
      const float tc = median(t[vs.size()]);
      printf("n=%d %s cuBLAS %.2f TFLOPS\n", n, l, flop / tc / 1e9);
      for (size_t i : idx) {
        const float ti = median(t[i]);
        printf("n=%d %s %-34s %.2f TFLOPS %.3fx cuBLAS maxdiff %.3g\n", n, l, vs[i].name.c_str(), flop / ti / 1e9,
               tc / ti, md[i]);
      }
      fflush(stdout);
      cudaEventDestroy(e0);
      cudaEventDestroy(e1);
    }
    for (int s = 0; s < sets; ++s) {
      cudaFree(A[s]);
      cudaFree(B[s]);
      cudaFree(Cs[s]);
    }
    cudaFree(Cr);
  }
  return 0;
}
