// What the SGEMM harnesses that build one layout each share (sgemm_fill.cu, sgemm_mid.cu, sgemm_tail.cu): the
// layout of the build (-DLAYOUT 0-3: nn nt tn tt; a harness may define its own default before including this), the
// signature of kgen::sgemm's launchers, and one shape's operands, reference and runs of a list of launchers.
#pragma once

#include <cuda_runtime.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

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
