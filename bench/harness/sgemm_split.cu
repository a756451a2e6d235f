// Harness (session 17): ways to share a C tile's k range between blocks, layout nn, against each other and cuBLAS
// SGEMM in pedantic math: split-K summed through a workspace by a second kernel (reduce_splits); the same splits
// summed in a thread-block cluster (Config's CLUSTER, kgen::cluster_sum_tile); and stream-K (Config's STREAM_K,
// one wave of blocks sharing every tile's k tiles evenly, reduce_stream). At the shapes whose picks split k (1024^3,
// 128x8192x8192, 1024x1024x8192) and 2048^3, all timed the same way in interleaved rounds (bench/harness/timing.h)
// over operand sets rotated past the 50 MB L2. Every variant is checked against cuBLAS first (largest difference
// relative to the largest |C|). At odd shapes with beta != 0 and an odd ldc, C's guards (the 32 floats either side
// and the columns past N) must be untouched, each cluster variant must equal its workspace twin bit for bit, and every
// other variant must agree with the first within 1e-5 of the largest |C|. It prints how many clusters of each cluster
// variant the GPU holds at once. With PROF set only the odd-shape checks run (for compute-sanitizer).
// This stream-K lost at every shape on an H100 (bench/results/h100-2026-11-25-session17.md) and is not in the headers
// (session 29's `tail: stream` is another design): its variants build with -DKGEN_STREAM_K=1 after
// `git apply bench/harness/sgemm/stream-k.patch` at that session's tree. Session 30 added 4-split clusters of the
// 128x128 tile at two blocks an SM and the 128x64 tile at four: both lost at 1024^3, whose 64 (128) clusters of 4 do
// not all fit at once (bench/results/h100-2026-11-28-session30.md).
// Build on the GPU machine from the repository root:
//   nvcc -O3 -std=c++17 -DKGEN_ARCH=sm90 -I kernels/include -I . -gencode=arch=compute_90,code=sm_90 \
//     -o /tmp/sgemm_split bench/harness/sgemm_split.cu -lcublas
#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "bench/harness/timing.h"
#include "kgen/sgemm.cuh"

using kgen::Order;
#ifndef KGEN_STREAM_K
#define KGEN_STREAM_K 0
#endif
static int g_sms = 0;  // the device's multiprocessors
#if KGEN_STREAM_K
template <int BM, int BN, int BK, int WM, int WN, int TM, int TN_, int S, int SK, int MAP, bool CL, int MINB = 1,
          bool SK_STREAM = false>
using Cfg = kgen::sgemm::Config<BM, BN, BK, WM, WN, TM, TN_, MINB, true, Order::Row, Order::Row, S, SK, MAP, 0, CL,
                                SK_STREAM>;
template <class K>
int64_t workspace(int M, int N, int Kd) {
  return kgen::workspace_bytes<K>(M, N, Kd, g_sms);
}
#else
template <int BM, int BN, int BK, int WM, int WN, int TM, int TN_, int S, int SK, int MAP, bool CL, int MINB = 1>
using Cfg = kgen::sgemm::Config<BM, BN, BK, WM, WN, TM, TN_, MINB, true, Order::Row, Order::Row, S, SK, MAP, 0, CL>;
template <class K>
int64_t workspace(int M, int N, int Kd) {
  return kgen::workspace_bytes<K>(M, N, Kd);
}
#endif

typedef int (*Launch)(int, int, int, float, const float*, int64_t, const float*, int64_t, float, float*, int64_t,
                      void*, int64_t, cudaStream_t);
typedef int64_t (*Workspace)(int, int, int);
typedef int (*Clusters)(int);
struct V {
  std::string name;
  Launch f;
  Workspace ws;
  Clusters clusters;  // clusters of the given size the GPU holds at once; null without clusters
  int twin;           // the variant it must equal bit for bit, or -1
};

template <class K>
int max_clusters(int splits) {
  int device = 0;
  if (kgen::sgemm::prepare<K>() != cudaSuccess || cudaGetDevice(&device) != cudaSuccess) {
    cudaGetLastError();
    return -1;
  }
  return kgen::clusters_held<K>(device, splits, kgen::sgemm::gemm_kernel<K>, K::kThreads, K::kSmemBytes);
}

#define ONE(name, ...) V{name, kgen::sgemm::launch<Cfg<__VA_ARGS__>>, workspace<Cfg<__VA_ARGS__>>, nullptr, -1}
// CLUSTER_MIN: a cluster variant with `minb` blocks per SM for __launch_bounds__; CLUSTER: with 1.
#define CLUSTER_MIN(name, twin, minb, ...)                                                             \
  V{name, kgen::sgemm::launch<Cfg<__VA_ARGS__, true, minb>>, workspace<Cfg<__VA_ARGS__, true, minb>>, \
    max_clusters<Cfg<__VA_ARGS__, true, minb>>, twin}
