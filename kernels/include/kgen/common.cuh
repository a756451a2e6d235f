// Shared definitions for kgen's kernels: storage orders, error codes and the
// arch suffix of launcher symbols.
#pragma once

#include <cuda_runtime.h>
#include <stdint.h>

#include <atomic>
#include <type_traits>

#include "kernels/runtime/kgen_status.h"
#include "kgen/launch.cuh"

// Every instance is compiled once per target arch, with -DKGEN_ARCH=sm90 (and
// so on) naming it, so that the per-arch objects can link into one binary.
#ifndef KGEN_ARCH
#error "compile kgen kernels with -DKGEN_ARCH=<sm80|sm86|sm89|sm90> (see kernels/README.md)"
#endif
#define KGEN_CAT2(a, b) a##_##b
#define KGEN_CAT(a, b) KGEN_CAT2(a, b)
// KGEN_EXPORT(kgen_x) is the launcher symbol kgen_x_<arch>.
#define KGEN_EXPORT(name) KGEN_CAT(name, KGEN_ARCH)
#define KGEN_STR2(a) #a
#define KGEN_STR(a) KGEN_STR2(a)

// KGEN_BIND_DEVICE(d) makes device d current on the calling thread, in the
// same C call as the launch that follows: cgo may move a goroutine to
// another thread between two calls, so a separate "set device" call would
// not bind anything. It returns the cudaError_t from the launcher on failure.
#define KGEN_BIND_DEVICE(d)                    \
  do {                                         \
    cudaError_t kgen_bind_err_ = cudaSetDevice(d); \
    if (kgen_bind_err_ != cudaSuccess) return static_cast<int>(kgen_bind_err_); \
  } while (0)

namespace kgen {

// Order is the storage order of a matrix relative to its logical shape.
enum class Order { Row, Col };

__host__ __device__ constexpr int ceil_div(int a, int b) { return (a + b - 1) / b; }

// Raster groups: consecutive blocks walk down this many rows of tiles before
// moving right, so blocks running together share A and B panels in L2.
constexpr int kGroupRows = 8;

// tile_origin is the first row m0 and column n0 of C of tile `tile` in the
// GEMM kernels' grouped raster order over tiles_m x tiles_n tiles of
// K::BM x K::BN. (The tile is unsigned: its divisions compile shorter.)
template <class K>
__host__ __device__ inline void tile_origin(unsigned tile, int tiles_m, int tiles_n, int& m0, int& n0) {
  const int per_group = kGroupRows * tiles_n;
  const int group = tile / per_group, first_m = group * kGroupRows;
  const int rows = tiles_m - first_m < kGroupRows ? tiles_m - first_m : kGroupRows;
  const int in_group = tile % per_group;
  m0 = (first_m + in_group % rows) * K::BM;
  n0 = (in_group / rows) * K::BN;
}

// vector_ok reports whether float4 accesses at p + i*ld (i any row) are
// 16-byte aligned: the base must be, and so must every row's start.
__host__ __device__ inline bool vector_ok(const void* p, int64_t ld) {
  return (reinterpret_cast<uintptr_t>(p) % 16 == 0) && (ld % 4 == 0);
}

// aligned16 reports whether every row of p (stride ld halves) starts on 16
// bytes: 16-byte loads and cp.async copies of fp16 rows.
__host__ __device__ inline bool aligned16(const void* p, int64_t ld) {
  return reinterpret_cast<uintptr_t>(p) % 16 == 0 && ld % 8 == 0;
}

// once_per_device runs set (a callable returning cudaError_t) the first time
// it succeeds for Key on the current device, and returns its error: kernel
// attributes are per device, and setting them on every launch costs a driver
// call. Devices 0-63 are remembered; set runs on every call for others.
template <class Key, class F>
inline cudaError_t once_per_device(F set) {
  static std::atomic<bool> done[64];
  int device = 0;
  cudaError_t err = cudaGetDevice(&device);
  if (err != cudaSuccess) return err;
  const bool cache = device >= 0 && device < 64;
  if (cache && done[device].load(std::memory_order_acquire)) return cudaSuccess;
  err = set();
  if (err == cudaSuccess && cache) done[device].store(true, std::memory_order_release);
  return err;
}

// allow_shared_memory lets kernel have `bytes` of dynamic shared memory,
// past the 48 KiB default, with the largest carveout so that several blocks
// fit an SM; once per device for Key (once_per_device).
template <class Key, class... P>
inline cudaError_t allow_shared_memory(void (*kernel)(P...), int bytes) {
  return once_per_device<Key>([kernel, bytes] {
    const cudaError_t err = cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes);
    if (err != cudaSuccess) return err;
    return cudaFuncSetAttribute(kernel, cudaFuncAttributePreferredSharedMemoryCarveout,
                                cudaSharedmemCarveoutMaxShared);
  });
}

