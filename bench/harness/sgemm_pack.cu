// Harness (session 20): a k-contiguous operand packed into an m/n-contiguous copy (kgen/transpose.cuh, as
// kgen::sgemm::launch_packed does), then multiplied by the tn kernel (both operands copied 16 bytes at a time),
// against the layout's own kernels, which copy a k-contiguous operand 4 bytes at a time, and against cuBLAS SGEMM in
// pedantic math. The packed time includes the transposes. Interleaved rounds over operand sets rotated past the L2;
// every candidate checked against cuBLAS first. Results: bench/results/h100-2026-11-27-session20.md. "prof" runs
// each candidate of nn and tn at 2048^3 and 8192^3 once (for ncu), untimed; "depths" times the tn kernel at other
// block K and pipeline depths at 2048-8192; "serial" (see SERIAL below) splits its k range in place; session 21's
// "overlap" (see OVERLAP below) and "quarter" time other tn kernels at 1024-8192.
// Build on the GPU machine from the repository root:
//   nvcc -O3 -std=c++17 -DKGEN_ARCH=sm90 -I kernels/include -I . -gencode=arch=compute_90,code=sm_90 \
//     -o /tmp/sgemm_pack bench/harness/sgemm_pack.cu -lcublas
#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include "bench/harness/cublas_sgemm.h"
#include "bench/harness/timing.h"
#include "kgen/sgemm.cuh"
#include "kgen/transpose.cuh"

using kgen::Order;
typedef int (*Launch)(int, int, int, float, const float*, int64_t, const float*, int64_t, float, float*, int64_t,
                      void*, int64_t, cudaStream_t);

template <int BM, int BN, int BK, int WM, int WN, int TM, int TN, int MINB, Order A, Order B, int S, int SPLIT, int MAP,
          int O>
using Cfg = kgen::sgemm::Config<BM, BN, BK, WM, WN, TM, TN, MINB, true, A, B, S, SPLIT, MAP, O>;

// The tiles: 128x128 lanes by column, FFMA order quads_zigzag (fq) or rows_zigzag (fz); 128x256; 128x256 in 4 splits.
template <Order A, Order B>
struct Tiles {
  static constexpr Launch fq = kgen::sgemm::launch<Cfg<128, 128, 16, 32, 64, 8, 8, 1, A, B, 3, 1, 1, 2>>;
  static constexpr Launch fz = kgen::sgemm::launch<Cfg<128, 128, 16, 32, 64, 8, 8, 1, A, B, 3, 1, 1, 1>>;
  static constexpr Launch wide = kgen::sgemm::launch<Cfg<128, 256, 16, 64, 64, 8, 16, 1, A, B, 3, 1, 0, 0>>;
  static constexpr Launch wide_k4 = kgen::sgemm::launch<Cfg<128, 256, 16, 64, 64, 8, 16, 1, A, B, 3, 4, 0, 0>>;
  static constexpr Launch fq_k4 = kgen::sgemm::launch<Cfg<128, 128, 16, 32, 64, 8, 8, 1, A, B, 3, 4, 1, 2>>;
  static int64_t ws(int M, int N, int K) {
    return std::max(kgen::workspace_bytes<Cfg<128, 256, 16, 64, 64, 8, 16, 1, A, B, 3, 4, 0, 0>>(M, N, K),
                    kgen::workspace_bytes<Cfg<128, 128, 16, 32, 64, 8, 8, 1, A, B, 3, 4, 1, 2>>(M, N, K));
  }
};

static Launch tile_of(const char* l, const char* t) {
  auto pick = [&](auto tiles) -> Launch {
    using T = decltype(tiles);
    if (!strcmp(t, "fq")) return T::fq;
    if (!strcmp(t, "fz")) return T::fz;
    if (!strcmp(t, "wide")) return T::wide;
    if (!strcmp(t, "wide_k4")) return T::wide_k4;
    return T::fq_k4;
  };
  if (!strcmp(l, "nn")) return pick(Tiles<Order::Row, Order::Row>{});
  if (!strcmp(l, "nt")) return pick(Tiles<Order::Row, Order::Col>{});
  if (!strcmp(l, "tn")) return pick(Tiles<Order::Col, Order::Row>{});
  return pick(Tiles<Order::Col, Order::Col>{});
}

