// The fp16 GEMV on tensor cores for a transposed A (layout T), which every
// tensor-core gemv instance of layout t (family hgemvtct) instantiates:
//   y[i][c] = alpha * sum_r A[r][c] * x[i][r] + beta * y[i][c],  i < m, c < n,
// A k x n row-major (lda >= n: output c reads column c, the outputs lie
// along A's contiguous rows), x m x k (ldx), y m x n (ldy), all IEEE fp16
// bits; fp32 accumulation, alpha and beta applied in fp32, one
// round-to-nearest-even conversion per result (overflow gives +-Inf, NaN
// propagates). Same contract, launcher signature and error codes as
// kgen/hgemv.cuh and kgen/hgemv_mma.cuh: m > 8 is kErrBatch, m > MAX_BATCH
// runs as blockIdx.z passes, beta == 0 never reads y, alpha == 0 reads
// neither A nor x.
//
// Operands. kgen/hgemv_mma.cuh puts the weights on the MMA's A operand,
// which needs pairs of halves along k from one row of A: here those pairs
// are 2 * lda apart. So the roles swap: x is the A operand (16 rows, the
// vectors, rows past the pass's vectors zero: half of each MMA is wasted,
// which costs nothing while the kernel only moves A) and the weights are the
// B operand, 16 k x 8 outputs per mma.sync.m16n8k16.row.col.f32.f16.f16.f32.
//
// Fragment mapping. With g = lane / 4 and t = lane % 4 the PTX ISA defines
//   A regs: a0 = A[g][2t, 2t+1]  a1 = A[g+8][2t, 2t+1]
//           a2 = A[g][2t+8, 2t+9]  a3 = A[g+8][2t+8, 2t+9]
//   B regs: b0 = B[2t, 2t+1][g]  b1 = B[2t+8, 2t+9][g]
//   C regs: c0, c1 = C[g][2t, 2t+1]  c2, c3 = C[g+8][2t, 2t+1]
// (two halves a register, the lower index in the low 16 bits). A step is 16
// real k from k0 and the 64 outputs n0 .. n0 + 63 of the warp; lane (g, t)
//   loads 16 bytes (8 outputs n0 + 8g .. n0 + 8g + 7) of each of the rows
//   k0 + 4t + q, q = 0..3, and 8 bytes of x vector g at k0 + 4t .. + 3;
//   k: fragment slot 2t + e holds real k0 + 4t + e and slot 2t + 8 + e real
//   k0 + 4t + 2 + e (e = 0, 1), in A and B alike; over t, e and the two
//   halves that is 4t + 2h + e, each of 0..15 once;
//   n: MMA j (j = 0..7) takes B column g = output n0 + 8g + j, so b0 pairs
//   rows q = 0, 1 and b1 rows q = 2, 3 at the lane's output j: one PRMT
//   (__byte_perm) each, from the words the 16-byte loads gave;
//   a0 = x words 0, a2 = x word 1, a1 = a3 = 0, the same for the 8 MMAs;
//   c0, c1 of MMA j are vector g at outputs n0 + 8(2t) + j, n0 + 8(2t+1) + j;
//   c2, c3 (vectors g + 8, zero) are discarded.
// (j, column) -> n0 + 8 column + j is a bijection of 8 x 8 onto the 64
// outputs, and the k slots one onto 16 real k: every (k, n) of the step
// meets x[., k] exactly once. A warp's step reads 16 rows x 128 contiguous
// bytes: whole sectors.
//
// Parallelism. A block owns 64 outputs; its WARPS warps split k (in-block
// split-K: a column strip of 64 has few blocks at small n, 64 at n = 4096)
// in contiguous runs of 16-wide steps, each issuing UNROLL steps' loads (64
// bytes of A a step per lane) before their MMAs. The warps' C fragments meet
// in shared memory, where each output sums them in warp order (the same
// result run to run), applies alpha and beta in fp32 and rounds once. With
// SPLIT_K > 1, SPLIT_K blocks (blockIdx.y) share a strip's k in even runs of
// steps: each writes its warp sums to its slot of a workspace (per stream,
// or per graph capture: hgemv::workspace_for), and the strip's last block to arrive
// (a ticket) adds the slots in split order before alpha and beta, so the
// result is again the same run to run.
//
// Edges. Outputs past n are loaded as zeros and never stored; vectors past
// the pass's mb are zeros, never loaded or stored. 16-byte loads of A and
// 8-byte loads of x are used for whole steps of a block whose 64 outputs lie
// inside n, when A, x, lda and ldx allow them (Args::vec); the k tail, the
// last column block and every step when they do not load the same groups
// element by element, zeros past k and n: the same fragment mapping.
//
// Device code and the host emulation (emulate_on_host, used by
// kernels/tests/hgemv_mma_host_test.cu) share everything but the MMA: the
// step loop (warp_loop) hands each step's operands to a sink, which on the
// device issues the 8 mma.sync and on the host records them; the emulator
// runs the MMAs warp-wide through kgen::hgemv_mma::mma_host (the PTX
// fragment definition).
#pragma once