// blocks_per_sm is how many blocks of kernel, of `threads` threads and
// `smem` bytes of dynamic shared memory, one multiprocessor of device (the
// current one) holds at once (the occupancy API), cached per device for Key
// (per_device); -1 when the query fails (the error is cleared).
template <class Key, class... P>
inline int blocks_per_sm(int device, void (*kernel)(P...), int threads, size_t smem) {
  return per_device<Key>(device, [kernel, threads, smem] {
    int blocks = 0;
    if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, kernel, threads, smem) != cudaSuccess) {
      cudaGetLastError();
      return -1;
    }
    return blocks;
  });
}

// early_pays reports whether a kernel launched early (programmatic
// dependent launch, kgen/launch.cuh) gains by it on the current device: only
// where one of its blocks fills a multiprocessor (shared memory or
// registers), cached per device for Key. Where a second block fits, the next
// grid's early blocks pile onto the first multiprocessors to free up, two or
// more to one while others idle: on an H100 at 1024^3 that took hgemm's
// 128x128 tile of 4 stages from 12.5 to 18.9 us a launch, and the 64x64 one
// from 13.6 to 15.0 (bench/results/h100-2026-11-24-session8.md). The GEMM
// kernels (hgemm, sgemm) start early by this rule.
template <class Key, class... P>
inline bool early_pays(void (*kernel)(P...), int threads, size_t smem) {
  int device = 0;
  return cudaGetDevice(&device) == cudaSuccess && blocks_per_sm<Key>(device, kernel, threads, smem) == 1;
}

// one_wave reports whether `blocks` blocks of kernel all fit the current
// device at once (blocks_per_sm x its multiprocessors); false when either
// query fails.
template <class Key, class... P>
inline bool one_wave(void (*kernel)(P...), int threads, size_t smem, int64_t blocks) {
  int device = 0;
  if (cudaGetDevice(&device) != cudaSuccess) return false;
  const int per_sm = blocks_per_sm<Key>(device, kernel, threads, smem), sms = sm_count(device);
  return per_sm > 0 && sms > 0 && blocks <= static_cast<int64_t>(per_sm) * sms;
}

// arch_number reads the digits of an arch name: "sm90" is 90.
constexpr int arch_number(const char* s, int n = 0) {
  return *s == 0 ? n : (*s >= '0' && *s <= '9') ? arch_number(s + 1, 10 * n + (*s - '0')) : arch_number(s + 1, n);
}
// kArch is the arch this object is compiled for (KGEN_ARCH): its host code
// launches only this object's kernels, on devices of that arch or later.
constexpr int kArch = arch_number(KGEN_STR(KGEN_ARCH));

// launch_early is launch_maybe_early (kgen/launch.cuh), early when this
// object's kernels are built for sm_90 or later (they then contain the wait;
// an older arch's object may run on a newer device, so the device alone
// does not decide). Arch is this object's arch: as a template argument it
// gives each arch's objects their own instantiation, so that the linker
// cannot keep an sm_80 object's copy (not early) for the sm_90 kernels, or
// the other way round.
template <int Arch = kArch, class... KernelParams, class... Args>
inline cudaError_t launch_early(void (*kernel)(KernelParams...), dim3 grid, dim3 block, size_t smem, cudaStream_t stream,
                                Args&&... args) {
  return launch_maybe_early(Arch >= 90, kernel, grid, block, smem, stream, static_cast<Args&&>(args)...);
}

// Split-K (kgen::sgemm and kgen::hgemm): the blocks sharing one C tile's k
// range write unscaled fp32 partial C's to a workspace the caller owns, and
// a second kernel adds them in split order.

// kMaxPartials bounds the workspace, in floats (64 MiB): splitting pays where
// M x N is small, and a problem large enough to hit the bound fills the GPU
// without it.
constexpr int64_t kMaxPartials = int64_t{1} << 24;

// splits_for is the number of blocks that share each C tile's k range: at
// most K::kSplitK, no more than there are k tiles, and no more partial C's
// than kMaxPartials holds (go/internal/kernels.GEMMSplits mirrors it). K is
// a GEMM config with BK and kSplitK (kgen::sgemm's and kgen::hgemm's).
template <class K>
inline int splits_for(int M, int N, int Kd) {
  int64_t s = K::kSplitK;
  const int64_t k_tiles = ceil_div(Kd, K::BK);
  const int64_t mn = static_cast<int64_t>(M) * N;
  if (k_tiles < s) s = k_tiles;
  if (mn > 0 && kMaxPartials / mn < s) s = kMaxPartials / mn;
  return s > 1 ? static_cast<int>(s) : 1;
}

// kFillBlockCost is what a block costs fill_splits beyond its k tiles, in k
// tiles: its pipeline's fill and its partial C's store.
constexpr int64_t kFillBlockCost = 4;