#define CLUSTER(name, twin, ...) CLUSTER_MIN(name, twin, 1, __VA_ARGS__)

static std::vector<V> variants() {
  return {
      ONE("b256x128x16 t8x16 s3 k4 workspace", 256, 128, 16, 64, 64, 8, 16, 3, 4, 0, false),
      ONE("b128x256x16 t8x16 s3 k4 workspace", 128, 256, 16, 64, 64, 8, 16, 3, 4, 0, false),
      ONE("b128x128x16 t8x8 s3 k4 lc workspace", 128, 128, 16, 32, 64, 8, 8, 3, 4, 1, false),
      ONE("b128x128x16 t8x8 s3 k2 lc workspace", 128, 128, 16, 32, 64, 8, 8, 3, 2, 1, false),
      CLUSTER("b128x128x16 t8x8 s3 k2 lc cluster", 3, 128, 128, 16, 32, 64, 8, 8, 3, 2, 1),
      // (Session 30: 4 splits in a cluster, now that the tile holds two blocks an SM.)
      CLUSTER("b128x128x16 t8x8 s3 k4 lc cluster", 2, 128, 128, 16, 32, 64, 8, 8, 3, 4, 1),
      // (Session 30: the 128x64 tile of 4 warps, four blocks an SM: 1024^3's 128 tiles in 2 or 4 splits.)
      ONE("b128x64x16 t8x8 s3 k2 lc workspace", 128, 64, 16, 64, 32, 8, 8, 3, 2, 1, false, 4),
      CLUSTER_MIN("b128x64x16 t8x8 s3 k2 lc cluster", 6, 4, 128, 64, 16, 64, 32, 8, 8, 3, 2, 1),
      ONE("b128x64x16 t8x8 s3 k4 lc workspace", 128, 64, 16, 64, 32, 8, 8, 3, 4, 1, false, 4),
      CLUSTER_MIN("b128x64x16 t8x8 s3 k4 lc cluster", 8, 4, 128, 64, 16, 64, 32, 8, 8, 3, 4, 1),
#if KGEN_STREAM_K
      ONE("b256x128x16 t8x16 s3 stream-K", 256, 128, 16, 64, 64, 8, 16, 3, 1, 0, false, 1, true),
      ONE("b128x256x16 t8x16 s3 stream-K", 128, 256, 16, 64, 64, 8, 16, 3, 1, 0, false, 1, true),
      ONE("b128x128x16 t8x8 s3 lc stream-K", 128, 128, 16, 32, 64, 8, 8, 3, 1, 1, false, 1, true),
      ONE("b128x128x16 t8x8 s3 lc o2 stream-K", 128, 128, 16, 32, 64, 8, 8, 3, 1, 1, false, 2, true),
#endif
      ONE("b128x128x16 t8x8 s3 lc no split", 128, 128, 16, 32, 64, 8, 8, 3, 1, 1, false),
  };
}

static float frand() { return rand() / static_cast<float>(RAND_MAX) * 2.f - 1.f; }

// check_twins runs every variant at an odd shape with beta != 0 and ldc = N + 3 and checks C (see the top). It
// returns the number of variants that fail.
static int check_twins(const std::vector<V>& vs, cudaStream_t st, int M, int N, int K) {
  const int ldc = N + 3;
  const size_t ea = static_cast<size_t>(M) * K, eb = static_cast<size_t>(K) * N, ec = static_cast<size_t>(M) * ldc + 64;
  std::vector<float> ha(ea), hb(eb), hc(ec);
  for (auto& x : ha) x = frand();
  for (auto& x : hb) x = frand();
  for (auto& x : hc) x = frand();
  float *A, *B, *C;
  CK(cudaMalloc(&A, ea * 4));
  CK(cudaMalloc(&B, eb * 4));
  CK(cudaMalloc(&C, ec * 4));
  CK(cudaMemcpy(A, ha.data(), ea * 4, cudaMemcpyHostToDevice));
  CK(cudaMemcpy(B, hb.data(), eb * 4, cudaMemcpyHostToDevice));
  int64_t wsb = 16;
  for (const V& v : vs) wsb = std::max(wsb, v.ws(M, N, K));
  void* ws;
  CK(cudaMalloc(&ws, wsb));
  std::vector<std::vector<float>> out(vs.size(), std::vector<float>(ec));
  for (size_t vi = 0; vi < vs.size(); ++vi) {
    CK(cudaMemcpy(C, hc.data(), ec * 4, cudaMemcpyHostToDevice));
    // C starts 32 floats in: the 32 before and after it are guards.
    const int rc = vs[vi].f(M, N, K, 0.75f, A, std::max(K, 1), B, N, 0.5f, C + 32, ldc, ws, wsb, st);
    CK(cudaStreamSynchronize(st));
    if (rc) {
      printf("%s: launch %d at %dx%dx%d\n", vs[vi].name.c_str(), rc, M, N, K);
      exit(1);
    }
    CK(cudaMemcpy(out[vi].data(), C, ec * 4, cudaMemcpyDeviceToHost));
  }
  int bad = 0;
  double scale = 0;
  for (float x : out[0]) scale = std::max(scale, static_cast<double>(fabsf(x)));
  for (size_t vi = 0; vi < vs.size(); ++vi) {
    size_t guards = 0;
    double diff = 0;
    for (size_t i = 0; i < ec; ++i) {
      const int64_t at = static_cast<int64_t>(i) - 32;
      if (at < 0 || at >= static_cast<int64_t>(M) * ldc || at % ldc >= N) {
        guards += memcmp(&out[vi][i], &hc[i], 4) != 0;
      } else {
        diff = std::max(diff, std::isnan(out[vi][i]) ? INFINITY : fabs(static_cast<double>(out[vi][i]) - out[0][i]) / scale);
      }
    }
    const bool twin_ok = vs[vi].twin < 0 || memcmp(out[vi].data(), out[vs[vi].twin].data(), ec * 4) == 0;
    const bool ok = guards == 0 && twin_ok && diff <= 1e-5;
    bad += !ok;
    printf("%dx%dx%d beta 0.5 ldc %d: %-36s %s: guards changed %zu, max diff %.2g%s\n", M, N, K, ldc,
           vs[vi].name.c_str(), ok ? "ok" : "FAIL", guards, diff,
           vs[vi].twin < 0 ? "" : twin_ok ? ", equals its twin" : ", DIFFERS FROM ITS TWIN");
  }
  cudaFree(A);
  cudaFree(B);
  cudaFree(C);
  cudaFree(ws);
  return bad;
}

