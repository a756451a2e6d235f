// The fp16 GEMV on CUDA cores that every hgemv instance instantiates:
//   y[i][r] = alpha * sum_c op(A)[r][c] * x[i][c] + beta * y[i][r],  i < m, r < n,
// with A, x, y in IEEE fp16 (passed as uint16_t bits), fp32 accumulation and one
// round-to-nearest-even conversion of each result (overflow gives +-Inf). op(A)
// is A (layout N: n x k row-major, an output reads one contiguous row) or its
// transpose (layout T: A is k x n row-major, an output reads one column). x
// holds m right-hand vectors of length k (m x k row-major), y the m results.
//
// Technique. Each block makes OUTPUTS_PER_BLOCK output groups, each group is
// THREADS_PER_OUTPUT threads (its "slices") that share the group's k:
//  - layout N: a group is one output row r; slice s reads the row in chunks of
//    VEC halves, chunk s, s + TPO, s + 2 TPO, ...; the lanes of a group are
//    adjacent, so a warp's load covers TPO x VEC contiguous halves of the row.
//  - layout T: a group is VEC adjacent outputs (one VEC-wide vector of every
//    row of A); slice s reads rows s, s + TPO, ...; groups are adjacent lanes,
//    so a warp's load covers min(32, OPB) x VEC contiguous halves of one row.
// Every thread keeps fp32 accumulators in registers for all m_pass x outputs
// of its group, issuing kUnroll independent loads of A before it uses them.
// The slices of a group are then summed: xor shuffles within a warp, shared
// memory across the warps of a group. x is read through the cache (__ldg) or
// staged in shared memory tile by tile (X_SHARED); either way each use
// converts it to fp32 again, so x costs instructions per byte of A in
// proportion to m (layout T amortizes one x value over VEC outputs) -
// unless X_F32 stages it already converted (below).
// 16-byte (VEC = 8) loads are used when A (and x, when read through the cache)
// and the leading dimensions allow them; otherwise, and for the k tail (N) or
// the n tail (T), the same chunks are read element by element.
//
// Split-K (SPLIT_K > 1): blockIdx.y picks a slice of k; all blocks of one
// output tile write fp32 partials to a global workspace, then take an atomic
// ticket; the block that draws the last ticket sums the SPLIT_K partials in
// slice order (so results are the same run to run), writes y and resets the
// ticket for the next launch. One kernel, no second pass. The workspace
// (partials and tickets) is allocated by the launcher, once per device and
// stream and kept, or once per graph capture and owned by the graph: see
// workspace_for() and kgen/scratch.cuh.
//
// Batches: an instance handles MAX_BATCH right-hand vectors per pass;
// m > MAX_BATCH runs ceil(m / MAX_BATCH) passes side by side as blockIdx.z
// (one launch; each pass reads A again, mostly from L2). m > 8 is rejected.
//
// x in fp32 (X_F32, with X_SHARED): each block converts its x tile once
// (32 KiB of floats) and the inner loops convert only A. Layout N stores it
// [vector][k] and, with ROWS_PER_THREAD = R > 1, a group is R rows of A that
// a thread reads at the same k: per 4 k positions one 16-byte shared load of
// x serves R rows. Layout T stores it [k][vector]: a row of A takes every
// vector's x in kBatch / 4 16-byte loads (one address per row: a broadcast).
// The budget on an H100 SXM (132 SMs, 4 issue slots and 128 FP32 lanes per
// SM per clock, 1.98 GHz, ~3.0 TB/s copy): A arrives at 3.0e12 / (132 x
// 1.98e9) = 11.5 bytes per SM per clock, so 16 bytes of A (one chunk) may
// take 1.39 clocks: 178 thread-instruction issues, 178 FMA lanes, 89
// conversions (HADD2.F32, as nvcc emits them, assumed half the FMA rate)
// and 178 bytes of shared (or L1) bandwidth. Inner loops per 16 bytes of A,
// counted in nvcc 11.8's sm_90 SASS of the generated instances:
//  - x as halves, m = 8 (hgemv_n_..._p128_o2_v8_k1_m8): 214 instructions
//    (120% of the issue budget), 72 conversions (81% of theirs): issue-
//    bound, as the bench's 26-36% of the copy rate says.
//  - layout N, X_F32, R = 4, m = 8: 82 (46%): 64 FMAs, 8 conversions, 4
//    16-byte shared loads (64 bytes, 36% of shared bandwidth), 6 others.
//    R = 2: 48 at m = 4 (27%), 31 at m = 2, 20.5 at m = 1 (the x-in-shared
//    halves kernel: 34).
//  - layout T, X_F32, VEC = 8: 87 at m = 8 (49%), 48 at m = 4 (27%; the
//    halves kernel with split-K 8 at m = 4: 69).
// Only the FMAs grow with m. Registers (nvcc 11.8, sm_90, -Xptxas -v, 256
// threads, 128 at most so two blocks fit an SM): 128 for layout N m = 8
// R = 4 (kUnroll 1: 4 rows x 16 bytes in flight), 122 at m = 4 R = 2, 109 at
// m = 2, 98 at m = 1; layout T 128 at m = 8 (kUnroll 2) and at m = 4. No
// spill inside a loop: layout N m = 8 keeps one 8-byte address in local
// memory (stored at entry, read after the k loop), and sm_80/86/89 16 bytes
// of kernel arguments in layout T m = 8, the same way. In flight: 64 bytes per thread (32 for layout
// T at m = 8), 32 KiB per SM over two blocks, 4.2 MB on the GPU: 1.4 us of
// latency at 3 TB/s. Staging costs each block m x tile x 2 bytes of x from
// L2 per tile: for layout N (8 R rows per block) m / (8 R) of A's bytes,
// 25% at m = 8, R = 4.
//
// Device code and the host emulation (emulate_on_host, used by
// kernels/tests/hgemv_host_test.cu) share the per-thread phase functions
// (stage_x, accumulate_tile, the reduction steps, finish, combine); the
// emulator runs them thread by thread between the same barriers and computes
// the shuffles' butterfly explicitly, in the device's order of additions.
//
// The seed article's ladder as configs (Config<layout, tpo, opb, vec, x_shared,
// split_k, threads, max_batch[, rows_per_thread, x_f32]>): thread-naive <N,1,256,1,false,1,256,1>,
// warp1-naive <N,32,8,1,false,1,256,1>, lane groups warp2..16
// <N,2..16,256/tpo,1,false,1,256,1>, thread-smem <N,1,256,1,true,1,256,1>.
// Measured on an H100 (kernels/tests/hgemv_host_test.cu --bench, cold A,
// 2026-11-23): for m = 1 the best is <N,32,8,8,true,1,256,1>, 73% of the copy
// rate at n = k = 4096 (a fixed ~4 us per launch), 83-92% on the LLM shapes,
// 100% at 16384; for m = 2..4 layout T with split-K (<T,16,16,8,false,8,256,m>)
// beats layout N; m = 8 reaches 20-32%: conversion-bound on CUDA cores.
#pragma once

#include <assert.h>
#include <cuda_fp16.h>
#include <stdint.h>
#include <string.h>

#include <array>
#include <limits>
#include <vector>

#include "kgen/common.cuh"
#include "kgen/scratch.cuh"

namespace kgen {
namespace hgemv {

// Returned for m > 8. Proposed for kernels/runtime/kgen_status.h as
// KGEN_ERR_BATCH = -6 ("more right-hand vectors than a gemv instance takes").
constexpr int kErrBatch = -6;
// The most right-hand vectors a launch takes, whatever the instance.
constexpr int kMaxM = 8;

enum class Layout {
  N,  // A is n x k row-major: output r reads row r
  T,  // A is k x n row-major: output r reads column r
};

__host__ __device__ constexpr int cmax(int a, int b) { return a > b ? a : b; }
__host__ __device__ constexpr int cmin(int a, int b) { return a < b ? a : b; }
__host__ __device__ constexpr int round_up(int a, int b) { return (a + b - 1) / b * b; }
__host__ __device__ constexpr bool pow2(int v) { return v > 0 && (v & (v - 1)) == 0; }
__host__ __device__ constexpr int log2i(int v) { return v <= 1 ? 0 : 1 + log2i(v / 2); }

// Shared memory a block may use: the static limit, no opt-in needed.
constexpr int kSmemLimit = 48 * 1024;
// x staging tile: this many bytes of x per block and tile (all batch rows).
constexpr int kXTileBytes = 16 * 1024;
// The same for x staged as fp32 (x_f32): twice the bytes for as many
// elements, so a tile spans as much of k.
constexpr int kXTileBytesF32 = 32 * 1024;
// Floats of the cross-warp reduction buffer, at most.
constexpr int kRedFloats = 2048;

// Config fixes one instance. See the file comment for the roles; the
// spec's gemv tiling keys are threads_per_output, outputs_per_block, vector,
// x_in_shared, split_k, threads and max_batch.
template <Layout LAYOUT_, int THREADS_PER_OUTPUT_, int OUTPUTS_PER_BLOCK_, int VEC_, bool X_SHARED_, int SPLIT_K_,
          int THREADS_, int MAX_BATCH_, int ROWS_PER_THREAD_ = 1, bool X_F32_ = false>
struct Config {
  static constexpr Layout kLayout = LAYOUT_;
  static constexpr bool kT = LAYOUT_ == Layout::T;
  static constexpr int kTpo = THREADS_PER_OUTPUT_;  // slices per group
  static constexpr int kGroups = OUTPUTS_PER_BLOCK_;
  static constexpr int kVec = VEC_;  // halves per load of A
  static constexpr bool kXShared = X_SHARED_;
  static constexpr int kSplitK = SPLIT_K_;
  static constexpr int kThreads = THREADS_;
  static constexpr int kBatch = MAX_BATCH_;
  static constexpr int kRows = ROWS_PER_THREAD_;  // layout N: rows of A per group
  static constexpr bool kXF32 = X_F32_;          // x staged already converted to fp32