// kFillReduceCost is what the reduction of split partial C's costs
// fill_splits for each C tile it reads or writes, spread over the blocks the
// GPU holds at once, in fifths of a k tile.
constexpr int64_t kFillReduceCost = 6;

// fill_splits is how many of at most max_splits blocks share each C tile's
// k range, of `tiles` C tiles of k_tiles k tiles each, on `sms`
// multiprocessors holding per_sm blocks each at once: the fewest splits
// whose launch finishes first. Its busiest multiprocessor runs
// ceil(tiles x splits / sms) blocks, each of ceil(k_tiles / splits) k tiles
// and kFillBlockCost more, a block counting 5/5 of that and, where per_sm
// > 1 and its last round leaves a block alone, 1/5 more (a block alone
// hides less of its latency than two). Split, the reduction then reads
// splits partial tiles and writes one for each C tile, at kFillReduceCost
// fifths of a k tile a C tile over the sms x per_sm blocks. On an H100
// (bench/harness/sgemm_fill.cu at 39 shapes of 2 to 256 tiles,
// bench/results/h100-2026-11-27-session22.md and -session24.md) this picked
// within 11% of the fastest of 1 to 32 splits everywhere and within 5% at
// 222 of 234 (tile, layout, shape), for 128x128 tiles of one or two blocks
// per multiprocessor and 256x128 tiles of one; session 22's rule, without
// the reduction and the lone block of a later round, took 2 splits at
// 1370 x 2268 x 265, 1.27-1.42x slower than 1 (17 over 5%). max_splits
// where sms or per_sm is unknown (0). internal/tuning's FillSplits is its
// copy for the timing model; its TestFillSplitsOnMeasuredTimes replays it
// on those times.
inline int fill_splits(int64_t tiles, int64_t k_tiles, int sms, int per_sm, int max_splits) {
  if (max_splits <= 1 || tiles <= 0) return 1;
  if (sms <= 0 || per_sm <= 0) return max_splits;
  int best = 1;
  int64_t best_cost = -1;
  for (int s = 1; s <= max_splits; ++s) {
    const int64_t busiest = (tiles * s + sms - 1) / sms;
    const int64_t fifths = 5 * busiest + (per_sm > 1 && busiest % per_sm != 0 ? 1 : 0);
    // In fifths of a k tile, times the sms x per_sm blocks held at once.
    int64_t cost = fifths * ((k_tiles + s - 1) / s + kFillBlockCost) * sms * per_sm;
    if (s > 1) cost += kFillReduceCost * (s + 1) * tiles;
    if (best_cost < 0 || cost < best_cost) best = s, best_cost = cost;
  }
  return best;
}

// fill_splits_on is fill_splits for kernel on the current device: its
// multiprocessors, and blocks_per_sm cached for Key.
template <class Key, class... P>
inline int fill_splits_on(void (*kernel)(P...), int threads, size_t smem, int64_t tiles, int64_t k_tiles,
                          int max_splits) {
  int device = 0;
  if (cudaGetDevice(&device) != cudaSuccess) {
    cudaGetLastError();
    return max_splits;
  }
  return fill_splits(tiles, k_tiles, sm_count(device), blocks_per_sm<Key>(device, kernel, threads, smem), max_splits);
}

// split_k_tiles is this block's share [begin, end) of a C tile's k_tiles
// k tiles: split blockIdx.y of gridDim.y (the launcher's splits_for, or
// fill_splits), each of ceil(k_tiles / splits) tiles; a split past the
// last tile gets none.
__device__ __forceinline__ void split_k_tiles(int k_tiles, int& begin, int& end) {
  const int per_split = ceil_div(k_tiles, static_cast<int>(gridDim.y));
  begin = min(static_cast<int>(blockIdx.y) * per_split, k_tiles);
  end = min(begin + per_split, k_tiles);
}

// kStreamMaxBlocks bounds a stream-K grid, and so the workspace, which holds a
// partial tile and a flag per block; more than an H100's 264 slots of the
// 128x128 tile.
constexpr int64_t kStreamMaxBlocks = 512;

// stream_aligned: stream-K takes problems of whole tiles and whole k tiles
// (fast_rows aside); the others launch as `tail: whole`.
template <class K>
__host__ __device__ inline bool stream_aligned(int M, int N, int Kd) {
  return M > 0 && N > 0 && Kd > 0 && M % K::BM == 0 && N % K::BN == 0 && Kd % K::BK == 0 &&
         static_cast<int64_t>(M / K::BM) * (N / K::BN) * (Kd / K::BK) < (int64_t{1} << 31);
}

