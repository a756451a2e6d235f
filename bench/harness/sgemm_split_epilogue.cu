// Harness (session 44): what summing a split tile's partial sums costs, at the shapes where the dispatch tables
// split k (768^3, 1024^3, long K), and three other ways of summing them, from bench/harness/sgemm-split-epilogue.patch
// (which this harness needs). Each split tile runs as the spec builds it ("ws": the partial tiles to the workspace,
// then reduce_splits launched early) and as its GEMM kernel alone ("gemm only": the partial tiles written, never
// summed; C is left as it was, so its check against cuBLAS fails by design; its time bounds what any way of summing
// could save), and a third way:
// - "spread" (the default build, call 3): a cooperative launch (every block resident at once), whose splits of a tile
//   each write their partial tile as "ws" does, wait until all have, then each sum and store their share of the
//   tile's rows, in split order as reduce_splits does, in the GEMM kernel;
// - "owner" (-DWITH_OWNER=1, call 1): the first S - 1 splits of a tile write their partial tiles and count
//   themselves in a flag; the last split, dispatched after them, adds those in split order and its own sums last,
//   then stores C.
// Both sum as reduce_splits does: their checks must match "ws"'s. -DSET=2 (call 4): "pairs", 4-split tiles in
// clusters of 2 along the split, each pair summing its two partial tiles through distributed shared memory into one
// partial C of the workspace, reduce_splits adding the 2 of those (other sums than "ws"'s), against the same tiles
// through the workspace. -DSET=3 (prepared in session 44, run in session 45's call 1): "owner" with its share of k
// tiles 1 to 3 short of the others' (the patch's OwnerSkew), so that it can sum while they finish. -DSET=4 (session
// 45, call 3): the GEMM kernel followed by reduce_items, float4s of C only (1, 2 or 4 a thread, every partial loaded
// ahead of its adds, float4 stores), against "ws" and "gemm only"; kgen/common.cuh's reduce_quads_f32 is its 1.
// Aligned shapes only (the patch is in the kernel without edges): a shape that is not a whole number of a tile's
// stops the run (launch -100). One binary per layout (-DLAYOUT 0-3: nn nt tn tt); every variant
// checked against cuBLAS first, then timed in interleaved rounds over operand sets rotated past the 50 MB L2
// (bench/harness/sgemm_harness.h). Results: bench/results/h200-2026-11-29-session44.md (SET 1, 2) and
// bench/results/h200-2026-11-29-session45.md (SET 3, 4). Build on the GPU machine, with the patch applied to a copy
// of the headers:
//   cp -r kernels/include /tmp/pinc && patch -d /tmp/pinc -p3 < bench/harness/sgemm-split-epilogue.patch
//   nvcc -O3 -std=c++17 -DKGEN_ARCH=sm90 -DLAYOUT=0 -I /tmp/pinc -I . \
//     -gencode=arch=compute_90,code=sm_90 -o /tmp/split_epi bench/harness/sgemm_split_epilogue.cu -lcublas
//   /tmp/split_epi 768x768x768,1024x1024x1024,512x512x8192,1024x1024x8192
#include "bench/harness/sgemm_harness.h"

// Owner is the tile Base summing its splits in its last split (the patch's SplitOwner), which takes SKEW k tiles
// fewer than an even share (OwnerSkew).
template <class Base, int SKEW = 0>
struct Owner : Base {
  static constexpr bool kSplitOwner = true;
  static constexpr int kOwnerSkew = SKEW;
};

// Pairs is the cluster-summing tile Base summing its splits two at a time (the patch's SplitPairs).
template <class Base>
struct Pairs : Base {
  static constexpr bool kSplitPairs = true;
};

// Spread is the tile Base summing its splits spread over them (the patch's SplitSpread).
template <class Base>
struct Spread : Base {
  static constexpr bool kSplitSpread = true;
};

