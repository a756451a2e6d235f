// Harness (session 27): the last, partly filled wave of C tiles split in k among the blocks of clusters (Config's
// TAIL, kgen::tail_plan) against the same tiles launched whole, and cuBLAS SGEMM (pedantic math), at large shapes
// where that wave leaves multiprocessors idle (8192^3 in 128x128 tiles: 4 tiles in the 32nd wave of an H100's 132
// SMs). One layout per build (-DLAYOUT 0-3: nn nt tn tt); every variant checked against cuBLAS first (largest
// difference relative to the largest |C|, C poisoned with NaNs before), then timed in interleaved rounds
// (bench/harness/timing.h) over operand sets rotated past the 50 MB L2. One CSV line per (shape, variant):
// layout,M,N,K,variant,ms,graph_ms,x_cublas,reldiff,tail_tiles,tail_splits (the plan's; forced variants show 0,1);
// first, a comment line per tile with its blocks per SM and its tail kernel's clusters held. Shapes from the first
// argument; a second argument "check" only checks (for compute-sanitizer).
// Build on the GPU machine from the repository root (bench/harness/sgemm_tail.sh builds and runs every layout):
//   nvcc -O3 -std=c++17 -DKGEN_ARCH=sm90 -DLAYOUT=1 -I kernels/include -I . \
//     -gencode=arch=compute_90,code=sm_90 -o /tmp/sgemm_tail bench/harness/sgemm_tail.cu -lcublas
#include <string.h>

#include <vector>

#include "bench/harness/sgemm_harness.h"

using kgen::Order;

// The spec's 128x128x16 tile by column in FFMA order O (1 rows_zigzag, 2 quads_zigzag), ring R, tail T, in the
// orders AO, BO; and its 128x256x16 tile.
template <int O, bool R, bool T, Order AO = kA, Order BO = kB>
using Big = kgen::sgemm::Config<128, 128, 16, 32, 64, 8, 8, 1, true, AO, BO, 3, 1, 1, O, false, false, R, T>;
template <bool T>
using Wide = kgen::sgemm::Config<128, 256, 16, 64, 64, 8, 16, 1, true, kA, kB, 3, 1, 0, 0, false, false, false, T>;

typedef kgen::TailPlan (*Plan)(int, int, int);
struct V {
  const char* name;
  Launch f;
  WsBytes ws;
  Plan plan;  // the tail the launch takes (none for a kernel without TAIL)
};

// plan_of is the tail K's launch takes for an aligned M x N x Kd problem.
template <class K>
kgen::TailPlan plan_of(int M, int N, int Kd) {
  if constexpr (K::kTail) {
    using T = kgen::sgemm::TailOf<K>;
    if (kgen::sgemm::prepare<K>() != cudaSuccess) return kgen::TailPlan{};
    const int64_t tiles = static_cast<int64_t>(kgen::ceil_div(M, K::BM)) * kgen::ceil_div(N, K::BN);
    return kgen::tail_plan_on<K, T>(kgen::sgemm::gemm_kernel<K, false>, kgen::sgemm::gemm_kernel<T, false>,
                                    K::kThreads, K::kSmemBytes, T::kSmemBytes, tiles, kgen::ceil_div(Kd, K::BK));
  }
  return kgen::TailPlan{};
}

// launch_forced is kgen::sgemm::launch<K> (K with TAIL) with its tail split S ways whatever tail_plan says, for
// problems whose tiles lie inside C (others launch as launch<K> does): the model's calibration.
template <class K, int S>
int launch_forced(int M, int N, int Kd, float alpha, const float* A, int64_t lda, const float* B, int64_t ldb,
                  float beta, float* C, int64_t ldc, void* ws, int64_t ws_bytes, cudaStream_t st) {
  using namespace kgen::sgemm;
  using T = TailOf<K>;
  const bool edges = M % K::BM != 0 || N % K::BN != 0 || !fast_rows<K, K::kAKContig>(A, lda) ||
                     !fast_rows<K, K::kBKContig>(B, ldb);
  if (edges || Kd < S * K::BK) return launch<K>(M, N, Kd, alpha, A, lda, B, ldb, beta, C, ldc, ws, ws_bytes, st);
  CK(prepare<K>());
  const int64_t blocks = static_cast<int64_t>(M / K::BM) * (N / K::BN);
  int dev = 0;
  CK(cudaGetDevice(&dev));
  const int64_t resident =
      static_cast<int64_t>(kgen::blocks_per_sm<K>(dev, gemm_kernel<K, false>, K::kThreads, K::kSmemBytes)) *
      kgen::sm_count(dev);
  const int64_t tail = blocks % resident;
  if (tail == 0) return launch<K>(M, N, Kd, alpha, A, lda, B, ldb, beta, C, ldc, ws, ws_bytes, st);
  const bool early = kgen::early_pays<K>(gemm_kernel<K, false>, K::kThreads, K::kSmemBytes);
  cudaError_t e = cudaSuccess;
  if (tail < blocks) {
    e = kgen::launch_in_clusters(early, 1, gemm_kernel<K, false>, dim3(blocks - tail), dim3(K::kThreads),
                                 K::kSmemBytes, st, M, N, Kd, alpha, A, lda, B, ldb, beta, C, ldc,
                                 static_cast<float*>(ws));
  }
  if (e == cudaSuccess) {
    // Early as launch<K> launches it: behind whole tiles, or where K's kernel gains by it (a tail launched early
    // on its own, behind the last timed launch, ran up to 1.84x slower: h200-2026-11-29-session38.md).
    e = kgen::launch_in_clusters(tail < blocks || early, S, gemm_kernel<T, false>, dim3(tail, S), dim3(K::kThreads),
                                 T::kSmemBytes, st, M, N, Kd, alpha, A, lda, B, ldb, beta, C, ldc,
                                 static_cast<float*>(ws));
  }
  return static_cast<int>(e);
}