// stream_workspace_bytes: a partial tile and a flag for each block of the
// largest grid that an M x N x Kd problem may stream over, whatever the
// device (kStreamMaxBlocks); 0 where it does not stream
// (go/internal/kernels.GEMMWorkspaceBytes mirrors it). K is a kgen::sgemm
// config (kgen/sgemm.cuh's stream-K).
template <class K>
inline int64_t stream_workspace_bytes(int M, int N, int Kd) {
  if (!stream_aligned<K>(M, N, Kd)) return 0;
  const int64_t iterations = static_cast<int64_t>(M / K::BM) * (N / K::BN) * (Kd / K::BK);
  const int64_t slots = iterations < kStreamMaxBlocks ? iterations : kStreamMaxBlocks;
  return slots * K::BM * K::BN * 4 + (slots * 4 + 15) / 16 * 16;
}

// workspace_bytes is the workspace launch needs for an M x N x Kd problem:
// a partial C of floats per split when the k range is split through memory,
// with stream-K (K::kStream, kgen/sgemm.cuh) stream_workspace_bytes, else
// none (no split, or the splits sum in a cluster: K::kClusterReduce).
template <class K>
inline int64_t workspace_bytes(int M, int N, int Kd) {
  if constexpr (K::kStream) return stream_workspace_bytes<K>(M, N, Kd);
  const int splits = splits_for<K>(M, N, Kd);
  if (K::kClusterReduce || splits <= 1 || M <= 0 || N <= 0) return 0;
  return static_cast<int64_t>(splits) * M * N * static_cast<int64_t>(sizeof(float));
}

// check_workspace_of is KGEN_OK when ws, of ws_bytes bytes, holds need
// bytes and is 16-byte aligned, or need is 0; else KGEN_ERR_WORKSPACE.
inline int check_workspace_of(int64_t need, const void* ws, int64_t ws_bytes) {
  if (need > 0 && (ws == nullptr || ws_bytes < need || reinterpret_cast<uintptr_t>(ws) % 16 != 0)) {
    return KGEN_ERR_WORKSPACE;
  }
  return KGEN_OK;
}

// check_workspace is check_workspace_of for an M x N x Kd launch of K,
// which needs workspace_bytes.
template <class K>
inline int check_workspace(int M, int N, int Kd, const void* ws, int64_t ws_bytes) {
  return check_workspace_of(workspace_bytes<K>(M, N, Kd), ws, ws_bytes);
}

// F32 is fp32 C's element for store_blended, store_sum4, reduce_splits and
// cluster_sum_tile (kgen::sgemm's C; kgen::hgemm's F16 is the other).
struct F32 {
  using T = float;
  __host__ __device__ static float load(const float* p) { return *p; }
  __host__ __device__ static void store(float* p, float v) { *p = v; }
};

// store_blended writes out + beta * c at c, in Elem's type; with beta == 0
// it does not read c, so C may hold anything (NaN included) on entry. The
// SGEMM kernels' stores of C (kgen::sgemm, kgen::sgemm_ladder) and the split
// reductions' (store_sum4, fp32 or fp16 C) blend through it or
// store_blended4.
template <class Elem = F32>
__host__ __device__ __forceinline__ void store_blended(typename Elem::T* c, float out, float beta) {
  if (beta != 0.0f) out = fmaf(beta, Elem::load(c), out);
  Elem::store(c, out);
}

// store_blended4 is store_blended for the four fp32 elements from the
// 16-byte aligned c, one float4 load (where beta != 0) and store.
__host__ __device__ __forceinline__ void store_blended4(float* c, float4 out, float beta) {
  float4* p = reinterpret_cast<float4*>(c);
  if (beta != 0.0f) {
    const float4 old = *p;
    out.x = fmaf(beta, old.x, out.x), out.y = fmaf(beta, old.y, out.y);
    out.z = fmaf(beta, old.z, out.z), out.w = fmaf(beta, old.w, out.w);
  }
  *p = out;
}

// store_sum4 writes alpha * sum + beta * c to the first min(4, left)
// elements at c, a float4 store where vec (Elem::T float, c 16-byte
// aligned) and all 4 are in C; with beta == 0 it does not read c.
template <class Elem>
__device__ __forceinline__ void store_sum4(typename Elem::T* c, int left, bool vec, float4 sum, float alpha,
                                           float beta) {
  if (vec && left >= 4) {
    store_blended4(reinterpret_cast<float*>(c),
                   make_float4(alpha * sum.x, alpha * sum.y, alpha * sum.z, alpha * sum.w), beta);
    return;
  }
  const float v[4] = {sum.x, sum.y, sum.z, sum.w};
#pragma unroll
  for (int j = 0; j < 4; ++j)
    if (j < left) store_blended<Elem>(c + j, alpha * v[j], beta);
}

