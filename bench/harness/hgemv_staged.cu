// Harness (session 8): HGEMV with 2-8 vectors and a row-major A (y = X A^T, A n x k) through the HGEMM template, whose
// cp.async copies read each row of A 512 bytes per warp instruction (block K 256) into shared memory, against the
// engine's tensor-core GEMV (hgemv_mma: each warp instruction reads 8 rows x 64 bytes) and cuBLAS GemmEx. The GEMM
// is C (m x n) = X (m x k, row-major) B, with B = A^T (k x n) stored column-major: layout nt, M = m rows of which
// the 16-row mma tile uses m. Weights rotate through copies past 128 MiB; interleaved rounds; events over
// back-to-back launches, and a CUDA graph of the same launches.
// Build on the GPU machine from the repository root:
//   nvcc -O3 -std=c++17 -DKGEN_ARCH=sm90 -I kernels/include -I . -gencode=arch=compute_90,code=sm_90 \
//     -o /tmp/hgemv_staged bench/harness/hgemv_staged.cu -lcublas
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
#include "kgen/hgemv_mma.cuh"


using kgen::Order;
using kgen::hgemm::Accum;

template <int BN, int BK, int WN, int S>
using G = kgen::hgemm::Config<16, BN, BK, 16, WN, S, 1, Order::Row, Order::Col, Accum::F32>;

typedef int (*Launch)(int, int, int, float, const uint16_t*, int64_t, const uint16_t*, int64_t, float, uint16_t*,
                      int64_t, cudaStream_t);
struct V {
  const char* name;
  Launch f;
  bool gemm;  // (M, N, K, X, ldx, A, lda, Y, ldy) as a GEMM; else the gemv launcher (m, n, k, A, lda, x, ldx, y, ldy)
};

static std::vector<V> variants() {
  return {
      V{"engine hgemvtc w8 t1 u4 m8", kgen::hgemv_mma::launch<kgen::hgemv_mma::Config<8, 1, 4, 8>>, false},
      V{"gemm b16x32x256 w16x32 s4", kgen::hgemm::launch<G<32, 256, 32, 4>>, true},
      V{"gemm b16x32x128 w16x32 s6", kgen::hgemm::launch<G<32, 128, 32, 6>>, true},
      V{"gemm b16x16x256 w16x16 s6", kgen::hgemm::launch<G<16, 256, 16, 6>>, true},
      V{"gemm b16x32x256 w16x16 s4", kgen::hgemm::launch<G<32, 256, 16, 4>>, true},
      V{"gemm b16x64x128 w16x32 s4", kgen::hgemm::launch<G<64, 128, 32, 4>>, true},
      V{"gemm b16x32x256 w16x32 s6", kgen::hgemm::launch<G<32, 256, 32, 6>>, true},
  };
}

static uint16_t h16(float f) {
  __half_raw r = __half_raw(__float2half(f));
  return r.x;
}
static float f16(uint16_t b) { return kgen::hgemm::half_bits_to_float(b); }