// SplitLaunch is kgen::sgemm::launch's GEMM kernel for K on an aligned problem (the kernel without edges), with the
// grid of tiles x splits launch gives it and whether it starts early; status is nonzero where the shape needs edge
// tiles (-100, not a harness shape) or prepare failed.
template <class K>
struct SplitLaunch {
  int status = 0;
  decltype(&kgen::sgemm::gemm_kernel<K, kgen::sgemm::kEdgesNone>) kernel = nullptr;
  dim3 grid;
  bool early = false;
};

template <class K>
SplitLaunch<K> split_launch(int M, int N, int Kd, const float* A, int64_t lda, const float* B, int64_t ldb) {
  namespace s = kgen::sgemm;
  SplitLaunch<K> l;
  if (s::edges_kind<K>(M, N, A, lda, B, ldb) != s::kEdgesNone) return l.status = -100, l;
  if (const cudaError_t e = s::prepare<K>(); e != cudaSuccess) return l.status = e, l;
  const int64_t blocks = int64_t{kgen::ceil_div(M, K::BM)} * kgen::ceil_div(N, K::BN);
  l.kernel = s::gemm_kernel<K, s::kEdgesNone>;
  int splits = kgen::splits_for<K>(M, N, Kd);
  if constexpr (K::kFill) {
    splits = kgen::fill_splits_on<K>(l.kernel, K::kThreads, K::kSmemBytes, blocks, kgen::ceil_div(Kd, K::BK), splits);
  }
  l.grid = dim3(static_cast<unsigned>(blocks), splits);
  l.early = kgen::kArch >= 90 && K::kEarly && kgen::early_pays<K>(l.kernel, K::kThreads, K::kSmemBytes);
  return l;
}

// launch_gemm is SplitLaunch's kernel alone, without the reduction that launch starts after it (cooperative for a
// Spread tiling).
template <class K>
int launch_gemm(int M, int N, int Kd, float alpha, const float* A, int64_t lda, const float* B, int64_t ldb,
                float beta, float* C, int64_t ldc, void* ws, int64_t, cudaStream_t stream) {
  const SplitLaunch<K> l = split_launch<K>(M, N, Kd, A, lda, B, ldb);
  if (l.status != 0) return l.status;
  if constexpr (kgen::sgemm::SplitSpread<K>::value) {
    // Cooperative (and early where the spec's launch is): the launch fails where the blocks do not all fit at once.
    cudaLaunchConfig_t cfg = {};
    cfg.gridDim = l.grid;
    cfg.blockDim = dim3(K::kThreads);
    cfg.dynamicSmemBytes = K::kSmemBytes;
    cfg.stream = stream;
    cudaLaunchAttribute attr[2];
    attr[0].id = cudaLaunchAttributeCooperative;
    attr[0].val.cooperative = 1;
    attr[1].id = cudaLaunchAttributeProgrammaticStreamSerialization;
    attr[1].val.programmaticStreamSerializationAllowed = 1;
    cfg.attrs = attr;
    cfg.numAttrs = l.early ? 2 : 1;
    const cudaError_t err = cudaLaunchKernelEx(&cfg, l.kernel, M, N, Kd, alpha, A, lda, B, ldb, beta, C, ldc,
                                               static_cast<float*>(ws));
    const cudaError_t last = cudaGetLastError();
    return err != cudaSuccess ? err : last;
  }
  return kgen::launch_in_clusters(l.early, 1, l.kernel, l.grid, dim3(K::kThreads), K::kSmemBytes, stream, M, N, Kd,
                                  alpha, A, lda, B, ldb, beta, C, ldc, static_cast<float*>(ws));
}