// reduce_splits adds the splits' fp32 partial sums in split order, so the
// result is the same on every run, and writes alpha * sum + beta * C in
// fp32, stored once in C's type. Elem is C's element: Elem::T, and
// Elem::load and Elem::store between it and fp32 (kgen::sgemm's and
// kgen::hgemm's). A template on the instance K so that every instance's
// file has its own copy: instances link together into one library.
//
// With quads (launch_reduce decides; fp32 C in quads takes
// reduce_quads_f32 instead) each thread takes 4 consecutive elements of a
// row and reads each partial's 4 as one float4 (N is then a multiple of 4,
// and the partial C's are rows of N in a 16-byte aligned workspace); else
// one element. A split problem's M x N is at most kMaxPartials / 2, so
// 32-bit indices reach every partial.
template <class K, class Elem>
__global__ void __launch_bounds__(256) reduce_splits(int M, int N, int splits, bool quads, float alpha,
                                                     const float* __restrict__ ws, float beta,
                                                     typename Elem::T* __restrict__ C, int64_t ldc) {
  if constexpr (K::kEarly) {
    // Launched early: its blocks take the SMs that the splits' last blocks
    // leave, instead of following the whole grid after a launch gap.
    allow_early_start();
    wait_prior_grids();
  }
  const int mn = M * N, width = quads ? 4 : 1, per_row = N / width, total = M * per_row;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < total; i += gridDim.x * blockDim.x) {
    const int row = i / per_row, col = (i % per_row) * width, at = row * N + col;
    float4 sum = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
    if (quads) {
      sum = *reinterpret_cast<const float4*>(ws + at);
      for (int s = 1; s < splits; ++s) {
        const float4 p = *reinterpret_cast<const float4*>(ws + s * mn + at);
        sum.x += p.x, sum.y += p.y, sum.z += p.z, sum.w += p.w;
      }
    } else {
      sum.x = ws[at];
      for (int s = 1; s < splits; ++s) sum.x += ws[s * mn + at];
    }
    store_sum4<Elem>(C + static_cast<int64_t>(row) * ldc + col, width, false, sum, alpha, beta);
  }
}

// sum_partials4 adds the float4s at p, p + stride, ... (splits of them; p
// 16-byte aligned, stride a multiple of 4) in that order, loading four of
// them before their adds.
__device__ __forceinline__ float4 sum_partials4(const float* __restrict__ p, int stride, int splits) {
  float4 sum = *reinterpret_cast<const float4*>(p);
  int s = 1;
  for (; s + 4 <= splits; s += 4) {
    float4 q[4];
#pragma unroll
    for (int j = 0; j < 4; ++j) q[j] = *reinterpret_cast<const float4*>(p + (s + j) * stride);
#pragma unroll
    for (int j = 0; j < 4; ++j) sum.x += q[j].x, sum.y += q[j].y, sum.z += q[j].z, sum.w += q[j].w;
  }
  for (; s < splits; ++s) {
    const float4 q = *reinterpret_cast<const float4*>(p + s * stride);
    sum.x += q.x, sum.y += q.y, sum.z += q.z, sum.w += q.w;
  }
  return sum;
}

// reduce_quads_f32 is reduce_splits with quads for fp32 C (the same sums,
// in split order), which also stores each thread's 4 elements as one
// float4 where C's rows are 16-byte aligned, and loads the partials four
// ahead of their adds. A kernel of its own, so that reduce_splits's
// one-element threads keep the code they had: every other build of them
// ran slower (bench/results/h200-2026-11-29-session45.md: in one kernel
// with this one, 40 registers and 1.3-2.9% longer at 768^3; alone with
// their loop unrolled 4 or 16, 1 us longer over 128 splits).
template <class K>
__global__ void __launch_bounds__(256) reduce_quads_f32(int M, int N, int splits, float alpha,
                                                        const float* __restrict__ ws, float beta,
                                                        float* __restrict__ C, int64_t ldc) {
  if constexpr (K::kEarly) {
    allow_early_start();
    wait_prior_grids();
  }
  const int mn = M * N, per_row = N / 4, total = M * per_row;
  const bool vec = vector_ok(C, ldc);
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < total; i += gridDim.x * blockDim.x) {
    const int row = i / per_row, col = (i % per_row) * 4, at = row * N + col;
    const float4 sum = sum_partials4(ws + at, mn, splits);
    store_sum4<F32>(C + static_cast<int64_t>(row) * ldc + col, 4, vec, sum, alpha, beta);
  }
}

// Split-K in a thread-block cluster (sm_90 and later; K::kClusterReduce):
// the splits of one C tile are the blocks of one cluster, grid y, and each
// leaves its unscaled partial tile in its own shared memory; each block then
// sums a share of the tile's rows over every block's shared memory
// (distributed shared memory), in split order as reduce_splits does, and
// writes it to C. No workspace and no second kernel.

// kMaxClusterSplits is the most splits a cluster holds: 8, the cluster size
// every sm_90 device can schedule (portable).
constexpr int kMaxClusterSplits = 8;

