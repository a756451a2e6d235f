// What the SGEMM harnesses that build one layout each share (sgemm_fill.cu, sgemm_mid.cu, sgemm_tail.cu,
// sgemm_stream.cu, sgemm_stream_ab.cu, sgemm_staged.cu, sgemm_unroll.cu, sgemm_copystep.cu, sgemm_shifted.cu,
// sgemm_two_warps.cu, sgemm_two_warps_ks.cu, sgemm_k2c_orders.cu, sgemm_desync.cu, sgemm_cubin.cu, sgemm_lanes.cu,
// sgemm_late_copies.cu, sgemm_copy_place.cu, sgemm_split_epilogue.cu, sgemm_copy_banks.cu, sgemm_moved.cu,
// sgemm_skinny.cu, sgemm_narrow.cu, sgemm_spread.cu, sgemm_shortk.cu): the layout of the build (-DLAYOUT 0-3: nn nt
// tn tt; a harness may define its own default before including this), the signature of kgen::sgemm's launchers and
// an entry of a list of them, one shape's operands, reference and runs of such a list, and the main loop over the
// shapes of the command line.
#pragma once

#include <cuda_runtime.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <algorithm>
#include <vector>

#include "bench/harness/cublas_sgemm.h"
#include "bench/harness/timing.h"
#include "kgen/sgemm.cuh"

#ifndef LAYOUT
#define LAYOUT 1
#endif
constexpr bool kAColMajor = LAYOUT >= 2, kBColMajor = LAYOUT % 2 == 1;
constexpr kgen::Order kA = kAColMajor ? kgen::Order::Col : kgen::Order::Row;
constexpr kgen::Order kB = kBColMajor ? kgen::Order::Col : kgen::Order::Row;
constexpr const char* kLayout = LAYOUT == 0 ? "nn" : LAYOUT == 1 ? "nt" : LAYOUT == 2 ? "tn" : "tt";
// kRing is the spec's 128x128x16 tiles' ring synchronisation: mbarriers in the layouts with a k-contiguous operand,
// the barrier in tn.
constexpr bool kRing = LAYOUT != 2;

// Launch is kgen::sgemm::launch's signature, WsBytes kgen::workspace_bytes's.
typedef int (*Launch)(int, int, int, float, const float*, int64_t, const float*, int64_t, float, float*, int64_t,
                      void*, int64_t, cudaStream_t);
typedef int64_t (*WsBytes)(int, int, int);

// Variant is one entry of a harness's list: its name in the output, a kgen::sgemm::launch and that Config's
// kgen::workspace_bytes (null where it needs no workspace).
struct Variant {
  const char* name;
  Launch f;
  WsBytes ws;
};

// LayoutCfg is a kgen::sgemm::Config of this build's layout with 16-byte global access and, after the block, warp and
// thread tiles and the blocks an SM (MB), the stages, splits, lane map, FFMA order, cluster sum, fill splits, ring
// and tail in the order Config takes them. TYPE_VARIANT(name, ...) is a Variant of the Config type ...,
// CFG_VARIANT(name, ...) one of LayoutCfg<...>.
template <int BM, int BN, int BK, int WM, int WN, int TM, int TN, int MB, int S, int SPLIT = 1, int MAP = 0, int O = 0,
          bool CL = false, bool FILL = false, bool R = false, int TAIL = kgen::sgemm::kTailWhole>
using LayoutCfg = kgen::sgemm::Config<BM, BN, BK, WM, WN, TM, TN, MB, true, kA, kB, S, SPLIT, MAP, O, CL, FILL, R, TAIL>;
#define TYPE_VARIANT(name, ...) \
  Variant { name, kgen::sgemm::launch<__VA_ARGS__>, kgen::workspace_bytes<__VA_ARGS__> }
#define CFG_VARIANT(name, ...) TYPE_VARIANT(name, LayoutCfg<__VA_ARGS__>)
// Placed is the tile Base with its copies of the tiles ahead issued at P (Config::kCopyPlace).
template <kgen::sgemm::CopyPlace P, class Base>
struct Placed : Base {
  static constexpr kgen::sgemm::CopyPlace kCopyPlace = P;
};
// SpecTile is the spec's 128x128x16 tile of this build's layout, whole (lanes by column, rows_zigzag, kRing).
using SpecTile = LayoutCfg<128, 128, 16, 32, 64, 8, 8, 1, 3, 1, 1, 1, false, false, kRing>;

