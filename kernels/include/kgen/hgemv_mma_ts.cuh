// The fp16 GEMV on tensor cores for a transposed A (layout T) with A staged
// through shared memory: the product, contract, launcher signature and
// error codes of kgen/hgemv_mma_t.cuh (y[i][c] = alpha * sum_r A[r][c] *
// x[i][r] + beta * y[i][c], A k x n row-major, x as the MMA's A operand with
// the vectors on its rows, the weights as B, fp32 accumulation, one
// rounding per result), whose blocks, arguments and split-K workspace it
// shares.
//
// Why stage. kgen/hgemv_mma_t.cuh loads each lane's B fragments straight
// from global memory, with the block's warps each walking their own run of
// k and UNROLL steps of 2 KiB a warp in flight. Here a block's threads copy
// its 64 outputs of 64 rows of A at a time (8 KiB, a stage) with cp.async
// into a ring of STAGES stages, so up to STAGES - 1 stages of every block
// are in flight while the warps take their fragments from shared memory with
// ldmatrix.trans; a warp's copy is 4 rows x 128 contiguous bytes.
//
// A stage holds, for k in [64 kt, 64 kt + 64):
//   A: 64 rows (k) of 128 bytes (the block's 64 outputs); the 16-byte chunk
//      c (outputs 8c .. 8c + 7) of row r lies at chunk c ^ (r % 8), so the 8
//      rows of an ldmatrix phase hit 8 distinct groups of 4 banks;
//   x: 8 vectors of 64 k, rows padded to 144 bytes, so the A fragments
//      (lane g, t reads vector g, word t of a chunk) hit 32 distinct banks.
// Rows past k, outputs past n and vectors past the pass's mb are
// zero-filled by the copies (cp.async with a source size under 16 bytes).
//
// The MMAs of a stage: 4 k16 steps x 8 n8 tiles. Warp w takes step w % 4
// and the tiles of part w / 4 (WARPS / 4 parts of 32 / WARPS tiles). Per
// step, x vector g is the A fragment's row g (a0 = chunk 2s, a2 = chunk
// 2s + 1, word t; a1 = a3 = 0, vectors 8-15); one ldmatrix.x4.trans gives
// the B fragments of two tiles: matrices (rows 16s .. +7, chunk j), (rows
// 16s + 8 .. +15, chunk j), the same for chunk j + 1, which .trans hands
// lane (g, t) as rows 2t, 2t + 1 of column g: b0, b1 of tile j, then of
// j + 1. C: c0, c1 are vector g at outputs 8j + 2t, 8j + 2t + 1; c2, c3
// (vectors 8-15) are discarded.
//
// The warps of a step meet in shared memory after the last stage
// ([step][vector][output], the stages' space reused), and each output sums
// the 4 steps in order. With SPLIT_K > 1, SPLIT_K blocks (blockIdx.y) share
// a strip's stages in even runs; each writes its sums to its slot of the
// workspace and the strip's last block to arrive adds the slots in split
// order (kgen/hgemv_mma_t.cuh's split_combine).
//
// Operands that do not allow 16-byte copies (A, x, lda or ldx off 16
// bytes) go to kgen/hgemv_mma_t.cuh's kernel with 8 warps and 2 steps in
// flight, which has an element-by-element path.
//
// Device code and the host emulation share the copy map, the swizzle and
// the ldmatrix addresses; the emulator (emulate_on_host, used by
// kernels/tests/hgemv_mma_host_test.cu) copies each stage into a host image
// of shared memory, gathers each lane's ldmatrix.trans registers from it as
// the PTX ISA defines them, and runs the MMAs through hgemv_mma::mma_host.
#pragma once

#include <stdint.h>
#include <string.h>

#include <limits>
#include <vector>

#include "kgen/hgemv_mma_t.cuh"
#include "kgen/ptx.cuh"

