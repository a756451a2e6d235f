// Harness (session 8): HGEMM mma.sync at n = 1024 with cold operands. At this size a 128x128 tile gives 64 blocks and
// a 64x64 tile 32 k tiles of 32 per block; the hypothesis is that each k tile then waits for DRAM (the tile runs at
// 0.95x cuBLAS with operands hot in L2, 0.42-0.44x cold). Variants trade block K, stages and tile shape, with and
// without programmatic dependent launch (K::kEarly), against cuBLAS GemmEx, all timed the same way in interleaved
// rounds: back-to-back launches between one event pair, and a CUDA graph of the same launches, over 16 operand sets
// (96 MiB, past the 50 MB L2). Every variant's C is compared with cuBLAS's first.
// With PROF set in the environment, only the correctness pass runs (one launch each, n = 1024), for ncu.
// Build on the GPU machine from the repository root, one part per -DPART (0-5):
//   nvcc -O3 -std=c++17 -DKGEN_ARCH=sm90 -DPART=0 -I kernels/include -I . -gencode=arch=compute_90,code=sm_90 \
//     -o /tmp/hgemm_small0 bench/harness/hgemm_small.cu -lcublas
#include <cublas_v2.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "bench/harness/timing.h"
#include "kgen/hgemm.cuh"


using kgen::Order;
using kgen::hgemm::Accum;

template <int BM, int BN, int BK, int WM, int WN, int S, Order AO, bool EARLY>
struct C : kgen::hgemm::Config<BM, BN, BK, WM, WN, S, 1, AO, Order::Row, Accum::F32> {
  static constexpr bool kEarly = EARLY;
};

typedef int (*Launch)(int, int, int, float, const uint16_t*, int64_t, const uint16_t*, int64_t, float, uint16_t*,
                      int64_t, cudaStream_t);
struct V {
  const char* name;
  Launch f;
};
#define VR(name, BM, BN, BK, WM, WN, S, AO, E) V{name, kgen::hgemm::launch<C<BM, BN, BK, WM, WN, S, AO, E>>}

#ifndef PART
#define PART 0
#endif
#if PART == 0 || PART == 2
#define AO_ (PART == 0 ? Order::Row : Order::Col)
static std::vector<V> variants() {
  return {
      VR("b64x64x32 w32x32 s3 (engine)", 64, 64, 32, 32, 32, 3, AO_, false),
      VR("b64x64x32 w32x32 s3 early", 64, 64, 32, 32, 32, 3, AO_, true),
      VR("b128x128x32 w64x64 s4", 128, 128, 32, 64, 64, 4, AO_, false),
      VR("b128x128x32 w64x64 s4 early", 128, 128, 32, 64, 64, 4, AO_, true),
      VR("b64x64x32 w32x32 s6 early", 64, 64, 32, 32, 32, 6, AO_, true),
      VR("b64x64x64 w32x32 s4 early", 64, 64, 64, 32, 32, 4, AO_, true),
      VR("b64x64x64 w32x32 s6 early", 64, 64, 64, 32, 32, 6, AO_, true),
  };
}
#elif PART >= 4
// Call 2: the 6-stage tiles without the early start, and deeper or wider.
#define AO_ (PART == 4 ? Order::Row : Order::Col)
static std::vector<V> variants() {
  return {
      VR("b128x64x64 w64x32 s6", 128, 64, 64, 64, 32, 6, AO_, false),
      VR("b128x64x64 w64x32 s6 early", 128, 64, 64, 64, 32, 6, AO_, true),
      VR("b128x64x64 w64x32 s8 early", 128, 64, 64, 64, 32, 8, AO_, true),
      VR("b64x128x64 w32x64 s8 early", 64, 128, 64, 32, 64, 8, AO_, true),
      VR("b128x128x64 w64x64 s6 early", 128, 128, 64, 64, 64, 6, AO_, true),
      VR("b128x64x32 w64x32 s8 early", 128, 64, 32, 64, 32, 8, AO_, true),
  };
}
#else
#define AO_ (PART == 1 ? Order::Row : Order::Col)
static std::vector<V> variants() {
  return {
      VR("b64x128x64 w32x64 s4 early", 64, 128, 64, 32, 64, 4, AO_, true),
      VR("b64x128x64 w32x64 s6 early", 64, 128, 64, 32, 64, 6, AO_, true),
      VR("b64x128x64 w32x32 s6 early", 64, 128, 64, 32, 32, 6, AO_, true),
      VR("b128x64x64 w64x32 s6 early", 128, 64, 64, 64, 32, 6, AO_, true),
      VR("b128x64x64 w32x32 s6 early", 128, 64, 64, 32, 32, 6, AO_, true),
      VR("b128x128x64 w64x64 s4 early", 128, 128, 64, 64, 64, 4, AO_, true),
      VR("b64x128x32 w32x32 s8 early", 64, 128, 32, 32, 32, 8, AO_, true),
  };
}
#endif