// max_active_clusters is how many clusters of `size` blocks (along grid y)
// of kernel, of `threads` threads and `smem` bytes of dynamic shared
// memory, the current device holds at once (the occupancy API, asked every
// call); -1 when the query fails (the error is cleared).
template <class... P>
inline int max_active_clusters(void (*kernel)(P...), int threads, size_t smem, int size) {
  cudaLaunchConfig_t cfg = {};
  cfg.gridDim = dim3(1, size);
  cfg.blockDim = dim3(threads);
  cfg.dynamicSmemBytes = smem;
  cudaLaunchAttribute attr = cluster_y_attribute(size);
  cfg.attrs = &attr;
  cfg.numAttrs = 1;
  int n = 0;
  if (cudaOccupancyMaxActiveClusters(&n, kernel, &cfg) != cudaSuccess) {
    cudaGetLastError();
    return -1;
  }
  return n;
}

// clusters_held is max_active_clusters for kernel on device (the current
// one), cached per device and size for Key (per_device).
template <class Key, class... P>
inline int clusters_held(int device, int size, void (*kernel)(P...), int threads, size_t smem) {
  return per_device<Key, kMaxClusterSplits + 1>(
      device, [=] { return max_active_clusters(kernel, threads, smem, size); }, size);
}

// cluster_probe is never launched: clusters_alone asks the occupancy API
// about it. A template on Key, as the kernels are, so that every instance's
// file has its own copy.
template <class Key>
__global__ void cluster_probe() {}

// clusters_alone is how many clusters of `size` blocks the device (the
// current one) holds at once at one block a multiprocessor:
// max_active_clusters of cluster_probe with the dynamic shared memory of
// half a multiprocessor and a byte. A cluster runs within one GPU
// processing cluster, whose multiprocessors need not divide by size: an
// H100's or H200's 132 hold 66, 39, 30, 22, 17, 15 and 15 clusters of 2 to
// 8. Cached per device and size for Key; -1 when a query fails (the error
// is cleared).
template <class Key>
inline int clusters_alone(int device, int size) {
  struct Cache;  // not clusters_held's
  return per_device<Cache, kMaxClusterSplits + 1>(
      device,
      [=] {
        const int per_sm = device_attribute<cudaDevAttrMaxSharedMemoryPerMultiprocessor>(device);
        const int smem = per_sm / 2 + 1;
        if (per_sm <= 0 ||
            cudaFuncSetAttribute(cluster_probe<Key>, cudaFuncAttributeMaxDynamicSharedMemorySize, smem) !=
                cudaSuccess) {
          cudaGetLastError();
          return -1;
        }
        return max_active_clusters(cluster_probe<Key>, 32, smem, size);
      },
      size);
}

// Tail splits (kgen::sgemm's Config TAIL): a problem's last, partly filled
// wave of C tiles leaves multiprocessors idle for a whole tile's time (at
// 8192^3 in 128x128 tiles, 4 tiles of the 32nd wave on an H100's 132
// multiprocessors); split in k among the blocks of clusters, those tiles
// take a fraction of it.

// kTileBlockCost is what a block of a whole tile costs tail_plan beyond its
// k tiles, in k tiles: its pipeline's fill and its store.
constexpr int64_t kTileBlockCost = 2;

// kTailBlockCost is the same for a block of a split tile: also its partial
// tile's store to shared memory and the sum over its cluster.
constexpr int64_t kTailBlockCost = 6;

// odd_split_pays reports whether tail_plan tries clusters of s blocks on a
// tail of `rounds` rounds of clusters: s odd and over 3 only where the tail
// is the whole problem (only) and runs in one round. Behind whole tiles, on
// an H100 (bench/results/h100-2026-11-27-session28.md: every split forced at
// 25 shapes), 5 and 7 splits ran behind the best of 2, 3, 4, 6 and 8 by up
// to 48%, but at 5120^3, where they led it by at most 2%. On an H200
// (h200-2026-11-29-session38.md) 5 and 7 splits in two rounds (39 to 67
// tiles) ran up to 1.22x the time tail_plan's rounds say (5 splits
// 1.13-1.22x), in one round as they say: 5 splits of 18 to 22 tiles 1.2x
// faster than 4 or 8.
constexpr bool odd_split_pays(int s, bool only, int64_t rounds) {
  return s < 5 || s % 2 == 0 || (only && rounds == 1);
}

// TailPlan is how a launch runs its last tiles: `tiles` of them, the last of
// the raster, split `splits` ways in clusters; splits 1 (and tiles 0): as
// the others.
struct TailPlan {
  int64_t tiles = 0;
  int splits = 1;
};

