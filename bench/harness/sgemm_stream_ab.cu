// Harness (session 29, call 6): the library's stream-K launch (kgen::sgemm::launch of the 128x128x16 tile with TAIL
// kTailStream: the owner of a tile is the block that ends it, the flags cleared by a memset before each launch, three
// multiply-add loops) against the prototype that calls 1-3 measured (bench/harness/sgemm_stream.cu at e2d8ded, below as
// it was: the owner is the block that starts the tile and waits for later blocks, flags cleared once, two loops), and
// a memset of a grid's flags alone. Variants: dp, dp tail, sk (the prototype over every resident block), sk 1 per SM,
// lib, memset. Build and run as sgemm_stream.cu (bench/harness/sgemm_stream.sh with SRC=sgemm_stream_ab.cu).
#include <string.h>

#include <vector>

#include "bench/harness/sgemm_harness.h"

using kgen::Order;

// The spec's 128x128x16 tile by column in rows_zigzag, with and without the tail clusters.
template <bool T>
using Big = kgen::sgemm::Config<128, 128, 16, 32, 64, 8, 8, 1, true, kA, kB, 3, 1, 1, 1, false, false, kRing, T>;
using K = Big<false>;

// A block's partial tile in the workspace: each thread's TM x TN sums as float4s, thread-major (coalesced).
constexpr int kQuads = K::TM * K::TN / 4;
constexpr int64_t kPartialFloats = int64_t{K::BM} * K::BN;

__device__ __forceinline__ void proto_flag_raise(unsigned* f) {
  asm volatile("fence.acq_rel.gpu;\n\tst.relaxed.gpu.global.u32 [%0], %1;\n" ::"l"(f), "r"(1u) : "memory");
}
__device__ __forceinline__ unsigned proto_flag_read(const unsigned* f) {
  unsigned v;
  asm volatile("ld.acquire.gpu.global.u32 %0, [%1];\n" : "=r"(v) : "l"(f) : "memory");
  return v;
}

// The launch's arguments, in shared memory for segment: passed as arguments, they stayed in registers across its
// multiply-adds (kernel parameters stay in the constant bank).
struct Args {
  int M, N, Kd;
  float alpha, beta, one;
  const float* A;
  int64_t lda;
  const float* B;
  int64_t ldb;
  float* C;
  int64_t ldc;
  float* ws;
  unsigned* flags;
};
__shared__ Args g_args;

// segment multiplies the k tiles [k0, k1) of the tile at (m0, n0). A block's first segment may start past k tile 0
// (k0 > 0): its sums go to the block's partial tile, and its flag is raised. Otherwise the block owns the tile: it adds
// the partials of blocks [b + 1, c_end) in order (waiting for each flag, then lowering it) and stores C. Not inlined:
// inlined into stream_kernel's loop over segments, ptxas kept that loop's state and hoisted address arithmetic live
// across the multiply-adds (173 registers, or 128 with spills and 2.7x the same-bank FFMA operands of gemm_kernel).
__device__ __forceinline__ void segment(int m0, int n0, int k0, int k1, int b, int c_end) {
  using namespace kgen;
  using namespace kgen::sgemm;
  float* const smem = Smem<K>::get();
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  int lm = 0, ln = 0;
  lane_coords<K>(lane, lm, ln);
  const int a_off = (warp / K::kWarpsN) * K::WM + lm * 4;
  const int b_off = (warp % K::kWarpsN) * K::WN + ln * 4;
  {
    // The operands from k tile k0 on, so that the ring starts at k tile 0 (from k0, ptxas allocated the
    // multiply-adds' registers worse: 3x the same-bank operands of gemm_kernel, by bench/harness/sass_loops.py).
    const Operand<K::kAKContig> a_all{g_args.A, g_args.lda};
    const Operand<K::kBKContig> b_all{g_args.B, g_args.ldb};
    const Operand<K::kAKContig> op_a{a_all.at(0, k0 * K::BK), g_args.lda};
    const Operand<K::kBKContig> op_b{b_all.at(0, k0 * K::BK), g_args.ldb};
    float acc[K::TM][K::TN];
#pragma unroll
    for (int i = 0; i < K::TM; ++i)
#pragma unroll
      for (int j = 0; j < K::TN; ++j) acc[i][j] = 0.0f;
    mainloop_async<K, kVectors>(op_a, op_b, m0, n0, g_args.M, g_args.N, g_args.Kd - k0 * K::BK, 0, k1 - k0, a_off,
                                b_off, smem, acc);

    // (The ring ends with a barrier: g_args is read again from here on.)
    if (k0 != 0) {
      // Scaled by a 1 ptxas cannot see: a float4 store of the sums themselves tied them to aligned register
      // quads, and the multiply-adds' operands to the register banks that left (2.1x gemm_kernel's same-bank FFMA
      // operands, by bench/harness/sass_loops.py).
      float4* const mine = reinterpret_cast<float4*>(g_args.ws + static_cast<int64_t>(b) * kPartialFloats);
      const float one = g_args.one;
#pragma unroll
      for (int q = 0; q < kQuads; ++q) {
        const float* r = &acc[q / K::kGroupsN][(q % K::kGroupsN) * 4];
        __stcg(mine + q * K::kThreads + threadIdx.x, make_float4(one * r[0], one * r[1], one * r[2], one * r[3]));
      }
      __syncthreads();
      if (threadIdx.x == 0) proto_flag_raise(g_args.flags + b);
      return;
    }
    for (int c = b + 1; c < c_end; ++c) {
      if (threadIdx.x == 0) {
        while (proto_flag_read(g_args.flags + c) == 0) {
        }
      }
      __syncthreads();
      const float4* theirs = reinterpret_cast<const float4*>(g_args.ws + static_cast<int64_t>(c) * kPartialFloats);
#pragma unroll
      for (int q = 0; q < kQuads; ++q) {
        const float4 p = __ldcg(theirs + q * K::kThreads + threadIdx.x);
        float* r = &acc[q / K::kGroupsN][(q % K::kGroupsN) * 4];
        r[0] += p.x, r[1] += p.y, r[2] += p.z, r[3] += p.w;
      }
      __syncthreads();
      if (threadIdx.x == 0) g_args.flags[c] = 0;
    }
    store_c<K>(acc, m0 + a_off, n0 + b_off, g_args.M, g_args.N, g_args.alpha, g_args.beta, g_args.C, g_args.ldc,
               vector_ok(g_args.C, g_args.ldc));
  }
}

