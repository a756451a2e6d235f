// Harness (session 7): HGEMM mma.sync variants (block K 32 vs 64, stages, tile shape, warp tile, blocks per SM) against
// cuBLAS GemmEx at 4096 and 8192, timed in interleaved rounds (cuBLAS then every variant, 7 rounds, medians) so that
// the GPU's clock drift under load falls on all alike. "prof <variant> <n>" runs one launch of a variant (or "cublas")
// for ncu. -DACC16 builds the fp16-accumulating variants against cuBLAS computing in fp16 instead. Build on the GPU
// machine from the repository root:
//   nvcc -O3 -std=c++17 -DKGEN_ARCH=sm90 -I kernels/include -I . -gencode=arch=compute_90,code=sm_90 \
//     -o /tmp/hgemm_variants bench/harness/hgemm_variants.cu -lcublas
#include <cuda_runtime.h>
#include <cublas_v2.h>
#include <cuda_fp16.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <algorithm>
#include <vector>
#include "bench/harness/timing.h"
#include "kgen/hgemm.cuh"
using kgen::Order;
using kgen::hgemm::Accum;
template <int BM, int BN, int BK, int S, Order AO, Order BO, Accum AC = Accum::F32, int WM = 64, int WN = 64, int MB = 1>
struct C : kgen::hgemm::Config<BM, BN, BK, WM, WN, S, MB, AO, BO, AC> {};