// tail_plan plans the last tiles % (sms x per_sm) of `tiles` C tiles (every
// one where fewer) of k_tiles k tiles each, on sms multiprocessors holding
// per_sm blocks each: whole, one block each, in the last wave; or split s
// ways (2 to 8, odd_split_pays) in clusters of s blocks, of which the GPU
// holds held[s] at once (0 or less where unknown or none) and alone[s] at
// one block a multiprocessor, in rounds of held[s], each round
// ceil(k_tiles / s) + kTailBlockCost k tiles. It takes the split that
// finishes first, if before the whole tiles' k_tiles + kTileBlockCost.
//
// Where a multiprocessor holds two or more blocks, a block alone on one
// counts half the time of one sharing it: the whole tiles where sms or
// fewer; where no whole tiles run before the tail, its last (or only) round
// of clusters where it has alone[s] or fewer; behind whole tiles, the last
// of several rounds where its blocks are sms or fewer. A round of more
// clusters than alone[s] the GPU places two blocks to some multiprocessors,
// and it takes as long as one that fills them all. On an H200 with the
// 128x128x16 tile at two blocks an SM (bench/harness/sgemm_tail.cu,
// h200-2026-11-29-session38.md: 1 to 67 tiles of 512 k tiles, every split
// forced) every split's time was 0.99-1.09x what this says (but 5 and 7 in
// several rounds, odd_split_pays): 15 clusters of 8 ran 0.147 of the whole
// tiles' time, 16 of them 0.272; 66 clusters of 2 0.548, 67 of them 1.049.
// Behind whole tiles, on an H100 (h100-2026-11-27-session27.md and
// -session28.md), a block alone took 0.53-0.57 of a shared one's time.
// internal/tuning's TailPlan is its copy for the timing model.
inline TailPlan tail_plan(int64_t tiles, int64_t sms, int64_t per_sm, int64_t k_tiles,
                          const int (&held)[kMaxClusterSplits + 1], const int (&alone)[kMaxClusterSplits + 1]) {
  TailPlan plan;
  if (tiles <= 0 || sms <= 0 || per_sm <= 0 || k_tiles <= 0) return plan;
  const int64_t tail = tiles % (sms * per_sm);
  if (tail == 0) return plan;
  // In half k tiles: 2 a k tile of a block sharing its multiprocessor, 1 of
  // one alone where it could share.
  const int64_t apart = per_sm > 1 ? 1 : 2;
  const bool only = tail == tiles;  // no whole tiles before the tail
  int64_t best = (tail <= sms ? apart : 2) * (k_tiles + kTileBlockCost);
  for (int s = 2; s <= kMaxClusterSplits; ++s) {
    if (held[s] <= 0) continue;
    const int64_t rounds = (tail + held[s] - 1) / held[s], round = (k_tiles + s - 1) / s + kTailBlockCost;
    if (!odd_split_pays(s, only, rounds)) continue;
    const int64_t last = tail - (rounds - 1) * held[s];  // clusters in the last round
    const bool last_apart = only ? last <= alone[s] : rounds > 1 && last * s <= sms;
    const int64_t cost = 2 * (rounds - 1) * round + (last_apart ? apart : 2) * round;
    if (cost < best) best = cost, plan.tiles = tail, plan.splits = s;
  }
  return plan;
}

// tail_plan_on is tail_plan for a launch of `tiles` tiles of kernel on the
// current device, its blocks per multiprocessor cached for Key, the tail's
// kernel's clusters for TailKey; no split where a query fails.
template <class Key, class TailKey, class... P>
inline TailPlan tail_plan_on(void (*kernel)(P...), void (*tail_kernel)(P...), int threads, size_t smem,
                             size_t tail_smem, int64_t tiles, int64_t k_tiles) {
  int device = 0;
  if (cudaGetDevice(&device) != cudaSuccess) {
    cudaGetLastError();
    return TailPlan{};
  }
  const int per_sm = blocks_per_sm<Key>(device, kernel, threads, smem), sms = sm_count(device);
  if (per_sm <= 0 || sms <= 0) return TailPlan{};
  int held[kMaxClusterSplits + 1] = {}, alone[kMaxClusterSplits + 1] = {};
  for (int s = 2; s <= kMaxClusterSplits; ++s) {
    held[s] = clusters_held<TailKey>(device, s, tail_kernel, threads, tail_smem);
    alone[s] = clusters_alone<TailKey>(device, s);
  }
  return tail_plan(tiles, sms, per_sm, k_tiles, held, alone);
}

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
// cluster_sync is a barrier over every thread of the cluster; shared memory
// written before it is visible to every block of the cluster after it.
__device__ __forceinline__ void cluster_sync() {
  asm volatile("barrier.cluster.arrive.aligned;\n\tbarrier.cluster.wait.aligned;" ::: "memory");
}
// cluster_rank is this block's rank in its cluster.
__device__ __forceinline__ unsigned cluster_rank() {
  unsigned r;
  asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(r));
  return r;
}
// load_cluster reads the float4 at shared address addr (this block's) in the
// shared memory of block rank of the cluster.
__device__ __forceinline__ float4 load_cluster(uint32_t addr, unsigned rank) {
  uint32_t remote;
  asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(remote) : "r"(addr), "r"(rank));
  float4 v;
  asm volatile("ld.shared::cluster.v4.f32 {%0, %1, %2, %3}, [%4];"
               : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w)
               : "r"(remote)
               : "memory");
  return v;
}
#endif