// launch_pairs is SplitLaunch's kernel for a Pairs tiling in clusters of 2 splits along grid y (an even number of
// them), then reduce_splits over the pairs' sums.
template <class K>
int launch_pairs(int M, int N, int Kd, float alpha, const float* A, int64_t lda, const float* B, int64_t ldb,
                 float beta, float* C, int64_t ldc, void* ws, int64_t, cudaStream_t stream) {
  const SplitLaunch<K> l = split_launch<K>(M, N, Kd, A, lda, B, ldb);
  if (l.status != 0) return l.status;
  if (l.grid.y % 2 != 0) return -101;
  cudaError_t e = kgen::launch_in_clusters(l.early, 2, l.kernel, l.grid, dim3(K::kThreads), K::kSmemBytes, stream, M,
                                           N, Kd, alpha, A, lda, B, ldb, beta, C, ldc, static_cast<float*>(ws));
  if (e == cudaSuccess) {
    e = kgen::launch_reduce<K, kgen::F32>(M, N, static_cast<int>(l.grid.y / 2), alpha, static_cast<const float*>(ws),
                                          beta, C, ldc, stream);
  }
  return e;
}

// reduce_items is reduce_splits (kgen/common.cuh) in float4s only (N a multiple of 4, C 16-byte aligned rows): each
// thread takes ITEMS float4s of C, ITEMS x blockDim.x apart, loads their partials four splits at a time before adding
// them (in split order, as reduce_splits does: the same sums), and stores float4s.
template <class K, int ITEMS>
__global__ void __launch_bounds__(256) reduce_items(int M, int N, int splits, float alpha, const float* __restrict__ ws,
                                                    float beta, float* __restrict__ C, int64_t ldc) {
  if constexpr (K::kEarly) {
    kgen::allow_early_start();
    kgen::wait_prior_grids();
  }
  const int mn = M * N, quads = mn / 4;
  const int first = blockIdx.x * ITEMS * blockDim.x + threadIdx.x;
  float4 sum[ITEMS];
#pragma unroll
  for (int j = 0; j < ITEMS; ++j) {
    const int q = min(first + j * static_cast<int>(blockDim.x), quads - 1);
    sum[j] = reinterpret_cast<const float4*>(ws)[q];
  }
  int s = 1;
  for (; s + 4 <= splits; s += 4) {
    float4 p[4][ITEMS];
#pragma unroll
    for (int t = 0; t < 4; ++t)
#pragma unroll
      for (int j = 0; j < ITEMS; ++j) {
        const int q = min(first + j * static_cast<int>(blockDim.x), quads - 1);
        p[t][j] = reinterpret_cast<const float4*>(ws + (s + t) * mn)[q];
      }
#pragma unroll
    for (int t = 0; t < 4; ++t)
#pragma unroll
      for (int j = 0; j < ITEMS; ++j)
        sum[j].x += p[t][j].x, sum[j].y += p[t][j].y, sum[j].z += p[t][j].z, sum[j].w += p[t][j].w;
  }
  for (; s < splits; ++s) {
#pragma unroll
    for (int j = 0; j < ITEMS; ++j) {
      const int q = min(first + j * static_cast<int>(blockDim.x), quads - 1);
      const float4 p = reinterpret_cast<const float4*>(ws + s * mn)[q];
      sum[j].x += p.x, sum[j].y += p.y, sum[j].z += p.z, sum[j].w += p.w;
    }
  }
#pragma unroll
  for (int j = 0; j < ITEMS; ++j) {
    const int q = first + j * static_cast<int>(blockDim.x);
    if (q >= quads) break;
    const int row = q * 4 / N, col = q * 4 % N;
    kgen::store_sum4<kgen::F32>(C + static_cast<int64_t>(row) * ldc + col, 4, true, sum[j], alpha, beta);
  }
}