// Block blk's first iteration of total over G blocks.
__device__ __forceinline__ int first_iteration(int64_t blk, int64_t total, int64_t G) {
  return static_cast<int>(blk * total / G);
}

// stream_kernel: block b of gridDim.x takes the iterations [b * total / G, (b + 1) * total / G) of the last `tiles`
// tiles of the raster (total = tiles x k tiles < 2^31), with tiles <= G: a block's share is at most one tile's k
// tiles, so it has at most two segments, the end of one tile (not owned) and the start of the next (owned), written
// out one after the other (a loop over segments kept its state live across the multiply-adds: 144-173 registers).
// flags (one per block) are 0 on entry and left 0.
__global__ void __launch_bounds__(K::kThreads, 2)
    stream_kernel(int M, int N, int Kd, float alpha, const float* __restrict__ A, int64_t lda,
                  const float* __restrict__ B, int64_t ldb, float beta, float* __restrict__ C, int64_t ldc,
                  int tiles, float* __restrict__ ws, unsigned* __restrict__ flags) {
  if (threadIdx.x == 0) g_args = Args{M, N, Kd, alpha, beta, 1.0f, A, lda, B, ldb, C, ldc, ws, flags};
  __syncthreads();
  // Each segment works out its place from the arguments alone (the second from g_args, read after the first's
  // barriers): nothing stays live across the first's multiply-adds but what it needs.
  {
    const int tiles_m = M / K::BM, tiles_n = N / K::BN, kt = Kd / K::BK;
    const int64_t total = static_cast<int64_t>(tiles) * kt;
    const int lo = first_iteration(blockIdx.x, total, gridDim.x);
    const int hi = first_iteration(blockIdx.x + 1, total, gridDim.x);
    const int t = lo / kt, k0 = lo - t * kt;
    if (k0 != 0) {
      int m0, n0;
      kgen::tile_origin<K>(tiles_m * tiles_n - tiles + t, tiles_m, tiles_n, m0, n0);
      segment(m0, n0, k0, hi - lo < kt - k0 ? k0 + (hi - lo) : kt, blockIdx.x, 0);
    }
  }
  // The owned segment: the start of the next tile, if the share reaches it.
  const int tiles_m = g_args.M / K::BM, tiles_n = g_args.N / K::BN, kt = g_args.Kd / K::BK;
  const int64_t total = static_cast<int64_t>(tiles) * kt;
  const int lo = first_iteration(blockIdx.x, total, gridDim.x);
  const int hi = first_iteration(blockIdx.x + 1, total, gridDim.x);
  const int own = (lo + kt - 1) / kt * kt;
  if (own >= hi) return;
  const int to = own / kt;
  // The blocks after this one that hold the rest of the tile.
  int c_end = blockIdx.x + 1;
  while (c_end < static_cast<int>(gridDim.x) && first_iteration(c_end, total, gridDim.x) < (to + 1) * kt) ++c_end;
  int m0, n0;
  kgen::tile_origin<K>(tiles_m * tiles_n - tiles + to, tiles_m, tiles_n, m0, n0);
  segment(m0, n0, 0, hi - own, blockIdx.x, c_end);
}

// resident_blocks is how many blocks of stream_kernel the device holds at once (every block of a stream-K grid must
// be resident: owners wait for the blocks after them), and its SMs.
struct StreamKey {};
inline int resident_blocks(int& sms) {
  static bool attr = false;  // the ring's shared memory is past the 48 KiB default
  if (!attr) {
    CK(cudaFuncSetAttribute(stream_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, K::kSmemBytes));
    attr = true;
  }
  int dev = 0;
  CK(cudaGetDevice(&dev));
  sms = kgen::sm_count(dev);
  return kgen::blocks_per_sm<StreamKey>(dev, stream_kernel, K::kThreads, K::kSmemBytes) * sms;
}