// "depths": the tn kernel (what packing runs) at other block K and pipeline depths, and cuBLAS's own shape of tile
// (128x256, block K 8, 4 stages), all lanes by column where 8x8 threads.
using TnCfg = kgen::sgemm::Config<128, 128, 16, 32, 64, 8, 8, 1, true, Order::Col, Order::Row, 3, 1, 1, 1>;
static Launch depth_of(const char* t) {
  using C = Order;
  if (!strcmp(t, "fz k8 s4")) return kgen::sgemm::launch<Cfg<128, 128, 8, 32, 64, 8, 8, 1, C::Col, C::Row, 4, 1, 1, 1>>;
  if (!strcmp(t, "fz k8 s5")) return kgen::sgemm::launch<Cfg<128, 128, 8, 32, 64, 8, 8, 1, C::Col, C::Row, 5, 1, 1, 1>>;
  if (!strcmp(t, "fz k16 s4")) return kgen::sgemm::launch<Cfg<128, 128, 16, 32, 64, 8, 8, 1, C::Col, C::Row, 4, 1, 1, 1>>;
  if (!strcmp(t, "fz k32 s3")) return kgen::sgemm::launch<Cfg<128, 128, 32, 32, 64, 8, 8, 1, C::Col, C::Row, 3, 1, 1, 1>>;
  if (!strcmp(t, "wide k8 s4")) return kgen::sgemm::launch<Cfg<128, 256, 8, 64, 64, 8, 16, 1, C::Col, C::Row, 4, 1, 0, 0>>;
  if (!strcmp(t, "wide k8 s4 fz")) return kgen::sgemm::launch<Cfg<128, 256, 8, 64, 64, 8, 16, 1, C::Col, C::Row, 4, 1, 0, 1>>;
  return kgen::sgemm::launch<TnCfg>;
}
static const std::vector<const char*> kDepthTiles = {"fz k16 s3", "fz k8 s4",   "fz k8 s5",     "fz k16 s4",
                                                     "fz k32 s3", "wide k8 s4", "wide k8 s4 fz"};

#ifdef OVERLAP
// "overlap" (needs bench/harness/sgemm-overlap.patch applied to a copy of the headers, first on the include path, and
// -DOVERLAP; results: bench/results/h100-2026-11-27-session21.md): the same tiles with and without kOverlap (fragments of two k steps in registers, the barrier one k step
// before a stage ends), tn at 1024-8192. The 128x128 tiles' overlap is capped at 128 registers (two blocks per SM,
// as without it).
template <int BM, int BN, int BK, int WM, int WN, int TM, int TN, int S, int MAP, int O, bool OV>
using TnOv = kgen::sgemm::Config<BM, BN, BK, WM, WN, TM, TN, OV && BM * BN == 128 * 128 ? 2 : 1, true, Order::Col,
                                 Order::Row, S, 1, MAP, O, false, false, OV>;
static const std::vector<const char*> kOverlapTiles = {
    "fz k16 s3",      "fz k16 s3 ov",      "fz k16 s4 ov",     "fz k8 s4 ov",      "wide k16 s3",
    "wide k16 s3 ov", "wide k16 s3 fz ov", "wide k8 s4 fz ov", "tall k16 s3 fz ov"};