int main() {
  const bool prof = getenv("PROF") != nullptr;
  cublasHandle_t h;
  cublasCreate(&h);
  cublasSetMathMode(h, CUBLAS_PEDANTIC_MATH);
  cudaStream_t st;
  CK(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking));
  cublasSetStream(h, st);
  int device = 0;
  CK(cudaGetDevice(&device));
  CK(cudaDeviceGetAttribute(&g_sms, cudaDevAttrMultiProcessorCount, device));
  const std::vector<V> vs = variants();
  for (const V& v : vs) {
    if (v.clusters) printf("%-40s clusters held at once: %d of 4, %d of 2, %d of 8\n", v.name.c_str(), v.clusters(4), v.clusters(2), v.clusters(8));
  }
  srand(7);
  int bad = check_twins(vs, st, 1031, 1021, 1000) + check_twins(vs, st, 37, 35, 4097) + check_twins(vs, st, 7, 1, 300) +
            check_twins(vs, st, 1, 7, 35) + check_twins(vs, st, 300, 260, 0) + check_twins(vs, st, 129, 257, 33);
  struct Shape {
    int M, N, K;
  };
  // Under PROF (compute-sanitizer) only the odd shapes above run.
  const std::vector<Shape> shapes = prof ? std::vector<Shape>{}
                                         : std::vector<Shape>{{1024, 1024, 1024}, {128, 8192, 8192}, {1024, 1024, 8192},
                                                              {2048, 2048, 2048}, {4096, 4096, 4096}};
  for (const Shape& sh : shapes) {
    const int M = sh.M, N = sh.N, K = sh.K, lda = K;
    const size_t ea = static_cast<size_t>(M) * K, eb = static_cast<size_t>(K) * N, ec = static_cast<size_t>(M) * N;
    const size_t bytes = (ea + eb) * 4;
    const int sets = static_cast<int>(std::max<size_t>(2, ((160u << 20) + bytes - 1) / bytes));
    std::vector<float*> A(sets), B(sets), Cs(sets);
    std::vector<float> ha(ea), hb(eb);
    srand(5);
    for (auto& x : ha) x = frand();
    for (auto& x : hb) x = frand();
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
      cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, N, M, K, &alpha, B[s], N, A[s], lda, &beta, c, N);
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
      if (md[vi] > 1e-5) ++bad;
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
      printf("%dx%dx%d nn cuBLAS                               events %8.2f us graph %8.2f us (%.1f TFLOPS)\n", M, N, K,
             ce * 1e3, cg * 1e3, flop / cg / 1e9);
      for (size_t vi = 0; vi < vs.size(); ++vi) {
        printf("%dx%dx%d nn %-36s events %8.2f us (%.3fx) graph %8.2f us (%.3fx) maxdiff %.2g\n", M, N, K,
               vs[vi].name.c_str(), tm.events[vi] * 1e3, ce / tm.events[vi], tm.graph[vi] * 1e3, cg / tm.graph[vi],
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
  printf("%s: %d checks failed\n", bad ? "FAIL" : "ok", bad);
  return bad ? 1 : 0;
}