#include <assert.h>
#include <stdint.h>
#include <string.h>

#include <vector>

#include "kgen/hgemv_mma.cuh"

namespace kgen {
namespace hgemv_mma_t {

using hgemv::cmax;
using hgemv::cmin;
using hgemv::kErrBatch;
using hgemv::kMaxM;
using hgemv::load_scalar;
using hgemv::load_vec;

constexpr int kStepK = 16;  // k of one step: one MMA k16
constexpr int kCols = 64;   // outputs of a warp (and a block): 8 MMAs of n8

template <int WARPS_, int UNROLL_, int MAX_BATCH_, int SPLIT_K_ = 1>
struct Config {
  static constexpr int kWarps = WARPS_;
  static constexpr int kUnroll = UNROLL_;  // steps whose loads are in flight together
  static constexpr int kBatch = MAX_BATCH_;
  static constexpr int kSplitK = SPLIT_K_;  // blocks splitting k per column strip (gridDim.y)
  static constexpr int kThreads = 32 * WARPS_;
  // The warps' C fragments: [warp][vector][output], 512 floats a warp.
  static constexpr int kRedFloats = WARPS_ * 8 * kCols;
  static_assert(WARPS_ >= 1 && WARPS_ <= 32, "warps per block is 1 to 32");
  static_assert(UNROLL_ >= 1 && UNROLL_ <= 8, "unroll is 1 to 8 steps");
  static_assert(MAX_BATCH_ == 1 || MAX_BATCH_ == 2 || MAX_BATCH_ == 4 || MAX_BATCH_ == 8, "max batch is 1, 2, 4 or 8");
  static_assert(SPLIT_K_ >= 1 && SPLIT_K_ <= 64, "split-K is 1 (none) to 64 blocks per column strip");
  static_assert(kRedFloats * 4 <= 48 * 1024, "the reduction buffer exceeds 48 KiB of shared memory");
  // Registers: a step is 4 x 4 + 2 words per lane, UNROLL of them in flight,
  // plus 16 live accumulators (c2, c3 are discarded): allow 128 (512
  // resident threads per SM), as kgen/hgemv_mma.cuh does.
  static constexpr int kMinBlocks = cmax(1, 512 / kThreads);
  static constexpr int kWarmBytes = WARPS_ * 2048;  // of A, over the warps' first steps, asked of L2 before the wait
};

struct Args {
  const uint16_t* a;
  const uint16_t* x;
  uint16_t* y;
  int64_t lda, ldx, ldy;
  int m, n, k;  // k is 0 when alpha == 0 (A and x are then not read)
  float alpha, beta;
  bool vec;  // A and lda allow 16-byte loads, x and ldx 8-byte ones
  float* ws;          // split-K partials: [strip][split][kSlot]
  unsigned* tickets;  // split-K arrivals, one per strip, zero between launches
};

// Floats of one block's partials in the split-K workspace: every vector's
// 64 outputs.
constexpr int kSlot = 8 * kCols;

// split_args is a cut to split s of K::kSplitK: the 16-wide k steps shared
// evenly, in order (the last splits may get none). A and x start at the
// split's first k, which keeps their alignment (a multiple of 16 halves).
template <class K>
__host__ __device__ inline Args split_args(const Args& a, int s) {
  if (K::kSplitK == 1) return a;
  const int steps = (a.k + kStepK - 1) / kStepK;
  const int per = (steps + K::kSplitK - 1) / K::kSplitK;
  const int64_t k0 = cmin(static_cast<int64_t>(s) * per * kStepK, static_cast<int64_t>(a.k));
  const int64_t k1 = cmin(k0 + static_cast<int64_t>(per) * kStepK, static_cast<int64_t>(a.k));
  Args p = a;
  if (k1 > k0) {  // A and x may be null where nothing is read (alpha == 0)
    p.a = a.a + k0 * a.lda;
    p.x = a.x + k0;
  }
  p.k = static_cast<int>(k1 - k0);
  return p;
}

struct Block {
  int col0;  // first output (column of A) of the block
  int z;     // batch pass: vectors z * MAX_BATCH ...
  int mb;    // vectors in this pass, 1..MAX_BATCH
  bool full; // all 64 outputs inside n
};

template <class K>
__host__ __device__ inline Block block_of(const Args& a, int bx, int bz) {
  const int c0 = bx * kCols;
  return Block{c0, bz, cmin(K::kBatch, a.m - bz * K::kBatch), a.n - c0 >= kCols};
}

// warp_range is the k range [k0, k1) of warp w: a contiguous run of whole
// steps (the last warp with work may end in the k tail); warps past the end
// get k0 == k1.
template <class K>
__host__ __device__ inline hgemv_mma::Range warp_range(int k, int w) {
  const int steps = (k + kStepK - 1) / kStepK;
  const int per = (steps + K::kWarps - 1) / K::kWarps;
  const int64_t k0 = static_cast<int64_t>(w) * per * kStepK, k1 = k0 + static_cast<int64_t>(per) * kStepK;
  return hgemv_mma::Range{static_cast<int>(k0 < k ? k0 : k), static_cast<int>(k1 < k ? k1 : k)};
}

// Lane is where a lane reads: A at its 8 outputs (row 0; `navail` of them
// inside n, none read when navail <= 0), x vector g (null past mb), and t.
struct Lane {
  const uint16_t* a;
  const uint16_t* x;
  int navail;
  int t;
};

template <class K>
__host__ __device__ __forceinline__ Lane lane_of(const Args& a, const Block& b, int lane) {
  const int g = lane / 4;
  const int c = b.col0 + 8 * g;
  Lane l;
  l.t = lane % 4;
  l.navail = cmin(8, a.n - c);
  l.a = a.a + (l.navail > 0 ? c : 0);  // not read when navail <= 0
  l.x = g < b.mb ? a.x + static_cast<int64_t>(b.z * K::kBatch + g) * a.ldx : nullptr;
  return l;
}

// Step is one lane's operands of one step at k = c: 8 halves (4 words) of
// each row c + 4t + q (q = 0..3) at the lane's outputs, and x vector g at
// c + 4t .. c + 4t + 3 (2 words).
struct Step {
  uint32_t a[4][4];
  uint32_t x[2];
};

// load_step loads lane's operands of the step at k = c, with `avail` of its
// 16 k inside the warp's range (16 for whole steps). VEC: one 16-byte load a
// row and an 8-byte load of x (the block is full, A, x, lda and ldx
// aligned); else element by element, zeros past k, n and mb.
template <bool VEC>
__host__ __device__ __forceinline__ void load_step(const Lane& l, int64_t lda, int c, int avail, Step& s) {
  const int r = 4 * l.t;
#pragma unroll
  for (int q = 0; q < 4; ++q) {
    const uint16_t* p = l.a + (static_cast<int64_t>(c) + r + q) * lda;
    if (VEC) {
      load_vec<8>(p, s.a[q]);
    } else if (l.navail > 0 && r + q < avail) {
      load_scalar<8>(p, l.navail, s.a[q]);
    } else {
      s.a[q][0] = s.a[q][1] = s.a[q][2] = s.a[q][3] = 0;
    }
  }
  if (l.x == nullptr) {
    s.x[0] = s.x[1] = 0;
  } else if (VEC) {
    load_vec<4>(l.x + c + r, s.x);
  } else {
    load_scalar<4>(l.x + c + r, avail - r, s.x);
  }
}

// pair(u, v, hi) is the word {low: half hi of u, high: half hi of v}: one
// PRMT on the device (selectors 0x5410 and 0x7632).
__host__ __device__ __forceinline__ uint32_t pair(uint32_t u, uint32_t v, int hi) {
#ifdef __CUDA_ARCH__
  return __byte_perm(u, v, hi ? 0x7632 : 0x5410);
#else
  return hi ? (u >> 16) | (v & 0xffff0000u) : (u & 0xffffu) | (v << 16);
#endif
}

// The operands of MMA j of a step, in the PTX register order (file comment):
// A is x (rows past 8 zero), B column g is output 8g + j of the lane's group.
__host__ __device__ __forceinline__ void frag_a(const Step& s, uint32_t (&r)[4]) {
  r[0] = s.x[0];
  r[1] = 0;
  r[2] = s.x[1];
  r[3] = 0;
}

__host__ __device__ __forceinline__ void frag_b(const Step& s, int j, uint32_t (&r)[2]) {
  r[0] = pair(s.a[0][j / 2], s.a[1][j / 2], j % 2);
  r[1] = pair(s.a[2][j / 2], s.a[3][j / 2], j % 2);
}

// warp_loop walks lane's k range of warp w step by step and hands every
// step's operands, in order, to sink: whole steps UNROLL at a time (all
// their loads issued before the first is used), then the last 1 to
// UNROLL - 1 whole steps likewise, then the k tail. Every lane of a warp
// makes the same calls (the range is the warp's), as mma.sync needs.
#pragma nv_exec_check_disable
template <class K, bool VEC, class Sink>
__host__ __device__ __forceinline__ void warp_loop(const Args& a, const Block& b, int w, int lane, Sink& sink) {
  // The element-by-element path keeps one step in flight (its 36 loads a
  // step would set the register count of the whole kernel).
  constexpr int U = VEC ? K::kUnroll : 1;
  const hgemv_mma::Range r = warp_range<K>(a.k, w);
  const Lane l = lane_of<K>(a, b, lane);
  const int whole = (r.k1 - r.k0) / kStepK;
  int c = r.k0;
  int s = 0;
#pragma unroll 1
  for (; s + U <= whole; s += U, c += U * kStepK) {
    Step st[U];
#pragma unroll
    for (int u = 0; u < U; ++u) load_step<VEC>(l, a.lda, c + u * kStepK, kStepK, st[u]);
#pragma unroll
    for (int u = 0; u < U; ++u) sink(st[u]);
  }
  if constexpr (U > 1) {
    if (s < whole) {
      const int cnt = whole - s;
      Step st[U - 1];
#pragma unroll
      for (int u = 0; u < U - 1; ++u) {
        if (u < cnt) load_step<VEC>(l, a.lda, c + u * kStepK, kStepK, st[u]);
      }
#pragma unroll
      for (int u = 0; u < U - 1; ++u) {
        if (u < cnt) sink(st[u]);
      }
      c += cnt * kStepK;
    }
  }
  if (c < r.k1) {
    Step st;
    load_step<false>(l, a.lda, c, r.k1 - c, st);
    sink(st);
  }
}

// Acc is one lane's live C registers: c0, c1 of each of the 8 MMAs.
struct Acc {
  float c[8][2];
};

// red_write puts warp w's results in red[w][vector][output]: c0, c1 of
// MMA j are vector g at outputs 16t + j and 16t + 8 + j.
__host__ __device__ __forceinline__ void red_write(int w, int lane, const Acc& acc, float* red) {
  float* p = red + (w * 8 + lane / 4) * kCols + 16 * (lane % 4);
#pragma unroll
  for (int j = 0; j < 8; ++j) {
    p[j] = acc.c[j][0];
    p[8 + j] = acc.c[j][1];
  }
}

// warp_sum is the block's sum for output o (o < 512: vector o / 64, output
// o % 64; adjacent o, adjacent outputs of y) over its warps, in warp order.
template <class K>
__host__ __device__ __forceinline__ float warp_sum(int o, const float* red) {
  float s = 0.f;
  for (int w = 0; w < K::kWarps; ++w) s += red[w * 8 * kCols + o];
  return s;
}

// red_finish makes output o of the block: its warp_sum, then alpha and
// beta in fp32, rounded once.
template <class K>
__host__ __device__ __forceinline__ void red_finish(const Args& a, const Block& b, int o, const float* red) {
  const int i = o / kCols, c = b.col0 + o % kCols;
  if (c >= a.n || i >= b.mb) return;
  hgemv::store_y(a, b.z * K::kBatch + i, c, warp_sum<K>(o, red));
}

// With split-K a block's sums over its warps are partials: red_partial
// writes output o's to the block's slot, and the strip's last block to
// arrive sums the slots in split order (split_combine), so the result does
// not depend on which block came last.
template <class K>
__host__ __device__ __forceinline__ void red_partial(const Args& a, const Block& b, int64_t strip, int split, int o,
                                                    const float* red) {
  if (o < b.mb * kCols) a.ws[(strip * K::kSplitK + split) * kSlot + o] = warp_sum<K>(o, red);
}

template <class K>
__host__ __device__ __forceinline__ void split_combine(const Args& a, const Block& b, int64_t strip, int o) {
  const int i = o / kCols, c = b.col0 + o % kCols;
  if (c >= a.n || i >= b.mb) return;
  const float* p = a.ws + strip * K::kSplitK * kSlot + o;
  float s = 0.f;
  for (int q = 0; q < K::kSplitK; ++q) s += hgemv::load_partial(p + q * kSlot);
  hgemv::store_y(a, b.z * K::kBatch + i, c, s);
}

// ---------------------------------------------------------------------------
// The kernel.

#ifdef __CUDACC__
#ifdef __CUDA_ARCH__
// mma_x issues one MMA with C = {c0, c1, 0, 0} and keeps c0, c1 of D: rows
// 8..15 (vectors 8..15) are zero and their registers stay dead.
__device__ __forceinline__ void mma_x(float (&c)[2], const uint32_t (&a)[4], const uint32_t (&b)[2]) {
#if __CUDA_ARCH__ >= 800
  [[maybe_unused]] float d2, d3;
  asm("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
      "{%10, %11, %12, %13};\n"
      : "=f"(c[0]), "=f"(c[1]), "=f"(d2), "=f"(d3)
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "f"(c[0]), "f"(c[1]), "f"(0.f), "f"(0.f));
#else
  __trap();  // sm_80 and later only (gen/spec refuses older archs)
#endif
}

// MmaSink issues each step's 8 MMAs into the lane's C registers.
struct MmaSink {
  Acc acc;
  __device__ __forceinline__ void operator()(const Step& s) {
    uint32_t fa[4];
    frag_a(s, fa);
#pragma unroll
    for (int j = 0; j < 8; ++j) {
      uint32_t fb[2];
      frag_b(s, j, fb);
      mma_x(acc.c[j], fa, fb);
    }
  }
};
#endif

template <class K>
__global__ void __launch_bounds__(K::kThreads, K::kMinBlocks) hgemv_mma_t_kernel(Args a) {
#ifdef __CUDA_ARCH__
  // Launched early (launch_early): before the wait only L2 prefetches of
  // each warp's first steps of A touch memory.
  allow_early_start();
  __shared__ __align__(16) float red[K::kRedFloats];
  const Block b = block_of<K>(a, blockIdx.x, blockIdx.z);
  const Args p = split_args<K>(a, blockIdx.y);
  const int w = threadIdx.x / 32, lane = threadIdx.x % 32;
  if (b.z == 0) {
    const hgemv_mma::Range r = warp_range<K>(p.k, w);
    warm_l2(p.a + static_cast<int64_t>(r.k0) * p.lda + b.col0, 2 * p.lda,
            cmin(r.k1 - r.k0, K::kWarmBytes / (K::kWarps * 2 * kCols)), 2 * cmin(kCols, p.n - b.col0), lane, 32);
  }
  wait_prior_grids();
  MmaSink sink;
#pragma unroll
  for (int j = 0; j < 8; ++j) sink.acc.c[j][0] = sink.acc.c[j][1] = 0.f;
  // The branch is uniform over the block: only the last column block (and
  // misaligned operands) take the element path.
  if (p.vec && b.full) {
    warp_loop<K, true>(p, b, w, lane, sink);
  } else {
    warp_loop<K, false>(p, b, w, lane, sink);
  }
  red_write(w, lane, sink.acc, red);
  __syncthreads();
  if constexpr (K::kSplitK == 1) {
    for (int o = threadIdx.x; o < kSlot; o += K::kThreads) red_finish<K>(a, b, o, red);
  } else {
    const int64_t strip = static_cast<int64_t>(blockIdx.z) * gridDim.x + blockIdx.x;
    for (int o = threadIdx.x; o < kSlot; o += K::kThreads) red_partial<K>(a, b, strip, blockIdx.y, o, red);
    hgemv::combine_if_last(a.tickets + strip, K::kSplitK, [&] {
      for (int o = threadIdx.x; o < kSlot; o += K::kThreads) split_combine<K>(a, b, strip, o);
    });
  }
#endif
}
#endif

// ---------------------------------------------------------------------------
// Host side: argument checks and the launch plan, shared by launch() and the
// emulator. The arguments are checked by hgemv::check_args and set by
// hgemv::set_operands, as every gemv kernel's are.

using hgemv::kNothingToDo;

struct Plan {
  Args args;
  int grid_x, grid_z;
};

template <class K>
inline int plan(int m, int n, int k, float alpha, const uint16_t* a, int64_t lda, const uint16_t* x, int64_t ldx,
                float beta, uint16_t* y, int64_t ldy, Plan* p) {
  const int st = hgemv::check_args(true, m, n, k, a, lda, x, ldx, y, ldy);
  if (st != KGEN_OK) return st;
  Args& g = p->args;
  hgemv::set_operands(g, m, n, k, alpha, a, lda, x, ldx, beta, y, ldy);
  g.vec = reinterpret_cast<uintptr_t>(a) % 16 == 0 && lda % 8 == 0 && reinterpret_cast<uintptr_t>(x) % 8 == 0 &&
          ldx % 4 == 0;
  g.ws = nullptr, g.tickets = nullptr;
  p->grid_x = (n + kCols - 1) / kCols;  // n < 2^31: fits
  p->grid_z = (m + K::kBatch - 1) / K::kBatch;
  return KGEN_OK;
}

#ifdef __CUDACC__
// attach_workspace gives a plan with split-K (K::kSplitK > 1) its partials
// and tickets on stream (hgemv::workspace_for: per stream, or per graph
// capture); without split-K it does nothing. kgen/hgemv_mma_ts.cuh's
// launcher uses it too.
template <class K>
inline int attach_workspace(cudaStream_t stream, Plan* p) {
  if constexpr (K::kSplitK > 1) {
    const size_t strips = static_cast<size_t>(p->grid_x) * p->grid_z;
    hgemv::Workspace w;
    const int ws = hgemv::workspace_for(stream, strips, strips * K::kSplitK * kSlot, &w);
    if (ws != KGEN_OK) return ws;
    p->args.ws = w.partials;
    p->args.tickets = w.tickets;
  }
  return KGEN_OK;
}

// launch checks the arguments and starts the kernel on stream. Pointers are
// device pointers to fp16 bits. It returns KGEN_OK, a negative KGEN_ERR_*
// code (kErrBatch for m > 8), or the cudaError_t of the launch.
template <class K>
int launch(int m, int n, int k, float alpha, const uint16_t* a, int64_t lda, const uint16_t* x, int64_t ldx,
           float beta, uint16_t* y, int64_t ldy, cudaStream_t stream) {
  Plan p;
  const int st = plan<K>(m, n, k, alpha, a, lda, x, ldx, beta, y, ldy, &p);
  if (st != KGEN_OK) return st == kNothingToDo ? KGEN_OK : st;
  const int ws = attach_workspace<K>(stream, &p);
  if (ws != KGEN_OK) return ws;
  const dim3 grid(static_cast<unsigned>(p.grid_x), K::kSplitK, static_cast<unsigned>(p.grid_z));
  return static_cast<int>(launch_early(hgemv_mma_t_kernel<K>, grid, dim3(K::kThreads), 0, stream, p.args));
}
#endif

// ---------------------------------------------------------------------------
// Host emulation.

// HostSink records a lane's steps; the emulator replays them warp-wide.
struct HostSink {
  std::vector<Step> steps;
  void operator()(const Step& s) { steps.push_back(s); }
};

// emulate_block runs one block's warps over args (a split's, with
// split-K) on the host into red: each lane through warp_loop (the device's
// step schedule, loads and tails), the warp's 8 MMAs a step through
// hgemv_mma::mma_host, then red_write.
template <class K>
void emulate_block(const Args& args, const Block& b, std::vector<HostSink>& sinks, std::vector<float>& red) {
  for (float& v : red) v = std::numeric_limits<float>::quiet_NaN();  // a result never written shows up as NaN
  for (int w = 0; w < K::kWarps; ++w) {
    for (int lane = 0; lane < 32; ++lane) {
      sinks[lane].steps.clear();
      if (args.vec && b.full) {
        warp_loop<K, true>(args, b, w, lane, sinks[lane]);
      } else {
        warp_loop<K, false>(args, b, w, lane, sinks[lane]);
      }
      assert(sinks[lane].steps.size() == sinks[0].steps.size() && "every lane of a warp makes the same steps");
    }
    float c[8][32][4] = {};
    for (size_t s = 0; s < sinks[0].steps.size(); ++s) {
      for (int j = 0; j < 8; ++j) {
        uint32_t fa[32][4], fb[32][2];
        for (int lane = 0; lane < 32; ++lane) {
          frag_a(sinks[lane].steps[s], fa[lane]);
          frag_b(sinks[lane].steps[s], j, fb[lane]);
        }
        // The device starts every MMA from c2 = c3 = 0 (mma_x).
        for (int lane = 0; lane < 32; ++lane) c[j][lane][2] = c[j][lane][3] = 0.f;
        hgemv_mma::mma_host(fa, fb, c[j]);
      }
    }
    for (int lane = 0; lane < 32; ++lane) {
      Acc acc;
      for (int j = 0; j < 8; ++j) acc.c[j][0] = c[j][lane][0], acc.c[j][1] = c[j][lane][1];
      red_write(w, lane, acc, red.data());
    }
  }
}

// emulate_on_host runs the kernel on the host, block by block (with
// split-K, a column strip's splits in turn, then the combine of the last
// block), the shared-memory reduction thread by thread. Pointers are host
// pointers.
template <class K>
int emulate_on_host(int m, int n, int k, float alpha, const uint16_t* a, int64_t lda, const uint16_t* x, int64_t ldx,
                    float beta, uint16_t* y, int64_t ldy) {
  Plan p;
  const int st = plan<K>(m, n, k, alpha, a, lda, x, ldx, beta, y, ldy, &p);
  if (st != KGEN_OK) return st == kNothingToDo ? KGEN_OK : st;
  std::vector<float> ws(static_cast<size_t>(K::kSplitK) * kSlot), red(K::kRedFloats);
  std::vector<HostSink> sinks(32);
  p.args.ws = ws.data();  // the slots of the strip being emulated, as strip 0
  for (int bz = 0; bz < p.grid_z; ++bz) {
    for (int bx = 0; bx < p.grid_x; ++bx) {
      const Block b = block_of<K>(p.args, bx, bz);
      for (float& v : ws) v = std::numeric_limits<float>::quiet_NaN();
      for (int split = 0; split < K::kSplitK; ++split) {
        const Args args = split_args<K>(p.args, split);
        emulate_block<K>(args, b, sinks, red);
        for (int o = 0; o < kSlot; ++o) {
          if constexpr (K::kSplitK == 1) {
            red_finish<K>(args, b, o, red.data());
          } else {
            red_partial<K>(args, b, 0, split, o, red.data());
          }
        }
      }
      if constexpr (K::kSplitK > 1) {
        for (int o = 0; o < kSlot; ++o) split_combine<K>(p.args, b, 0, o);
      }
    }
  }
  return KGEN_OK;
}

}  // namespace hgemv_mma_t
}  // namespace kgen