  static_assert(THREADS_PER_OUTPUT_ == 1 || THREADS_PER_OUTPUT_ == 2 || THREADS_PER_OUTPUT_ == 4 ||
                    THREADS_PER_OUTPUT_ == 8 || THREADS_PER_OUTPUT_ == 16 || THREADS_PER_OUTPUT_ == 32 ||
                    THREADS_PER_OUTPUT_ == 64 || THREADS_PER_OUTPUT_ == 128 || THREADS_PER_OUTPUT_ == 256,
                "threads per output is 1, 2, 4, 8, 16 (lane groups), 32 (a warp) or 64, 128, 256 (warps)");
  static_assert(VEC_ == 1 || VEC_ == 2 || VEC_ == 4 || VEC_ == 8, "vector width is 1, 2, 4 or 8 halves");
  static_assert(MAX_BATCH_ == 1 || MAX_BATCH_ == 2 || MAX_BATCH_ == 4 || MAX_BATCH_ == 8, "max batch is 1, 2, 4 or 8");
  static_assert(ROWS_PER_THREAD_ == 1 || ROWS_PER_THREAD_ == 2 || ROWS_PER_THREAD_ == 4 || ROWS_PER_THREAD_ == 8,
                "rows per thread is 1, 2, 4 or 8");
  static_assert(ROWS_PER_THREAD_ == 1 || (LAYOUT_ == Layout::N && X_F32_),
                "rows per thread > 1 is a layout N choice and needs x in fp32 (layout T: VEC outputs per thread)");
  static_assert(!X_F32_ || X_SHARED_, "x in fp32 is a way of staging x in shared memory");
  static_assert(SPLIT_K_ >= 1 && SPLIT_K_ <= 64, "split-K is 1 (none) to 64 blocks per output tile");
  static_assert(THREADS_ % 32 == 0 && THREADS_ >= 32 && THREADS_ <= 1024, "threads are whole warps, at most 1024");
  static_assert(OUTPUTS_PER_BLOCK_ * THREADS_PER_OUTPUT_ == THREADS_,
                "outputs per block x threads per output must equal threads: every thread serves one group");
  // Layout T puts a block's groups on adjacent lanes: a warp must hold whole
  // sets of groups, so the groups of a warp are the same for every slice.
  static_assert(!kT || OUTPUTS_PER_BLOCK_ % 32 == 0 || pow2(OUTPUTS_PER_BLOCK_),
                "layout T: outputs per block is a power of two below 32 or a multiple of 32");