// launch_items is SplitLaunch's kernel, then reduce_items<K, ITEMS> (early where the spec's reduction is).
template <class K, int ITEMS>
int launch_items(int M, int N, int Kd, float alpha, const float* A, int64_t lda, const float* B, int64_t ldb,
                 float beta, float* C, int64_t ldc, void* ws, int64_t, cudaStream_t stream) {
  const SplitLaunch<K> l = split_launch<K>(M, N, Kd, A, lda, B, ldb);
  if (l.status != 0) return l.status;
  if (N % 4 != 0 || !kgen::vector_ok(C, ldc)) return -102;
  cudaError_t e = kgen::launch_in_clusters(l.early, 1, l.kernel, l.grid, dim3(K::kThreads), K::kSmemBytes, stream, M,
                                           N, Kd, alpha, A, lda, B, ldb, beta, C, ldc, static_cast<float*>(ws));
  if (e != cudaSuccess || l.grid.y == 1) return e;
  const int blocks = kgen::ceil_div(M * N / 4, 256 * ITEMS);
  return kgen::launch_maybe_early(kgen::kArch >= 90 && K::kEarly, reduce_items<K, ITEMS>, dim3(blocks), dim3(256), 0,
                                  stream, M, N, static_cast<int>(l.grid.y), alpha, static_cast<const float*>(ws), beta,
                                  C, ldc);
}

// Tile8x16 is the spec's 8x16 thread tile of BM x BN x 16 (64x64 warps, 3 stages, lanes and FFMAs by row), SPLIT-way
// split (FILL: up to SPLIT, the fewest whose launch finishes first); Tile8x8 the spec's 128x128x16 tile of 8x8
// threads by columns (32x64 warps, 3 stages, the ring where the layout has a k-contiguous operand) in FFMA order
// ORDER, split as Tile8x16.
template <int BM, int BN, int SPLIT, bool FILL>
using Tile8x16 = LayoutCfg<BM, BN, 16, 64, 64, 8, 16, 1, 3, SPLIT, 0, 0, false, FILL>;
template <int ORDER, int SPLIT, bool FILL>
using Tile8x8 = LayoutCfg<128, 128, 16, 32, 64, 8, 8, 1, 3, SPLIT, 1, ORDER, false, FILL, kRing>;
// Cluster8x16 and Cluster8x8 are those tiles SPLIT-way split and summing in clusters.
template <int BM, int BN, int SPLIT>
using Cluster8x16 = LayoutCfg<BM, BN, 16, 64, 64, 8, 16, 1, 3, SPLIT, 0, 0, true>;
template <int ORDER, int SPLIT>
using Cluster8x8 = LayoutCfg<128, 128, 16, 32, 64, 8, 8, 1, 3, SPLIT, 1, ORDER, true, false, kRing>;

#ifndef WITH_OWNER
#define WITH_OWNER 0
#endif
// WAYS is a split tile's three variants.
#if WITH_OWNER
#define THIRD(name, ...) \
  Variant { name " owner", launch_gemm<Owner<__VA_ARGS__>>, kgen::workspace_bytes<__VA_ARGS__> }
#else
#define THIRD(name, ...) \
  Variant { name " spread", launch_gemm<Spread<__VA_ARGS__>>, kgen::workspace_bytes<__VA_ARGS__> }
#endif
#define WAYS(name, ...)                                                                     \
  Variant{name " ws", kgen::sgemm::launch<__VA_ARGS__>, kgen::workspace_bytes<__VA_ARGS__>}, \
      Variant{name " gemm only", launch_gemm<__VA_ARGS__>, kgen::workspace_bytes<__VA_ARGS__>}, THIRD(name, __VA_ARGS__)

#ifndef SET
#define SET 1
#endif
#if SET == 4
// Session 45: the tables' split tiles through the workspace (reduce_splits), their GEMM kernel alone, and the GEMM
// kernel followed by reduce_items of 1, 2 and 4 float4s a thread.
using FqK4 = Tile8x8<2, 4, false>;
using FqFill = Tile8x8<2, 32, true>;
using TallFill = Tile8x16<256, 128, 32, true>;
#define ITEMS(name, T)                                                                                  \
  Variant{name " ws", kgen::sgemm::launch<T>, kgen::workspace_bytes<T>},                                \
      Variant{name " gemm only", launch_gemm<T>, kgen::workspace_bytes<T>},                             \
      Variant{name " items 1", launch_items<T, 1>, kgen::workspace_bytes<T>},                           \
      Variant{name " items 2", launch_items<T, 2>, kgen::workspace_bytes<T>}, Variant {                 \
    name " items 4", launch_items<T, 4>, kgen::workspace_bytes<T>                                       \
  }
