// The fp16 GEMV on tensor cores that every hgemvtc instance instantiates,
// layout N only (layout T: kgen/hgemv_mma_t.cuh, which shares mma_host):
//   y[i][r] = alpha * sum_c A[r][c] * x[i][c] + beta * y[i][r],  i < m, r < n,
// A n x k row-major (lda >= k), x m x k (ldx), y m x n (ldy), all IEEE fp16
// bits; fp32 accumulation, alpha and beta applied in fp32, one
// round-to-nearest-even conversion per result (overflow gives +-Inf, NaN
// propagates). Same contract, launcher signature and error codes as
// kgen/hgemv.cuh: m > 8 is kErrBatch, m > MAX_BATCH runs as blockIdx.z
// passes, beta == 0 never reads y, alpha == 0 reads neither A nor x.
//
// Why tensor cores. The CUDA-core kernels spend an FMA per weight and
// vector and a conversion per weight: at 8 vectors they are issue-bound
// (0.42-0.67x of the copy rate on an H100). Here one
// mma.sync.m16n8k16.row.col.f32.f16.f16.f32 takes 16 output rows x 16 k of
// A as its A operand and 16 k x 8 vectors of x as its B operand (vectors
// past m are zeros): at m = 8 no lane of the MMA is wasted, no weight is
// converted, and the kernel does nothing but move A.
//
// Fragment mapping. With g = lane / 4 and t = lane % 4, the PTX ISA's
// m16n8k16 fragments (f16 A row-major, B column-major, f32 C) are:
//   A regs {a0, a1, a2, a3} (each two halves, lower index in the low 16 bits):
//     a0 = A[g][2t, 2t+1]     a1 = A[g+8][2t, 2t+1]
//     a2 = A[g][2t+8, 2t+9]   a3 = A[g+8][2t+8, 2t+9]
//   B regs {b0, b1}:  b0 = B[2t, 2t+1][g]   b1 = B[2t+8, 2t+9][g]
//   C regs {c0..c3}:  c0, c1 = C[g][2t, 2t+1]   c2, c3 = C[g+8][2t, 2t+1].
// A dot product does not care which fragment k slot holds which real k, as
// long as A and B agree. A step covers 32 real k from k0; lane (g, t) loads
// 16 bytes (words w0..w3, halves k0 + 8t .. k0 + 8t + 7) of row g, the same
// 16 bytes of row g + 8 (words v0..v3) and of x vector g (words x0..x3):
//   mma #h (h = 0, 1):  A = {w[2h], v[2h], w[2h+1], v[2h+1]},  B = {x[2h], x[2h+1]},
// i.e. fragment slot 2t + e holds real k0 + 8t + 4h + e and slot 2t + 8 + e
// real k0 + 8t + 4h + 2 + e (e = 0, 1): the same function of (t, slot) in A
// and B, and over t, e, h a bijection onto k0 .. k0 + 31. So a step is two
// 16-byte loads of A and one of x per lane and two MMAs, and the x fragment
// is one plain 16-byte load.
//
// Parallelism. A block of WARPS warps owns 16 x TILES rows (TILES MMA row
// tiles per warp share each x fragment). The block splits k over its warps
// (in-block split-K): warp w takes a contiguous run of 32-wide steps, and
// issues UNROLL steps' loads (UNROLL x TILES x 32 bytes of A per lane) before
// their MMAs. The warps' C fragments meet in shared memory, where each
// output sums them in warp order (deterministic run to run), applies alpha
// and beta in fp32 and rounds once.
//
// Edges. Rows past n are neither loaded (zeros) nor stored; vectors past
// the pass's mb are zeros, never loaded or stored. Whole 32-wide steps take
// 16-byte loads when A, x, lda and ldx allow them (Args::vec); the k tail,
// and every step when they do not, load the same 8-half groups element by
// element with zeros past k: the same fragment mapping.
//
// Device code and the host emulation (emulate_on_host, used by
// kernels/tests/hgemv_mma_host_test.cu) share everything but the MMA: the
// step loop (warp_loop) hands each step's operands to a sink, which on the
// device issues the two mma.sync and on the host records them; the emulator
// then runs the MMAs warp-wide from the PTX fragment definition (mma_host).
#pragma once