typedef int (*Launch)(int, int, int, float, const uint16_t*, int64_t, const uint16_t*, int64_t, float, uint16_t*, int64_t, cudaStream_t);
typedef int (*Occupancy)();
struct V { const char* name; Launch f; bool acol, bcol; Occupancy occ = nullptr; };
// occupancy is how many blocks of K an SM holds (after a launch has set its shared memory limit).
template <class K>
int occupancy() {
  int nb = 0;
  cudaOccupancyMaxActiveBlocksPerMultiprocessor(&nb, kgen::hgemm::hgemm_kernel<K>, K::kThreads, K::kSmemBytes);
  return nb;
}
#define VR(n, BM, BN, BK, S, AO, BO, ...) V{n, kgen::hgemm::launch<C<BM, BN, BK, S, AO, BO, ##__VA_ARGS__>>, AO == Order::Col, BO == Order::Col}
#define LAYOUTS(BM, BN, BK, S) \
  VR("nn b" #BM "x" #BN "x" #BK " s" #S, BM, BN, BK, S, Order::Row, Order::Row), \
  VR("nt b" #BM "x" #BN "x" #BK " s" #S, BM, BN, BK, S, Order::Row, Order::Col), \
  VR("tn b" #BM "x" #BN "x" #BK " s" #S, BM, BN, BK, S, Order::Col, Order::Row), \
  VR("tt b" #BM "x" #BN "x" #BK " s" #S, BM, BN, BK, S, Order::Col, Order::Col)

#define F32 Accum::F32
#define R Order::Row
#define Cl Order::Col
#ifdef MMA_ORDERS
// Session 13 (-DMMA_ORDERS -DLAYOUT=0..3): the order of a k step's mmas over the warp
// tile (kMmaOrder): 0 rows serpentine (the tree's), 1 rows, 2 columns serpentine, 3 columns, 4 2x2 blocks serpentine,
// 5 row pairs serpentine; for the engine's 256x128x64 tile and 128x256x32. The orders are patched into a copy of the
// header, whose order 2 is the tree's with fp32 accumulators since session 13 (0 with fp16 ones):
//   mkdir /tmp/h && cp -r kernels /tmp/h/ && patch -d /tmp/h -p1 < bench/harness/hgemm-mma-orders.patch
// and -I /tmp/h/kernels/include before the others.
template <class Base, int O>
struct Ord : Base {
  static constexpr int kMmaOrder = O;
};
constexpr Order kA = LAYOUT / 2 ? Order::Col : Order::Row, kB = LAYOUT % 2 ? Order::Col : Order::Row;
#define ORD(n, BM, BN, BK, S, O) V{n " o" #O, kgen::hgemm::launch<Ord<C<BM, BN, BK, S, kA, kB>, O>>, kA == Order::Col, kB == Order::Col}
#define ORDS(n, BM, BN, BK, S) ORD(n, BM, BN, BK, S, 0), ORD(n, BM, BN, BK, S, 1), ORD(n, BM, BN, BK, S, 2), \
  ORD(n, BM, BN, BK, S, 3), ORD(n, BM, BN, BK, S, 4), ORD(n, BM, BN, BK, S, 5)
static std::vector<V> variants() {
  return {ORDS("b256x128x64 s3", 256, 128, 64, 3), ORDS("b128x256x32 s4", 128, 256, 32, 4)};
}
constexpr cublasComputeType_t kCompute = CUBLAS_COMPUTE_32F;
#elif defined(SPREAD)
// Session 14 (-DSPREAD -DLAYOUT=0..3): the copies of the tile STAGES - 1 ahead issued all in a tile's first k step
// (the tree's) or a share in each k step (Config::kSpreadCopies), for the engine's tiles and the block-K-32 ones. Not
// kept; the knob is patched into a copy of the headers:
//   mkdir /tmp/h && cp -r kernels /tmp/h/ && patch -d /tmp/h -p1 < bench/harness/spread-copies.patch
// and -I /tmp/h/kernels/include before the others. Results: bench/results/h100-2026-11-24-session14.md.
template <class Base, bool SP>
struct Spr : Base {
  static constexpr bool kSpreadCopies = SP;
};
constexpr Order kA = LAYOUT / 2 ? Order::Col : Order::Row, kB = LAYOUT % 2 ? Order::Col : Order::Row;
#define SPR(n, BM, BN, BK, S)                                                                               \
  V{n " first", kgen::hgemm::launch<Spr<C<BM, BN, BK, S, kA, kB>, false>>, kA == Order::Col, kB == Order::Col}, \
      V{n " spread", kgen::hgemm::launch<Spr<C<BM, BN, BK, S, kA, kB>, true>>, kA == Order::Col, kB == Order::Col}
static std::vector<V> variants() {
  return {SPR("b256x128x64 s3", 256, 128, 64, 3), SPR("b128x256x64 s3", 128, 256, 64, 3),
          SPR("b256x128x32 s4", 256, 128, 32, 4), SPR("b128x256x32 s4", 128, 256, 32, 4)};
}
constexpr cublasComputeType_t kCompute = CUBLAS_COMPUTE_32F;
#elif defined(STREAM)
// Session 15 (-DSTREAM): B fragments streamed two n8 columns at a time just before their mmas, A's loaded at the
// top of each k step, nothing prefetched across k steps (kgen::hgemm::stream_b): 168 registers, so three blocks of
// 4 warps with 64x64 fp32 warp tiles fit an SM (12 warps, 3 a scheduler, against 2 for the engine's tiles). Not
// kept (15-21% slower than the engine's tile at equal occupancy, 20-28% with three blocks an SM); the knob is
// patched into a copy of the headers:
//   mkdir /tmp/h && cp -r kernels /tmp/h/ && patch -d /tmp/h -p1 < bench/harness/stream-b.patch
// and -I /tmp/h/kernels/include before the others. Results: bench/results/h100-2026-11-24-session15.md.
template <int BM, int BN, int BK, int S, Order AO, Order BO, int MB, bool SB>
struct CS : C<BM, BN, BK, S, AO, BO, F32, 64, 64, MB> {
  static constexpr bool kStreamB = SB;
};
#define VS(n, BM, BN, BK, S, AO, BO, MB, SB) \
  V{n, kgen::hgemm::launch<CS<BM, BN, BK, S, AO, BO, MB, SB>>, AO == Order::Col, BO == Order::Col, \
    occupancy<CS<BM, BN, BK, S, AO, BO, MB, SB>>}
constexpr cublasComputeType_t kCompute = CUBLAS_COMPUTE_32F;
static std::vector<V> variants() {
  return {
    VS("nn b256x128x64 s3 (engine)", 256, 128, 64, 3, R, R, 1, false),
    VS("nn b128x256x64 s3", 128, 256, 64, 3, R, R, 1, false),
    VS("nn b128x128x32 s4", 128, 128, 32, 4, R, R, 1, false),
    VS("nn b256x128x64 s3 stream", 256, 128, 64, 3, R, R, 1, true),
    VS("nn b128x128x32 s4 mb3 stream", 128, 128, 32, 4, R, R, 3, true),
    VS("nn b128x128x32 s3 mb3 stream", 128, 128, 32, 3, R, R, 3, true),
    VS("nn b128x128x32 s4 mb2 stream", 128, 128, 32, 4, R, R, 2, true),
    VS("nn b128x128x64 s3 mb2 stream", 128, 128, 64, 3, R, R, 2, true),
    VS("tn b256x128x64 s3 (engine)", 256, 128, 64, 3, Cl, R, 1, false),
    VS("tn b128x128x32 s4 mb3 stream", 128, 128, 32, 4, Cl, R, 3, true),
    VS("nt b256x128x64 s3 (engine)", 256, 128, 64, 3, R, Cl, 1, false),
    VS("nt b128x128x32 s4 mb3 stream", 128, 128, 32, 4, R, Cl, 3, true),
    VS("tt b128x256x64 s3 (engine)", 128, 256, 64, 3, Cl, Cl, 1, false),
    VS("tt b128x128x32 s4 mb3 stream", 128, 128, 32, 4, Cl, Cl, 3, true),
  };
}
#elif defined(ACC16)
// Session 12 (-DACC16): fp16 accumulation (the hgemmh family) against cuBLAS GemmEx computing in fp16: block K 64,
// the 256x128 transpose, and warp tiles of 64x128 and 128x64 (half the registers of fp32 accumulators allow them).
#define F16 Accum::F16
static std::vector<V> variants() {
  return {
    VR("nn b128x256x32 w64x64 s4 (hgemmh)", 128, 256, 32, 4, R, R, F16),
    VR("nn b128x256x64 w64x64 s3", 128, 256, 64, 3, R, R, F16),
    VR("nn b256x128x64 w64x64 s3", 256, 128, 64, 3, R, R, F16),
    VR("nn b256x128x32 w64x64 s4", 256, 128, 32, 4, R, R, F16),
    VR("nn b256x256x32 w64x128 s4", 256, 256, 32, 4, R, R, F16, 64, 128),
    VR("nn b256x256x32 w128x64 s4", 256, 256, 32, 4, R, R, F16, 128, 64),
    VR("nn b256x256x64 w64x128 s3", 256, 256, 64, 3, R, R, F16, 64, 128),
    VR("nn b128x256x32 w64x128 s4 mb2", 128, 256, 32, 4, R, R, F16, 64, 128, 2),
    VR("nn b256x128x32 w128x64 s4 mb2", 256, 128, 32, 4, R, R, F16, 128, 64, 2),
  };
}
constexpr cublasComputeType_t kCompute = CUBLAS_COMPUTE_16F;
#else
constexpr cublasComputeType_t kCompute = CUBLAS_COMPUTE_32F;
static std::vector<V> variants() {
  return {
    VR("nn b128x256x32 w64x64 s4", 128, 256, 32, 4, R, R),
    VR("tn b128x256x32 w64x64 s4", 128, 256, 32, 4, Cl, R),
    VR("nn b128x256x64 w64x64 s3", 128, 256, 64, 3, R, R),
    VR("tn b128x256x64 w64x64 s3", 128, 256, 64, 3, Cl, R),
    VR("nn b128x256x32 w64x32 s4", 128, 256, 32, 4, R, R, F32, 64, 32),
    VR("tn b128x256x32 w64x32 s4", 128, 256, 32, 4, Cl, R, F32, 64, 32),
    VR("nn b256x128x32 w32x64 s4", 256, 128, 32, 4, R, R, F32, 32, 64),
    VR("nn b128x128x32 w64x32 s4 mb2", 128, 128, 32, 4, R, R, F32, 64, 32, 2),
    VR("tn b128x128x32 w64x32 s4 mb2", 128, 128, 32, 4, Cl, R, F32, 64, 32, 2),
    VR("nn b128x128x32 w32x64 s4 mb2", 128, 128, 32, 4, R, R, F32, 32, 64, 2),
    VR("nn b128x128x64 w64x32 s3 mb2", 128, 128, 64, 3, R, R, F32, 64, 32, 2),
    VR("nn b128x256x32 w64x64 s4 f16acc", 128, 256, 32, 4, R, R, Accum::F16),
  };
}
#endif

static uint16_t h16(float f) { __half_raw r = __half_raw(__float2half(f)); return r.x; }

int main(int argc, char** argv) {
  const char* prof = argc > 1 ? argv[1] : nullptr;  // "prof <substring> <n>": one launch of each matching variant (for ncu)
  std::vector<V> vs = variants();
  cublasHandle_t h; cublasCreate(&h);
  cudaStream_t st; CK(cudaStreamCreate(&st)); cublasSetStream(h, st);
  const int sizes[] = {4096, 8192};
  for (int n : sizes) {
    if (prof && atoi(argv[3]) != n) continue;
    const size_t e = (size_t)n * n;
    uint16_t *A, *B, *Cc, *Cr;
    CK(cudaMalloc(&A, e * 2)); CK(cudaMalloc(&B, e * 2)); CK(cudaMalloc(&Cc, e * 2)); CK(cudaMalloc(&Cr, e * 2));
    std::vector<uint16_t> hA(e), hB(e);
    srand(1);
    for (size_t i = 0; i < e; ++i) { hA[i] = h16((rand() % 2001 - 1000) / 1000.f); hB[i] = h16((rand() % 2001 - 1000) / 1000.f); }
    CK(cudaMemcpy(A, hA.data(), e * 2, cudaMemcpyHostToDevice)); CK(cudaMemcpy(B, hB.data(), e * 2, cudaMemcpyHostToDevice));
    cudaEvent_t e0, e1; cudaEventCreate(&e0); cudaEventCreate(&e1);
    const float alpha = 1.f, beta = 0.f;
    const int reps = n == 4096 ? 10 : 3;
    const double flop = 2.0 * n * n * (double)n;
    // cuBLAS reference (row-major C = A B as column-major C^T = B^T A^T), nn.
    auto cub = [&]() {
      if (kCompute == CUBLAS_COMPUTE_16F) {  // fp16 compute takes fp16 scalars
        const __half a16 = __float2half(alpha), b16 = __float2half(beta);
        cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &a16, B, CUDA_R_16F, n, A, CUDA_R_16F, n, &b16, Cr, CUDA_R_16F,
                     n, kCompute, CUBLAS_GEMM_DEFAULT);
        return;
      }
      cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &alpha, B, CUDA_R_16F, n, A, CUDA_R_16F, n, &beta, Cr, CUDA_R_16F, n,
                   kCompute, CUBLAS_GEMM_DEFAULT);
    };
    if (!prof) {
      std::vector<uint16_t> ref(e), got(e);
      cub(); CK(cudaStreamSynchronize(st));
      CK(cudaMemcpy(ref.data(), Cr, e * 2, cudaMemcpyDeviceToHost));
      std::vector<double> md(vs.size(), 0);
      for (size_t vi = 0; vi < vs.size(); ++vi) {
        auto& v = vs[vi];
        CK(cudaMemsetAsync(Cc, 0xff, e * 2, st));
        int rc = v.f(n, n, n, alpha, A, n, B, n, beta, Cc, n, st);
        CK(cudaStreamSynchronize(st));
        if (rc) { printf("%s: launch %d\n", v.name, rc); exit(1); }
        if (!v.acol && !v.bcol) {
          CK(cudaMemcpy(got.data(), Cc, e * 2, cudaMemcpyDeviceToHost));
          for (size_t i = 0; i < e; i += 97) md[vi] = std::max(md[vi], (double)fabsf(kgen::hgemm::half_bits_to_float(got[i]) - kgen::hgemm::half_bits_to_float(ref[i])));
        }
      }
      // Rounds: cuBLAS then every variant, each timed over reps launches; medians over rounds.
      std::vector<std::vector<float>> ts(vs.size() + 1);
      for (int r = 0; r < 7; ++r) {
        for (size_t vi = 0; vi <= vs.size(); ++vi) {
          auto run = [&]() { if (vi == vs.size()) cub(); else vs[vi].f(n, n, n, alpha, A, n, B, n, beta, Cc, n, st); };
          for (int i = 0; i < 2; ++i) run();
          cudaEventRecord(e0, st);
          for (int i = 0; i < reps; ++i) run();
          cudaEventRecord(e1, st); CK(cudaEventSynchronize(e1));
          float ms; cudaEventElapsedTime(&ms, e0, e1); ts[vi].push_back(ms / reps);
        }
      }
      const float tc = median(ts[vs.size()]);
      printf("n=%d cublas %.3f ms %.0f TFLOPS\n", n, tc, flop / tc / 1e9);
      for (size_t vi = 0; vi < vs.size(); ++vi) {
        const float t = median(ts[vi]);
        printf("n=%d %-34s %.3f ms %.0f TFLOPS %.3fx cuBLAS maxdiff(nn) %.3g", n, vs[vi].name, t, flop / t / 1e9, tc / t, md[vi]);
        if (vs[vi].occ) printf(" blocks/SM %d", vs[vi].occ());
        printf("\n");
      }
    } else {
      if (strcmp(argv[2], "cublas") == 0) { cub(); CK(cudaStreamSynchronize(st)); }
      for (auto& v : vs) if (strcmp(v.name, argv[2]) == 0) { v.f(n, n, n, alpha, A, n, B, n, beta, Cc, n, st); CK(cudaStreamSynchronize(st)); }
    }
    cudaFree(A); cudaFree(B); cudaFree(Cc); cudaFree(Cr);
  }
  return 0;
}
