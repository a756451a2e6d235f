// Harness (session 22): how many splits of a C tile's k range are fastest on problems of few tiles, to test the rule
// by which split_count: fill instances choose theirs (kgen::fill_splits: as many as keep tiles x splits blocks in one
// wave of the blocks the GPU holds at once). One tile and layout per build: -DLAYOUT (0 nn, 2 tn) and -DTILE (0:
// 128x128x16 lanes by column, FFMA order rows_zigzag; 1: the same, quads_zigzag; 2: 256x128x16). Each shape runs
// the tile with every split count from 1 to 32 (no more than its k tiles or kMaxPartials allows), launched as kgen::sgemm::launch launches
// a fill instance but with the count given (the kernel, then reduce_splits; 1: the unsplit kernel), and cuBLAS SGEMM
// in pedantic math, timed in interleaved rounds (bench/harness/timing.h) over operand sets rotated past the 50 MB L2.
// Every count is checked against cuBLAS first (largest difference relative to the largest |C|). It prints each
// kernel's blocks per SM and one CSV line per count: layout,tile,M,N,K,tiles,splits,ms,graph_ms,x_cublas,reldiff.
// Shapes come from the first argument where given ("518x429x255,1000x3000x500"); else the 18 of session 22. In nn
// the 128x128 tiles synchronise their ring through mbarriers, as the spec's instances do (session 24).
// Build on the GPU machine from the repository root:
//   nvcc -O3 -std=c++17 -DKGEN_ARCH=sm90 -DLAYOUT=2 -DTILE=0 -I kernels/include -I . \
//     -gencode=arch=compute_90,code=sm_90 -o /tmp/sgemm_fill bench/harness/sgemm_fill.cu -lcublas
#include <functional>
#include <vector>

#ifndef LAYOUT
#define LAYOUT 2
#endif
#include "bench/harness/sgemm_harness.h"

#ifndef TILE
#define TILE 0
#endif
constexpr int kMaxSplits = 32;

template <int SPLIT>
using Cfg = std::conditional_t<
    TILE == 2, kgen::sgemm::Config<256, 128, 16, 64, 64, 8, 16, 1, true, kA, kB, 3, SPLIT, 0, 0>,
    kgen::sgemm::Config<128, 128, 16, 32, 64, 8, 8, 1, true, kA, kB, 3, SPLIT, 1, TILE == 1 ? 2 : 1, false, false,
                        kRing>>;
using Split = Cfg<kMaxSplits>;
using Whole = Cfg<1>;
constexpr const char* kTile = TILE == 0 ? "128x128x16_lc_fz" : TILE == 1 ? "128x128x16_lc_fq" : "256x128x16";

static cudaStream_t g_st;

// launch_split is kgen::sgemm::launch for Split with `splits` splits instead of its own count.
static int launch_split(int splits, int M, int N, int Kd, const float* A, int64_t lda, const float* B, int64_t ldb,
                        float* C, int64_t ldc, float* ws) {
  using K = Split;
  using namespace kgen::sgemm;
  CK(prepare<K>());
  const int blocks = kgen::ceil_div(M, K::BM) * kgen::ceil_div(N, K::BN);
  const bool edges = M % K::BM != 0 || N % K::BN != 0 || !fast_rows<K, K::kAKContig>(A, lda) ||
                     !fast_rows<K, K::kBKContig>(B, ldb);
  const auto kernel = edges ? gemm_kernel<K, true> : gemm_kernel<K, false>;
  const bool early = edges ? kgen::early_pays<WithEdges<K>>(kernel, K::kThreads, K::kSmemBytes)
                           : kgen::early_pays<K>(kernel, K::kThreads, K::kSmemBytes);
  cudaError_t e = kgen::launch_in_clusters(early, 1, kernel, dim3(blocks, splits), dim3(K::kThreads), K::kSmemBytes,
                                           g_st, M, N, Kd, 1.f, A, lda, B, ldb, 0.f, C, ldc, ws);
  if (e == cudaSuccess) e = kgen::launch_reduce<K, kgen::F32>(M, N, splits, 1.f, ws, 0.f, C, ldc, g_st);
  return static_cast<int>(e);
}