// occupancy prints K's blocks per multiprocessor and its tail kernel's clusters of 2 to 8 held at once, at that many
// and at one block per multiprocessor.
template <class K>
void occupancy(const char* name) {
  using namespace kgen::sgemm;
  using T = TailOf<K>;
  CK(prepare<K>());
  int dev = 0;
  CK(cudaGetDevice(&dev));
  printf("# %s %s: %d SMs, %d blocks per SM; tail clusters held (size: count)", kLayout, name, kgen::sm_count(dev),
         kgen::blocks_per_sm<K>(dev, gemm_kernel<K, false>, K::kThreads, K::kSmemBytes));
  for (int s = 2; s <= kgen::kMaxClusterSplits; ++s) {
    printf(" %d:%d", s, kgen::clusters_held<T>(dev, s, gemm_kernel<T, false>, K::kThreads, T::kSmemBytes));
  }
  printf("; at one block per SM");
  for (int s = 2; s <= kgen::kMaxClusterSplits; ++s) printf(" %d:%d", s, kgen::clusters_alone<T>(dev, s));
  printf("\n");
}

#define VAR(name, ...)                                                                                  \
  V {                                                                                                   \
    name, kgen::sgemm::launch<__VA_ARGS__>, kgen::workspace_bytes<__VA_ARGS__>, plan_of<__VA_ARGS__> \
  }
// The packed form (launch_packed): the tn kernel, barrier ring, on transposed copies of k-contiguous operands.
#define PACKED(name, T)                                                                                     \
  V {                                                                                                       \
    name, kgen::sgemm::launch_packed<Big<1, false, T, Order::Col, Order::Row>, kA, kB>,                     \
        kgen::sgemm::packed_workspace_bytes<Big<1, false, T, Order::Col, Order::Row>, kA, kB>,              \
        plan_of<Big<1, false, T, Order::Col, Order::Row>>                                                   \
  }

static std::vector<V> variants() {
  std::vector<V> v = {
      VAR("128x128x16 lc fz", Big<1, kRing, false>),
      VAR("128x128x16 lc fz tail", Big<1, kRing, true>),
      VAR("128x128x16 lc fq", Big<2, kRing, false>),
      VAR("128x128x16 lc fq tail", Big<2, kRing, true>),
      V{"128x128x16 lc fz tail forced 2", launch_forced<Big<1, kRing, true>, 2>, nullptr, nullptr},
      V{"128x128x16 lc fz tail forced 3", launch_forced<Big<1, kRing, true>, 3>, nullptr, nullptr},
      V{"128x128x16 lc fz tail forced 4", launch_forced<Big<1, kRing, true>, 4>, nullptr, nullptr},
      V{"128x128x16 lc fz tail forced 5", launch_forced<Big<1, kRing, true>, 5>, nullptr, nullptr},
      V{"128x128x16 lc fz tail forced 6", launch_forced<Big<1, kRing, true>, 6>, nullptr, nullptr},
      V{"128x128x16 lc fz tail forced 7", launch_forced<Big<1, kRing, true>, 7>, nullptr, nullptr},
      V{"128x128x16 lc fz tail forced 8", launch_forced<Big<1, kRing, true>, 8>, nullptr, nullptr},
      VAR("128x256x16", Wide<false>),
      VAR("128x256x16 tail", Wide<true>),
  };
#if LAYOUT != 2
  v.push_back(PACKED("128x128x16 lc fz pk", false));
  v.push_back(PACKED("128x128x16 lc fz pk tail", true));
#endif
  return v;
}

int main(int argc, char** argv) {
  const std::vector<V> vs = variants();
  occupancy<Big<1, kRing, true>>("128x128x16 lc fz");
  occupancy<Wide<true>>("128x256x16");
  // The plan's tail tiles and splits (cuBLAS and forced variants: 0,1).
  return run_shapes(argc, argv, vs.data(), static_cast<int>(vs.size()), 7, [&](int c, int M, int N, int K) {
    const kgen::TailPlan p = c > 0 && vs[c - 1].plan ? vs[c - 1].plan(M, N, K) : kgen::TailPlan{};
    printf(",%lld,%d", static_cast<long long>(p.tiles), p.splits);
  });
}