static Launch overlap_of(const char* t) {
  using namespace kgen::sgemm;
  if (!strcmp(t, "fz k16 s3 ov")) return launch<TnOv<128, 128, 16, 32, 64, 8, 8, 3, 1, 1, true>>;
  if (!strcmp(t, "fz k16 s4 ov")) return launch<TnOv<128, 128, 16, 32, 64, 8, 8, 4, 1, 1, true>>;
  if (!strcmp(t, "fz k8 s4 ov")) return launch<TnOv<128, 128, 8, 32, 64, 8, 8, 4, 1, 1, true>>;
  if (!strcmp(t, "wide k16 s3")) return launch<TnOv<128, 256, 16, 64, 64, 8, 16, 3, 0, 0, false>>;
  if (!strcmp(t, "wide k16 s3 ov")) return launch<TnOv<128, 256, 16, 64, 64, 8, 16, 3, 0, 0, true>>;
  if (!strcmp(t, "wide k16 s3 fz ov")) return launch<TnOv<128, 256, 16, 64, 64, 8, 16, 3, 0, 1, true>>;
  if (!strcmp(t, "wide k8 s4 fz ov")) return launch<TnOv<128, 256, 8, 64, 64, 8, 16, 4, 0, 1, true>>;
  if (!strcmp(t, "tall k16 s3 fz ov")) return launch<TnOv<256, 128, 16, 64, 64, 8, 16, 3, 0, 1, true>>;
  return launch<TnCfg>;
}
#endif

// "quarter" (session 21): 128x128 tiles of 4 warps, each 64x64 of 8x16 or 16x8 threads, two blocks per SM (8 warps,
// as the 128x256 tile's one block), lane maps and FFMA orders, against the spec's tn tile (8 warps of 32x64, 8x8).
template <int BK, int TM, int TN, int S, int MAP, int O>
using TnQ = kgen::sgemm::Config<128, 128, BK, 64, 64, TM, TN, 2, true, Order::Col, Order::Row, S, 1, MAP, O>;
static const std::vector<const char*> kQuarterTiles = {
    "fz k16 s3",         "q t8x16 m0 o0 s3", "q t8x16 m0 o1 s3", "q t8x16 m1 o0 s3", "q t8x16 m1 o1 s3",
    "q t8x16 m2 o1 s3",  "q t16x8 m0 o1 s3", "q t16x8 m1 o1 s3", "q t16x8 m1 o0 s3", "q t8x16 m0 o1 s4",
    "q t8x16 m1 o1 k8 s4"};
static Launch quarter_of(const char* t) {
  using namespace kgen::sgemm;
  if (!strcmp(t, "q t8x16 m0 o0 s3")) return launch<TnQ<16, 8, 16, 3, 0, 0>>;
  if (!strcmp(t, "q t8x16 m0 o1 s3")) return launch<TnQ<16, 8, 16, 3, 0, 1>>;
  if (!strcmp(t, "q t8x16 m1 o0 s3")) return launch<TnQ<16, 8, 16, 3, 1, 0>>;
  if (!strcmp(t, "q t8x16 m1 o1 s3")) return launch<TnQ<16, 8, 16, 3, 1, 1>>;
  if (!strcmp(t, "q t8x16 m2 o1 s3")) return launch<TnQ<16, 8, 16, 3, 2, 1>>;
  if (!strcmp(t, "q t16x8 m0 o1 s3")) return launch<TnQ<16, 16, 8, 3, 0, 1>>;
  if (!strcmp(t, "q t16x8 m1 o1 s3")) return launch<TnQ<16, 16, 8, 3, 1, 1>>;
  if (!strcmp(t, "q t16x8 m1 o0 s3")) return launch<TnQ<16, 16, 8, 3, 1, 0>>;
  if (!strcmp(t, "q t8x16 m0 o1 s4")) return launch<TnQ<16, 8, 16, 4, 0, 1>>;
  if (!strcmp(t, "q t8x16 m1 o1 k8 s4")) return launch<TnQ<8, 8, 16, 4, 1, 1>>;
  return launch<TnCfg>;
}

