// Harness (session 12): programmatic dependent launch for SGEMM (Config's kEarly). With it, a split instance's
// reduction is launched early and its blocks wait on the SMs that the splits' last blocks leave, and instances of
// which one block fills an SM are launched early themselves; without it, both follow the kernel before them after a
// launch gap. Each instance runs both ways at the shapes whose picks split k (1024^3, 128x8192x8192, 1024x1024x8192,
// 64x64x65536) and at 2048^3, layout nn, against cuBLAS SGEMM in pedantic math, all timed the same way in interleaved
// rounds: back-to-back launches between one event pair, and a CUDA graph of the same launches, over operand sets
// rotated past the 50 MB L2. Every variant is first checked against cuBLAS (largest difference relative to the
// largest |C|). With PROF set in the environment only the correctness pass runs (for compute-sanitizer). -DLAYOUT_TN=1
// builds layout tn (A column-major) instead, at 64x64x65536 and 1024^3 only.
// Build on the GPU machine from the repository root:
//   nvcc -O3 -std=c++17 -DKGEN_ARCH=sm90 -I kernels/include -I . -gencode=arch=compute_90,code=sm_90 \
//     -o /tmp/sgemm_pdl bench/harness/sgemm_pdl.cu -lcublas
#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "bench/harness/timing.h"
#include "kgen/sgemm.cuh"

using kgen::Order;
#ifndef LAYOUT_TN
#define LAYOUT_TN 0
#endif
constexpr Order kA = LAYOUT_TN ? Order::Col : Order::Row;
template <int BM, int BN, int BK, int WM, int WN, int TM, int TN_, int MINB, int S, int SK, int MAP, bool EARLY>
struct Cfg : kgen::sgemm::Config<BM, BN, BK, WM, WN, TM, TN_, MINB, true, kA, Order::Row, S, SK, MAP> {
  static constexpr bool kEarly = EARLY;
};

typedef int (*Launch)(int, int, int, float, const float*, int64_t, const float*, int64_t, float, float*, int64_t,
                      void*, int64_t, cudaStream_t);
typedef int64_t (*Workspace)(int, int, int);
struct V {
  std::string name;
  Launch f;
  Workspace ws;
};
#define PAIR(name, ...)                                                                                     \
  V{std::string(name) + " off", kgen::sgemm::launch<Cfg<__VA_ARGS__, false>>,                              \
    kgen::workspace_bytes<Cfg<__VA_ARGS__, false>>},                                                \
      V{std::string(name) + " early", kgen::sgemm::launch<Cfg<__VA_ARGS__, true>>,                         \
        kgen::workspace_bytes<Cfg<__VA_ARGS__, true>>}

static std::vector<V> variants() {
  return {
      PAIR("b128x128x16 t8x8 s3 k4 lc", 128, 128, 16, 32, 64, 8, 8, 1, 3, 4, 1),
      PAIR("b128x128x16 t8x8 s3 k2 lc", 128, 128, 16, 32, 64, 8, 8, 1, 3, 2, 1),
      PAIR("b128x256x16 t8x16 s3 k4", 128, 256, 16, 64, 64, 8, 16, 1, 3, 4, 0),
      PAIR("b256x128x16 t8x16 s3 k4", 256, 128, 16, 64, 64, 8, 16, 1, 3, 4, 0),
      PAIR("b64x64x8 t4x8 s4 o4 k128", 64, 64, 8, 32, 32, 4, 8, 4, 4, 128, 0),
      PAIR("b128x256x16 t8x16 s3", 128, 256, 16, 64, 64, 8, 16, 1, 3, 1, 0),
  };
}