namespace kgen {
namespace hgemv_mma_ts {

using hgemv::cmin;
using hgemv_mma_t::Args;
using hgemv_mma_t::Block;
using hgemv_mma_t::kCols;
using hgemv_mma_t::kSlot;
using hgemv_mma_t::Plan;

constexpr int kStageK = 64;                  // rows of A (k) in a stage
constexpr int kChunks = kCols / 8;           // 16-byte chunks of a stage row
constexpr int kRowBytes = 2 * kCols;         // a stage row of A: the block's outputs
constexpr int kXRowBytes = 2 * kStageK + 16;  // a vector of x in a stage, padded
constexpr int kSteps = kStageK / 16;         // k16 MMA steps of a stage

template <int WARPS_, int STAGES_, int MAX_BATCH_, int SPLIT_K_ = 1>
struct Config {
  static constexpr int kWarps = WARPS_;
  static constexpr int kStages = STAGES_;
  static constexpr int kBatch = MAX_BATCH_;
  static constexpr int kSplitK = SPLIT_K_;  // blocks splitting k per column strip (gridDim.y)
  static constexpr int kThreads = 32 * WARPS_;
  static constexpr int kParts = WARPS_ / kSteps;       // warps sharing a step, each with its own tiles
  static constexpr int kWarpTiles = 8 / kParts;        // n8 tiles of a warp
  static constexpr int kABytes = kStageK * kRowBytes;  // 8 KiB
  static constexpr int kStageBytes = kABytes + 8 * kXRowBytes;
  static constexpr int kSmemBytes = STAGES_ * kStageBytes;
  static constexpr int kACopies = kStageK * kChunks / kThreads;  // 16-byte copies of A per thread and stage
  static constexpr int kRedFloats = kSteps * kSlot;
  static constexpr int kMinBlocks = 512 / kThreads > 1 ? 512 / kThreads : 1;
  static constexpr int kWarmBytes = 16 * 1024;  // of the block's first stages of A, asked of L2 before the wait
  static_assert(WARPS_ == 4 || WARPS_ == 8 || WARPS_ == 16, "warps per block is 4, 8 or 16 (4 k16 steps a stage)");
  static_assert(STAGES_ >= 2 && STAGES_ <= 8, "stages is 2 to 8");
  static_assert(MAX_BATCH_ == 1 || MAX_BATCH_ == 2 || MAX_BATCH_ == 4 || MAX_BATCH_ == 8, "max batch is 1, 2, 4 or 8");
  static_assert(SPLIT_K_ >= 1 && SPLIT_K_ <= 64, "split-K is 1 (none) to 64 blocks per column strip");
  static_assert(kThreads >= 8 * kChunks, "one copy of x per thread at most");
  static_assert(kRedFloats * 4 <= kSmemBytes, "the reduction reuses the stages' shared memory");
};

// The unstaged kernel for operands that do not allow 16-byte copies.
template <class K>
using Fallback = hgemv_mma_t::Config<8, 2, K::kBatch, K::kSplitK>;

// The byte offsets, inside a stage, of chunk c of A's row r and of x's
// vector v.
__host__ __device__ __forceinline__ int a_offset(int r, int c) { return r * kRowBytes + ((c ^ (r % 8)) << 4); }
template <class K>
__host__ __device__ __forceinline__ int x_offset(int v, int c) {
  return K::kABytes + v * kXRowBytes + (c << 4);
}

// Chunk is one 16-byte copy into a stage: its source and the bytes of it
// that lie inside the operand (0 to 16; the rest is zero-filled, and with
// none the source is not read).
struct Chunk {
  const uint16_t* src;
  int bytes;
};

// a_chunk is copy q of thread tid in stage kt: row q x kThreads + tid over
// 8 chunks (consecutive threads, consecutive chunks of a row).
template <class K>
__host__ __device__ __forceinline__ Chunk a_chunk(const Args& a, const Block& b, int kt, int tid, int q, int& row,
                                                  int& chunk) {
  const int i = tid + q * K::kThreads;
  row = i / kChunks, chunk = i % kChunks;
  const int r = kt * kStageK + row, c = b.col0 + 8 * chunk;
  const int valid = r < a.k ? cmin(8, a.n - c) : 0;
  if (valid <= 0) return Chunk{a.a, 0};
  return Chunk{a.a + static_cast<int64_t>(r) * a.lda + c, 2 * valid};
}

// x_chunk is thread tid's copy of x in stage kt (threads 0..63: vector
// tid / 8, chunk tid % 8; the others copy none).
template <class K>
__host__ __device__ __forceinline__ Chunk x_chunk(const Args& a, const Block& b, int kt, int tid, int& v, int& chunk) {
  v = tid / kChunks, chunk = tid % kChunks;
  const int r = kt * kStageK + 8 * chunk;
  const int valid = v < b.mb ? cmin(8, a.k - r) : 0;
  if (valid <= 0) return Chunk{a.x, 0};
  return Chunk{a.x + static_cast<int64_t>(b.z * K::kBatch + v) * a.ldx + r, 2 * valid};
}

// ldsm_offset is the row address lane gives ldmatrix.x4.trans for step s
// and tiles j, j + 1: lanes 8q .. 8q + 7 address matrix q's rows.
__host__ __device__ __forceinline__ int ldsm_offset(int lane, int s, int j) {
  const int q = lane / 8;
  return a_offset(16 * s + lane % 8 + 8 * (q % 2), j + q / 2);
}

// xa_offset is where lane's A fragment register h (a0: h = 0, a2: h = 1) of
// step s lies: vector g, halves 2t, 2t + 1 of chunk 2s + h.
template <class K>
__host__ __device__ __forceinline__ int xa_offset(int lane, int s, int h) {
  return x_offset<K>(lane / 4, 2 * s + h) + 4 * (lane % 4);
}

// Warp w's step of a stage and first tile.
template <class K>
__host__ __device__ __forceinline__ int warp_step(int w) {
  return w % kSteps;
}
template <class K>
__host__ __device__ __forceinline__ int warp_tile0(int w) {
  return w / kSteps * K::kWarpTiles;
}

// split_stages is the run [s0, s1) of stages of split s: the stages shared
// evenly and in order (the last splits may get none).
template <class K>
__host__ __device__ inline void split_stages(const Args& a, int s, int& s0, int& s1) {
  const int stages = (a.k + kStageK - 1) / kStageK;
  const int per = (stages + K::kSplitK - 1) / K::kSplitK;
  s0 = cmin(s * per, stages);
  s1 = cmin(s0 + per, stages);
}

// Acc is one lane's C registers: c0, c1 of each of its tiles.
template <class K>
struct Acc {
  float c[K::kWarpTiles][2];
};

// red_write puts warp w's sums in red[step][vector][output].
template <class K>
__host__ __device__ __forceinline__ void red_write(int w, int lane, const Acc<K>& acc, float* red) {
  const int g = lane / 4, t = lane % 4;
#pragma unroll
  for (int j = 0; j < K::kWarpTiles; ++j) {
    const int col = 8 * (warp_tile0<K>(w) + j) + 2 * t;
    float* p = red + (warp_step<K>(w) * 8 + g) * kCols + col;
    p[0] = acc.c[j][0];
    p[1] = acc.c[j][1];
  }
}

// Output o of the block is vector o / 64, output o % 64 (kSlot of them);
// red_sum is its sum over the steps, in order.
__host__ __device__ __forceinline__ float red_sum(int o, const float* red) {
  float s = 0.f;
  for (int q = 0; q < kSteps; ++q) s += red[q * kSlot + o];
  return s;
}

template <class K>
__host__ __device__ __forceinline__ void red_finish(const Args& a, const Block& b, int o, const float* red) {
  const int i = o / kCols, c = b.col0 + o % kCols;
  if (c < a.n && i < b.mb) hgemv::store_y(a, b.z * K::kBatch + i, c, red_sum(o, red));
}

template <class K>
__host__ __device__ __forceinline__ void red_partial(const Args& a, int64_t strip, int split, int o, const float* red) {
  a.ws[(strip * K::kSplitK + split) * kSlot + o] = red_sum(o, red);
}

// ---------------------------------------------------------------------------
// The kernel.

#ifdef __CUDACC__
#ifdef __CUDA_ARCH__
// issue_stage copies stage kt into the stage at shared address base.
template <class K>
__device__ __forceinline__ void issue_stage(const Args& a, const Block& b, uint32_t base, int kt, int tid) {
#pragma unroll
  for (int q = 0; q < K::kACopies; ++q) {
    int row, chunk;
    const Chunk c = a_chunk<K>(a, b, kt, tid, q, row, chunk);
    cp_async16_fill(base + a_offset(row, chunk), c.src, c.bytes);
  }
  if (tid < 8 * kChunks) {
    int v, chunk;
    const Chunk c = x_chunk<K>(a, b, kt, tid, v, chunk);
    cp_async16_fill(base + x_offset<K>(v, chunk), c.src, c.bytes);
  }
}

// stage_mmas runs warp w's MMAs of the stage at shared address base.
template <class K>
__device__ __forceinline__ void stage_mmas(uint32_t base, int w, int lane, Acc<K>& acc) {
  const int s = warp_step<K>(w);
  const uint32_t fa[4] = {ld_shared32(base + xa_offset<K>(lane, s, 0)), 0u,
                          ld_shared32(base + xa_offset<K>(lane, s, 1)), 0u};
#pragma unroll
  for (int j = 0; j < K::kWarpTiles; j += 2) {
    uint32_t fb[4];
    ldsm_x4<true>(fb, base + ldsm_offset(lane, s, warp_tile0<K>(w) + j));
    const uint32_t b0[2] = {fb[0], fb[1]}, b1[2] = {fb[2], fb[3]};
    hgemv_mma_t::mma_x(acc.c[j], fa, b0);
    hgemv_mma_t::mma_x(acc.c[j + 1], fa, b1);
  }
}
#endif

template <class K>
__global__ void __launch_bounds__(K::kThreads, K::kMinBlocks) hgemv_mma_ts_kernel(Args a) {
#ifdef __CUDA_ARCH__
  // Launched early (launch_early): before the wait only L2 prefetches of
  // the block's first stages of A touch memory.
  allow_early_start();
  extern __shared__ __align__(128) unsigned char smem[];
  const uint32_t base = smem_u32(smem);
  const Block b = hgemv_mma_t::block_of<K>(a, blockIdx.x, blockIdx.z);
  const int tid = threadIdx.x, w = tid / 32, lane = tid % 32;
  int s0, s1;
  split_stages<K>(a, blockIdx.y, s0, s1);
  const int stages = s1 - s0;
  if (b.z == 0 && stages > 0) {
    const int k0 = s0 * kStageK;
    warm_l2(a.a + static_cast<int64_t>(k0) * a.lda + b.col0, 2 * a.lda, cmin(K::kWarmBytes / kRowBytes, a.k - k0),
            2 * cmin(kCols, a.n - b.col0), tid, K::kThreads);
  }
  wait_prior_grids();
  Acc<K> acc;
#pragma unroll
  for (int j = 0; j < K::kWarpTiles; ++j) acc.c[j][0] = acc.c[j][1] = 0.f;
  stage_ring<K::kStages, K::kStageBytes>(
      base, stages, [&](uint32_t slot, int i) { issue_stage<K>(a, b, slot, s0 + i, tid); },
      [&](uint32_t slot) { stage_mmas<K>(slot, w, lane, acc); });
  float* red = reinterpret_cast<float*>(smem);
  __syncthreads();  // every warp is done with the stages
  hgemv_mma_ts::red_write<K>(w, lane, acc, red);
  __syncthreads();
  if constexpr (K::kSplitK == 1) {
    for (int o = tid; o < kSlot; o += K::kThreads) hgemv_mma_ts::red_finish<K>(a, b, o, red);
  } else {
    const int64_t strip = static_cast<int64_t>(blockIdx.z) * gridDim.x + blockIdx.x;
    for (int o = tid; o < kSlot; o += K::kThreads) hgemv_mma_ts::red_partial<K>(a, strip, blockIdx.y, o, red);
    hgemv::combine_if_last(a.tickets + strip, K::kSplitK, [&] {
      for (int o = tid; o < kSlot; o += K::kThreads) hgemv_mma_t::split_combine<K>(a, b, strip, o);
    });
  }
#endif
}

// launch checks the arguments and starts the kernel on stream (the contract
// of hgemv_mma_t::launch).
template <class K>
int launch(int m, int n, int k, float alpha, const uint16_t* a, int64_t lda, const uint16_t* x, int64_t ldx,
           float beta, uint16_t* y, int64_t ldy, cudaStream_t stream) {
  if (!aligned16(a, lda) || !aligned16(x, ldx)) {
    return hgemv_mma_t::launch<Fallback<K>>(m, n, k, alpha, a, lda, x, ldx, beta, y, ldy, stream);
  }
  Plan p;
  const int st = hgemv_mma_t::plan<K>(m, n, k, alpha, a, lda, x, ldx, beta, y, ldy, &p);
  if (st != KGEN_OK) return st == hgemv_mma_t::kNothingToDo ? KGEN_OK : st;
  const cudaError_t err = allow_shared_memory<K>(hgemv_mma_ts_kernel<K>, K::kSmemBytes);
  if (err != cudaSuccess) return static_cast<int>(err);
  const int ws = hgemv_mma_t::attach_workspace<K>(stream, &p);
  if (ws != KGEN_OK) return ws;
  const dim3 grid(static_cast<unsigned>(p.grid_x), K::kSplitK, static_cast<unsigned>(p.grid_z));
  return static_cast<int>(launch_early(hgemv_mma_ts_kernel<K>, grid, dim3(K::kThreads), K::kSmemBytes, stream, p.args));
}
#endif

// ---------------------------------------------------------------------------
// Host emulation.

// emulate_block runs split `split` of one block on the host into red: each
// stage copied into smem, an image of shared memory, by every thread's
// copies (the device's map, swizzle and zero fills), each warp's fragments
// gathered from it lane by lane as the PTX ISA defines ldmatrix.trans, the
// MMAs through hgemv_mma::mma_host (c2, c3 discarded), then red_write.
template <class K>
void emulate_block(const Args& a, const Block& b, int split, std::vector<unsigned char>& smem,
                   std::vector<float>& red) {
  auto half_at = [&](int off) {
    uint16_t v;
    memcpy(&v, smem.data() + off, 2);
    return static_cast<uint32_t>(v);
  };
  auto word = [&](int off) {
    uint32_t v;
    memcpy(&v, smem.data() + off, 4);
    return v;
  };
  auto copy = [&](int off, const Chunk& c) {
    memset(smem.data() + off, 0, 16);
    if (c.bytes) memcpy(smem.data() + off, c.src, c.bytes);
  };
  std::vector<Acc<K>> acc(static_cast<size_t>(K::kWarps) * 32);
  for (Acc<K>& v : acc)
    for (int j = 0; j < K::kWarpTiles; ++j) v.c[j][0] = v.c[j][1] = 0.f;
  for (unsigned char& v : smem) v = 0xA5;  // a byte no copy wrote reads as garbage
  int s0, s1;
  split_stages<K>(a, split, s0, s1);
  for (int i = 0; i < s1 - s0; ++i) {
    const int kt = s0 + i, base = i % K::kStages * K::kStageBytes;
    for (int tid = 0; tid < K::kThreads; ++tid) {
      for (int q = 0; q < K::kACopies; ++q) {
        int row, chunk;
        const Chunk c = a_chunk<K>(a, b, kt, tid, q, row, chunk);
        copy(base + a_offset(row, chunk), c);
      }
      if (tid < 8 * kChunks) {
        int v, chunk;
        const Chunk c = x_chunk<K>(a, b, kt, tid, v, chunk);
        copy(base + x_offset<K>(v, chunk), c);
      }
    }
    for (int w = 0; w < K::kWarps; ++w) {
      const int s = warp_step<K>(w);
      for (int j = 0; j < K::kWarpTiles; ++j) {
        uint32_t fa[32][4], fb[32][2];
        for (int lane = 0; lane < 32; ++lane) {
          fa[lane][0] = word(base + xa_offset<K>(lane, s, 0));
          fa[lane][2] = word(base + xa_offset<K>(lane, s, 1));
          fa[lane][1] = fa[lane][3] = 0;
          // ldmatrix.x4.trans of tiles jp, jp + 1: register q of lane (g, t)
          // is rows 2t, 2t + 1 of column g of matrix q, whose rows lanes
          // 8q .. 8q + 7 address; b0, b1 of tile j are matrices 2 (j % 2)
          // and 2 (j % 2) + 1.
          const int jp = warp_tile0<K>(w) + j - j % 2, g = lane / 4, t = lane % 4;
          for (int h = 0; h < 2; ++h) {
            const int q = 2 * (j % 2) + h;
            fb[lane][h] = half_at(base + ldsm_offset(8 * q + 2 * t, s, jp) + 2 * g) |
                          half_at(base + ldsm_offset(8 * q + 2 * t + 1, s, jp) + 2 * g) << 16;
          }
        }
        float c[32][4];
        for (int lane = 0; lane < 32; ++lane) {
          c[lane][0] = acc[w * 32 + lane].c[j][0];
          c[lane][1] = acc[w * 32 + lane].c[j][1];
          c[lane][2] = c[lane][3] = 0.f;
        }
        hgemv_mma::mma_host(fa, fb, c);
        for (int lane = 0; lane < 32; ++lane) {
          acc[w * 32 + lane].c[j][0] = c[lane][0];
          acc[w * 32 + lane].c[j][1] = c[lane][1];
        }
      }
    }
  }
  for (float& v : red) v = std::numeric_limits<float>::quiet_NaN();  // a sum never written shows up as NaN
  for (int w = 0; w < K::kWarps; ++w)
    for (int lane = 0; lane < 32; ++lane) hgemv_mma_ts::red_write<K>(w, lane, acc[w * 32 + lane], red.data());
}

// emulate_on_host runs the kernel on the host, block by block and, with
// split-K, a strip's splits in turn, each writing its partials to a
// workspace, then the combine of the last to arrive. Operands that do not
// allow 16-byte copies go to the fallback's emulator, as launch() sends
// them to its kernel. Pointers are host pointers.
template <class K>
int emulate_on_host(int m, int n, int k, float alpha, const uint16_t* a, int64_t lda, const uint16_t* x, int64_t ldx,
                    float beta, uint16_t* y, int64_t ldy) {
  if (!aligned16(a, lda) || !aligned16(x, ldx)) {
    return hgemv_mma_t::emulate_on_host<Fallback<K>>(m, n, k, alpha, a, lda, x, ldx, beta, y, ldy);
  }
  Plan p;
  const int st = hgemv_mma_t::plan<K>(m, n, k, alpha, a, lda, x, ldx, beta, y, ldy, &p);
  if (st != KGEN_OK) return st == hgemv_mma_t::kNothingToDo ? KGEN_OK : st;
  Args args = p.args;
  std::vector<unsigned char> smem(K::kSmemBytes);
  std::vector<float> red(K::kRedFloats), ws(static_cast<size_t>(K::kSplitK) * kSlot);
  args.ws = ws.data();  // one strip at a time: strip 0
  for (int bz = 0; bz < p.grid_z; ++bz) {
    for (int bx = 0; bx < p.grid_x; ++bx) {
      const Block b = hgemv_mma_t::block_of<K>(args, bx, bz);
      for (float& v : ws) v = std::numeric_limits<float>::quiet_NaN();
      for (int split = 0; split < K::kSplitK; ++split) {
        emulate_block<K>(args, b, split, smem, red);
        for (int o = 0; o < kSlot; ++o) {
          if constexpr (K::kSplitK == 1) {
            hgemv_mma_ts::red_finish<K>(args, b, o, red.data());
          } else {
            hgemv_mma_ts::red_partial<K>(args, 0, split, o, red.data());
          }
        }
      }
      if constexpr (K::kSplitK > 1) {
        for (int o = 0; o < kSlot; ++o) hgemv_mma_t::split_combine<K>(args, b, 0, o);
      }
    }
  }
  return KGEN_OK;
}

}  // namespace hgemv_mma_ts
}  // namespace kgen
