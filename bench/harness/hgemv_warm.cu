// Harness (session 11): L2 warming before the wait (kgen::warm_l2) in the HGEMV kernels the engine picks, each with
// warming off (kWarmBytes 0) and its default, and the layout-t staged kernel with blocks splitting k 2, 4 and 8
// ways, against cuBLAS GemmEx and a pure read of the same weights. Correctness first (odd shapes, misaligned
// operands, guard bands). Weights rotate through copies past 300 MiB; L launches between a pair of events, median
// of 7. Build on the GPU machine from the repository root:
//   nvcc -std=c++17 -O3 -arch=sm_90 -Xcompiler -fopenmp -DKGEN_ARCH=sm90 -I kernels/include -I . \
//     -o /tmp/hgemv_warm bench/harness/hgemv_warm.cu -lcublas
#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <omp.h>
#include <stdio.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include "bench/harness/timing.h"
#include "kgen/hgemv.cuh"
#include "kgen/hgemv_mma.cuh"
#include "kgen/hgemv_mma_s.cuh"
#include "kgen/hgemv_mma_t.cuh"
#include "kgen/hgemv_mma_ts.cuh"


using kgen::hgemv::float_to_half;
using kgen::hgemv::half_to_float;

__global__ void sweep(const uint4* p, size_t n16, unsigned* sink) {
  unsigned acc = 0;
  const size_t stride = size_t(gridDim.x) * blockDim.x;
  size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  for (; i + 3 * stride < n16; i += 4 * stride) {
    uint4 v0 = __ldcs(p + i), v1 = __ldcs(p + i + stride), v2 = __ldcs(p + i + 2 * stride), v3 = __ldcs(p + i + 3 * stride);
    acc ^= v0.x ^ v0.y ^ v0.z ^ v0.w ^ v1.x ^ v1.y ^ v1.z ^ v1.w ^ v2.x ^ v2.y ^ v2.z ^ v2.w ^ v3.x ^ v3.y ^ v3.z ^ v3.w;
  }
  for (; i < n16; i += stride) { uint4 v = __ldcs(p + i); acc ^= v.x ^ v.y ^ v.z ^ v.w; }
  for (int o = 16; o; o /= 2) acc ^= __shfl_xor_sync(~0u, acc, o);
  if (threadIdx.x % 32 == 0) sink[blockIdx.x * 8 + threadIdx.x / 32] = acc;
}

typedef int (*LaunchFn)(int, int, int, float, const uint16_t*, int64_t, const uint16_t*, int64_t, float, uint16_t*, int64_t, cudaStream_t);
struct Kern { std::string name; LaunchFn fn; int maxm; bool trans; };

namespace S = kgen::hgemv_mma_s;
namespace TS = kgen::hgemv_mma_ts;
namespace T = kgen::hgemv_mma_t;
namespace M = kgen::hgemv_mma;
namespace H = kgen::hgemv;
template <class B, int W> struct WB : B { static constexpr int kWarmBytes = W; };
using OneVec = H::Config<H::Layout::N, 32, 8, 8, true, 1, 256, 1, 1, false>;
using SplitT1 = H::Config<H::Layout::T, 16, 16, 8, false, 16, 256, 1, 1, false>;
#define V(name, ns, cfg, w, maxm, t) {std::string(name) + " " #w, ns::launch<WB<cfg, w>>, maxm, t}

