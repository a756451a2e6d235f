// The fp16 GEMV on tensor cores with A staged through shared memory, layout
// N: the same product, contract, launcher signature and error codes as
// kgen/hgemv_mma.cuh (y = alpha * A * x + beta * y, A n x k row-major, up to
// 8 vectors of x as the MMA's B operand, fp32 accumulation, one rounding
// per result), whose fragment mapping, reduction and k tail it reuses.
//
// Why stage. In kgen/hgemv_mma.cuh each lane loads its own fragment rows, so
// every warp-wide load reads 8 rows x 64 bytes and a block's warps each walk
// their own part of k: on an H100 those loads alone, with no MMA, take 16.2
// us at 4096^2 where a warp reading 512 contiguous bytes of one row takes
// 12.4-12.7 (bench/results/h100-2026-11-24-session7.md). Here a block's
// threads copy its 16 x TILES rows with cp.async, each warp-wide copy 512
// contiguous bytes of one row, into a ring of STAGES shared-memory stages of
// 256 k each; the MMAs then take their fragments from shared memory with
// ldmatrix.
//
// A stage holds, for k in [256 kt, 256 kt + 256):
//   A: 16 TILES rows of 512 bytes; the 16-byte chunk c of row r lies at
//      chunk c ^ (r % 8) of the row, so the 8 rows of an ldmatrix phase (the
//      same c) hit 8 distinct groups of 4 banks;
//   x: 8 vectors of 512 bytes, rows padded to 528 bytes, so the B fragments
//      (lane g, t reads vector g, word t of a chunk) hit 32 distinct banks.
//      Vectors past the pass's mb, and rows of A past n, are zero-filled by
//      the copy (cp.async with a source size of 0).
// Each of the 16 k16 MMA steps of a stage belongs to one warp: warp w takes
// steps 16 w / WARPS onwards, 16 / WARPS of them, for every tile (one
// ldmatrix.x4 and one MMA per tile and step, the x fragment two 32-bit
// shared loads shared by the tiles). Step s covers chunks 2s and 2s + 1:
// ldmatrix's four matrices are (rows 0-7, chunk 2s), (rows 8-15, 2s),
// (rows 0-7, 2s + 1), (rows 8-15, 2s + 1), which is the PTX A fragment
// {a0, a1, a2, a3} of m16n8k16 with k slots 0-7 in chunk 2s and 8-15 in
// 2s + 1; the B fragment reads x at the same k.
//
// Launched early, a block asks L2 for its first 16 KiB of A before it waits
// for the kernel before it (kgen::warm_l2). When the grid fits the GPU in
// one wave (the launch asks the occupancy API), block bx starts its stages
// at stage bx % stages and wraps around (Args::rotate, stage_of): blocks
// that all start together would otherwise walk k in step, every row of A
// read at the same offset at once. On an H100 (session 11, bench/results/
// h100-2026-11-24-session11.md) that took 16 warps of 2 tiles from 35.8 to
// 32.6 us at 4096 x 11008 with 8 vectors (128 blocks) and 8 warps of one
// tile from 13.8 to 13.5 at 4096^2; over several waves later blocks start
// staggered anyway, and rotating cost 1-4% there. (The staged kernel of a
// transposed A does not rotate: its blocks read parts of the same rows of A
// together, and rotating them cost 10-50%.)
//
// The k past the last whole stage (k % 256), and all of k when A or x do not
// allow 16-byte copies (Args::vec), goes through kgen/hgemv_mma.cuh's step
// loop, split over the warps, one step in flight. The warps' C fragments
// then meet in shared memory (the stages' space, reused) and each output
// sums them in warp order, as there.
//
// Device code and the host emulation share the copy map, the swizzle and
// the ldmatrix addresses; the emulator (emulate_on_host, used by
// kernels/tests/hgemv_mma_host_test.cu) copies each stage into a host image
// of shared memory, gathers each lane's ldmatrix registers from it as the
// PTX ISA defines them, and runs the MMAs through hgemv_mma::mma_host.
#pragma once

#include <stdint.h>
#include <string.h>

#include <limits>
#include <vector>

#include "kgen/hgemv_mma.cuh"
#include "kgen/ptx.cuh"