int main() {
  const bool prof = getenv("PROF") != nullptr;
  cublasHandle_t h;
  cublasCreate(&h);
  cublasSetMathMode(h, CUBLAS_PEDANTIC_MATH);
  cudaStream_t st;
  CK(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking));
  cublasSetStream(h, st);
  const std::vector<V> vs = variants();
  struct Shape {
    int M, N, K;
  };
  const std::vector<Shape> shapes =
      LAYOUT_TN ? std::vector<Shape>{{64, 64, 65536}, {1024, 1024, 1024}}
         : std::vector<Shape>{{1024, 1024, 1024}, {128, 8192, 8192}, {1024, 1024, 8192}, {64, 64, 65536}, {2048, 2048, 2048}};
  const char* layout = LAYOUT_TN ? "tn" : "nn";
  const int lda_of_k = LAYOUT_TN ? 0 : 1;  // lda is K (A row-major, M x K) or M (A column-major)
  for (const Shape& sh : shapes) {
    const int M = sh.M, N = sh.N, K = sh.K, lda = lda_of_k ? K : M;
    const size_t ea = static_cast<size_t>(M) * K, eb = static_cast<size_t>(K) * N, ec = static_cast<size_t>(M) * N;
    const size_t bytes = (ea + eb) * 4;
    const int sets = static_cast<int>(std::max<size_t>(2, ((160u << 20) + bytes - 1) / bytes));
    std::vector<float*> A(sets), B(sets), Cs(sets);
    std::vector<float> ha(ea), hb(eb);
    srand(5);
    for (auto& x : ha) x = rand() / static_cast<float>(RAND_MAX) * 2.f - 1.f;
    for (auto& x : hb) x = rand() / static_cast<float>(RAND_MAX) * 2.f - 1.f;
    for (int s = 0; s < sets; ++s) {
      CK(cudaMalloc(&A[s], ea * 4));
      CK(cudaMalloc(&B[s], eb * 4));
      CK(cudaMalloc(&Cs[s], ec * 4));
      CK(cudaMemcpy(A[s], ha.data(), ea * 4, cudaMemcpyHostToDevice));
      CK(cudaMemcpy(B[s], hb.data(), eb * 4, cudaMemcpyHostToDevice));
    }
    int64_t wsb = 16;
    for (const V& v : vs) wsb = std::max(wsb, v.ws(M, N, K));
    void* ws;
    CK(cudaMalloc(&ws, wsb));
    const float alpha = 1.f, beta = 0.f;
    // Row-major C = A B is column-major C^T = B^T A^T.
    auto cub = [&](int s, float* c) {
      cublasSgemm(h, CUBLAS_OP_N, LAYOUT_TN ? CUBLAS_OP_T : CUBLAS_OP_N, N, M, K, &alpha, B[s], N, A[s], lda, &beta, c, N);
    };
    float* Cr;
    CK(cudaMalloc(&Cr, ec * 4));
    cub(0, Cr);
    std::vector<float> ref(ec), got(ec);
    CK(cudaStreamSynchronize(st));
    CK(cudaMemcpy(ref.data(), Cr, ec * 4, cudaMemcpyDeviceToHost));
    double scale = 0;
    for (float r : ref) scale = std::max(scale, static_cast<double>(fabsf(r)));
    std::vector<double> md(vs.size(), 0);
    for (size_t vi = 0; vi < vs.size(); ++vi) {
      CK(cudaMemsetAsync(Cs[0], 0xff, ec * 4, st));
      const int rc = vs[vi].f(M, N, K, alpha, A[0], lda, B[0], N, beta, Cs[0], N, ws, wsb, st);
      CK(cudaStreamSynchronize(st));
      if (rc) {
        printf("%s: launch %d\n", vs[vi].name.c_str(), rc);
        exit(1);
      }
      CK(cudaMemcpy(got.data(), Cs[0], ec * 4, cudaMemcpyDeviceToHost));
      for (size_t i = 0; i < ec; ++i) {
        md[vi] = std::isnan(got[i]) ? INFINITY : std::max(md[vi], fabs(static_cast<double>(got[i]) - ref[i]) / scale);
      }
    }
    if (!prof) {
      const double flop = 2.0 * M * N * static_cast<double>(K);
      const int reps = std::max(4, std::min(60, static_cast<int>(2e-3 / (flop / 40e12))));
      auto run = [&](size_t vi, int i) {
        const int s = i % sets;
        if (vi == vs.size()) {
          cub(s, Cs[s]);
        } else {
          vs[vi].f(M, N, K, alpha, A[s], lda, B[s], N, beta, Cs[s], N, ws, wsb, st);
        }
      };
      const Timings tm = time_interleaved(st, vs.size() + 1, sets, reps, 7, run);
      const float ce = tm.events[vs.size()], cg = tm.graph[vs.size()];
      printf("%dx%dx%d %s cuBLAS                         events %8.2f us graph %8.2f us (%.1f TFLOPS)\n", M, N, K,
             layout, ce * 1e3, cg * 1e3, flop / cg / 1e9);
      for (size_t vi = 0; vi < vs.size(); ++vi) {
        printf("%dx%dx%d %s %-32s events %8.2f us (%.3fx) graph %8.2f us (%.3fx) maxdiff %.2g\n", M, N, K,
               layout, vs[vi].name.c_str(), tm.events[vi] * 1e3, ce / tm.events[vi], tm.graph[vi] * 1e3, cg / tm.graph[vi],
               md[vi]);
      }
      fflush(stdout);
    } else {
      for (size_t vi = 0; vi < vs.size(); ++vi) printf("%dx%dx%d %s maxdiff %.2g\n", M, N, K, vs[vi].name.c_str(), md[vi]);
    }
    for (int s = 0; s < sets; ++s) {
      cudaFree(A[s]);
      cudaFree(B[s]);
      cudaFree(Cs[s]);
    }
    cudaFree(Cr);
    cudaFree(ws);
  }
  return 0;
}