// Stream-K launch over G0 blocks (PER_SM an SM, or with PER_SM 0 every resident block): every tile where there are
// G0 or fewer; otherwise the last tiles % G0 (the partial wave), after the others whole (gemm_kernel), or none.
template <int PER_SM>
int launch_stream(int M, int N, int Kd, float alpha, const float* A, int64_t lda, const float* B, int64_t ldb,
                  float beta, float* C, int64_t ldc, void* ws, int64_t ws_bytes, cudaStream_t st) {
  using namespace kgen::sgemm;
  const bool aligned = M % K::BM == 0 && N % K::BN == 0 && Kd % K::BK == 0 && Kd > 0 &&
                       static_cast<int64_t>(M / K::BM) * (N / K::BN) * (Kd / K::BK) < (int64_t{1} << 31) &&
                       fast_rows<K, K::kAKContig>(A, lda) && fast_rows<K, K::kBKContig>(B, ldb);
  if (!aligned) return launch<K>(M, N, Kd, alpha, A, lda, B, ldb, beta, C, ldc, ws, ws_bytes, st);
  CK(prepare<K>());
  int sms = 0;
  const int64_t resident = resident_blocks(sms);
  const int64_t G0 = PER_SM ? std::min<int64_t>(static_cast<int64_t>(PER_SM) * sms, resident) : resident;
  const int64_t tiles = static_cast<int64_t>(M / K::BM) * (N / K::BN);
  const int64_t sk = tiles <= G0 ? tiles : tiles % G0;
  if (sk == 0) return launch<K>(M, N, Kd, alpha, A, lda, B, ldb, beta, C, ldc, ws, ws_bytes, st);
  const int64_t G = std::min<int64_t>(G0, sk * (Kd / K::BK));
  float* const part = static_cast<float*>(ws);
  unsigned* const flags = reinterpret_cast<unsigned*>(part + resident * kPartialFloats);
  // The flags start at 0 (once per workspace and shape: the kernel leaves them so).
  static void* zeroed = nullptr;
  static int64_t zeroed_shape = -1;
  const int64_t shape = (static_cast<int64_t>(M) * 65536 + N) * 65536 + Kd;
  if (ws != zeroed || shape != zeroed_shape) {
    CK(cudaMemsetAsync(flags, 0, resident * sizeof(unsigned), st));
    zeroed = ws, zeroed_shape = shape;
  }
  if (sk < tiles) {
    gemm_kernel<K, false><<<static_cast<unsigned>(tiles - sk), K::kThreads, K::kSmemBytes, st>>>(
        M, N, Kd, alpha, A, lda, B, ldb, beta, C, ldc, part);
  }
  stream_kernel<<<static_cast<unsigned>(G), K::kThreads, K::kSmemBytes, st>>>(
      M, N, Kd, alpha, A, lda, B, ldb, beta, C, ldc, static_cast<int>(sk), part, flags);
  return static_cast<int>(cudaGetLastError());
}

int64_t stream_ws(int M, int N, int Kd) {
  int sms = 0;
  const int64_t resident = resident_blocks(sms);
  return std::max(resident * (kPartialFloats * 4 + 4), kgen::workspace_bytes<K>(M, N, Kd));
}

using Lib = kgen::sgemm::Config<128, 128, 16, 32, 64, 8, 8, 1, true, kA, kB, 3, 1, 1, 1, false, false, kRing,
                                kgen::sgemm::kTailStream>;
int64_t lib_ws(int M, int N, int Kd) { return std::max(kgen::workspace_bytes<Lib>(M, N, Kd), stream_ws(M, N, Kd)); }

// memset_only clears 264 flags, as the library's launch does before its kernel (C is left as it was).
int memset_only(int, int, int, float, const float*, int64_t, const float*, int64_t, float, float*, int64_t, void* ws,
                int64_t, cudaStream_t st) {
  return static_cast<int>(cudaMemsetAsync(ws, 0, 264 * sizeof(unsigned), st));
}

using V = Variant;

static std::vector<V> variants() {
  return {
      V{"dp", kgen::sgemm::launch<K>, kgen::workspace_bytes<K>},
      V{"dp tail", kgen::sgemm::launch<Big<true>>, kgen::workspace_bytes<Big<true>>},
      V{"sk", launch_stream<0>, stream_ws},
      V{"sk 1 per SM", launch_stream<1>, stream_ws},
      V{"lib", kgen::sgemm::launch<Lib>, lib_ws},
      V{"memset", memset_only, stream_ws},
  };
}

int main(int argc, char** argv) {
  int sms = 0;
  CK(kgen::sgemm::prepare<K>());
  const int resident = resident_blocks(sms);
  printf("# %s: %d SMs, %d resident blocks of the 128x128x16 tile\n", kLayout, sms, resident);
  const std::vector<V> vs = variants();
  return run_shapes(argc, argv, vs.data(), static_cast<int>(vs.size()), 9, no_extra);
}