// cluster_sum_tile finishes a tile split over the blocks of a cluster
// (ranks 0 .. gridDim.y - 1 are the splits in order). Each block has stored
// its partial BM x BN tile, row-major with rows of R floats, at tile in its
// shared memory; THREADS is the block's size. The block of rank r sums
// rows share r of the tile over every block, in rank order, and writes
// alpha * sum + beta * C to the part of C from (m0, n0) inside M x N, in
// float4s of a row where C allows (Elem::T float, 16-byte aligned rows).
// Every block of the cluster must call it; it returns when no block reads
// another's shared memory any more.
template <class Elem, int BM, int BN, int R, int THREADS>
__device__ __forceinline__ void cluster_sum_tile(const float* tile, int m0, int n0, int M, int N, float alpha,
                                                 float beta, typename Elem::T* __restrict__ C, int64_t ldc) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  static_assert(BN % 4 == 0 && R % 4 == 0, "tile rows are whole float4s");
  constexpr int kQuadsPerRow = BN / 4;
  const unsigned splits = gridDim.y, rank = cluster_rank();
  const int rows = ceil_div(BM, static_cast<int>(splits));
  const int first = static_cast<int>(rank) * rows, last = min(first + rows, BM);
  const bool vec = std::is_same<typename Elem::T, float>::value && vector_ok(C, ldc);
  const uint32_t base = static_cast<uint32_t>(__cvta_generic_to_shared(tile));
  cluster_sync();  // every split's tile is in place
  for (int q = first * kQuadsPerRow + static_cast<int>(threadIdx.x); q < last * kQuadsPerRow; q += THREADS) {
    const int row = q / kQuadsPerRow, col = (q % kQuadsPerRow) * 4, m = m0 + row, n = n0 + col;
    if (m >= M || n >= N) continue;
    const uint32_t at = base + static_cast<uint32_t>((row * R + col) * 4);
    float4 sum = load_cluster(at, 0);
    for (unsigned s = 1; s < splits; ++s) {
      const float4 p = load_cluster(at, s);
      sum.x += p.x, sum.y += p.y, sum.z += p.z, sum.w += p.w;
    }
    store_sum4<Elem>(C + static_cast<int64_t>(m) * ldc + n, N - n, vec, sum, alpha, beta);
  }
  cluster_sync();  // no block leaves while another reads its shared memory
#endif
}

// kQuadReduce<Elem> is the size of C (elements) from which launch_reduce
// gives each thread 4 of them. On an H100 (bench/results/h100-2026-11-25-
// session16.md): reading float4s, the 4 splits of a 1024 x 1024 C took 1.5
// us (2.5%) less of a 1024^3 SGEMM, against the same headers without them;
// with 4 times fewer threads, the 128 splits of a 64 x 64 C took 6 us more,
// and HGEMM's 8 splits of a 512 x 512 C ran 5% slower than a run of the
// session before (not side by side). On an H200 (bench/results/h200-2026-
// 11-29-session45.md), reduce_quads_f32 against one element a thread: the
// split 128x128 tiles 3.6-5.8% faster at 768^3 and 4.1-5.0% at
// 4096x128x1024 (C of 589824 and 524288 elements; the engine 2.8-8.4% and
// 5-6%), 0.3-1% slower at 512x512x8192 (262144). So fp32 C takes float4s
// from 2^19 elements; fp16 C, not measured so, from 2^20. Below, a thread
// takes one element, for the parallelism across partials.
template <class Elem>
constexpr int64_t kQuadReduce = std::is_same<typename Elem::T, float>::value ? int64_t{1} << 19 : int64_t{1} << 20;

// launch_reduce starts reduce_splits (reduce_quads_f32 for fp32 C in quads)
// for an M x N C after the splits on stream (early on sm_90, where it waits
// for them).
template <class K, class Elem>
inline cudaError_t launch_reduce(int M, int N, int splits, float alpha, const float* ws, float beta,
                                 typename Elem::T* C, int64_t ldc, cudaStream_t stream) {
  const int64_t mn = static_cast<int64_t>(M) * N;
  const bool quads = N % 4 == 0 && mn >= kQuadReduce<Elem>;
  const int64_t want = ((quads ? mn / 4 : mn) + 255) / 256;
  const dim3 grid(static_cast<unsigned>(want < 4096 ? want : 4096));
  const bool early = kArch >= 90 && K::kEarly;
  if constexpr (std::is_same<typename Elem::T, float>::value) {
    if (quads) {
      return launch_maybe_early(early, reduce_quads_f32<K>, grid, dim3(256), 0, stream, M, N, splits, alpha, ws, beta,
                                C, ldc);
    }
  }
  return launch_maybe_early(early, reduce_splits<K, Elem>, grid, dim3(256), 0, stream, M, N, splits, quads, alpha, ws,
                            beta, C, ldc);
}

}  // namespace kgen