namespace kgen {
namespace hgemv_mma_s {

using hgemv::cmax;
using hgemv::cmin;
using hgemv_mma::Acc;
using hgemv_mma::Args;
using hgemv_mma::Block;
using hgemv_mma::Plan;
using hgemv_mma::Range;

constexpr int kStageK = 256;               // k of a stage: a warp-wide 16-byte copy covers 512 bytes of a row
constexpr int kChunks = kStageK / 8;       // 16-byte chunks of a row in a stage
constexpr int kRowBytes = 2 * kStageK;     // a row of A in a stage
constexpr int kXRowBytes = kRowBytes + 16;  // a vector of x in a stage, padded

template <int WARPS_, int TILES_, int STAGES_, int MAX_BATCH_>
struct Config {
  static constexpr int kWarps = WARPS_;
  static constexpr int kTiles = TILES_;
  static constexpr int kStages = STAGES_;
  static constexpr int kBatch = MAX_BATCH_;
  static constexpr int kThreads = 32 * WARPS_;
  static constexpr int kRows = 16 * TILES_;
  static constexpr int kUnroll = 1;  // the k tail's steps in flight (hgemv_mma::warp_loop)
  static constexpr int kRedFloats = WARPS_ * TILES_ * 128;
  static constexpr int kWarpSteps = 16 / WARPS_;  // k16 steps of a stage per warp
  static constexpr int kABytes = kRows * kRowBytes;
  static constexpr int kStageBytes = kABytes + 8 * kXRowBytes;
  static constexpr int kSmemBytes = STAGES_ * kStageBytes;
  static constexpr int kACopies = kRows * kChunks / kThreads;         // 16-byte copies of A per thread and stage
  static constexpr int kXCopies = (8 * kChunks + kThreads - 1) / kThreads;  // and of x
  static constexpr int kMinBlocks = cmax(1, 512 / kThreads);
  static constexpr int kWarmBytes = 16 * 1024;  // of the block's first stages of A, asked of L2 before the wait
  static_assert(WARPS_ == 4 || WARPS_ == 8 || WARPS_ == 16, "warps per block is 4, 8 or 16 (16 k16 steps a stage)");
  static_assert(TILES_ >= 1 && TILES_ <= 4, "tiles per block is 1 to 4");
  static_assert(STAGES_ >= 2 && STAGES_ <= 8, "stages is 2 to 8");
  static_assert(MAX_BATCH_ == 1 || MAX_BATCH_ == 2 || MAX_BATCH_ == 4 || MAX_BATCH_ == 8, "max batch is 1, 2, 4 or 8");
  static_assert(kRows * kChunks % kThreads == 0, "every thread makes the same number of copies of A");
  static_assert(kRedFloats * 4 <= kSmemBytes, "the reduction reuses the stages' shared memory");
  static_assert(kSmemBytes <= 227 * 1024, "the stages exceed an H100's 227 KiB of shared memory a block");
};

// The byte offsets, inside a stage, of chunk c of A's row r and of x's
// vector v.
__host__ __device__ __forceinline__ int a_offset(int r, int c) { return r * kRowBytes + ((c ^ (r % 8)) << 4); }
template <class K>
__host__ __device__ __forceinline__ int x_offset(int v, int c) {
  return K::kABytes + v * kXRowBytes + (c << 4);
}

// Copy q of thread tid in every stage: row (of the block's A, or vector of
// x: none from row 8 on) and chunk. Consecutive threads take consecutive
// chunks of a row, so a warp's copy is 512 contiguous bytes.
struct Copy {
  int row, chunk;
};
template <class K>
__host__ __device__ __forceinline__ Copy copy_of(int tid, int q) {
  const int i = tid + q * K::kThreads;
  return Copy{i / kChunks, i % kChunks};
}

// Source is one copy's first source in stage 0 and the bytes it copies, 16
// or 0 (zero fill: a row of A past n or a vector past mb). Later stages add
// 256 halves.
struct Source {
  const uint16_t* p;
  int bytes;
};
__host__ __device__ __forceinline__ Source a_source(const Args& a, const Block& b, Copy c) {
  const int r = b.row0 + c.row;
  if (r >= a.n) return Source{a.a, 0};
  return Source{a.a + static_cast<int64_t>(r) * a.lda + 8 * c.chunk, 16};
}
template <class K>
__host__ __device__ __forceinline__ Source x_source(const Args& a, const Block& b, Copy c) {
  if (c.row >= b.mb) return Source{a.x, 0};
  return Source{a.x + static_cast<int64_t>(b.z * K::kBatch + c.row) * a.ldx + 8 * c.chunk, 16};
}

// ldsm_offset is the row address lane gives ldmatrix.x4 for tile t and MMA
// step s (chunks 2s, 2s + 1): lanes 8j .. 8j + 7 address matrix j's rows.
__host__ __device__ __forceinline__ int ldsm_offset(int lane, int t, int s) {
  const int j = lane / 8;
  const int r = 16 * t + lane % 8 + 8 * (j % 2);
  return a_offset(r, 2 * s + j / 2);
}

// b_offset is where lane's B fragment register h (0, 1) of step s lies:
// vector g, halves 2t, 2t + 1 of chunk 2s + h.
template <class K>
__host__ __device__ __forceinline__ int b_offset(int lane, int s, int h) {
  return x_offset<K>(lane / 4, 2 * s + h) + 4 * (lane % 4);
}

// The warp's first MMA step of a stage.
template <class K>
__host__ __device__ __forceinline__ int first_step(int w) {
  return w * K::kWarpSteps;
}

// stage_of is the stage (of `stages`) that block bx copies at step i of its
// ring: with a.rotate, block bx starts at stage bx % stages and wraps
// around, so that blocks running together read A at different offsets.
__host__ __device__ __forceinline__ int stage_of(const Args& a, int i, int stages, int bx) {
  return a.rotate ? (i + bx % stages) % stages : i;
}

// Whole stages: the k that the staged loop covers (none without vec).
__host__ __device__ __forceinline__ int staged_k(const Args& a) { return a.vec ? a.k / kStageK * kStageK : 0; }

// ---------------------------------------------------------------------------
// The kernel.

#ifdef __CUDACC__
#ifdef __CUDA_ARCH__
// Copies issues one thread's copies of a stage.
template <class K>
struct Copies {
  Source a[K::kACopies];
  Source x[K::kXCopies];
  uint32_t a_dst[K::kACopies], x_dst[K::kXCopies];