static const Variant kVariants[] = {ITEMS("fq k4", FqK4), ITEMS("fq k32f", FqFill), ITEMS("256x128 k32f", TallFill)};
#elif SET == 3
// Session 45, call 1: the 128x128 tiles' fill split summed by the owner, whose share is 0 to 3 k tiles short of the
// others'.
using FzFill = Tile8x8<1, 32, true>;
using FqFill = Tile8x8<2, 32, true>;
#define SKEWS(name, T)                                                                                  \
  Variant{name " ws", kgen::sgemm::launch<T>, kgen::workspace_bytes<T>},                                \
      Variant{name " owner", launch_gemm<Owner<T>>, kgen::workspace_bytes<T>},                          \
      Variant{name " owner skew 1", launch_gemm<Owner<T, 1>>, kgen::workspace_bytes<T>},                \
      Variant{name " owner skew 2", launch_gemm<Owner<T, 2>>, kgen::workspace_bytes<T>}, Variant {      \
    name " owner skew 3", launch_gemm<Owner<T, 3>>, kgen::workspace_bytes<T>                            \
  }
static const Variant kVariants[] = {SKEWS("fz k32f", FzFill), SKEWS("fq k32f", FqFill)};
#elif SET == 2
// Call 4: a 4-split tile summing its splits two at a time in clusters of 2, against the same tile through the
// workspace, and the 128x128 quads_zigzag tile's fill split as the tables run it.
#define PAIRS(name, WS, CLUSTERED)                                                       \
  Variant{name " ws", kgen::sgemm::launch<WS>, kgen::workspace_bytes<WS>}, Variant {     \
    name " pairs", launch_pairs<Pairs<CLUSTERED>>, kgen::workspace_bytes<WS>             \
  }
using FqK4 = Tile8x8<2, 4, false>;
using FzK4 = Tile8x8<1, 4, false>;
using WideK4 = Tile8x16<128, 256, 4, false>;
using TallK4 = Tile8x16<256, 128, 4, false>;
using FqFill = Tile8x8<2, 32, true>;
using FqK4Cl = Cluster8x8<2, 4>;
using FzK4Cl = Cluster8x8<1, 4>;
using WideK4Cl = Cluster8x16<128, 256, 4>;
using TallK4Cl = Cluster8x16<256, 128, 4>;
static const Variant kVariants[] = {
    PAIRS("fq k4", FqK4, FqK4Cl),
    PAIRS("fz k4", FzK4, FzK4Cl),
    PAIRS("128x256 k4", WideK4, WideK4Cl),
    PAIRS("256x128 k4", TallK4, TallK4Cl),
    Variant{"fq k32f ws", kgen::sgemm::launch<FqFill>, kgen::workspace_bytes<FqFill>},
};
#else
static const Variant kVariants[] = {
    WAYS("128x256 k4", Tile8x16<128, 256, 4, false>),   WAYS("256x128 k4", Tile8x16<256, 128, 4, false>),
    WAYS("256x128 k32f", Tile8x16<256, 128, 32, true>), WAYS("fz k32f", Tile8x8<1, 32, true>),
    WAYS("fq k32f", Tile8x8<2, 32, true>),
};
#endif
constexpr int kN = sizeof(kVariants) / sizeof(kVariants[0]);

int main(int argc, char** argv) { return run_shapes(argc, argv, kVariants, kN, 9, no_extra); }