#ifdef SERIAL
// "serial" (needs bench/harness/sgemm-serial-split.patch applied to a copy of the headers, first on the include path,
// and -DSERIAL): the tn kernel with its k range split 2-4 ways, the splits adding into C in split order.
template <int S>
using SerialCfg = kgen::sgemm::Config<128, 128, 16, 32, 64, 8, 8, 1, true, Order::Col, Order::Row, 3, S, 1, 1>;
static int* g_flags = nullptr;  // one zeroed int per tile
static Launch serial_of(int splits) {
  auto f = [](auto cfg) -> Launch {
    using K = decltype(cfg);
    return [](int M, int N, int Kd, float alpha, const float* A, int64_t lda, const float* B, int64_t ldb, float beta,
              float* C, int64_t ldc, void*, int64_t, cudaStream_t st) {
      return kgen::sgemm::launch_serial<K>(M, N, Kd, alpha, A, lda, B, ldb, beta, C, ldc, g_flags, K::kSplitK, st);
    };
  };
  return splits == 2 ? f(SerialCfg<2>{}) : splits == 3 ? f(SerialCfg<3>{}) : f(SerialCfg<4>{});
}
#endif

// HarnessTag names the harness's transpose kernel (kgen::transpose's tag).
struct HarnessTag {};

static int64_t round_up(int64_t x, int64_t m) { return (x + m - 1) / m * m; }

struct Shape {
  int M, N, K;
};