  __device__ __forceinline__ void init(const Args& args, const Block& b, int tid) {
#pragma unroll
    for (int q = 0; q < K::kACopies; ++q) {
      const Copy c = copy_of<K>(tid, q);
      a[q] = a_source(args, b, c);
      a_dst[q] = a_offset(c.row, c.chunk);
    }
#pragma unroll
    for (int q = 0; q < K::kXCopies; ++q) {
      const Copy c = copy_of<K>(tid, q);
      x[q] = c.row < 8 ? x_source<K>(args, b, c) : Source{nullptr, -1};
      x_dst[q] = x_offset<K>(c.row, c.chunk);
    }
  }

  // issue copies stage kt into the stage at shared address base.
  __device__ __forceinline__ void issue(uint32_t base, int kt) const {
    const int64_t d = static_cast<int64_t>(kt) * kStageK;
#pragma unroll
    for (int q = 0; q < K::kACopies; ++q) {
      cp_async16_fill(base + a_dst[q], a[q].bytes ? a[q].p + d : a[q].p, a[q].bytes);
    }
#pragma unroll
    for (int q = 0; q < K::kXCopies; ++q) {
      if (x[q].bytes >= 0) cp_async16_fill(base + x_dst[q], x[q].bytes ? x[q].p + d : x[q].p, x[q].bytes);
    }
  }
};

// stage_mmas runs warp w's MMA steps of the stage at shared address base.
template <class K>
__device__ __forceinline__ void stage_mmas(uint32_t base, int w, int lane, Acc<K>& acc) {
#pragma unroll
  for (int j = 0; j < K::kWarpSteps; ++j) {
    const int s = first_step<K>(w) + j;
    uint32_t fb[2];
    fb[0] = ld_shared32(base + b_offset<K>(lane, s, 0));
    fb[1] = ld_shared32(base + b_offset<K>(lane, s, 1));
#pragma unroll
    for (int t = 0; t < K::kTiles; ++t) {
      uint32_t fa[4];
      ldsm_x4<false>(fa, base + ldsm_offset(lane, t, s));
      hgemv_mma::mma16816(acc.c[t][j % 2], fa, fb);
    }
  }
}
#endif

template <class K>
__global__ void __launch_bounds__(K::kThreads, K::kMinBlocks) hgemv_mma_s_kernel(Args a) {
#ifdef __CUDA_ARCH__
  // Launched early (launch_early): before the wait only L2 prefetches of
  // the block's first stages of A touch memory.
  allow_early_start();
  extern __shared__ __align__(128) unsigned char smem[];
  const uint32_t base = smem_u32(smem);
  const Block b = hgemv_mma::block_of<K>(a, blockIdx.x, blockIdx.z);
  const int tid = threadIdx.x, w = tid / 32, lane = tid % 32;
  const int kmain = staged_k(a), stages = kmain / kStageK;
  if (b.z == 0 && stages > 0) {
    const int first = stage_of(a, 0, stages, blockIdx.x);
    warm_l2(a.a + static_cast<int64_t>(b.row0) * a.lda + first * kStageK, 2 * a.lda, cmin(K::kRows, a.n - b.row0),
            cmin((stages - first) * kRowBytes, K::kWarmBytes / K::kRows), tid, K::kThreads);
  }
  wait_prior_grids();
  hgemv_mma::MmaSink<K> sink;
#pragma unroll
  for (int t = 0; t < K::kTiles; ++t) {
#pragma unroll
    for (int i = 0; i < 8; ++i) sink.acc.c[t][i / 4][i % 4] = 0.f;
  }
  if (stages > 0) {
    Copies<K> cp;
    cp.init(a, b, tid);
    stage_ring<K::kStages, K::kStageBytes>(
        base, stages, [&](uint32_t slot, int i) { cp.issue(slot, stage_of(a, i, stages, blockIdx.x)); },
        [&](uint32_t slot) { stage_mmas<K>(slot, w, lane, sink.acc); });
  }
  // The branch is uniform: the launch decides the path for every block.
  if (kmain < a.k) {
    const Range r = hgemv_mma::warp_range_from<K>(kmain, a.k, w);
    if (a.vec) {
      hgemv_mma::warp_loop<K, true>(a, b, r, lane, sink);
    } else {
      hgemv_mma::warp_loop<K, false>(a, b, r, lane, sink);
    }
  }
  float* red = reinterpret_cast<float*>(smem);
  __syncthreads();  // every warp is done with the stages
  hgemv_mma::red_write<K>(w, lane, sink.acc, red);
  __syncthreads();
  for (int o = threadIdx.x; o < 128 * K::kTiles; o += K::kThreads) hgemv_mma::red_finish<K>(a, b, o, red);
#endif
}

// launch checks the arguments and starts the kernel on stream (the contract
// of hgemv_mma::launch).
template <class K>
int launch(int m, int n, int k, float alpha, const uint16_t* a, int64_t lda, const uint16_t* x, int64_t ldx,
           float beta, uint16_t* y, int64_t ldy, cudaStream_t stream) {
  Plan p;
  const int st = hgemv_mma::plan<K>(m, n, k, alpha, a, lda, x, ldx, beta, y, ldy, &p);
  if (st != KGEN_OK) return st == hgemv_mma::kNothingToDo ? KGEN_OK : st;
  const cudaError_t err = allow_shared_memory<K>(hgemv_mma_s_kernel<K>, K::kSmemBytes);
  if (err != cudaSuccess) return static_cast<int>(err);
  p.args.rotate = one_wave<K>(hgemv_mma_s_kernel<K>, K::kThreads, K::kSmemBytes, p.grid_x * p.grid_z);
  const dim3 grid(static_cast<unsigned>(p.grid_x), 1, static_cast<unsigned>(p.grid_z));
  return static_cast<int>(launch_early(hgemv_mma_s_kernel<K>, grid, dim3(K::kThreads), K::kSmemBytes, stream, p.args));
}
#endif

// ---------------------------------------------------------------------------
// Host emulation.

// emulate_block runs one block on the host into red
// (hgemv_mma::red_write's layout): each stage copied into smem, an image of
// shared memory, by every thread's copies (the device's map, swizzle and
// zero fills), each warp's ldmatrix and B fragments gathered from it lane
// by lane as the PTX ISA defines them, the MMAs through hgemv_mma::mma_host,
// then the k past the stages through hgemv_mma::emulate_warp, as the
// unstaged kernel's emulator runs its whole k.
template <class K>
void emulate_block(const Args& args, const Block& b, int bx, std::vector<unsigned char>& smem, std::vector<float>& red) {
  const int kmain = staged_k(args), stages = kmain / kStageK;
  auto word = [&](int off) {
    uint32_t v;
    memcpy(&v, smem.data() + off, 4);
    return v;
  };
  std::vector<hgemv_mma::HostC<K>> c(K::kWarps);
  auto copy = [&](unsigned char* d, const Source& s, int kt) {
    if (s.bytes) {
      memcpy(d, s.p + static_cast<int64_t>(kt) * kStageK, 16);
    } else {
      memset(d, 0, 16);
    }
  };
  for (unsigned char& v : smem) v = 0xA5;  // a byte no copy wrote reads as garbage
  for (int kt = 0; kt < stages; ++kt) {
    const int base = kt % K::kStages * K::kStageBytes, st = stage_of(args, kt, stages, bx);
    for (int tid = 0; tid < K::kThreads; ++tid) {
      for (int q = 0; q < K::kACopies; ++q) {
        const Copy cp = copy_of<K>(tid, q);
        copy(smem.data() + base + a_offset(cp.row, cp.chunk), a_source(args, b, cp), st);
      }
      for (int q = 0; q < K::kXCopies; ++q) {
        const Copy cp = copy_of<K>(tid, q);
        if (cp.row < 8) copy(smem.data() + base + x_offset<K>(cp.row, cp.chunk), x_source<K>(args, b, cp), st);
      }
    }
    for (int w = 0; w < K::kWarps; ++w) {
      for (int j = 0; j < K::kWarpSteps; ++j) {
        const int s = first_step<K>(w) + j;
        for (int t = 0; t < K::kTiles; ++t) {
          uint32_t fa[32][4], fb[32][2];
          for (int lane = 0; lane < 32; ++lane) {
            // ldmatrix: register q of lane (g, tq) is word tq of row g of
            // matrix q, whose address lane 8q + g gave.
            for (int q = 0; q < 4; ++q) fa[lane][q] = word(base + ldsm_offset(8 * q + lane / 4, t, s) + 4 * (lane % 4));
            for (int h = 0; h < 2; ++h) fb[lane][h] = word(base + b_offset<K>(lane, s, h));
          }
          hgemv_mma::mma_host(fa, fb, c[w].c[t][j % 2]);
        }
      }
    }
  }
  if (kmain < args.k) {
    for (int w = 0; w < K::kWarps; ++w) {
      hgemv_mma::emulate_warp<K>(args, b, hgemv_mma::warp_range_from<K>(kmain, args.k, w), c[w]);
    }
  }
  for (float& v : red) v = std::numeric_limits<float>::quiet_NaN();  // a fragment never written shows up as NaN
  for (int w = 0; w < K::kWarps; ++w) hgemv_mma::red_write_host<K>(w, c[w], red.data());
}

// emulate_on_host runs the kernel on the host, block by block
// (emulate_block), then each block's reduction. Pointers are host pointers.
template <class K>
int emulate_on_host(int m, int n, int k, float alpha, const uint16_t* a, int64_t lda, const uint16_t* x, int64_t ldx,
                    float beta, uint16_t* y, int64_t ldy) {
  Plan p;
  const int st = hgemv_mma::plan<K>(m, n, k, alpha, a, lda, x, ldx, beta, y, ldy, &p);
  if (st != KGEN_OK) return st == hgemv_mma::kNothingToDo ? KGEN_OK : st;
  p.args.rotate = true;  // block 0 starts at stage 0 as without it: both orders are run
  std::vector<unsigned char> smem(K::kSmemBytes);
  std::vector<float> red(K::kRedFloats);
  for (int bz = 0; bz < p.grid_z; ++bz) {
    for (int bx = 0; bx < p.grid_x; ++bx) {
      const Block b = hgemv_mma::block_of<K>(p.args, bx, bz);
      emulate_block<K>(p.args, b, bx, smem, red);
      for (int o = 0; o < 128 * K::kTiles; ++o) hgemv_mma::red_finish<K>(p.args, b, o, red.data());
    }
  }
  return KGEN_OK;
}

}  // namespace hgemv_mma_s
}  // namespace kgen