static uint16_t h16(float f) {
  __half_raw r = __half_raw(__float2half(f));
  return r.x;
}

int main() {
  const bool a_col = PART == 2 || PART == 3 || PART == 5;
  const bool prof = getenv("PROF") != nullptr;  // one launch of each (ncu): the correctness pass only, n = 1024
  const char* layout = a_col ? "tn" : "nn";
  std::vector<V> vs = variants();
  cublasHandle_t h;
  cublasCreate(&h);
  cudaStream_t st;
  CK(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking));
  cublasSetStream(h, st);
  const int sizes[] = {1024, 2048};
  for (int n : sizes) {
    const size_t e = static_cast<size_t>(n) * n;
    const int sets = n == 1024 ? 16 : 4;  // 16 x 6 MiB at 1024, 4 x 24 MiB at 2048
    std::vector<uint16_t*> A(sets), B(sets), Cs(sets);
    std::vector<uint16_t> hA(e), hB(e);
    srand(1);
    for (size_t i = 0; i < e; ++i) {
      hA[i] = h16((rand() % 2001 - 1000) / 1000.f);
      hB[i] = h16((rand() % 2001 - 1000) / 1000.f);
    }
    for (int s = 0; s < sets; ++s) {
      CK(cudaMalloc(&A[s], e * 2));
      CK(cudaMalloc(&B[s], e * 2));
      CK(cudaMalloc(&Cs[s], e * 2));
      CK(cudaMemcpy(A[s], hA.data(), e * 2, cudaMemcpyHostToDevice));
      CK(cudaMemcpy(B[s], hB.data(), e * 2, cudaMemcpyHostToDevice));
    }
    uint16_t* Cr;
    CK(cudaMalloc(&Cr, e * 2));
    const float alpha = 1.f, beta = 0.f;
    // Row-major C = A B is column-major C^T = B^T A^T: B as stored, A as stored (nn) or transposed (tn, A column-major).
    auto cub = [&](int s, uint16_t* c) {
      cublasGemmEx(h, CUBLAS_OP_N, a_col ? CUBLAS_OP_T : CUBLAS_OP_N, n, n, n, &alpha, B[s], CUDA_R_16F, n, A[s],
                   CUDA_R_16F, n, &beta, c, CUDA_R_16F, n, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
    };
    std::vector<uint16_t> ref(e), got(e);
    cub(0, Cr);
    CK(cudaStreamSynchronize(st));
    CK(cudaMemcpy(ref.data(), Cr, e * 2, cudaMemcpyDeviceToHost));
    std::vector<double> md(vs.size(), 0);
    for (size_t vi = 0; vi < vs.size(); ++vi) {
      CK(cudaMemsetAsync(Cs[0], 0xff, e * 2, st));
      const int rc = vs[vi].f(n, n, n, alpha, A[0], n, B[0], n, beta, Cs[0], n, st);
      CK(cudaStreamSynchronize(st));
      if (rc) {
        printf("%s: launch %d\n", vs[vi].name, rc);
        exit(1);
      }
      CK(cudaMemcpy(got.data(), Cs[0], e * 2, cudaMemcpyDeviceToHost));
      for (size_t i = 0; i < e; ++i) {
        const float g = kgen::hgemm::half_bits_to_float(got[i]), r = kgen::hgemm::half_bits_to_float(ref[i]);
        md[vi] = std::max(md[vi], std::isnan(g) ? INFINITY : static_cast<double>(fabsf(g - r)));
      }
    }
    if (prof) break;
    const int reps = 2 * sets * (n == 1024 ? 2 : 1);  // launches per timing, cycling the sets
    // Candidates: the variants, then cuBLAS.
    auto run = [&](size_t vi, int i) {
      const int s = i % sets;
      if (vi == vs.size()) {
        cub(s, Cs[s]);
      } else {
        vs[vi].f(n, n, n, alpha, A[s], n, B[s], n, beta, Cs[s], n, st);
      }
    };
    const Timings tm = time_interleaved(st, vs.size() + 1, sets, reps, 9, run);
    const double flop = 2.0 * n * n * static_cast<double>(n);
    const float ce = tm.events[vs.size()], cg = tm.graph[vs.size()];
    printf("n=%d %s cuBLAS                          events %.2f us graph %.2f us (%.0f TFLOPS)\n", n, layout, ce * 1e3,
           cg * 1e3, flop / cg / 1e9);
    for (size_t vi = 0; vi < vs.size(); ++vi) {
      const float te = tm.events[vi], tg = tm.graph[vi];
      printf("n=%d %s %-34s events %.2f us (%.2fx) graph %.2f us (%.2fx) maxdiff %.3g\n", n, layout, vs[vi].name,
             te * 1e3, ce / te, tg * 1e3, cg / tg, md[vi]);
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