int main(int argc, char** argv) {
  const bool prof = argc > 1 && strcmp(argv[1], "prof") == 0;
  const bool depths = argc > 1 && strcmp(argv[1], "depths") == 0;
  const bool serial = argc > 1 && strcmp(argv[1], "serial") == 0;
  const bool overlap = argc > 1 && strcmp(argv[1], "overlap") == 0;
  const bool quarter = argc > 1 && strcmp(argv[1], "quarter") == 0;
  const CublasSgemm cublas;
  cudaStream_t st;
  CK(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking));
  const Shape shapes[] = {{2048, 2048, 2048}, {4096, 4096, 4096}, {8192, 8192, 8192}, {8192, 8192, 128},
                          {128, 8192, 8192},  {3072, 3072, 3072}, {1024, 1024, 1024}};
  for (const Shape& sh : shapes) {
    const int M = sh.M, N = sh.N, K = sh.K;
    if (prof && !(M == N && N == K && (M == 2048 || M == 8192))) continue;
    if ((depths || serial) && !(M == N && N == K && M != 3072 && M != 1024)) continue;
    if ((overlap || quarter) && !(M == N && N == K && M != 3072)) continue;
    if (!depths && !serial && !overlap && !quarter && M == 1024) continue;
    const size_t ea = static_cast<size_t>(M) * K, ec = static_cast<size_t>(M) * N;
    const OperandSets ops(M, N, K);
    const auto &A = ops.A, &B = ops.B, &C = ops.C;
    const int sets = ops.size();
    float *Cr, *At, *Bt;
    const int64_t ldat = round_up(M, 32), ldbt = round_up(N, 32);
    CK(cudaMalloc(&Cr, ec * 4));
    CK(cudaMalloc(&At, K * ldat * 4));
    CK(cudaMalloc(&Bt, K * ldbt * 4));
    const int64_t ws_bytes = Tiles<Order::Col, Order::Row>::ws(M, N, K) + (64 << 20);
    void* ws;
    CK(cudaMalloc(&ws, ws_bytes));
    const bool skinny_m = M <= 256;
    const double flop = 2.0 * M * N * static_cast<double>(K);

    // The transposes alone: bandwidth of A (M x K -> K x M) and B as stored in nt (N x K -> K x N).
    if (!prof && !depths && !serial && !overlap && !quarter) {
      cudaEvent_t e0, e1;
      CK(cudaEventCreate(&e0));
      CK(cudaEventCreate(&e1));
      for (int which = 0; which < 2; ++which) {
        const int rows = which == 0 ? M : N, cols = K;
        const int64_t ldd = which == 0 ? ldat : ldbt;
        float* dst = which == 0 ? At : Bt;
        std::vector<float> ts;
        for (int r = 0; r < 7; ++r) {
          const int reps = 10;
          CK(kgen::transpose<HarnessTag>(rows, cols, which == 0 ? A[0] : B[0], cols, dst, ldd, st));
          CK(cudaEventRecord(e0, st));
          for (int i = 0; i < reps; ++i) {
            const int s = i % sets;
            CK(kgen::transpose<HarnessTag>(rows, cols, which == 0 ? A[s] : B[s], cols, dst, ldd, st));
          }
          CK(cudaEventRecord(e1, st));
          CK(cudaEventSynchronize(e1));
          float ms;
          CK(cudaEventElapsedTime(&ms, e0, e1));
          ts.push_back(ms / reps);
        }
        const float t = median(ts);
        printf("%dx%dx%d transpose %s %dx%d: %.1f us, %.0f GB/s\n", M, N, K, which == 0 ? "A" : "B(nt)", rows, cols,
               t * 1e3, 2.0 * rows * cols * 4 / (t * 1e-3) / 1e9);
      }
      // Correctness of the transpose itself (A, set 0).
      std::vector<float> ha(ea), ht(K * ldat);
      CK(kgen::transpose<HarnessTag>(M, K, A[0], K, At, ldat, st));
      CK(cudaStreamSynchronize(st));
      CK(cudaMemcpy(ha.data(), A[0], ea * 4, cudaMemcpyDeviceToHost));
      CK(cudaMemcpy(ht.data(), At, K * ldat * 4, cudaMemcpyDeviceToHost));
      size_t bad = 0;
      for (int m = 0; m < M; ++m)
        for (int k = 0; k < K; ++k) bad += ha[static_cast<size_t>(m) * K + k] != ht[static_cast<size_t>(k) * ldat + m];
      printf("%dx%dx%d transpose check: %zu wrong\n", M, N, K, bad);
      CK(cudaEventDestroy(e0));
      CK(cudaEventDestroy(e1));
    }

    const char* lays[] = {"nn", "nt", "tt", "tn"};
    for (const char* l : lays) {
      const bool a_col = l[0] == 't', b_col = l[1] == 't';
      const bool pack_a = !a_col, pack_b = b_col;  // the k-contiguous operands
      const int64_t lda = a_col ? M : K, ldb = b_col ? K : N;
      struct Cand {
        std::string name;
        std::function<void(int)> run;
      };
      std::vector<Cand> cands;
      cands.push_back({"cuBLAS", [&, a_col, b_col](int s) { cublas(st, a_col, b_col, M, N, K, A[s], lda, B[s], ldb, C[s]); }});
      std::vector<const char*> tiles = skinny_m ? std::vector<const char*>{"wide_k4", "fq_k4"}
                                                : std::vector<const char*>{"fq", "fz", "wide"};
      // add times f on the operand set of each launch, unpacked.
      auto add = [&](std::string name, Launch f) {
        cands.push_back({std::move(name), [&, f](int s) {
                           const int rc = f(M, N, K, 1.f, A[s], lda, B[s], ldb, 0.f, C[s], N, ws, ws_bytes, st);
                           if (rc) printf("launch %d\n", rc), exit(1);
                         }});
      };
#ifdef SERIAL
      if (serial) {
        if (strcmp(l, "tn") != 0) continue;
        if (g_flags == nullptr) CK(cudaMalloc(&g_flags, 1 << 20));
        CK(cudaMemset(g_flags, 0, 1 << 20));
        for (int splits : {1, 2, 3, 4}) {
          add("tn fz serial " + std::to_string(splits), splits == 1 ? depth_of("fz k16 s3") : serial_of(splits));
        }
        tiles.clear();
      }
#endif
      // The modes that time other tn kernels.
      std::vector<const char*> tn_tiles;
      Launch (*tn_of)(const char*) = nullptr;
      if (depths) tn_tiles = kDepthTiles, tn_of = depth_of;
#ifdef OVERLAP
      if (overlap) tn_tiles = kOverlapTiles, tn_of = overlap_of;
#endif
      if (quarter) tn_tiles = kQuarterTiles, tn_of = quarter_of;
      if (tn_of != nullptr) {
        if (strcmp(l, "tn") != 0) continue;
        for (const char* t : tn_tiles) add(std::string("tn ") + t, tn_of(t));
        tiles.clear();
      }
      for (const char* t : tiles) add(std::string("own ") + t, tile_of(l, t));
      if (pack_a || pack_b) {
        for (const char* t : tiles) {
          Launch f = tile_of("tn", t);
          cands.push_back({std::string("packed tn ") + t, [&, f, pack_a, pack_b](int s) {
                             const float* a = A[s];
                             const float* b = B[s];
                             int64_t la = lda, lb = ldb;
                             if (pack_a) {
                               CK(kgen::transpose<HarnessTag>(M, K, A[s], lda, At, ldat, st));
                               a = At, la = ldat;
                             }
                             if (pack_b) {
                               CK(kgen::transpose<HarnessTag>(N, K, B[s], ldb, Bt, ldbt, st));
                               b = Bt, lb = ldbt;
                             }
                             const int rc = f(M, N, K, 1.f, a, la, b, lb, 0.f, C[s], N, ws, ws_bytes, st);
                             if (rc) printf("launch %d\n", rc), exit(1);
                           }});
        }
      }
      if (prof) {
        if (strcmp(l, "nn") != 0 && strcmp(l, "tn") != 0) continue;
        for (size_t c = 0; c < cands.size(); ++c) cands[c].run(0);
        CK(cudaStreamSynchronize(st));
        continue;
      }
      // Correctness against cuBLAS on set 0.
      cublas(st, a_col, b_col, M, N, K, A[0], lda, B[0], ldb, Cr);
      std::vector<float> ref(ec), got(ec);
      CK(cudaStreamSynchronize(st));
      CK(cudaMemcpy(ref.data(), Cr, ec * 4, cudaMemcpyDeviceToHost));
      std::vector<double> md(cands.size(), 0);
      for (size_t c = 1; c < cands.size(); ++c) {
        CK(cudaMemset(C[0], 0xff, ec * 4));
        cands[c].run(0);
        CK(cudaStreamSynchronize(st));
        CK(cudaMemcpy(got.data(), C[0], ec * 4, cudaMemcpyDeviceToHost));
        for (size_t j = 0; j < ec; ++j) {
          const double d = fabs(static_cast<double>(got[j]) - ref[j]);
          md[c] = std::isnan(got[j]) ? INFINITY : std::max(md[c], d);
        }
      }
      const int reps = flop > 5e11 ? 4 : flop > 6e10 ? 12 : 40;
      const int rounds = flop > 5e11 ? 3 : 7;
      const Timings t =
          time_interleaved(st, cands.size(), 2, reps, rounds, [&](size_t c, int i) { cands[c].run(i % sets); });
      const float tc = t.events[0];
      printf("%dx%dx%d %s cuBLAS %.2f TFLOPS\n", M, N, K, l, flop / tc / 1e9);
      for (size_t c = 1; c < cands.size(); ++c) {
        printf("%dx%dx%d %s %-18s %.2f TFLOPS %.3fx cuBLAS (graph %.3fx) maxdiff %.3g\n", M, N, K, l,
               cands[c].name.c_str(), flop / t.events[c] / 1e9, tc / t.events[c], t.graph[0] / t.graph[c], md[c]);
      }
      fflush(stdout);
    }
    cudaFree(Cr);
    cudaFree(At);
    cudaFree(Bt);
    cudaFree(ws);
  }
  return 0;
}