int main() {
  std::vector<V> vs = variants();
  cublasHandle_t h;
  cublasCreate(&h);
  cudaStream_t st;
  CK(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking));
  cublasSetStream(h, st);
  const int shapes[][2] = {{4096, 4096}, {11008, 4096}, {4096, 11008}, {14336, 4096}, {8192, 8192}};
  const int ms[] = {8, 4, 2};
  for (auto& sh : shapes) {
    const int n = sh[0], k = sh[1];
    const size_t ea = static_cast<size_t>(n) * k;
    const int sets = static_cast<int>(std::max<size_t>(2, (128u << 20) / (ea * 2) + 1));
    std::vector<uint16_t*> A(sets), X(sets), Y(sets);
    std::vector<uint16_t> hA(ea), hX(static_cast<size_t>(8) * k);
    srand(1);
    for (auto& v : hA) v = h16((rand() % 2001 - 1000) / 1000.f);
    for (auto& v : hX) v = h16((rand() % 2001 - 1000) / 1000.f);
    for (int s = 0; s < sets; ++s) {
      CK(cudaMalloc(&A[s], ea * 2));
      CK(cudaMalloc(&X[s], hX.size() * 2));
      CK(cudaMalloc(&Y[s], static_cast<size_t>(8) * n * 2));
      CK(cudaMemcpy(A[s], hA.data(), ea * 2, cudaMemcpyHostToDevice));
      CK(cudaMemcpy(X[s], hX.data(), hX.size() * 2, cudaMemcpyHostToDevice));
    }
    uint16_t* Yr;
    CK(cudaMalloc(&Yr, static_cast<size_t>(8) * n * 2));
    const float alpha = 1.f, beta = 0.f;
    for (int m : ms) {
      // Y (m x n row-major) is column-major n x m = A X^T: A (row-major n x k) is column-major k x n, op T.
      auto cub = [&](int s, uint16_t* y) {
        cublasGemmEx(h, CUBLAS_OP_T, CUBLAS_OP_N, n, m, k, &alpha, A[s], CUDA_R_16F, k, X[s], CUDA_R_16F, k, &beta, y,
                     CUDA_R_16F, n, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
      };
      auto call = [&](size_t vi, int s, uint16_t* y) {
        if (vi == vs.size()) return cub(s, y), 0;
        const V& v = vs[vi];
        return v.gemm ? v.f(m, n, k, alpha, X[s], k, A[s], k, beta, y, n, st)
                      : v.f(m, n, k, alpha, A[s], k, X[s], k, beta, y, n, st);
      };
      const size_t ey = static_cast<size_t>(m) * n;
      std::vector<uint16_t> ref(ey), got(ey);
      cub(0, Yr);
      CK(cudaStreamSynchronize(st));
      CK(cudaMemcpy(ref.data(), Yr, ey * 2, cudaMemcpyDeviceToHost));
      double ymax = 0;
      for (auto r : ref) ymax = std::max(ymax, static_cast<double>(fabsf(f16(r))));
      std::vector<double> md(vs.size(), 0);
      for (size_t vi = 0; vi < vs.size(); ++vi) {
        CK(cudaMemsetAsync(Y[0], 0xff, ey * 2, st));
        const int rc = call(vi, 0, Y[0]);
        CK(cudaStreamSynchronize(st));
        if (rc) {
          printf("%s: launch %d\n", vs[vi].name, rc);
          exit(1);
        }
        CK(cudaMemcpy(got.data(), Y[0], ey * 2, cudaMemcpyDeviceToHost));
        for (size_t i = 0; i < ey; ++i) {
          const float g = f16(got[i]), r = f16(ref[i]);
          md[vi] = std::max(md[vi], std::isnan(g) ? INFINITY : static_cast<double>(fabsf(g - r)));
        }
      }
      const int reps = std::max(2 * sets, 24);
      const Timings tm =
          time_interleaved(st, vs.size() + 1, sets, reps, 9, [&](size_t vi, int i) { call(vi, i % sets, Y[i % sets]); });
      const float ce = tm.events[vs.size()], cg = tm.graph[vs.size()];
      const double mb = (ea + static_cast<double>(m) * (k + n)) * 2 / 1e6;  // MB moved: MB per ms is GB/s
      printf("%dx%d m=%d cuBLAS                       events %.2f us graph %.2f us (%.0f GB/s)\n", n, k, m, ce * 1e3,
             cg * 1e3, mb / cg);
      for (size_t vi = 0; vi < vs.size(); ++vi) {
        const float te = tm.events[vi], tg = tm.graph[vi];
        printf("%dx%d m=%d %-30s events %.2f us (%.2fx) graph %.2f us (%.2fx, %.0f GB/s) maxdiff %.3g of max|y| %.3g\n",
               n, k, m, vs[vi].name, te * 1e3, ce / te, tg * 1e3, cg / tg, mb / tg, md[vi], ymax);
      }
    }
    for (int s = 0; s < sets; ++s) {
      cudaFree(A[s]);
      cudaFree(X[s]);
      cudaFree(Y[s]);
    }
    cudaFree(Yr);
  }
  return 0;
}