  // Outputs of one group (per right-hand vector), results per thread, and the
  // fp32 chains per result (layout N splits each sum over even/odd halves).
  static constexpr int kOutsPerGroup = kT ? VEC_ : ROWS_PER_THREAD_;
  static constexpr int kOutsPerBlock = OUTPUTS_PER_BLOCK_ * kOutsPerGroup;
  static constexpr int kAcc = MAX_BATCH_ * kOutsPerGroup;
  static constexpr int kChains = (!kT && VEC_ > 1 && !X_F32_) ? 2 : 1;
  // Slices of a group inside one warp, the lane distance between them, and
  // the warps a group spans.
  static constexpr int kSlicesPerWarp = kT ? (OUTPUTS_PER_BLOCK_ < 32 ? 32 / OUTPUTS_PER_BLOCK_ : 1)
                                           : cmin(THREADS_PER_OUTPUT_, 32);
  static constexpr int kSliceStride = kT ? (OUTPUTS_PER_BLOCK_ < 32 ? OUTPUTS_PER_BLOCK_ : 32) : 1;
  static constexpr int kWarpsPerGroup = THREADS_PER_OUTPUT_ / kSlicesPerWarp;
  static constexpr int kShuffles = log2i(kSlicesPerWarp);
  // Cross-warp reduction: P results per round, kRounds rounds.
  static constexpr int kRedP =
      cmax(1, cmin(cmin(THREADS_PER_OUTPUT_, kAcc), kRedFloats / cmax(1, kWarpsPerGroup * OUTPUTS_PER_BLOCK_)));
  static constexpr int kRounds = (kAcc + kRedP - 1) / kRedP;
  static constexpr int kRedBytes = kWarpsPerGroup > 1 ? kWarpsPerGroup * OUTPUTS_PER_BLOCK_ * kRedP * 4 : 0;
  // k consumed by one step of a group, and the x tile (halves per batch row).
  static constexpr int kStep = kT ? THREADS_PER_OUTPUT_ : THREADS_PER_OUTPUT_ * VEC_;
  // fp32 staging holds twice the bytes per element, in a tile twice as large.
  static constexpr int kXElem = X_F32_ ? 4 : 2;
  static constexpr int kXTileBytesAll = X_F32_ ? kXTileBytesF32 : kXTileBytes;
  static constexpr int kXTile =
      X_SHARED_ ? round_up(cmax(kXTileBytesAll / (kXElem * MAX_BATCH_), kStep), cmax(kStep, 8)) : 0;
  static constexpr int kXBytes = MAX_BATCH_ * kXTile * kXElem;
  static constexpr int kSmemBytes = cmax(16, cmax(kXBytes, kRedBytes));
  static_assert(kSmemBytes <= kSmemLimit, "the x tile or the reduction buffer exceeds 48 KiB of shared memory");
  // Bytes of a block's A asked of L2 before the wait (warm_block, layout N).
  static constexpr int kWarmBytes = 8 * 1024;
  // Loads of A in flight per thread before the first is used: 4 chunks, or
  // with x_f32 in layout N, 4 / kRows chunks of kRows rows each (at 8
  // vectors and 4 rows, 2 chunks would spill at 128 registers); layout T
  // x_f32 with 64 accumulators keeps 2 (4 spills at 128 registers).
  static constexpr int kUnroll = !X_F32_ ? 4 : !kT ? cmax(1, 4 / ROWS_PER_THREAD_) : kAcc > 32 ? 2 : 4;
  // Blocks per SM the register allocation must allow: 1024 resident threads
  // (64 registers) where a thread's accumulators are few, 512 (128) or 256
  // (255) as they grow: fewer registers would spill the loads kept in flight.
  // x_f32 kernels keep no x in registers: 128 registers hold up to 64
  // accumulators, so they keep two 256-thread blocks per SM at any batch.
  static constexpr int kMinThreadsPerSM = kAcc * kChains <= (kT ? 4 : 2) && !X_F32_ ? 1024
                                          : kAcc <= 32 || (X_F32_ && kAcc <= 64) ? 512
                                                                                  : 256;
  static constexpr int kMinBlocks = cmin(16, cmax(1, kMinThreadsPerSM / THREADS_));
};

// ---------------------------------------------------------------------------
// fp16 bits <-> fp32, host and device (cuda_fp16.h's conversions are
// __host__ __device__ since CUDA 11; the host ones are bit-exact emulations).

__host__ __device__ __forceinline__ float half_to_float(uint32_t bits) {
  __half_raw r;
  r.x = static_cast<unsigned short>(bits);
  return __half2float(__half(r));
}

__host__ __device__ __forceinline__ float2 half2_to_float2(uint32_t w) {
  __half2_raw r;
  r.x = static_cast<unsigned short>(w & 0xffffu);
  r.y = static_cast<unsigned short>(w >> 16);
  return __half22float2(__half2(r));
}

// word_to_float2 is half2_to_float2 that, on the device, reinterprets the
// word whole: splitting it first costs a shift and a permute per word
// before the two conversions (HADD2.F32 reads either half of a register).
// The x_f32 paths use it; the older paths keep half2_to_float2, with which
// nvcc 11.8 schedules them in fewer registers (p128 m8: 96, not 127 and a
// spill).
__host__ __device__ __forceinline__ float2 word_to_float2(uint32_t w) {
#ifdef __CUDA_ARCH__
  __half2 h;
  memcpy(&h, &w, sizeof(h));
  return __half22float2(h);
#else
  return half2_to_float2(w);
#endif
}

__host__ __device__ __forceinline__ uint16_t float_to_half(float f) {
  return static_cast<__half_raw>(__float2half_rn(f)).x;
}

// ---------------------------------------------------------------------------
// Loads. A chunk of V halves lives in W = (V + 1) / 2 32-bit words (V = 1:
// the low half of one word).

template <int V>
struct Words {
  static constexpr int kW = (V + 1) / 2;
};

// load_vec reads V halves at p, which must be 2V-byte aligned, in one load
// through the read-only path.
template <int V>
__host__ __device__ __forceinline__ void load_vec(const uint16_t* p, uint32_t (&w)[Words<V>::kW]) {
#ifdef __CUDA_ARCH__
  if constexpr (V == 8) {
    const uint4 v = __ldg(reinterpret_cast<const uint4*>(p));
    w[0] = v.x, w[1] = v.y, w[2] = v.z, w[3] = v.w;
  } else if constexpr (V == 4) {
    const uint2 v = __ldg(reinterpret_cast<const uint2*>(p));
    w[0] = v.x, w[1] = v.y;
  } else if constexpr (V == 2) {
    w[0] = __ldg(reinterpret_cast<const unsigned int*>(p));
  } else {
    w[0] = __ldg(reinterpret_cast<const unsigned short*>(p));
  }
#else
  assert(reinterpret_cast<uintptr_t>(p) % (2 * V) == 0 && "the vector path got a misaligned pointer");
  if constexpr (V == 1) {
    w[0] = p[0];
  } else {
    memcpy(w, p, sizeof(w));
  }
#endif
}

__host__ __device__ __forceinline__ uint32_t load_half(const uint16_t* p) {
#ifdef __CUDA_ARCH__
  return __ldg(reinterpret_cast<const unsigned short*>(p));
#else
  return *p;
#endif
}

// load_scalar reads the first `avail` halves of a chunk one by one (any
// alignment) and zeros the rest; avail >= V reads the whole chunk unchecked.
template <int V>
__host__ __device__ __forceinline__ void load_scalar(const uint16_t* p, int avail, uint32_t (&w)[Words<V>::kW]) {
#pragma unroll
  for (int i = 0; i < Words<V>::kW; ++i) w[i] = 0;
#pragma unroll
  for (int e = 0; e < V; ++e) {
    if (e < avail) w[e / 2] |= load_half(p + e) << (16 * (e % 2));
  }
}

// load_shared reads V halves of the (16-byte aligned) x tile.
template <int V>
__host__ __device__ __forceinline__ void load_shared(const uint16_t* p, uint32_t (&w)[Words<V>::kW]) {
#ifdef __CUDA_ARCH__
  if constexpr (V == 8) {
    const uint4 v = *reinterpret_cast<const uint4*>(p);
    w[0] = v.x, w[1] = v.y, w[2] = v.z, w[3] = v.w;
  } else if constexpr (V == 4) {
    const uint2 v = *reinterpret_cast<const uint2*>(p);
    w[0] = v.x, w[1] = v.y;
  } else if constexpr (V == 2) {
    w[0] = *reinterpret_cast<const unsigned int*>(p);
  } else {
    w[0] = *p;
  }
#else
  if constexpr (V == 1) {
    w[0] = p[0];
  } else {
    memcpy(w, p, sizeof(w));
  }
#endif
}

// load_partial reads a workspace partial from L2: other blocks wrote it, and
// L1 is not coherent with their writes.
__host__ __device__ __forceinline__ float load_partial(const float* p) {
#ifdef __CUDA_ARCH__
  return __ldcg(p);
#else
  return *p;
#endif
}

// ---------------------------------------------------------------------------
// Kernel arguments and per-block, per-thread coordinates.

struct Args {
  const uint16_t* a;
  const uint16_t* x;
  uint16_t* y;
  int64_t lda, ldx, ldy;
  int m, n, k;       // k is 0 when alpha == 0 (A and x are then not read)
  float alpha, beta;
  int kslice;        // k per split, a multiple of 8
  int grid_x;        // output tiles per batch pass
  bool vec;          // A (and x when read through the cache) take vector loads
  bool xvec;         // x staging takes 16-byte loads
  float* ws;         // split-K partials: [tile][split][kGroups * kAcc]
  unsigned* tickets; // split-K arrival counters, one per tile, zero between launches
};

struct Block {
  int out0;    // first output (column of y) of the block
  int split;   // blockIdx.y
  int z;       // batch pass: right-hand vectors z * MAX_BATCH ...
  int mb;      // right-hand vectors in this pass, 1..MAX_BATCH
  int k0, k1;  // the block's k range
  int64_t tile;
};

template <class K>
__host__ __device__ inline Block block_of(const Args& a, int bx, int by, int bz) {
  Block b;
  b.out0 = bx * K::kOutsPerBlock;
  b.split = by;
  b.z = bz;
  b.mb = cmin(K::kBatch, a.m - bz * K::kBatch);
  const int64_t k0 = static_cast<int64_t>(by) * a.kslice;
  b.k0 = static_cast<int>(k0 < a.k ? k0 : a.k);
  b.k1 = static_cast<int>(k0 + a.kslice < a.k ? k0 + a.kslice : a.k);
  b.tile = static_cast<int64_t>(bz) * a.grid_x + bx;
  return b;
}

struct Lane {
  int group;  // output group within the block
  int slice;  // position within the group, 0..THREADS_PER_OUTPUT-1
};

template <class K>
__host__ __device__ __forceinline__ Lane lane_of(int tid) {
  if constexpr (K::kT) {
    return Lane{tid % K::kGroups, tid / K::kGroups};
  } else {
    return Lane{tid / K::kTpo, tid % K::kTpo};
  }
}

// Per-thread accumulators.
template <class K>
struct Acc {
  float v[K::kAcc][K::kChains];
};

template <class K>
__host__ __device__ __forceinline__ void zero(Acc<K>& acc) {
#pragma unroll
  for (int j = 0; j < K::kAcc; ++j) {
#pragma unroll
    for (int c = 0; c < K::kChains; ++c) acc.v[j][c] = 0.f;
  }
}

template <class K>
__host__ __device__ __forceinline__ void collapse(const Acc<K>& acc, float (&v)[K::kAcc]) {
#pragma unroll
  for (int j = 0; j < K::kAcc; ++j) v[j] = K::kChains == 2 ? acc.v[j][0] + acc.v[j][K::kChains - 1] : acc.v[j][0];
}

// ---------------------------------------------------------------------------
// Phase 1: stage the x tile [c0, c0 + len) of the pass's right-hand vectors
// in shared memory, zero past len (up to the next multiple of 8, the end of
// the last chunk a thread reads) and past mb, so a chunk never needs a check
// on x. Tile rows are kXTile halves; c0 is a multiple of 8.

template <class K>
__host__ __device__ inline void stage_x_f16(const Args& a, const Block& b, int c0, int len, int tid, uint16_t* xs) {
  constexpr int KT = K::kXTile;
  const int need = cmin(KT, round_up(len, 8));
#pragma unroll
  for (int i = 0; i < K::kBatch; ++i) {
    const bool live = i < b.mb;
    const uint16_t* xr = live ? a.x + static_cast<int64_t>(b.z * K::kBatch + i) * a.ldx + c0 : nullptr;
    uint16_t* dst = xs + i * KT;
    if (a.xvec) {
      for (int e = tid * 8; e < need; e += K::kThreads * 8) {
        uint32_t w[4];
        if (live && e + 8 <= len) {
          load_vec<8>(xr + e, w);
        } else {
          load_scalar<8>(live ? xr + e : nullptr, live ? len - e : 0, w);
        }
#ifdef __CUDA_ARCH__
        *reinterpret_cast<uint4*>(dst + e) = make_uint4(w[0], w[1], w[2], w[3]);  // 16-byte aligned
#else
        memcpy(dst + e, w, sizeof(w));
#endif
      }
    } else {
      for (int e = tid; e < need; e += K::kThreads) dst[e] = live && e < len ? static_cast<uint16_t>(load_half(xr + e)) : 0;
    }
  }
}

// store_f32 writes N floats to shared memory at p, 4N-byte aligned when N
// is 2 or a multiple of 4, in 16-byte (or 8-byte) stores.
template <int N>
__host__ __device__ __forceinline__ void store_f32(float* p, const float (&v)[N]) {
#ifdef __CUDA_ARCH__
  if constexpr (N % 4 == 0) {
#pragma unroll
    for (int q = 0; q < N; q += 4) *reinterpret_cast<float4*>(p + q) = make_float4(v[q], v[q + 1], v[q + 2], v[q + 3]);
  } else if constexpr (N == 2) {
    *reinterpret_cast<float2*>(p) = make_float2(v[0], v[1]);
  } else {
    p[0] = v[0];
  }
#else
  memcpy(p, v, sizeof(v));
#endif
}

// load_f32 reads N floats of the fp32 x tile at p (aligned as for store_f32).
template <int N>
__host__ __device__ __forceinline__ void load_f32(const float* p, float (&v)[N]) {
#ifdef __CUDA_ARCH__
  if constexpr (N % 4 == 0) {
#pragma unroll
    for (int q = 0; q < N; q += 4) {
      const float4 f = *reinterpret_cast<const float4*>(p + q);
      v[q] = f.x, v[q + 1] = f.y, v[q + 2] = f.z, v[q + 3] = f.w;
    }
  } else if constexpr (N == 2) {
    const float2 f = *reinterpret_cast<const float2*>(p);
    v[0] = f.x, v[1] = f.y;
  } else {
    v[0] = p[0];
  }
#else
  memcpy(v, p, sizeof(v));
#endif
}

// stage_x_f32 is stage_x for x_f32: the tile holds x converted to fp32 once
// per block, so the inner loops spend no instruction converting x.
//  - layout N: xf[i][e], kXTile floats per batch row; a thread converts 8
//    halves per step, the 16-byte chunk a load of A pairs with.
//  - layout T: xf[e][i], kBatch floats per k position, so one row of A
//    takes every vector's x in kBatch / 4 16-byte loads (the same address
//    for all lanes of a row: a broadcast). A thread converts one k position
//    of every vector per step and writes them contiguously.
template <class K>
__host__ __device__ inline void stage_x_f32(const Args& a, const Block& b, int c0, int len, int tid, float* xf) {
  constexpr int KT = K::kXTile, MB = K::kBatch;
  const int need = cmin(KT, round_up(len, 8));
  auto row = [&](int i) { return a.x + static_cast<int64_t>(b.z * MB + i) * a.ldx + c0; };
  if constexpr (K::kT) {
    for (int e = tid; e < need; e += K::kThreads) {
      float v[MB];
#pragma unroll
      for (int i = 0; i < MB; ++i) v[i] = i < b.mb && e < len ? half_to_float(load_half(row(i) + e)) : 0.f;
      store_f32<MB>(xf + e * MB, v);
    }
  } else {
    // One vector at a time: the head of A (see Head) is live across this.
#pragma unroll 1
    for (int i = 0; i < MB; ++i) {
      const bool live = i < b.mb;
      for (int e = tid * 8; e < need; e += K::kThreads * 8) {
        uint32_t w[4];
        if (live && a.xvec && e + 8 <= len) {
          load_vec<8>(row(i) + e, w);
        } else {
          load_scalar<8>(live ? row(i) + e : nullptr, live ? len - e : 0, w);
        }
        float v[8];
#pragma unroll
        for (int p = 0; p < 4; ++p) {
          const float2 f = word_to_float2(w[p]);
          v[2 * p] = f.x, v[2 * p + 1] = f.y;
        }
        store_f32<8>(xf + i * KT + e, v);
      }
    }
  }
}

template <class K>
__host__ __device__ __forceinline__ void stage_x(const Args& a, const Block& b, int c0, int len, int tid,
                                                 uint16_t* xs) {
  if constexpr (K::kXF32) {
    stage_x_f32<K>(a, b, c0, len, tid, reinterpret_cast<float*>(xs));
  } else {
    stage_x_f16<K>(a, b, c0, len, tid, xs);
  }
}

// ---------------------------------------------------------------------------
// Phase 2: accumulate a tile [c0, c0 + len) of k.

// Layout N: one chunk of A (V halves of row r at tile offset cc, `avail` of
// them inside the tile) times the same chunk of every right-hand vector.
template <class K, bool VEC>
__host__ __device__ __forceinline__ void dot_chunk_n(const Args& a, const Block& b, int c0, int cc, int avail,
                                                     const uint32_t (&w)[Words<K::kVec>::kW], const uint16_t* xs,
                                                     Acc<K>& acc) {
  constexpr int V = K::kVec, W = Words<V>::kW;
  float af[2 * W];
#pragma unroll
  for (int p = 0; p < W; ++p) {
    const float2 f = half2_to_float2(w[p]);
    af[2 * p] = f.x, af[2 * p + 1] = f.y;
  }
#pragma unroll
  for (int i = 0; i < K::kBatch; ++i) {
    if (i < b.mb) {
      uint32_t xw[W];
      if constexpr (K::kXShared) {
        load_shared<V>(xs + i * K::kXTile + cc, xw);
      } else {
        const uint16_t* xp = a.x + static_cast<int64_t>(b.z * K::kBatch + i) * a.ldx + c0 + cc;
        if (VEC && avail >= V) {
          load_vec<V>(xp, xw);
        } else {
          load_scalar<V>(xp, avail, xw);
        }
      }
      if constexpr (V == 1) {
        acc.v[i][0] = fmaf(af[0], half_to_float(xw[0]), acc.v[i][0]);
      } else {
#pragma unroll
        for (int p = 0; p < W; ++p) {
          const float2 xf = half2_to_float2(xw[p]);
          acc.v[i][0] = fmaf(af[2 * p], xf.x, acc.v[i][0]);
          acc.v[i][1] = fmaf(af[2 * p + 1], xf.y, acc.v[i][1]);
        }
      }
    }
  }
}

template <class K, bool VEC>
__host__ __device__ inline void accumulate_n(const Args& a, const Block& b, int c0, int len, Lane ln,
                                             const uint16_t* xs, Acc<K>& acc) {
  constexpr int V = K::kVec, W = Words<V>::kW, U = K::kUnroll, TPO = K::kTpo;
  const int r = b.out0 + ln.group;
  if (r >= a.n) return;
  const uint16_t* row = a.a + static_cast<int64_t>(r) * a.lda + c0;
  const int n_full = len / V;
  int q = ln.slice;
  // Whole chunks, kUnroll loads in flight.
  for (; q + (U - 1) * TPO < n_full; q += U * TPO) {
    uint32_t w[U][W];
#pragma unroll
    for (int u = 0; u < U; ++u) {
      if (VEC) {
        load_vec<V>(row + (q + u * TPO) * V, w[u]);
      } else {
        load_scalar<V>(row + (q + u * TPO) * V, V, w[u]);
      }
    }
#pragma unroll
    for (int u = 0; u < U; ++u) dot_chunk_n<K, VEC>(a, b, c0, (q + u * TPO) * V, V, w[u], xs, acc);
  }
  // The last 1 to kUnroll - 1 whole chunks, their loads in flight together.
  if (q < n_full) {
    const int cnt = (n_full - q + TPO - 1) / TPO;
    uint32_t w[U][W];
#pragma unroll
    for (int u = 0; u < U - 1; ++u) {
      if (u < cnt) {
        if (VEC) {
          load_vec<V>(row + (q + u * TPO) * V, w[u]);
        } else {
          load_scalar<V>(row + (q + u * TPO) * V, V, w[u]);
        }
      }
    }
#pragma unroll
    for (int u = 0; u < U - 1; ++u) {
      if (u < cnt) dot_chunk_n<K, VEC>(a, b, c0, (q + u * TPO) * V, V, w[u], xs, acc);
    }
    q += cnt * TPO;
  }
  // The tile's last, partial chunk (len % V halves), element by element.
  if (q * V < len) {
    uint32_t w[W];
    load_scalar<V>(row + q * V, len - q * V, w);
    dot_chunk_n<K, VEC>(a, b, c0, q * V, len - q * V, w, xs, acc);
  }
}

// Layout T: V adjacent columns of A's row c (nv of them inside n) times
// x[i][c] for every right-hand vector. With x in fp32 (x_f32) the row's x values of every vector come from
// kBatch / 4 16-byte shared loads (one address per row: a broadcast), and
// no x is converted: per 16 bytes of A, 8 conversions, kBatch / 4 loads and
// 8 kBatch FMAs.
template <class K>
__host__ __device__ __forceinline__ void dot_row_t(const Args& a, const Block& b, int c0, int cc,
                                                   const uint32_t (&w)[Words<K::kVec>::kW], const uint16_t* xs,
                                                   Acc<K>& acc) {
  constexpr int V = K::kVec, W = Words<V>::kW;
  float af[2 * W];
#pragma unroll
  for (int p = 0; p < W; ++p) {
    const float2 f = K::kXF32 ? word_to_float2(w[p]) : half2_to_float2(w[p]);
    af[2 * p] = f.x, af[2 * p + 1] = f.y;
  }
  if constexpr (K::kXF32) {
    constexpr int MB = K::kBatch, G = cmin(MB, 4);
    const float* xf = reinterpret_cast<const float*>(xs) + cc * MB;
    // Vectors past mb are zero in the tile and never stored: no branch.
#pragma unroll
    for (int i = 0; i < MB; i += G) {
      float xv[G];
      load_f32<G>(xf + i, xv);
#pragma unroll
      for (int e = 0; e < G; ++e) {
#pragma unroll
        for (int v = 0; v < V; ++v) acc.v[(i + e) * V + v][0] = fmaf(af[v], xv[e], acc.v[(i + e) * V + v][0]);
      }
    }
  } else {
#pragma unroll
    for (int i = 0; i < K::kBatch; ++i) {
      if (i < b.mb) {
        const float xf =
            K::kXShared ? half_to_float(xs[i * K::kXTile + cc])
                        : half_to_float(load_half(a.x + static_cast<int64_t>(b.z * K::kBatch + i) * a.ldx + c0 + cc));
#pragma unroll
        for (int v = 0; v < V; ++v) acc.v[i * V + v][0] = fmaf(af[v], xf, acc.v[i * V + v][0]);
      }
    }
  }
}

template <class K, bool FULL>
__host__ __device__ inline void rows_t(const Args& a, const Block& b, int c0, int len, int slice, const uint16_t* col,
                                       int nv, const uint16_t* xs, Acc<K>& acc) {
  constexpr int V = K::kVec, W = Words<V>::kW, U = K::kUnroll, TPO = K::kTpo;
  int c = slice;
  for (; c + (U - 1) * TPO < len; c += U * TPO) {
    uint32_t w[U][W];
#pragma unroll
    for (int u = 0; u < U; ++u) {
      const uint16_t* p = col + static_cast<int64_t>(c + u * TPO) * a.lda;
      if (FULL) {
        load_vec<V>(p, w[u]);
      } else {
        load_scalar<V>(p, nv, w[u]);
      }
    }
#pragma unroll
    for (int u = 0; u < U; ++u) dot_row_t<K>(a, b, c0, c + u * TPO, w[u], xs, acc);
  }
  if (c < len) {  // the last 1 to kUnroll - 1 rows, their loads in flight together
    const int cnt = (len - c + TPO - 1) / TPO;
    uint32_t w[U][W];
#pragma unroll
    for (int u = 0; u < U - 1; ++u) {
      if (u < cnt) {
        const uint16_t* p = col + static_cast<int64_t>(c + u * TPO) * a.lda;
        if (FULL) {
          load_vec<V>(p, w[u]);
        } else {
          load_scalar<V>(p, nv, w[u]);
        }
      }
    }
#pragma unroll
    for (int u = 0; u < U - 1; ++u) {
      if (u < cnt) dot_row_t<K>(a, b, c0, c + u * TPO, w[u], xs, acc);
    }
  }
}

template <class K, bool VEC>
__host__ __device__ inline void accumulate_t(const Args& a, const Block& b, int c0, int len, Lane ln,
                                             const uint16_t* xs, Acc<K>& acc) {
  const int r0 = b.out0 + ln.group * K::kVec;
  const int nv = cmin(K::kVec, a.n - r0);
  if (nv <= 0) return;
  const uint16_t* col = a.a + static_cast<int64_t>(c0) * a.lda + r0;
  if (VEC && nv == K::kVec) {
    rows_t<K, true>(a, b, c0, len, ln.slice, col, nv, xs, acc);
  } else {
    rows_t<K, false>(a, b, c0, len, ln.slice, col, nv, xs, acc);
  }
}

// Layout N with x in fp32 (x_f32): a group is kRows rows of A, and a
// thread reads the same chunk (k positions) of each. Per 4 k positions it
// converts each row's halves once (two packed half2 -> float2 conversions),
// then for every vector loads the 4 fp32 x values once (one 16-byte shared
// load) and makes kRows x 4 FMAs with them: x costs 1 / kRows shared loads
// per chunk of A and no conversion, so the instructions per byte of A grow
// with m only through the FMAs, which no kernel avoids. Every vector of the
// tile is used, live or not: the tile is zero past mb, and the accumulators
// of those vectors are never stored, so a branch per vector would only cost
// issue slots at full batches.
template <class K>
__host__ __device__ __forceinline__ void dot_rows_f32(int cc,
                                                      const uint32_t (&w)[K::kRows][Words<K::kVec>::kW],
                                                      const float* xf, Acc<K>& acc) {
  constexpr int V = K::kVec, R = K::kRows, G = cmin(V, 4);
#pragma unroll
  for (int g = 0; g < V; g += G) {
    float af[R][G];
#pragma unroll
    for (int rr = 0; rr < R; ++rr) {
      if constexpr (G == 1) {
        af[rr][0] = half_to_float(w[rr][0] & 0xffffu);
      } else {
#pragma unroll
        for (int t = 0; t < G; t += 2) {
          const float2 f = word_to_float2(w[rr][(g + t) / 2]);
          af[rr][t] = f.x, af[rr][t + 1] = f.y;
        }
      }
    }
#pragma unroll
    for (int i = 0; i < K::kBatch; ++i) {
      float xv[G];
      load_f32<G>(xf + i * K::kXTile + cc + g, xv);
#pragma unroll
      for (int rr = 0; rr < R; ++rr) {
#pragma unroll
        for (int t = 0; t < G; ++t) acc.v[i * R + rr][0] = fmaf(af[rr][t], xv[t], acc.v[i * R + rr][0]);
      }
    }
  }
}

// load_rows reads one chunk (tile offset cc) of each of the group's rows:
// avail halves of it (>= V: all, by vector loads when VEC).
template <class K, bool VEC>
__host__ __device__ __forceinline__ void load_rows(const uint16_t* const (&rows)[K::kRows], int cc, int avail,
                                                   uint32_t (&w)[K::kRows][Words<K::kVec>::kW]) {
#pragma unroll
  for (int rr = 0; rr < K::kRows; ++rr) {
    if (VEC && avail >= K::kVec) {
      load_vec<K::kVec>(rows[rr] + cc, w[rr]);
    } else {
      load_scalar<K::kVec>(rows[rr] + cc, avail, w[rr]);
    }
  }
}

// Head holds the first kUnroll x kRows chunks of A a thread reads in a tile
// of an x_f32 kernel (layout T: kRows is 1, the tile's first kUnroll rows).
// The kernel loads them before it stages the tile's x and waits at the
// barrier, so A's memory latency overlaps x's staging rather than following
// it: without this every tile, in every block, starts with a pause as long
// as a trip to L2 for x and one to memory for A.
template <class K>
struct Head {
  uint32_t w[K::kUnroll][K::kRows][Words<K::kVec>::kW];
};

// row_ptrs points p[rr] at chunk q of the tile in row rr of the thread's
// group; rows past n read row r0 again (cached; their results are never
// stored), so the loops have no per-row branch.
template <class K>
__host__ __device__ __forceinline__ void row_ptrs(const Args& a, int r0, int c0, int q,
                                                  const uint16_t* (&p)[K::kRows]) {
#pragma unroll
  for (int rr = 0; rr < K::kRows; ++rr)
    p[rr] = a.a + static_cast<int64_t>(r0 + rr < a.n ? r0 + rr : r0) * a.lda + c0 + q * K::kVec;
}

// head_full_n says whether the tile's first step is kUnroll whole chunks:
// the step that Head holds and accumulate_n_rows starts with.
template <class K>
__host__ __device__ __forceinline__ bool head_full_n(const Args& a, const Block& b, int len, Lane ln) {
  return b.out0 + ln.group * K::kRows < a.n && ln.slice + (K::kUnroll - 1) * K::kTpo < len / K::kVec;
}

template <class K, bool VEC>
__host__ __device__ __forceinline__ void load_head_n(const Args& a, const Block& b, int c0, int len, Lane ln,
                                                     Head<K>& h) {
  constexpr int U = K::kUnroll, TPO = K::kTpo, V = K::kVec;
  if (!head_full_n<K>(a, b, len, ln)) return;
  const uint16_t* p[K::kRows];
  row_ptrs<K>(a, b.out0 + ln.group * K::kRows, c0, ln.slice, p);
#pragma unroll
  for (int u = 0; u < U; ++u) load_rows<K, VEC>(p, u * TPO * V, V, h.w[u]);
}

template <class K, bool VEC>
__host__ __device__ inline void accumulate_n_rows(const Args& a, const Block& b, int c0, int len, Lane ln,
                                                  const float* xf, const Head<K>& head, Acc<K>& acc) {
  constexpr int V = K::kVec, W = Words<V>::kW, U = K::kUnroll, TPO = K::kTpo, R = K::kRows;
  const int r0 = b.out0 + ln.group * R;
  if (r0 >= a.n) return;
  const int n_full = len / V;
  int q = ln.slice;
  // p[rr] points at chunk q of row rr and advances with q, so each load's
  // offset is a constant of the unrolled loop.
  const uint16_t* p[R];
  row_ptrs<K>(a, r0, c0, q, p);
  // Whole chunks, kUnroll x kRows loads in flight; the first step's are
  // in head already.
  if (head_full_n<K>(a, b, len, ln)) {
#pragma unroll
    for (int u = 0; u < U; ++u) dot_rows_f32<K>((q + u * TPO) * V, head.w[u], xf, acc);
#pragma unroll
    for (int rr = 0; rr < R; ++rr) p[rr] += U * TPO * V;
    q += U * TPO;
  }
  for (; q + (U - 1) * TPO < n_full; q += U * TPO) {
    uint32_t w[U][R][W];
#pragma unroll
    for (int u = 0; u < U; ++u) load_rows<K, VEC>(p, u * TPO * V, V, w[u]);
#pragma unroll
    for (int u = 0; u < U; ++u) dot_rows_f32<K>((q + u * TPO) * V, w[u], xf, acc);
#pragma unroll
    for (int rr = 0; rr < R; ++rr) p[rr] += U * TPO * V;
  }
  // The last 1 to kUnroll - 1 whole chunks.
  int cnt = 0;
  if (q < n_full) {
    cnt = (n_full - q + TPO - 1) / TPO;
    uint32_t w[U][R][W];
#pragma unroll
    for (int u = 0; u < U - 1; ++u) {
      if (u < cnt) load_rows<K, VEC>(p, u * TPO * V, V, w[u]);
    }
#pragma unroll
    for (int u = 0; u < U - 1; ++u) {
      if (u < cnt) dot_rows_f32<K>((q + u * TPO) * V, w[u], xf, acc);
    }
    q += cnt * TPO;
  }
  // The tile's last, partial chunk, element by element (x is zero past len).
  if (q * V < len) {
    uint32_t w[R][W];
    load_rows<K, false>(p, cnt * TPO * V, len - q * V, w);
    dot_rows_f32<K>(q * V, w, xf, acc);
  }
}

// Layout T's head: the tile's first kUnroll rows of the thread's V columns.
template <class K>
__host__ __device__ __forceinline__ bool head_full_t(const Args& a, const Block& b, int len, Lane ln) {
  return b.out0 + ln.group * K::kVec < a.n && ln.slice + (K::kUnroll - 1) * K::kTpo < len;
}

template <class K, bool VEC>
__host__ __device__ __forceinline__ void load_head_t(const Args& a, const Block& b, int c0, int len, Lane ln,
                                                     Head<K>& h) {
  constexpr int U = K::kUnroll, TPO = K::kTpo, V = K::kVec;
  if (!head_full_t<K>(a, b, len, ln)) return;
  const int r0 = b.out0 + ln.group * V, nv = cmin(V, a.n - r0);
  const uint16_t* col = a.a + static_cast<int64_t>(c0) * a.lda + r0;
#pragma unroll
  for (int u = 0; u < U; ++u) {
    const uint16_t* p = col + static_cast<int64_t>(ln.slice + u * TPO) * a.lda;
    if (VEC && nv == V) {
      load_vec<V>(p, h.w[u][0]);
    } else {
      load_scalar<V>(p, nv, h.w[u][0]);
    }
  }
}

template <class K, bool VEC>
__host__ __device__ inline void accumulate_t_head(const Args& a, const Block& b, int c0, int len, Lane ln,
                                                  const uint16_t* xs, const Head<K>& head, Acc<K>& acc) {
  constexpr int U = K::kUnroll, TPO = K::kTpo, V = K::kVec;
  const int r0 = b.out0 + ln.group * V, nv = cmin(V, a.n - r0);
  if (nv <= 0) return;
  const uint16_t* col = a.a + static_cast<int64_t>(c0) * a.lda + r0;
  int c = ln.slice;
  if (head_full_t<K>(a, b, len, ln)) {
#pragma unroll
    for (int u = 0; u < U; ++u) dot_row_t<K>(a, b, c0, c + u * TPO, head.w[u][0], xs, acc);
    c += U * TPO;
  }
  if (VEC && nv == V) {
    rows_t<K, true>(a, b, c0, len, c, col, nv, xs, acc);
  } else {
    rows_t<K, false>(a, b, c0, len, c, col, nv, xs, acc);
  }
}

// load_head and accumulate_head are the x_f32 kernels' tile: the head of A
// loaded before x is staged, then the tile's dot products.
template <class K, bool VEC>
__host__ __device__ __forceinline__ void load_head(const Args& a, const Block& b, int c0, int len, Lane ln,
                                                   Head<K>& h) {
  if constexpr (K::kT) {
    load_head_t<K, VEC>(a, b, c0, len, ln, h);
  } else {
    load_head_n<K, VEC>(a, b, c0, len, ln, h);
  }
}

template <class K, bool VEC>
__host__ __device__ __forceinline__ void accumulate_head(const Args& a, const Block& b, int c0, int len, Lane ln,
                                                         const uint16_t* xs, const Head<K>& head, Acc<K>& acc) {
  if constexpr (K::kT) {
    accumulate_t_head<K, VEC>(a, b, c0, len, ln, xs, head, acc);
  } else {
    accumulate_n_rows<K, VEC>(a, b, c0, len, ln, reinterpret_cast<const float*>(xs), head, acc);
  }
}

template <class K, bool VEC>
__host__ __device__ __forceinline__ void accumulate_tile(const Args& a, const Block& b, int c0, int len, Lane ln,
                                                         const uint16_t* xs, Acc<K>& acc) {
  static_assert(!K::kXF32, "x_f32 tiles go through load_head and accumulate_head");
  if constexpr (K::kT) {
    accumulate_t<K, VEC>(a, b, c0, len, ln, xs, acc);
  } else {
    accumulate_n<K, VEC>(a, b, c0, len, ln, xs, acc);
  }
}

// tile_len is the k tile a block walks: the x tile when x is staged, else
// its whole k range in one tile.
template <class K>
__host__ __device__ __forceinline__ int tile_len(const Block& b) {
  return K::kXShared ? K::kXTile : b.k1 - b.k0;
}

// ---------------------------------------------------------------------------
// Phase 3: sum the slices of each group. Shuffle step s adds the value of the
// lane kSliceStride << s away (smallest distance first, the same order on the
// device and in the emulator).

template <class K>
__host__ __device__ constexpr int shuffle_distance(int step) {
  return K::kSliceStride << step;
}

#ifdef __CUDACC__
template <class K>
__device__ __forceinline__ void warp_reduce(float (&v)[K::kAcc]) {
#pragma unroll
  for (int s = 0; s < K::kShuffles; ++s) {
#pragma unroll
    for (int j = 0; j < K::kAcc; ++j) v[j] += __shfl_xor_sync(0xffffffffu, v[j], shuffle_distance<K>(s));
  }
}
#endif

// store_y writes one result: alpha * v + beta * y (y not read when beta == 0),
// rounded once. A is the Args of any gemv kernel (y, ldy, alpha, beta): the
// tensor-core headers store through it too.
template <class A>
__host__ __device__ __forceinline__ void store_y(const A& a, int row, int r, float v) {
  uint16_t* p = a.y + static_cast<int64_t>(row) * a.ldy + r;
  const float out = a.beta == 0.f ? a.alpha * v : fmaf(a.alpha, v, a.beta * half_to_float(*p));
  *p = float_to_half(out);
}

// finish hands over result j (batch j / kOutsPerGroup, output j % kOutsPerGroup
// of the group) of group g: to y, or to the block's workspace partials.
template <class K>
__host__ __device__ __forceinline__ void finish(const Args& a, const Block& b, int g, int j, float v) {
  const int i = j / K::kOutsPerGroup;
  const int r = b.out0 + g * K::kOutsPerGroup + j % K::kOutsPerGroup;
  if (r >= a.n || i >= b.mb) return;
  if constexpr (K::kSplitK == 1) {
    store_y(a, b.z * K::kBatch + i, r, v);
  } else {
    a.ws[(b.tile * K::kSplitK + b.split) * (K::kGroups * K::kAcc) + g * K::kAcc + j] = v;
  }
}

// Groups inside one warp: after the butterfly every slice holds the sums;
// slice s hands over results s, s + TPO, ...
template <class K>
__host__ __device__ __forceinline__ void finish_direct(const Args& a, const Block& b, Lane ln,
                                                       const float (&v)[K::kAcc]) {
#pragma unroll
  for (int j = 0; j < K::kAcc; ++j) {
    if (j % K::kTpo == ln.slice) finish<K>(a, b, ln.group, j, v[j]);
  }
}

// Groups across warps, round `round` of kRounds: the first slice of each
// warp of a group writes results [round P, round P + P) to red[warp][group][p];
// then slice p < P of the group sums result round P + p over the warps.
template <class K>
__host__ __device__ __forceinline__ void red_write(Lane ln, int round, const float (&v)[K::kAcc], float* red) {
  if (ln.slice % K::kSlicesPerWarp != 0) return;
  const int w = ln.slice / K::kSlicesPerWarp;
#pragma unroll
  for (int j = 0; j < K::kAcc; ++j) {
    if (j / K::kRedP == round) red[(w * K::kGroups + ln.group) * K::kRedP + j % K::kRedP] = v[j];
  }
}

template <class K>
__host__ __device__ __forceinline__ void red_finish(const Args& a, const Block& b, Lane ln, int round,
                                                    const float* red) {
  const int j = round * K::kRedP + ln.slice;
  if (ln.slice >= K::kRedP || j >= K::kAcc) return;
  float s = red[ln.group * K::kRedP + ln.slice];
  for (int w = 1; w < K::kWarpsPerGroup; ++w) s += red[(w * K::kGroups + ln.group) * K::kRedP + ln.slice];
  finish<K>(a, b, ln.group, j, s);
}

// ---------------------------------------------------------------------------
// Phase 4 (split-K): the block that arrives last sums the partials of its
// tile in split order and writes y.

template <class K>
__host__ __device__ inline void combine(const Args& a, const Block& b, int tid) {
  constexpr int NOUT = K::kGroups * K::kAcc;
  const float* base = a.ws + b.tile * K::kSplitK * NOUT;
  for (int o = tid; o < NOUT; o += K::kThreads) {
    const int g = o / K::kAcc, j = o % K::kAcc;
    const int i = j / K::kOutsPerGroup;
    const int r = b.out0 + g * K::kOutsPerGroup + j % K::kOutsPerGroup;
    if (r >= a.n || i >= b.mb) continue;
    float s = load_partial(base + o);
    for (int sp = 1; sp < K::kSplitK; ++sp) s += load_partial(base + sp * NOUT + o);
    store_y(a, b.z * K::kBatch + i, r, s);
  }
}

// ---------------------------------------------------------------------------
// The kernel.

#ifdef __CUDACC__
// combine_if_last ends a split-K block whose partials are written: it counts
// the block in at *ticket, and the last of `blocks` blocks to arrive runs
// combine (every thread; it then sees all their partials, through
// load_partial) and resets *ticket to 0 for the next launch. Every gemv
// kernel with split-K across blocks ends this way (this header's,
// kgen/hgemv_mma_t.cuh's).
//
// One thread counts the block in with an atomic add of release and acquire
// semantics at GPU scope, as CUTLASS's generic barrier does: the barrier
// before it orders every thread's partials before the release, which is
// cumulative (PTX memory model), so they are visible to the block that
// counts in last; its acquire, and the barrier after it, order its
// threads' reads of the other blocks' partials after their release. One
// atomic per block instead of a fence per thread (ncu on the H100 put the
// layout-t split-K kernel's membar stalls at 2.0 cycles per instruction
// with a fence per thread), and no fence.sc: two __threadfence() around a
// relaxed atomic took 0.3-0.8 us longer per launch (session 11, bench/
// results/h100-2026-11-24-session11.md: 5.76 against 5.41 us at 2048^2
// for the staged layout-t kernel with 8 splits, 15.37 against 14.75 at
// 4096^2 for hgemvtct's 8 splits).
template <class F>
__device__ __forceinline__ void combine_if_last(unsigned* ticket, unsigned blocks, F combine) {
  __shared__ bool last;
  __syncthreads();  // every thread's partials are written
  if (threadIdx.x == 0) {
    unsigned before;
    asm volatile("atom.acq_rel.gpu.global.add.u32 %0, [%1], 1;\n" : "=r"(before) : "l"(ticket) : "memory");
    last = before == blocks - 1;
  }
  __syncthreads();
  if (!last) return;
  combine();
  if (threadIdx.x == 0) *ticket = 0;  // ready for the next launch
}

template <class K, bool VEC>
__device__ __forceinline__ void kernel_body(const Args& a, unsigned char* smem) {
  const Block b = block_of<K>(a, blockIdx.x, blockIdx.y, blockIdx.z);
  const Lane ln = lane_of<K>(threadIdx.x);
  uint16_t* xs = reinterpret_cast<uint16_t*>(smem);
  Acc<K> acc;
  zero<K>(acc);
  const int kt = tile_len<K>(b);
  for (int c0 = b.k0; c0 < b.k1; c0 += kt) {
    const int len = cmin(kt, b.k1 - c0);
    if constexpr (K::kXF32) {
      Head<K> head;
      load_head<K, VEC>(a, b, c0, len, ln, head);  // in flight across the staging
      if (c0 != b.k0) __syncthreads();
      stage_x<K>(a, b, c0, len, threadIdx.x, xs);
      __syncthreads();
      accumulate_head<K, VEC>(a, b, c0, len, ln, xs, head, acc);
    } else {
      if constexpr (K::kXShared) {
        if (c0 != b.k0) __syncthreads();  // everyone is done with the previous tile
        stage_x<K>(a, b, c0, len, threadIdx.x, xs);
        __syncthreads();
      }
      accumulate_tile<K, VEC>(a, b, c0, len, ln, xs, acc);
    }
  }
  float v[K::kAcc];
  collapse<K>(acc, v);
  warp_reduce<K>(v);
  if constexpr (K::kWarpsPerGroup == 1) {
    finish_direct<K>(a, b, ln, v);
  } else {
    float* red = reinterpret_cast<float*>(smem);
    for (int round = 0; round < K::kRounds; ++round) {
      __syncthreads();  // the x tile, or the previous round, is no longer read
      red_write<K>(ln, round, v, red);
      __syncthreads();
      red_finish<K>(a, b, ln, round, red);
    }
  }
  if constexpr (K::kSplitK > 1) {
    combine_if_last(a.tickets + b.tile, K::kSplitK, [&] { combine<K>(a, b, threadIdx.x); });
  }
}

// warm_block prefetches (kgen::warm_l2) the first K::kWarmBytes of block b's
// part of A: its outputs' rows from k0. Layout N only: for layout T the
// H100 measured no gain (session 11, bench/results/h100-2026-11-24-
// session11.md).
template <class K>
__device__ __forceinline__ void warm_block(const Args& a, const Block& b) {
  const int outs = cmin(K::kOutsPerBlock, a.n - b.out0), ks = b.k1 - b.k0;
  if (K::kT || outs <= 0 || ks <= 0) return;
  warm_l2(a.a + static_cast<int64_t>(b.out0) * a.lda + b.k0, 2 * a.lda, outs, cmin(2 * ks, K::kWarmBytes / outs),
          threadIdx.x, K::kThreads);
}

template <class K>
__global__ void __launch_bounds__(K::kThreads, K::kMinBlocks) hgemv_kernel(Args a) {
  __shared__ __align__(16) unsigned char smem[K::kSmemBytes];
  // Launched early (launch_early): before the wait only L2 prefetches of
  // the block's first bytes of A touch memory.
  allow_early_start();
  if (blockIdx.z == 0) warm_block<K>(a, block_of<K>(a, blockIdx.x, blockIdx.y, blockIdx.z));
  wait_prior_grids();
  // The branch is uniform: the launch decides the path for every block.
  if (a.vec) {
    kernel_body<K, true>(a, smem);
  } else {
    kernel_body<K, false>(a, smem);
  }
}
#endif

// ---------------------------------------------------------------------------
// Host side: argument checks and the launch plan, shared by launch() and the
// emulator.

constexpr int kNothingToDo = 1;

// check_args is the argument contract of every gemv kernel (this header's,
// kgen/hgemv_mma.cuh's and kgen/hgemv_mma_t.cuh's), in the order each plan
// checks it: KGEN_OK, kNothingToDo (m or n is 0), or the error code. A is
// n x k (transposed: k x n) row-major; a leading dimension matters only
// where its matrix has elements.
inline int check_args(bool transposed, int m, int n, int k, const uint16_t* a, int64_t lda, const uint16_t* x,
                      int64_t ldx, const uint16_t* y, int64_t ldy) {
  if (m < 0 || n < 0 || k < 0) return KGEN_ERR_NEGATIVE_DIM;
  if (m > kMaxM) return kErrBatch;
  if (n > 0 && k > 0 && lda < (transposed ? n : k)) return KGEN_ERR_LEADING_DIM;
  if (m > 0 && k > 0 && ldx < k) return KGEN_ERR_LEADING_DIM;
  if (m > 0 && n > 0 && ldy < n) return KGEN_ERR_LEADING_DIM;
  if (m == 0 || n == 0) return kNothingToDo;
  if (y == nullptr || (k > 0 && (a == nullptr || x == nullptr))) return KGEN_ERR_NULL_POINTER;
  return KGEN_OK;
}

// set_operands fills the fields every gemv kernel's Args has (this header's,
// kgen/hgemv_mma.cuh's and kgen/hgemv_mma_t.cuh's) from checked arguments.
// alpha == 0 makes k 0: y = beta * y, and A and x are not read (BLAS).
template <class A>
inline void set_operands(A& g, int m, int n, int k, float alpha, const uint16_t* a, int64_t lda, const uint16_t* x,
                         int64_t ldx, float beta, uint16_t* y, int64_t ldy) {
  g.a = a, g.x = x, g.y = y;
  g.lda = lda, g.ldx = ldx, g.ldy = ldy;
  g.m = m, g.n = n;
  g.k = alpha == 0.f ? 0 : k;
  g.alpha = alpha, g.beta = beta;
}

struct Plan {
  Args args;
  int64_t grid_x;
  int grid_y, grid_z;
};

template <class K>
inline int plan(int m, int n, int k, float alpha, const uint16_t* a, int64_t lda, const uint16_t* x, int64_t ldx,
                float beta, uint16_t* y, int64_t ldy, Plan* p) {
  const int st = check_args(K::kT, m, n, k, a, lda, x, ldx, y, ldy);
  if (st != KGEN_OK) return st;
  const int64_t gx = (static_cast<int64_t>(n) + K::kOutsPerBlock - 1) / K::kOutsPerBlock;
  if (gx > 0x7fffffff) return KGEN_ERR_GRID_TOO_LARGE;

  Args& g = p->args;
  set_operands(g, m, n, k, alpha, a, lda, x, ldx, beta, y, ldy);
  const int64_t per_split = (static_cast<int64_t>(g.k) + K::kSplitK - 1) / K::kSplitK;
  const int64_t kslice = ((per_split < 1 ? 1 : per_split) + 7) / 8 * 8;
  g.kslice = static_cast<int>(kslice < 0x7fffffff ? kslice : 0x7fffffff);  // only one split can be that long
  g.grid_x = static_cast<int>(gx);
  constexpr int V = K::kVec;
  const bool a_ok = reinterpret_cast<uintptr_t>(a) % (2 * V) == 0 && lda % V == 0;
  const bool x_ok = reinterpret_cast<uintptr_t>(x) % (2 * V) == 0 && ldx % V == 0;
  // Layout T reads x one half at a time; staged x is aligned in shared memory.
  g.vec = a_ok && (K::kT || K::kXShared || x_ok);
  g.xvec = reinterpret_cast<uintptr_t>(x) % 16 == 0 && ldx % 8 == 0;
  g.ws = nullptr, g.tickets = nullptr;
  p->grid_x = gx;
  p->grid_y = K::kSplitK;
  p->grid_z = (m + K::kBatch - 1) / K::kBatch;
  return KGEN_OK;
}

template <class K>
inline size_t workspace_floats(const Plan& p) {
  return static_cast<size_t>(p.grid_x) * p.grid_z * K::kSplitK * K::kGroups * K::kAcc;
}
inline size_t workspace_tickets(const Plan& p) { return static_cast<size_t>(p.grid_x) * p.grid_z; }

// workspace_for returns split-K scratch memory for launches on `stream` of the
// current device (kgen::scratch_for: one buffer per stream for launches run
// eagerly, one per capture for launches captured into a graph): tickets, zero
// when a launch starts and reset by its last blocks, and fp32 partials.
struct Workspace {
  unsigned* tickets = nullptr;
  float* partials = nullptr;
};

inline int workspace_for(cudaStream_t stream, size_t n_tickets, size_t n_partials, Workspace* out) {
  Scratch s;
  const int st = scratch_for(stream, n_tickets * sizeof(unsigned), n_partials * sizeof(float), &s);
  if (st != KGEN_OK) return st;
  out->tickets = static_cast<unsigned*>(s.head);
  out->partials = static_cast<float*>(s.body);
  return KGEN_OK;
}

#ifdef __CUDACC__
// launch checks the arguments and starts the kernel on stream. Pointers are
// device pointers to fp16 bits. It returns KGEN_OK, a negative KGEN_ERR_*
// code (kErrBatch for m > 8), or the cudaError_t of the launch.
template <class K>
int launch(int m, int n, int k, float alpha, const uint16_t* a, int64_t lda, const uint16_t* x, int64_t ldx,
           float beta, uint16_t* y, int64_t ldy, cudaStream_t stream) {
  Plan p;
  const int st = plan<K>(m, n, k, alpha, a, lda, x, ldx, beta, y, ldy, &p);
  if (st != KGEN_OK) return st == kNothingToDo ? KGEN_OK : st;
  if constexpr (K::kSplitK > 1) {
    Workspace w;
    const int ws = workspace_for(stream, workspace_tickets(p), workspace_floats<K>(p), &w);
    if (ws != KGEN_OK) return ws;
    p.args.ws = w.partials;
    p.args.tickets = w.tickets;
  }
  const dim3 grid(static_cast<unsigned>(p.grid_x), p.grid_y, p.grid_z);
  return static_cast<int>(launch_early(hgemv_kernel<K>, grid, dim3(K::kThreads), 0, stream, p.args));
}
#endif

// ---------------------------------------------------------------------------
// Host emulation.

// emulate_on_host runs the kernel's per-thread phases on the host, block by
// block and, between the kernel's barriers, thread by thread; the warp
// shuffles are computed as the butterfly they are. Pointers are host
// pointers. order_seed != 0 runs the blocks in a shuffled order, so that any
// split may be the last to arrive at its ticket.
template <class K>
int emulate_on_host(int m, int n, int k, float alpha, const uint16_t* a, int64_t lda, const uint16_t* x, int64_t ldx,
                    float beta, uint16_t* y, int64_t ldy, unsigned order_seed = 0) {
  Plan p;
  const int st = plan<K>(m, n, k, alpha, a, lda, x, ldx, beta, y, ldy, &p);
  if (st != KGEN_OK) return st == kNothingToDo ? KGEN_OK : st;
  std::vector<float> ws;
  std::vector<unsigned> tickets;
  if (K::kSplitK > 1) {
    // Poisoned: a partial read before it is written shows up as NaN.
    ws.assign(workspace_floats<K>(p), std::numeric_limits<float>::quiet_NaN());
    tickets.assign(workspace_tickets(p), 0u);
    p.args.ws = ws.data();
    p.args.tickets = tickets.data();
  }
  const Args& args = p.args;

  struct Id {
    int x, y, z;
  };
  std::vector<Id> blocks;
  for (int bz = 0; bz < p.grid_z; ++bz)
    for (int by = 0; by < p.grid_y; ++by)
      for (int bx = 0; bx < p.grid_x; ++bx) blocks.push_back({bx, by, bz});
  if (order_seed != 0) {
    uint32_t s = order_seed;
    for (size_t i = blocks.size(); i > 1; --i) {
      s ^= s << 13, s ^= s >> 17, s ^= s << 5;
      std::swap(blocks[i - 1], blocks[s % i]);
    }
  }

  constexpr int T = K::kThreads;
  std::vector<float4> smem_v(K::kSmemBytes / 16 + 1);
  unsigned char* smem = reinterpret_cast<unsigned char*>(smem_v.data());
  uint16_t* xs = reinterpret_cast<uint16_t*>(smem);
  std::vector<Acc<K>> acc(T);
  std::vector<Head<K>> heads(K::kXF32 ? T : 0);  // x_f32: the first loads of a tile
  std::vector<std::array<float, K::kAcc>> v(T), prev(T);

  for (const Id& id : blocks) {
    const Block b = block_of<K>(args, id.x, id.y, id.z);
    for (int t = 0; t < T; ++t) zero<K>(acc[t]);
    const int kt = tile_len<K>(b);
    for (int c0 = b.k0; c0 < b.k1; c0 += kt) {
      const int len = cmin(kt, b.k1 - c0);
      if constexpr (K::kXF32) {
        // The kernel's order: every thread's head of A, the staging, the rest.
        for (int t = 0; t < T; ++t) {
          if (args.vec) {
            load_head<K, true>(args, b, c0, len, lane_of<K>(t), heads[t]);
          } else {
            load_head<K, false>(args, b, c0, len, lane_of<K>(t), heads[t]);
          }
        }
        for (int t = 0; t < T; ++t) stage_x<K>(args, b, c0, len, t, xs);
        for (int t = 0; t < T; ++t) {
          if (args.vec) {
            accumulate_head<K, true>(args, b, c0, len, lane_of<K>(t), xs, heads[t], acc[t]);
          } else {
            accumulate_head<K, false>(args, b, c0, len, lane_of<K>(t), xs, heads[t], acc[t]);
          }
        }
      } else {
        if (K::kXShared) {
          for (int t = 0; t < T; ++t) stage_x<K>(args, b, c0, len, t, xs);
        }
        for (int t = 0; t < T; ++t) {
          if (args.vec) {
            accumulate_tile<K, true>(args, b, c0, len, lane_of<K>(t), xs, acc[t]);
          } else {
            accumulate_tile<K, false>(args, b, c0, len, lane_of<K>(t), xs, acc[t]);
          }
        }
      }
    }
    for (int t = 0; t < T; ++t) {
      float tmp[K::kAcc];
      collapse<K>(acc[t], tmp);
      for (int j = 0; j < K::kAcc; ++j) v[t][j] = tmp[j];
    }
    // __shfl_xor_sync: every lane reads its partner's value from before the step.
    for (int s = 0; s < K::kShuffles; ++s) {
      prev = v;
      for (int t = 0; t < T; ++t) {
        const int partner = (t & ~31) | ((t & 31) ^ shuffle_distance<K>(s));
        for (int j = 0; j < K::kAcc; ++j) v[t][j] = prev[t][j] + prev[partner][j];
      }
    }
    for (int t = 0; t < T; ++t) {
      float tmp[K::kAcc];
      for (int j = 0; j < K::kAcc; ++j) tmp[j] = v[t][j];
      if (K::kWarpsPerGroup == 1) finish_direct<K>(args, b, lane_of<K>(t), tmp);
    }
    if (K::kWarpsPerGroup > 1) {
      float* red = reinterpret_cast<float*>(smem);
      for (int round = 0; round < K::kRounds; ++round) {
        for (int t = 0; t < T; ++t) {
          float tmp[K::kAcc];
          for (int j = 0; j < K::kAcc; ++j) tmp[j] = v[t][j];
          red_write<K>(lane_of<K>(t), round, tmp, red);
        }
        for (int t = 0; t < T; ++t) red_finish<K>(args, b, lane_of<K>(t), round, red);
      }
    }
    if (K::kSplitK > 1) {
      if (++args.tickets[b.tile] == static_cast<unsigned>(K::kSplitK)) {
        for (int t = 0; t < T; ++t) combine<K>(args, b, t);
        args.tickets[b.tile] = 0;
      }
    }
  }
  for (unsigned t : tickets) {
    assert(t == 0 && "every tile's last block resets its ticket");
    (void)t;
  }
  return KGEN_OK;
}

}  // namespace hgemv
}  // namespace kgen