#define D(name, ns, cfg, maxm, t) {std::string(name) + " dflt", ns::launch<cfg>, maxm, t}
std::vector<Kern> kernels() {
  using S1 = S::Config<8, 1, 8, 8>; using S2 = S::Config<8, 2, 4, 8>; using S3 = S::Config<16, 2, 4, 8>;
  using X0 = TS::Config<16, 4, 8, 2>;
  using X1 = TS::Config<16, 4, 8, 4>;
  using X2 = TS::Config<16, 4, 8, 8>;
  using X3 = TS::Config<8, 4, 8, 4>;
  using X4 = TS::Config<8, 8, 8, 4>;
  using X5 = TS::Config<16, 8, 8, 2>;
  using X6 = T::Config<16, 2, 8, 2>;
  using X7 = T::Config<16, 2, 8, 4>;
  using X8 = T::Config<8, 4, 8, 4>;
  using M1 = M::Config<16, 1, 4, 8>; using T1 = T::Config<16, 2, 8>; using T2 = T::Config<8, 2, 8, 8>; using TS1 = TS::Config<16, 4, 8>;
  return {
      V("s w8t1s8", S, S1, 0, 8, false), D("s w8t1s8", S, S1, 8, false),
      V("s w8t2s4", S, S2, 0, 8, false), D("s w8t2s4", S, S2, 8, false),
      V("s w16t2s4", S, S3, 0, 8, false), D("s w16t2s4", S, S3, 8, false),
      V("tc w16t1u4", M, M1, 0, 8, false), D("tc w16t1u4", M, M1, 8, false),
      V("cc 1vec", H, OneVec, 0, 1, false), D("cc 1vec", H, OneVec, 1, false),
      V("ts w16s4", TS, TS1, 0, 8, true), D("ts w16s4", TS, TS1, 8, true),
      D("ts w16s4k2", TS, X0, 8, true), D("ts w16s4k4", TS, X1, 8, true),
      D("ts w16s4k8", TS, X2, 8, true), D("ts w8s4k4", TS, X3, 8, true),
      D("ts w8s8k4", TS, X4, 8, true), D("ts w16s8k2", TS, X5, 8, true),
      V("t w16u2", T, T1, 0, 8, true), D("t w16u2", T, T1, 8, true),
      D("t w16u2k2", T, X6, 8, true), D("t w16u2k4", T, X7, 8, true),
      D("t w8u4k4", T, X8, 8, true),
      V("t w8u2k8", T, T2, 0, 8, true), D("t w8u2k8", T, T2, 8, true),
      D("cc st1", H, SplitT1, 1, true),
  };
}

static uint64_t rs = 88172645463325252ull;
static inline uint32_t xr() { rs ^= rs << 13; rs ^= rs >> 7; rs ^= rs << 17; return uint32_t(rs); }
static uint16_t rh() { return float_to_half((int(xr() % 2001) - 1000) / 1000.f); }