template <class Key, bool EDGES>
static int per_sm() {
  int n = 0;
  CK(kgen::sgemm::prepare<Key>());
  CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, kgen::sgemm::gemm_kernel<Key, EDGES>, Key::kThreads,
                                                   Key::kSmemBytes));
  return n;
}

using Shape = GemmShape;

int main(int argc, char** argv) {
  const CublasSgemm cublas;
  CK(cudaStreamCreateWithFlags(&g_st, cudaStreamNonBlocking));
  int sms = 0;
  CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  printf("# %s %s: %d SMs; blocks per SM: split %d (edges %d), unsplit %d (edges %d)\n", kLayout, kTile, sms,
         per_sm<Split, false>(), per_sm<Split, true>(), per_sm<Whole, false>(), per_sm<Whole, true>());
  std::vector<Shape> shapes = {{362, 362, 11585}, {364, 364, 11584}, {512, 512, 8192},   {724, 724, 8192},
                          {1024, 1024, 1024}, {1024, 1024, 8192}, {768, 768, 768},    {627, 627, 627},
                          {256, 256, 4096},   {171, 990, 4432},   {128, 5793, 2896},  {5793, 128, 2896},
                          {263, 3652, 5855},  {860, 573, 4702},   {128, 8192, 8192},  {181, 181, 4096},
                          {1536, 1536, 1536}, {2048, 2048, 2048}};
  if (argc > 1) {
    shapes.clear();
    if (!parse_shapes(argv[1], shapes)) {
      printf("bad shape list %s (want MxNxK,...)\n", argv[1]);
      return 2;
    }
  }
  for (const Shape& sh : shapes) {
    const int M = sh.M, N = sh.N, K = sh.K;
    const size_t ec = static_cast<size_t>(M) * N;
    const OperandSets ops(M, N, K);
    const auto &A = ops.A, &B = ops.B, &C = ops.C;
    const int sets = ops.size();
    const int64_t lda = kAColMajor ? M : K, ldb = kBColMajor ? K : N;
    float *Cr, *ws;
    CK(cudaMalloc(&Cr, ec * 4));
    CK(cudaMalloc(&ws, kgen::workspace_bytes<Split>(M, N, K) + 256));
    const int tiles = kgen::ceil_div(M, Split::BM) * kgen::ceil_div(N, Split::BN);
    const int max_splits = kgen::splits_for<Split>(M, N, K);  // no more than k tiles or the workspace's bound

    std::vector<std::function<void(int)>> cands;
    cands.push_back([&](int s) { cublas(g_st, kAColMajor, kBColMajor, M, N, K, A[s], lda, B[s], ldb, C[s]); });
    for (int sp = 1; sp <= max_splits; ++sp) {
      cands.push_back([&, sp](int s) {
        const int rc = sp == 1 ? kgen::sgemm::launch<Whole>(M, N, K, 1.f, A[s], lda, B[s], ldb, 0.f, C[s], N, nullptr,
                                                             0, g_st)
                               : launch_split(sp, M, N, K, A[s], lda, B[s], ldb, C[s], N, ws);
        if (rc) printf("launch %d\n", rc), exit(1);
      });
    }
    const std::vector<double> rd = rel_diffs(
        cands.size(), Cr, C[0], ec, g_st,
        [&] { cublas(g_st, kAColMajor, kBColMajor, M, N, K, A[0], lda, B[0], ldb, Cr); },
        [&](size_t c) { cands[c](0); });
    const double flop = 2.0 * M * N * static_cast<double>(K);
    const int reps = flop > 6e10 ? 10 : 30;
    const Timings t = time_interleaved(g_st, cands.size(), 2, reps, 5, [&](size_t c, int i) { cands[c](i % sets); });
    for (size_t c = 1; c < cands.size(); ++c) {
      printf("%s,%s,%d,%d,%d,%d,%zu,%.5f,%.5f,%.4f,%.2g\n", kLayout, kTile, M, N, K, tiles, c, t.events[c],
             t.graph[c], t.events[0] / t.events[c], rd[c]);
    }
    fflush(stdout);
    cudaFree(Cr);
    cudaFree(ws);
  }
  return 0;
}