// ShapeRun is one M x N x K problem (row-major C, ld N) for n variants vs, each a V with a name, its launch f and
// its workspace ws (none where null): operand sets rotated past the 50 MB L2 (OperandSets), a workspace for the
// largest variant, and a C for cuBLAS's reference.
template <class V>
class ShapeRun {
 public:
  ShapeRun(const CublasSgemm& cublas, cudaStream_t st, const V* vs, int n, int M, int N, int K)
      : M(M), N(N), K(K), lda(kAColMajor ? M : K), ldb(kBColMajor ? K : N), ops(M, N, K), cublas_(cublas), st_(st),
        vs_(vs), n_(n) {
    for (int i = 0; i < n; ++i) ws_bytes_ = std::max(ws_bytes_, vs[i].ws ? vs[i].ws(M, N, K) : 0);
    CK(cudaMalloc(&ref_, elems() * 4));
    CK(cudaMalloc(&ws_, ws_bytes_ + 256));
  }
  ~ShapeRun() {
    cudaFree(ref_);
    cudaFree(ws_);
  }
  ShapeRun(const ShapeRun&) = delete;
  ShapeRun& operator=(const ShapeRun&) = delete;

  // run launches cuBLAS (c 0) or variant c - 1 on operand set s, into that set's C; a failed launch exits.
  void run(int c, int s) const {
    if (c == 0) return cublas_(st_, kAColMajor, kBColMajor, M, N, K, ops.A[s], lda, ops.B[s], ldb, ops.C[s]);
    const int rc = vs_[c - 1].f(M, N, K, 1.f, ops.A[s], lda, ops.B[s], ldb, 0.f, ops.C[s], N, ws_, ws_bytes_, st_);
    if (rc) printf("%s launch %d\n", vs_[c - 1].name, rc), exit(1);
  }
  // check is each variant's difference from cuBLAS on the first operand set (rel_diffs; element c for variant
  // c - 1, element 0 cuBLAS's own 0).
  std::vector<double> check() const {
    return rel_diffs(
        n_ + 1, ref_, ops.C[0], elems(), st_,
        [&] { cublas_(st_, kAColMajor, kBColMajor, M, N, K, ops.A[0], lda, ops.B[0], ldb, ref_); },
        [&](size_t c) { run(static_cast<int>(c), 0); });
  }
  int sets() const { return ops.size(); }

  const int M, N, K;
  const int64_t lda, ldb;
  const OperandSets ops;

 private:
  size_t elems() const { return static_cast<size_t>(M) * N; }

  const CublasSgemm& cublas_;
  const cudaStream_t st_;
  const V* const vs_;
  const int n_;
  int64_t ws_bytes_ = 0;
  float* ref_ = nullptr;
  float* ws_ = nullptr;
};

// run_shapes is a harness's main loop over the shapes of its first argument (MxNxK[,...]): for each, every variant
// of vs (n of them) checked against cuBLAS (ShapeRun::check), then, unless a second argument asks for the checks
// alone ("check", or "prof" for a profiler's run), cuBLAS and the variants timed in `rounds` interleaved rounds of
// 5, 10 or 30 launches (by the flops) and a CSV line printed for each, cuBLAS first:
// layout,M,N,K,variant,ms,graph_ms,x_cublas,reldiff, then what extra(c, M, N, K) prints (c 0 is cuBLAS). It returns
// main's exit status.
template <class V, class Extra>
int run_shapes(int argc, char** argv, const V* vs, int n, int rounds, Extra extra) {
  if (argc < 2) {
    printf("usage: %s MxNxK[,...] [check|prof]\n", argv[0]);
    return 2;
  }
  const bool check_only = argc > 2 && (strcmp(argv[2], "check") == 0 || strcmp(argv[2], "prof") == 0);
  std::vector<GemmShape> shapes;
  if (!parse_shapes(argv[1], shapes)) {
    printf("bad shape list %s (want MxNxK,...)\n", argv[1]);
    return 2;
  }
  const CublasSgemm cublas;
  cudaStream_t st;
  CK(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking));
  for (const GemmShape& sh : shapes) {
    const ShapeRun<V> sr(cublas, st, vs, n, sh.M, sh.N, sh.K);
    const int M = sh.M, N = sh.N, K = sh.K;
    const std::vector<double> rd = sr.check();
    if (check_only) {
      for (int c = 1; c <= n; ++c) printf("%s,%d,%d,%d,%s,reldiff %.2g\n", kLayout, M, N, K, vs[c - 1].name, rd[c]);
      continue;
    }
    const double flop = 2.0 * M * N * static_cast<double>(K);
    const int reps = flop > 6e11 ? 5 : flop > 6e10 ? 10 : 30;
    const Timings t = time_interleaved(st, n + 1, 2, reps, rounds,
                                       [&](size_t c, int i) { sr.run(static_cast<int>(c), i % sr.sets()); });
    for (int c = 0; c <= n; ++c) {
      printf("%s,%d,%d,%d,%s,%.5f,%.5f,%.3f,%.2g", kLayout, M, N, K, c == 0 ? "cublas" : vs[c - 1].name, t.events[c],
             t.graph[c], t.events[0] / t.events[c], rd[c]);
      extra(c, M, N, K);
      printf("\n");
    }
    fflush(stdout);
  }
  CK(cudaStreamDestroy(st));
  return 0;
}

// no_extra is run_shapes's extra for a harness with no columns of its own.
inline void no_extra(int, int, int, int) {}