int main(int argc, char** argv) {
  const bool check_only = argc > 1 && std::string(argv[1]) == "check";
  cudaDeviceProp prop; CK(cudaGetDeviceProperties(&prop, 0));
  printf("# %s, %d SMs\n", prop.name, prop.multiProcessorCount);
  cublasHandle_t h; cublasCreate(&h);
  cudaStream_t st; CK(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking));
  cublasSetStream(h, st);
  cudaEvent_t e0, e1; cudaEventCreate(&e0); cudaEventCreate(&e1);
  auto ks = kernels();
  unsigned* sink; CK(cudaMalloc(&sink, 1 << 20));

  // 1. Correctness of every kernel against a float64 reference at odd shapes.
  {
    struct C { int n, k, m, aoff, lpad; } cs[] = {{200, 1000, 8, 0, 0}, {4095, 777, 3, 0, 8}, {64, 4100, 8, 0, 8}, {1000, 1544, 5, 0, 0}, {4097, 512, 8, 0, 0}, {35, 4095, 8, 0, 1}, {129, 2312, 3, 8, 8}, {4096, 4096, 8, 0, 0}, {1, 256, 1, 0, 0}, {17, 8192, 2, 0, 0}};
    int bad = 0, total = 0;
    for (auto c : cs) {
      if (check_only && c.n * int64_t(c.k) > 4000000) continue;
      const int64_t lda = c.k + c.lpad, ldx = c.k + c.lpad;
      for (int trans = 0; trans < 2; ++trans) {
      const int64_t ldat = trans ? c.n + c.lpad : lda;
      std::vector<uint16_t> A(trans ? size_t(c.k) * ldat + c.aoff + 64 : size_t(c.n) * lda + c.aoff + 64), X(size_t(8) * ldx + 64), Y(size_t(8) * c.n);
      for (auto& v : A) v = rh(); for (auto& v : X) v = rh();
      std::vector<double> ref(size_t(8) * c.n), mag(size_t(8) * c.n);
#pragma omp parallel for
      for (int r = 0; r < c.n; ++r)
        for (int i = 0; i < 8; ++i) { double s = 0, a = 0; for (int q = 0; q < c.k; ++q) { double t = double(half_to_float(A[c.aoff + (trans ? size_t(q) * ldat + r : size_t(r) * lda + q)])) * half_to_float(X[size_t(i) * ldx + q]); s += t; a += fabs(t);} ref[size_t(i) * c.n + r] = s; mag[size_t(i) * c.n + r] = a; }
      uint16_t *dA, *dX, *dY; CK(cudaMalloc(&dA, A.size() * 2)); CK(cudaMalloc(&dX, X.size() * 2)); CK(cudaMalloc(&dY, Y.size() * 2 + 64));
      CK(cudaMemcpy(dA, A.data(), A.size() * 2, cudaMemcpyHostToDevice)); CK(cudaMemcpy(dX, X.data(), X.size() * 2, cudaMemcpyHostToDevice));
      for (auto& kk : ks) {
        if (kk.trans != bool(trans)) continue;
        const int m = std::min(c.m, kk.maxm);
        CK(cudaMemset(dY, 0xff, Y.size() * 2 + 64));
        int rc = kk.fn(m, c.n, c.k, 1.f, dA + c.aoff, ldat, dX, ldx, 0.f, dY, c.n, st);
        CK(cudaStreamSynchronize(st));
        std::vector<uint16_t> got(Y.size() + 32); CK(cudaMemcpy(got.data(), dY, got.size() * 2, cudaMemcpyDeviceToHost));
        int nb = 0;
        for (int i = 0; i < m; ++i) for (int r = 0; r < c.n; ++r) {
          double g = half_to_float(got[size_t(i) * c.n + r]), rf = ref[size_t(i) * c.n + r];
          double tol = ldexp(fabs(rf), -10) + 4 * sqrt(double(c.k)) * ldexp(mag[size_t(i) * c.n + r], -24) + ldexp(1.0, -24);
          if (!(fabs(g - rf) <= tol)) { if (nb < 3) printf("  BAD %s n=%d k=%d m=%d i=%d r=%d got %g want %g\n", kk.name.c_str(), c.n, c.k, m, i, r, g, rf); ++nb; }
        }
        for (size_t q = size_t(m) * c.n; q < got.size(); ++q) if (got[q] != 0xffff) { ++nb; if (nb < 4) printf("  GUARD %s at %zu\n", kk.name.c_str(), q); break; }
        total++; if (nb || rc) { bad++; printf("FAIL %s n=%d k=%d m=%d rc=%d bad=%d\n", kk.name.c_str(), c.n, c.k, m, rc, nb); }
      }
      cudaFree(dA); cudaFree(dX); cudaFree(dY);
      }
    }
    printf("correctness: %d runs, %d failed\n", total, bad);
    if (check_only) return bad ? 1 : 0;
  }

  // 2. Timing.
  struct Sh { int n, k; } shapes[] = {{1024, 1024}, {2048, 2048}, {4096, 4096}, {4096, 11008}, {11008, 4096}, {8192, 8192}, {14336, 4096}};
  const int ms[] = {1, 2, 8};
  // copy rate: 2 x 256 MiB device-to-device
  double copy_gbs;
  {
    size_t b = size_t(256) << 20; void *p, *q; CK(cudaMalloc(&p, b)); CK(cudaMalloc(&q, b));
    std::vector<float> t;
    for (int r = 0; r < 9; ++r) { cudaEventRecord(e0, st); cudaMemcpyAsync(q, p, b, cudaMemcpyDeviceToDevice, st); cudaEventRecord(e1, st); cudaEventSynchronize(e1); float ms_; cudaEventElapsedTime(&ms_, e0, e1); t.push_back(ms_); }
    copy_gbs = 2.0 * b / (median(t) * 1e6);  // bytes read + written per second
    printf("# copy rate %.0f GB/s (read + write)\n", copy_gbs);
    cudaFree(p); cudaFree(q);
  }
  for (auto sh : shapes) {
    const size_t abytes = size_t(sh.n) * sh.k * 2;
    const int copies = std::max<int>(2, int((size_t(300) << 20) / abytes + 1));
    uint16_t *dA, *dX, *dY; CK(cudaMalloc(&dA, abytes * copies)); CK(cudaMalloc(&dX, size_t(8) * sh.k * 2)); CK(cudaMalloc(&dY, size_t(8) * sh.n * 2));
    {
      std::vector<uint16_t> A(size_t(sh.n) * sh.k), X(size_t(8) * sh.k);
      for (auto& v : A) v = rh(); for (auto& v : X) v = rh();
      CK(cudaMemcpy(dA, A.data(), abytes, cudaMemcpyHostToDevice)); CK(cudaMemcpy(dX, X.data(), X.size() * 2, cudaMemcpyHostToDevice));
      for (int c = 1; c < copies; ++c) CK(cudaMemcpy((char*)dA + c * abytes, dA, abytes, cudaMemcpyDeviceToDevice));
    }
    const int L = ((40 + copies - 1) / copies) * copies;
    auto timeit = [&](std::function<void(int)> f) {
      for (int i = 0; i < copies * 2; ++i) f(i % copies);
      std::vector<float> t;
      for (int r = 0; r < 7; ++r) {
        cudaEventRecord(e0, st); for (int i = 0; i < L; ++i) f(i % copies); cudaEventRecord(e1, st); CK(cudaEventSynchronize(e1));
        float v; cudaEventElapsedTime(&v, e0, e1); t.push_back(v * 1000.f / L);
      }
      CK(cudaGetLastError());
      return median(t);
    };
    auto Ai = [&](int c) { return (const uint16_t*)((const char*)dA + size_t(c) * abytes); };
    const float read = timeit([&](int c) { sweep<<<8 * prop.multiProcessorCount, 256, 0, st>>>((const uint4*)Ai(c), abytes / 16, sink); });
    for (int m : ms) {
      const double floor_us = (abytes + 2.0 * m * sh.k + 2.0 * m * sh.n) / (copy_gbs * 1e3);
      const float one = 1.f, zero = 0.f;
      for (int trans = 0; trans < 2; ++trans) {
      const float cub = timeit([&](int c) {
        cublasGemmEx(h, trans ? CUBLAS_OP_N : CUBLAS_OP_T, CUBLAS_OP_N, sh.n, m, sh.k, &one, Ai(c), CUDA_R_16F, trans ? sh.n : sh.k, dX, CUDA_R_16F, sh.k, &zero, dY, CUDA_R_16F, sh.n, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
      });
      printf("%5dx%-5d %s m=%d  floor %7.2f  read %7.2f (%.3f)  cublas %7.2f (%.3f floor)\n", sh.n, sh.k, trans ? "t" : "n", m, floor_us, read, floor_us / read, cub, floor_us / cub);
      for (auto& kk : ks) {
        if (m > kk.maxm || kk.trans != bool(trans)) continue;
        int rc = 0;
        const float t = timeit([&](int c) { rc |= kk.fn(m, sh.n, sh.k, 1.f, Ai(c), trans ? sh.n : sh.k, dX, sh.k, 0.f, dY, sh.n, st); });
        printf("   %-24s %7.2f us  %.3f floor  %.3f read  %.2fx cublas%s\n", kk.name.c_str(), t, floor_us / t, read / t, cub / t, rc ? " RC!" : "");
      }
      }
      fflush(stdout);
    }
    cudaFree(dA); cudaFree(dX); cudaFree(dY);
  }
  return 0;
}