#include <assert.h>
#include <stdint.h>
#include <string.h>

#include <vector>

#include "kgen/hgemv.cuh"

namespace kgen {
namespace hgemv_mma {

using hgemv::cmax;
using hgemv::cmin;
using hgemv::half_to_float;
using hgemv::kErrBatch;
using hgemv::kMaxM;
using hgemv::load_scalar;
using hgemv::load_vec;

// k of one step: two MMAs of k16.
constexpr int kStepK = 32;

template <int WARPS_, int TILES_, int UNROLL_, int MAX_BATCH_>
struct Config {
  static constexpr int kWarps = WARPS_;
  static constexpr int kTiles = TILES_;    // 16-row MMA tiles per warp (and per block)
  static constexpr int kUnroll = UNROLL_;  // steps whose loads are in flight together
  static constexpr int kBatch = MAX_BATCH_;
  static constexpr int kThreads = 32 * WARPS_;
  static constexpr int kRows = 16 * TILES_;  // outputs (rows of A) per block
  // The warps' C fragments: [warp][tile][vector][row], 128 floats a tile.
  static constexpr int kRedFloats = WARPS_ * TILES_ * 128;
  static_assert(WARPS_ >= 1 && WARPS_ <= 32, "warps per block is 1 to 32");
  static_assert(TILES_ >= 1 && TILES_ <= 4, "tiles per warp is 1 to 4");
  static_assert(UNROLL_ >= 1 && UNROLL_ <= 8, "unroll is 1 to 8 steps");
  static_assert(MAX_BATCH_ == 1 || MAX_BATCH_ == 2 || MAX_BATCH_ == 4 || MAX_BATCH_ == 8, "max batch is 1, 2, 4 or 8");
  static_assert(kRedFloats * 4 <= 48 * 1024, "the reduction buffer exceeds 48 KiB of shared memory");
  // Registers: a step is (2 TILES + 1) x 4 words per lane, UNROLL of them in
  // flight, plus 2 TILES + 1 row pointers and 8 TILES accumulators: allow
  // 128 (512 resident threads per SM). At 64, nvcc 11.8 fits TILES 1,
  // UNROLL 4 without a spill but issues only 7 of its 12 loads before the
  // first MMA, the rest after it: half the bytes in flight.
  static constexpr int kMinBlocks = cmax(1, 512 / kThreads);
  static constexpr int kWarmBytes = WARPS_ * 4096;  // of A, over the warps' first steps, asked of L2 before the wait
};

struct Args {
  const uint16_t* a;
  const uint16_t* x;
  uint16_t* y;
  int64_t lda, ldx, ldy;
  int m, n, k;  // k is 0 when alpha == 0 (A and x are then not read)
  float alpha, beta;
  bool vec;  // A, x, lda and ldx allow 16-byte loads
  bool rotate;  // the staged kernel's blocks start their stages at different k (kgen/hgemv_mma_s.cuh)
};

struct Block {
  int row0;  // first row of A (output) of the block
  int z;     // batch pass: vectors z * MAX_BATCH ...
  int mb;    // vectors in this pass, 1..MAX_BATCH
};

template <class K>
__host__ __device__ inline Block block_of(const Args& a, int bx, int bz) {
  return Block{bx * K::kRows, bz, cmin(K::kBatch, a.m - bz * K::kBatch)};
}

// The k range [k0, k1) of warp w: a contiguous run of whole steps (the last
// warp with work may end in the k tail); warps past the end get k0 == k1.
struct Range {
  int k0, k1;
};

// warp_range_from splits [begin, k) so: the staged kernel
// (kgen/hgemv_mma_s.cuh) hands its k tail to the warps this way.
template <class K>
__host__ __device__ inline Range warp_range_from(int begin, int k, int w) {
  const int steps = (k - begin + kStepK - 1) / kStepK;
  const int per = (steps + K::kWarps - 1) / K::kWarps;
  const int64_t k0 = begin + static_cast<int64_t>(w) * per * kStepK, k1 = k0 + static_cast<int64_t>(per) * kStepK;
  return Range{static_cast<int>(k0 < k ? k0 : k), static_cast<int>(k1 < k ? k1 : k)};
}

template <class K>
__host__ __device__ inline Range warp_range(int k, int w) {
  return warp_range_from<K>(0, k, w);
}

// Lane's row pointers: rows g and g + 8 of each tile, and x vector g (null
// where the row is past n or the vector past mb: those read as zeros).
template <class K>
struct LanePtrs {
  const uint16_t* a[K::kTiles][2];
  const uint16_t* x;
};

template <class K>
__host__ __device__ __forceinline__ LanePtrs<K> lane_ptrs(const Args& a, const Block& b, int lane) {
  const int g = lane / 4;
  LanePtrs<K> p;
#pragma unroll
  for (int t = 0; t < K::kTiles; ++t) {
#pragma unroll
    for (int h = 0; h < 2; ++h) {
      const int r = b.row0 + 16 * t + 8 * h + g;
      p.a[t][h] = r < a.n ? a.a + static_cast<int64_t>(r) * a.lda : nullptr;
    }
  }
  p.x = g < b.mb ? a.x + static_cast<int64_t>(b.z * K::kBatch + g) * a.ldx : nullptr;
  return p;
}

// Step is one lane's operands of one 32-wide step: 8 halves (4 words) of
// rows g and g + 8 of each tile and of x vector g, at k0 + 8t.
template <class K>
struct Step {
  uint32_t a[K::kTiles][2][4];
  uint32_t x[4];
};

// load8 reads the 8 halves at p + c: 16 bytes at once (VEC; p + c aligned
// and all 8 inside k), else element by element, the first `avail` of them
// (zeros after). A null p reads zeros.
template <bool VEC>
__host__ __device__ __forceinline__ void load8(const uint16_t* p, int c, int avail, uint32_t (&w)[4]) {
  if (p == nullptr) {
    w[0] = w[1] = w[2] = w[3] = 0;
  } else if (VEC) {
    load_vec<8>(p + c, w);
  } else {
    load_scalar<8>(p + c, avail, w);
  }
}

// load_step loads lane's operands of the step at k = c, with `avail` of its
// 32 k inside the warp's range (32 for whole steps).
template <class K, bool VEC>
__host__ __device__ __forceinline__ void load_step(const LanePtrs<K>& p, int lane, int c, int avail, Step<K>& s) {
  const int off = 8 * (lane % 4);
  const int left = avail - off;
#pragma unroll
  for (int t = 0; t < K::kTiles; ++t) {
#pragma unroll
    for (int h = 0; h < 2; ++h) load8<VEC>(p.a[t][h], c + off, left, s.a[t][h]);
  }
  load8<VEC>(p.x, c + off, left, s.x);
}

// The operands of MMA h (0: words 0, 1; 1: words 2, 3) of tile t, in the
// PTX register order (file comment).
template <class K>
__host__ __device__ __forceinline__ void frag_a(const Step<K>& s, int t, int h, uint32_t (&r)[4]) {
  r[0] = s.a[t][0][2 * h];
  r[1] = s.a[t][1][2 * h];
  r[2] = s.a[t][0][2 * h + 1];
  r[3] = s.a[t][1][2 * h + 1];
}

template <class K>
__host__ __device__ __forceinline__ void frag_b(const Step<K>& s, int h, uint32_t (&r)[2]) {
  r[0] = s.x[2 * h];
  r[1] = s.x[2 * h + 1];
}

// warp_loop walks lane's k range r (its warp's) step by step and hands every
// step's operands, in order, to sink: whole steps UNROLL at a time (all
// their loads issued before the first is used), then the last 1 to
// UNROLL - 1 whole steps likewise, then the k tail. Every lane of a warp
// makes the same calls (the range is the warp's), as mma.sync needs.
// (The host emulator's sink is host-only: no warning for the instantiation
// with it, which device code never calls.)
#pragma nv_exec_check_disable
template <class K, bool VEC, class Sink>
__host__ __device__ __forceinline__ void warp_loop(const Args& a, const Block& b, Range r, int lane, Sink& sink) {
  // The element-by-element path (misaligned operands) keeps one step in
  // flight: unrolled, its 8 x (2 TILES + 1) loads per step set the
  // register count of the whole kernel.
  constexpr int U = VEC ? K::kUnroll : 1;
  const LanePtrs<K> p = lane_ptrs<K>(a, b, lane);
  const int whole = (r.k1 - r.k0) / kStepK;
  int c = r.k0;
  int s = 0;
  // Not unrolled further: UNROLL is the spec's choice of loads in flight.
#pragma unroll 1
  for (; s + U <= whole; s += U, c += U * kStepK) {
    Step<K> st[U];
#pragma unroll
    for (int u = 0; u < U; ++u) load_step<K, VEC>(p, lane, c + u * kStepK, kStepK, st[u]);
#pragma unroll
    for (int u = 0; u < U; ++u) sink(st[u]);
  }
  if constexpr (U > 1) {
    if (s < whole) {
      const int cnt = whole - s;
      Step<K> st[U - 1];
#pragma unroll
      for (int u = 0; u < U - 1; ++u) {
        if (u < cnt) load_step<K, VEC>(p, lane, c + u * kStepK, kStepK, st[u]);
      }
#pragma unroll
      for (int u = 0; u < U - 1; ++u) {
        if (u < cnt) sink(st[u]);
      }
      c += cnt * kStepK;
    }
  }
  if (c < r.k1) {
    Step<K> st;
    load_step<K, false>(p, lane, c, r.k1 - c, st);
    sink(st);
  }
}

// Acc is one lane's C fragments: per tile, one for each MMA of a step (h),
// two independent chains of MMAs instead of one twice as long.
template <class K>
struct Acc {
  float c[K::kTiles][2][4];
};

// C register i of lane holds row g + 8 (i / 2) of its tile and vector 2t + i % 2.
__host__ __device__ __forceinline__ int c_row(int lane, int i) { return lane / 4 + 8 * (i / 2); }
__host__ __device__ __forceinline__ int c_vec(int lane, int i) { return 2 * (lane % 4) + i % 2; }

// red_write puts warp w's fragments, the two chains added, in
// red[w][tile][vector][row].
template <class K>
__host__ __device__ __forceinline__ void red_write(int w, int lane, const Acc<K>& acc, float* red) {
#pragma unroll
  for (int t = 0; t < K::kTiles; ++t) {
#pragma unroll
    for (int i = 0; i < 4; ++i) red[((w * K::kTiles + t) * 8 + c_vec(lane, i)) * 16 + c_row(lane, i)] = acc.c[t][0][i] + acc.c[t][1][i];
  }
}

// red_finish makes output o of the block (o < 128 TILES: tile o / 128,
// vector o / 16 % 8, row o % 16; adjacent o, adjacent rows of y): the sum
// over warps in warp order, then alpha and beta in fp32, rounded once.
template <class K>
__host__ __device__ __forceinline__ void red_finish(const Args& a, const Block& b, int o, const float* red) {
  const int t = o / 128, i = o / 16 % 8, row = o % 16;
  const int r = b.row0 + 16 * t + row;
  if (r >= a.n || i >= b.mb) return;
  float s = 0.f;
  for (int w = 0; w < K::kWarps; ++w) s += red[w * K::kTiles * 128 + t * 128 + i * 16 + row];
  hgemv::store_y(a, b.z * K::kBatch + i, r, s);
}

// ---------------------------------------------------------------------------
// The kernel.

#ifdef __CUDACC__
#ifdef __CUDA_ARCH__
__device__ __forceinline__ void mma16816(float (&d)[4], const uint32_t (&a)[4], const uint32_t (&b)[2]) {
#if __CUDA_ARCH__ >= 800
  asm("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
      "{%0, %1, %2, %3};\n"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
#else
  __trap();  // sm_80 and later only (gen/spec refuses older archs)
#endif
}

// MmaSink issues each step's MMAs into the lane's C fragments.
template <class K>
struct MmaSink {
  Acc<K> acc;
  __device__ __forceinline__ void operator()(const Step<K>& s) {
#pragma unroll
    for (int t = 0; t < K::kTiles; ++t) {
#pragma unroll
      for (int h = 0; h < 2; ++h) {
        uint32_t fa[4], fb[2];
        frag_a<K>(s, t, h, fa);
        frag_b<K>(s, h, fb);
        mma16816(acc.c[t][h], fa, fb);
      }
    }
  }
};
#endif

template <class K>
__global__ void __launch_bounds__(K::kThreads, K::kMinBlocks) hgemv_mma_kernel(Args a) {
#ifdef __CUDA_ARCH__
  // Launched early (launch_early): before the wait only L2 prefetches of
  // each warp's first steps of A touch memory.
  allow_early_start();
  __shared__ __align__(16) float red[K::kRedFloats];
  const Block b = block_of<K>(a, blockIdx.x, blockIdx.z);
  const int w = threadIdx.x / 32, lane = threadIdx.x % 32;
  const Range range = warp_range<K>(a.k, w);
  if (b.z == 0) {
    warm_l2(a.a + static_cast<int64_t>(b.row0) * a.lda + range.k0, 2 * a.lda, cmin(K::kRows, a.n - b.row0),
            cmin(2 * (range.k1 - range.k0), K::kWarmBytes / (K::kWarps * K::kRows)), lane, 32);
  }
  wait_prior_grids();
  MmaSink<K> sink;
#pragma unroll
  for (int t = 0; t < K::kTiles; ++t) {
#pragma unroll
    for (int i = 0; i < 8; ++i) sink.acc.c[t][i / 4][i % 4] = 0.f;
  }
  // The branch is uniform: the launch decides the path for every block.
  if (a.vec) {
    warp_loop<K, true>(a, b, range, lane, sink);
  } else {
    warp_loop<K, false>(a, b, range, lane, sink);
  }
  red_write<K>(w, lane, sink.acc, red);
  __syncthreads();
  for (int o = threadIdx.x; o < 128 * K::kTiles; o += K::kThreads) red_finish<K>(a, b, o, red);
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
  const int st = hgemv::check_args(false, m, n, k, a, lda, x, ldx, y, ldy);
  if (st != KGEN_OK) return st;
  Args& g = p->args;
  hgemv::set_operands(g, m, n, k, alpha, a, lda, x, ldx, beta, y, ldy);
  g.vec = aligned16(a, lda) && aligned16(x, ldx);
  g.rotate = false;
  p->grid_x = (n + K::kRows - 1) / K::kRows;  // n < 2^31: fits
  p->grid_z = (m + K::kBatch - 1) / K::kBatch;
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
  const dim3 grid(static_cast<unsigned>(p.grid_x), 1, static_cast<unsigned>(p.grid_z));
  return static_cast<int>(launch_early(hgemv_mma_kernel<K>, grid, dim3(K::kThreads), 0, stream, p.args));
}
#endif

// ---------------------------------------------------------------------------
// Host emulation.

// mma_host is one warp's mma.sync.m16n8k16.row.col.f32.f16.f16.f32 from the
// PTX ISA's fragment definition: it assembles the 16x16 A and 16x8 B from
// the lanes' registers, checks that the lanes cover each element exactly
// once, and adds A B to the lanes' C fragments (fp32, k in order).
inline void mma_host(const uint32_t (&a)[32][4], const uint32_t (&b)[32][2], float (&c)[32][4]) {
  float am[16][16], bm[16][8];
  int seen_a[16][16] = {}, seen_b[16][8] = {};
  auto half_of = [](uint32_t w, int i) { return half_to_float((w >> (16 * (i % 2))) & 0xffffu); };
  for (int lane = 0; lane < 32; ++lane) {
    const int g = lane / 4, t = lane % 4;
    for (int i = 0; i < 8; ++i) {  // a_i is half i % 2 of register i / 2
      const int row = g + ((i / 2) % 2 == 1 ? 8 : 0);
      const int col = 2 * t + (i % 2) + (i >= 4 ? 8 : 0);
      am[row][col] = half_of(a[lane][i / 2], i);
      ++seen_a[row][col];
    }
    for (int i = 0; i < 4; ++i) {  // b_i is half i % 2 of register i / 2
      const int row = 2 * t + (i % 2) + (i >= 2 ? 8 : 0);
      bm[row][g] = half_of(b[lane][i / 2], i);
      ++seen_b[row][g];
    }
  }
  for (int r = 0; r < 16; ++r) {
    for (int q = 0; q < 16; ++q) assert(seen_a[r][q] == 1 && "A fragment must cover each element once");
    for (int q = 0; q < 8; ++q) assert(seen_b[r][q] == 1 && "B fragment must cover each element once");
  }
  for (int lane = 0; lane < 32; ++lane) {
    for (int i = 0; i < 4; ++i) {
      const int row = c_row(lane, i), col = c_vec(lane, i);
      float s = c[lane][i];
      for (int q = 0; q < 16; ++q) s = fmaf(am[row][q], bm[q][col], s);
      c[lane][i] = s;
    }
  }
}

// HostSink records a lane's steps; the emulator replays them warp-wide.
template <class K>
struct HostSink {
  std::vector<Step<K>> steps;
  void operator()(const Step<K>& s) { steps.push_back(s); }
};

// HostC is one warp's C fragments as the host emulation keeps them:
// [tile][chain][lane][register], zero until MMAs add to them.
template <class K>
struct HostC {
  float c[K::kTiles][2][32][4] = {};
};

// emulate_warp runs a warp over the k range r on the host: each lane
// through warp_loop (the device's step schedule, loads and tails), then the
// warp's MMAs from the recorded steps through mma_host, added to c. The
// staged kernel's emulator (kgen/hgemv_mma_s.cuh) runs its k tail this way.
template <class K>
void emulate_warp(const Args& args, const Block& b, Range r, HostC<K>& c) {
  std::vector<HostSink<K>> sinks(32);
  for (int lane = 0; lane < 32; ++lane) {
    if (args.vec) {
      warp_loop<K, true>(args, b, r, lane, sinks[lane]);
    } else {
      warp_loop<K, false>(args, b, r, lane, sinks[lane]);
    }
    assert(sinks[lane].steps.size() == sinks[0].steps.size() && "every lane of a warp makes the same steps");
  }
  for (size_t s = 0; s < sinks[0].steps.size(); ++s) {
    for (int t = 0; t < K::kTiles; ++t) {
      for (int h = 0; h < 2; ++h) {
        uint32_t fa[32][4], fb[32][2];
        for (int lane = 0; lane < 32; ++lane) {
          frag_a<K>(sinks[lane].steps[s], t, h, fa[lane]);
          frag_b<K>(sinks[lane].steps[s], h, fb[lane]);
        }
        mma_host(fa, fb, c.c[t][h]);
      }
    }
  }
}

// red_write_host is red_write of every lane of warp w from its HostC.
template <class K>
void red_write_host(int w, const HostC<K>& c, float* red) {
  for (int lane = 0; lane < 32; ++lane) {
    Acc<K> acc;
    for (int t = 0; t < K::kTiles; ++t)
      for (int h = 0; h < 2; ++h)
        for (int i = 0; i < 4; ++i) acc.c[t][h][i] = c.c[t][h][lane][i];
    red_write<K>(w, lane, acc, red);
  }
}

// emulate_on_host runs the kernel on the host, block by block: each warp
// through emulate_warp, then the shared-memory reduction, thread by thread.
// Pointers are host pointers.
template <class K>
int emulate_on_host(int m, int n, int k, float alpha, const uint16_t* a, int64_t lda, const uint16_t* x, int64_t ldx,
                    float beta, uint16_t* y, int64_t ldy) {
  Plan p;
  const int st = plan<K>(m, n, k, alpha, a, lda, x, ldx, beta, y, ldy, &p);
  if (st != KGEN_OK) return st == kNothingToDo ? KGEN_OK : st;
  const Args& args = p.args;
  std::vector<float> red(K::kRedFloats);
  for (int bz = 0; bz < p.grid_z; ++bz) {
    for (int bx = 0; bx < p.grid_x; ++bx) {
      const Block b = block_of<K>(args, bx, bz);
      for (float& v : red) v = std::numeric_limits<float>::quiet_NaN();  // a fragment never written shows up as NaN
      for (int w = 0; w < K::kWarps; ++w) {
        HostC<K> c;
        emulate_warp<K>(args, b, warp_range<K>(args.k, w), c);
        red_write_host<K>(w, c, red.data());
      }
      for (int o = 0; o < 128 * K::kTiles; ++o) red_finish<K>(args, b, o, red.data());
    }
  }
  return KGEN_OK;
}

}  // namespace hgemv_mma
}  // namespace kgen
