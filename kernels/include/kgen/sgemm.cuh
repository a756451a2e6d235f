// The fp32 GEMM on CUDA cores that every sgemm instance instantiates:
//   C = alpha * A * B + beta * C,  A: M x K, B: K x N, C: M x N row-major,
// A and B each row- or column-major, any M, N, K >= 0 and leading dimensions.
//
// Technique: a BM x BN block tile, split into WM x WN warp tiles, split into
// TM x TN thread tiles held in registers; BK-deep k tiles staged through two
// shared-memory buffers (the next tile is loaded into registers while the
// current one is multiplied, one barrier per k tile); 16-byte global loads
// where the tile lies inside the matrix and the rows are 16-byte aligned, a
// checked element-wise path elsewhere; float4 fragment reads from shared
// memory; C written once at the end.
//
// With STAGES >= 3 (sm_80 and later) the k tiles instead go from global to
// shared memory with cp.async into a ring of STAGES buffers in dynamic shared
// memory (STAGES - 1 tiles in flight while one is multiplied, one barrier per
// k tile; the copies of the tile STAGES - 1 ahead issued as a tile starts,
// late in it, at its last k step, or a share in each k step:
// Config::kCopyPlace), holding no registers for the copies. The shared
// layout stays k-major for both operands, so the fragment reads are the
// same: an operand
// stored m/n-contiguous is copied 16 bytes at a time, a k-contiguous one (which
// a 16-byte copy cannot transpose) 4 bytes at a time, each element straight to
// its transposed slot; partial tiles zero-fill through the copy's source size.
// Tiles that reach past M or N, and operands whose rows are not 16-byte
// aligned (odd leading dimensions), take 4-byte copies of every element,
// rows or columns past the matrix reading the last one inside (their sums
// land in C's rows or columns past M or N, never stored); only a partial
// last k tile checks every element's bounds (kElements, kChecked).
//
// With SPLIT_K > 1 the k tiles are divided among up to SPLIT_K blocks per C
// tile (grid y); each writes its partial sums to a workspace and a second
// kernel adds them in split order, so the result does not depend on timing.
// With FILL (split_count fill) a launch takes 1 to SPLIT_K splits, the fewest
// whose launch, its reduction counted, finishes first (fill_splits).
// On sm_90 that kernel is launched early (programmatic dependent launch): its
// blocks wait on the SMs that the splits' last blocks leave instead of
// following the grid after a launch gap; an instance of which one block fills
// an SM is itself launched early (early_pays). Harness bench/harness/
// sgemm_pdl.cu on an H100: 2-6% at 1024^3 and 64x64x65536 in back-to-back
// launches, -0.5% to +1.6% in CUDA graphs, level (within 0.7%) on long
// problems. With CLUSTER (sm_90) the splits of a tile are instead one
// thread-block cluster and sum through distributed shared memory in this
// kernel (kgen::cluster_sum_tile), in the same order, with the same result.
#pragma once

#include <type_traits>

#include "kgen/common.cuh"
#include "kgen/transpose.cuh"

namespace kgen {
namespace sgemm {

// Padding of each shared-memory row, in floats: rows stay 16-byte aligned and
// the transposing stores of two k-rows land in different banks. Where an
// operand's tile is not transposed (m/n-contiguous), Config may leave its
// rows unpadded (Config::kPadA, kPadB).
constexpr int kPad = 4;

// Operand views an input as MN x K: A as M x K, B (K x N) as N x K.
// K_CONTIG says that k is the contiguous index in memory.
template <bool K_CONTIG>
struct Operand {
  const float* ptr;
  int64_t ld;
  __device__ const float* at(int mn, int k) const {
    return K_CONTIG ? ptr + static_cast<int64_t>(mn) * ld + k : ptr + static_cast<int64_t>(k) * ld + mn;
  }
};

// TileLoader moves an MN x BK tile of an operand from global memory through
// registers into shared memory laid out k-major: smem[k * kRow + mn], rows of
// MN + PAD floats.
template <int MN, int BK, int THREADS, bool K_CONTIG, int PAD = kPad>
struct TileLoader {
  static constexpr int kVecs = MN * BK / 4 / THREADS;  // float4s per thread
  static constexpr int kRow = MN + PAD;
  static_assert(PAD % 4 == 0 && (K_CONTIG ? PAD == kPad : PAD >= 0),
                "rows stay 16-byte aligned, and a transposed (k-contiguous) tile's padded");
  static_assert(kVecs * 4 * THREADS == MN * BK, "each thread loads whole float4s");
  float4 v[kVecs];

  // coord gives the tile position of this thread's i-th float4: four
  // consecutive k (K_CONTIG) or four consecutive mn.
  __device__ static void coord(int tid, int i, int& mn, int& k) {
    const int idx = tid + i * THREADS;
    if (K_CONTIG) {
      mn = idx / (BK / 4);
      k = (idx % (BK / 4)) * 4;
    } else {
      k = idx / (MN / 4);
      mn = (idx % (MN / 4)) * 4;
    }
  }

  // load_vec reads a tile lying wholly inside the matrix, 16 bytes at a time.
  __device__ void load_vec(const Operand<K_CONTIG>& op, int mn0, int k0, int tid) {
#pragma unroll
    for (int i = 0; i < kVecs; ++i) {
      int mn, k;
      coord(tid, i, mn, k);
      v[i] = __ldg(reinterpret_cast<const float4*>(op.at(mn0 + mn, k0 + k)));
    }
  }

  // load_checked reads element by element and puts zeros outside the matrix,
  // so partial tiles add nothing to the sums.
  __device__ void load_checked(const Operand<K_CONTIG>& op, int mn0, int k0, int mn_total, int k_total, int tid) {
#pragma unroll
    for (int i = 0; i < kVecs; ++i) {
      int mn, k;
      coord(tid, i, mn, k);
      float e[4];
#pragma unroll
      for (int j = 0; j < 4; ++j) {
        const int gmn = mn0 + mn + (K_CONTIG ? 0 : j);
        const int gk = k0 + k + (K_CONTIG ? j : 0);
        e[j] = (gmn < mn_total && gk < k_total) ? __ldg(op.at(gmn, gk)) : 0.0f;
      }
      v[i] = make_float4(e[0], e[1], e[2], e[3]);
    }
  }

  __device__ void store(float* smem, int tid) const {
#pragma unroll
    for (int i = 0; i < kVecs; ++i) {
      int mn, k;
      coord(tid, i, mn, k);
      if (K_CONTIG) {
        smem[(k + 0) * kRow + mn] = v[i].x;
        smem[(k + 1) * kRow + mn] = v[i].y;
        smem[(k + 2) * kRow + mn] = v[i].z;
        smem[(k + 3) * kRow + mn] = v[i].w;
      } else {
        *reinterpret_cast<float4*>(&smem[k * kRow + mn]) = v[i];
      }
    }
  }
};

// cp.async copies to shared memory (sm_80+). The 4-byte form takes a source
// size: 0 reads nothing and writes a zero, which is how partial tiles fill.
__device__ __forceinline__ uint32_t smem_addr(const void* p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}

// mbarriers in shared memory (sm_80+; mainloop_async's ring): init with
// the arrivals a phase takes; invalidate; an arrival; the calling thread's
// cp.async copies so far, counted as one arrival once they land; a wait for
// the phase of the given parity to complete.
__device__ __forceinline__ void mbar_init(uint32_t bar, int count) {
  asm volatile("mbarrier.init.shared.b64 [%0], %1;\n" ::"r"(bar), "r"(count) : "memory");
}
__device__ __forceinline__ void mbar_inval(uint32_t bar) {
  asm volatile("mbarrier.inval.shared.b64 [%0];\n" ::"r"(bar) : "memory");
}
__device__ __forceinline__ void mbar_arrive(uint32_t bar) {
  asm volatile("{\n .reg .b64 st;\n mbarrier.arrive.shared.b64 st, [%0];\n}\n" ::"r"(bar) : "memory");
}
__device__ __forceinline__ void mbar_arrive_on_copies(uint32_t bar) {
  asm volatile("cp.async.mbarrier.arrive.noinc.shared.b64 [%0];\n" ::"r"(bar) : "memory");
}
__device__ __forceinline__ void mbar_wait(uint32_t bar, uint32_t parity) {
  uint32_t done;
  do {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    asm volatile(
        "{\n .reg .pred p;\n mbarrier.try_wait.parity.shared.b64 p, [%1], %2;\n selp.u32 %0, 1, 0, p;\n}\n"
        : "=r"(done)
        : "r"(bar), "r"(parity)
        : "memory");
#else
    asm volatile(
        "{\n .reg .pred p;\n mbarrier.test_wait.parity.shared.b64 p, [%1], %2;\n selp.u32 %0, 1, 0, p;\n}\n"
        : "=r"(done)
        : "r"(bar), "r"(parity)
        : "memory");
#endif
  } while (!done);
}
__device__ __forceinline__ void cp_async16(uint32_t dst, const void* src) {
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(dst), "l"(src) : "memory");
}
__device__ __forceinline__ void cp_async4(uint32_t dst, const void* src, bool in) {
  asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;\n" ::"r"(dst), "l"(src), "r"(in ? 4 : 0) : "memory");
}
__device__ __forceinline__ void cp_async_commit() { asm volatile("cp.async.commit_group;\n" ::: "memory"); }
template <int N>
__device__ __forceinline__ void cp_async_wait() {
  asm volatile("cp.async.wait_group %0;\n" ::"n"(N) : "memory");
}

// AsyncLoader copies an MN x BK tile of an operand into shared memory laid out
// k-major (smem[k * kRow + mn], as TileLoader's of the same PAD) with cp.async.
template <int MN, int BK, int THREADS, bool K_CONTIG, int PAD = kPad>
struct AsyncLoader {
  static constexpr int kRow = MN + PAD;
  static constexpr int kVecs = MN * BK / 4 / THREADS;  // 16-byte copies per thread (m/n-contiguous)
  static constexpr int kElems = MN * BK / THREADS;     // 4-byte copies per thread
  static_assert(kVecs * 4 * THREADS == MN * BK, "each thread copies whole float4s");

  // Element i of this thread: a warp covers whole 32-byte runs of a
  // k-contiguous operand (BK consecutive k of a few rows) or 32 consecutive
  // mn of an m/n-contiguous one; with kRow = 4 mod 32 the k-major stores of
  // the former fall in 32 different banks.
  __device__ static void elem(int tid, int i, int& mn, int& k) {
    const int idx = tid + i * THREADS;
    if (K_CONTIG) {
      mn = idx / BK;
      k = idx % BK;
    } else {
      k = idx / MN;
      mn = idx % MN;
    }
  }

  // Copy i + 1 of a thread lies kStride rows past copy i: rows of mn for a
  // k-contiguous operand, rows of k for an m/n-contiguous one.
  static constexpr int kCopies = K_CONTIG ? kElems : kVecs;
  static constexpr int kStride = K_CONTIG ? THREADS / BK : THREADS * 4 / MN;
  static_assert(K_CONTIG ? THREADS % BK == 0 : THREADS % (MN / 4) == 0, "copies of a thread stay in one column");

  // The fast path's state: a pointer walked along k, so that a tile's copies
  // cost a few registers (the checked path recomputes every address).
  const float* g;     // copy 0 of this thread in the next tile
  int64_t g_stride;   // elements from copy i to copy i + 1
  int64_t g_tile;     // elements from one k tile to the next
  uint32_t s_off;     // byte offset of copy 0 within a stage

  __device__ void init(const Operand<K_CONTIG>& op, int mn0, int k0, int tid) {
    int mn, k;
    if (K_CONTIG) {
      mn = tid / BK, k = tid % BK;
    } else {
      k = tid / (MN / 4), mn = (tid % (MN / 4)) * 4;
    }
    g = op.at(mn0 + mn, k0 + k);
    g_stride = kStride * op.ld;
    g_tile = K_CONTIG ? BK : BK * op.ld;
    s_off = static_cast<uint32_t>((k * kRow + mn) * 4);
  }

  // copy_vec copies the next tile, which lies wholly inside the matrix, to
  // the stage at shared address stage; 16-byte copies need 16-byte aligned
  // rows. With LIVE (the short path: init_live) the tile may reach past the
  // matrix: copies from live on are left out.
  // With STEPS > 1 it issues the share of k step `step` (of STEPS) alone,
  // copy i at step i * STEPS / kCopies, and moves to the next tile after
  // the last step's (kCopiesSpread).
  template <int STEPS = 1, bool LIVE = false, bool LOOP = false>
  __device__ void copy_vec(uint32_t stage, int step = 0) {
    static_assert(!LIVE || K_CONTIG, "the short path is for a k-contiguous operand");
    static_assert(!LOOP || LIVE, "the loop to the bound is the short path's");
    if constexpr (LOOP) {
      // Copies ceil(step * kCopies / STEPS) to the next step's first, those
      // before live (Config::kShortLoop).
      const int last = min(live, ceil_div((step + 1) * kCopies, STEPS));
#pragma unroll 1
      for (int i = ceil_div(step * kCopies, STEPS); i < last; ++i) {
        cp_async4(stage + s_off + i * kStride * 4, g + i * g_stride, true);
      }
    } else {
#pragma unroll
      for (int i = 0; i < kCopies; ++i) {
        if (i * STEPS / kCopies != step) continue;
        if (K_CONTIG) {
          if (!LIVE || i < live) cp_async4(stage + s_off + i * kStride * 4, g + i * g_stride, true);
        } else {
          cp_async16(stage + s_off + i * kStride * kRow * 4, g + i * g_stride);
        }
      }
    }
    if (step == STEPS - 1) g += g_tile;
  }

  // The element path: 4-byte copies of tiles inside the matrix's k range,
  // at any alignment. Each thread keeps one row or column (mn) and copies
  // kElems elements of it, kElemStride apart along k (k-contiguous
  // operand) or rows of k apart (m/n-contiguous one), so a warp copies 32
  // consecutive mn at each k and writes 32 consecutive words of shared
  // memory. A thread whose mn lies past mn_total reads the last one
  // instead: its sums only reach rows or columns of C past M or N, which
  // are never stored, and copies that always read hold no predicates
  // (predicates per copy cost up to 20 registers in the k loop). With SKIP
  // (the short path's kernel, kEdgesShort, where C has fewer rows or
  // columns than a tile) such a thread copies nothing (live, one predicate
  // for all its copies): its slots keep what an earlier tile left there,
  // which reaches only those rows or columns, as the short path's rows
  // past the matrix do. There, reading the last mn, most of a block's
  // copies read one column of a narrow C: on an H200 (two rounds, median
  // of 200 launches each; bench/harness/sgemm_elem_ab.sh,
  // bench/results/h200-2026-12-02-session63.md) the spec's tiles ran
  // 1.43-1.64x faster with SKIP at 5215x14x1627 nn, 1.13-1.23x at
  // 3901x17x376 nn, and in tt, whose A is m-contiguous, 1.29x at
  // 40x4094x1438 for the 128x128x16 tile; in one round also 1.25-3.1x at
  // 4265x10x2025 and 1.20-2.6x at 4096x12x1024 nn. In the kernels whose
  // tiles all move inside C, where no thread lies past it, the predicate
  // only changed ptxas's allocation: 0.89-1.01x at 999x3001x501 and
  // 1023^3, so they keep the copies that always read. tn, whose operands
  // are both m/n-contiguous, has the short kernel too since session 64
  // (both operands by copy_elem with SKIP): against kEdgesAny, 7 of its
  // tiles at 8 shapes ran 1.19x as fast by geometric mean, 1.12-2.91x at
  // 5215x14x1627, 1.05-1.85x at 3901x17x376, up to 2.22x at 40x4094x1438
  // and 1.87x at 64x64x65536; 0.97-1.02x where few threads lie past C
  // (4297x127x1508, 150x2000x1000; bench/harness/sgemm_short_ab.sh,
  // bench/results/h200-2026-12-02-session64.md).
  static constexpr int kElemStride = THREADS / MN;
  static_assert(THREADS % MN == 0, "4-byte copies: a thread keeps one mn of the tile");

  // init_elem sets up copy_elem for the tiles from k0 of the MN x BK tile at
  // mn0 (< mn_total) of a matrix of mn_total rows or columns (MN x K view).
  __device__ void init_elem(const Operand<K_CONTIG>& op, int mn0, int k0, int mn_total, int tid) {
    const int k = tid / MN, mn = tid % MN;
    live = mn0 + mn < mn_total;
    g = op.at(min(mn0 + mn, mn_total - 1), k0 + k);
    g_stride = K_CONTIG ? kElemStride : kElemStride * op.ld;
    g_tile = K_CONTIG ? BK : BK * op.ld;
    s_off = static_cast<uint32_t>((k * kRow + mn) * 4);
  }

  // copy_elem copies the next tile to the stage at shared address stage, 4
  // bytes at a time (with STEPS > 1 k step step's share, as copy_vec),
  // with SKIP none of a thread past the matrix.
  template <int STEPS = 1, bool SKIP = false>
  __device__ void copy_elem(uint32_t stage, int step = 0) {
#pragma unroll
    for (int i = 0; i < kElems; ++i) {
      if (i * STEPS / kElems != step || (SKIP && !live)) continue;
      cp_async4(stage + s_off + i * kElemStride * kRow * 4, g + i * g_stride, true);
    }
    if (step == STEPS - 1) g += g_tile;
  }

  // The short path (kShortRuns), for a k-contiguous operand whose tiles
  // may reach past the matrix's mn_total rows or columns: copy_vec's
  // copies (4 bytes, a warp copying whole runs of k of a few rows) at any
  // alignment, those of rows past mn_total left out, by one bound a thread
  // (live: its copies 0 to live - 1 lie inside; on the element path 1 where
  // the thread's mn lies inside, else 0). The element path copies
  // such an operand 32 rows a warp instruction, a sector each: on an H200,
  // where C has fewer rows than the tile (or columns, for B), so that every
  // tile took it, the 128x128x16 tile ran 1.4x slower than its timing model
  // (fitted where tiles move inside C) in nn and tt and 1.9x in nt (both
  // operands k-contiguous), at 110x3652x2080
  // (bench/results/h200-2026-12-01-session59.md).
  // A stage's rows past the matrix keep what an earlier tile left there
  // (or nothing written yet): they reach only the sums of C's rows or
  // columns past M or N, which are never stored, as the element path's
  // rows past the matrix do in this kernel (copy_elem's SKIP).
  // Zero-filling them instead (src-size 0, the source address selected)
  // took the kernel of the 128x128x16 tile split
  // 4 ways from 127 to 147 registers under nvcc 13.0 (one block per SM):
  // on an H200 it ran 4297x127x1508 nn 6% slower than the element path,
  // leaving them out 6-8% faster (bench/results/h200-2026-12-02-session61.md).
  int live;

  // init_live sets up copy_vec<STEPS, true> for the tiles from k0 of the
  // MN x BK tile at mn0 (< mn_total) of a matrix of mn_total rows or columns
  // (MN x K view). A thread whose first row lies past the matrix copies
  // nothing, and points at the last row so that its pointer stays inside.
  __device__ void init_live(const Operand<K_CONTIG>& op, int mn0, int k0, int mn_total, int tid) {
    static_assert(K_CONTIG, "the short path is for a k-contiguous operand");
    const int mn = tid / BK;  // init's row of copy 0
    live = mn0 + mn < mn_total ? min(kCopies, ceil_div(mn_total - mn0 - mn, kStride)) : 0;
    init(op, min(mn0, mn_total - 1 - mn), k0, tid);
  }

  // copy_checked copies element by element, zeros outside the matrix.
  __device__ static void copy_checked(const Operand<K_CONTIG>& op, int mn0, int k0, int mn_total, int k_total,
                                      float* smem, int tid) {
    // Not unrolled: the addresses are recomputed in the loop rather than
    // kept in registers across the k loop, which the fast path needs.
#pragma unroll 1
    for (int i = 0; i < kElems; ++i) {
      int mn, k;
      elem(tid, i, mn, k);
      const bool in = mn0 + mn < mn_total && k0 + k < k_total;
      cp_async4(smem_addr(&smem[k * kRow + mn]), in ? op.at(mn0 + mn, k0 + k) : op.ptr, in);
    }
  }
};

// CopyPlace is where in a k tile the cp.async pipeline issues the copies of
// the tile kStages - 1 ahead (Config::kCopyPlace, mainloop_async):
// kCopiesFirst before the tile's first fragment reads (with the mbarrier
// ring, after the previous tile's multiply-adds); kCopiesBeforeLastStep
// before its last k step's fragment reads; kCopiesLate after them, before
// that step's multiply-adds; kCopiesSpread a share in every k step, after
// its fragment reads (AsyncLoader's copy_vec and copy_elem with STEPS).
enum CopyPlace { kCopiesFirst, kCopiesBeforeLastStep, kCopiesLate, kCopiesSpread };

// Config fixes one instance: tiles, occupancy hint, whether 16-byte global
// accesses are allowed, the storage orders of A and B, the pipeline depth
// (2: through registers; 3 to 5: cp.async), the most blocks sharing the
// k range of one C tile, how a warp's lanes lie on its thread grid
// (lane_coords), the order of a k step's multiply-adds (multiply_tile), how
// splits are summed and counted, how the cp.async ring synchronises, and
// how the last, partly filled wave of tiles runs (TAIL_: kTailWhole,
// kTailCluster or kTailStream).
constexpr int kTailWhole = 0, kTailCluster = 1, kTailStream = 2;
template <int BM_, int BN_, int BK_, int WM_, int WN_, int TM_, int TN_, int MIN_BLOCKS_, bool VEC_GLOBAL_,
          Order A_ORDER_, Order B_ORDER_, int STAGES_ = 2, int SPLIT_K_ = 1, int LANE_MAP_ = 0, int FMA_ORDER_ = 0,
          bool CLUSTER_ = false, bool FILL_ = false, bool RING_ = false, int TAIL_ = kTailWhole>
struct Config {
  static constexpr int BM = BM_, BN = BN_, BK = BK_, WM = WM_, WN = WN_, TM = TM_, TN = TN_;
  static constexpr int kStages = STAGES_;
  static constexpr int kSplitK = SPLIT_K_;
  // With FILL_ a launch splits each C tile's k range among 1 to SPLIT_K_
  // blocks, the fewest whose launch finishes first (fill_splits); the
  // workspace is sized for SPLIT_K_ (workspace_bytes).
  static constexpr bool kFill = FILL_ && SPLIT_K_ > 1;
  static constexpr bool kAsync = STAGES_ >= 3;
  static constexpr int kMinBlocks = MIN_BLOCKS_;
  static constexpr bool kVecGlobal = VEC_GLOBAL_;
  // Programmatic dependent launch on sm_90 (kgen/launch.cuh): a split's
  // reduction is launched early and waits for the splits, and the GEMM
  // itself is launched early where early_pays.
  static constexpr bool kEarly = true;
  static constexpr int kWarpsN = BN / WN;
  static constexpr int kThreads = 32 * (BM / WM) * kWarpsN;
  // The short path's copies of a k-contiguous operand (kShortRuns:
  // AsyncLoader::copy_vec with LIVE) as a loop to each thread's bound, not
  // unrolled, in the tiles of 8 warps that split to fill: under nvcc 13.0
  // their unrolled copies, each predicated on the bound, took the
  // 128x128x16 tile's short kernel to 145-150 registers (one block an SM,
  // 127 as a loop) and the 256x128x16 tile's to 255 (227-229). On one
  // H200, at 8 shapes of C shorter than the tile (2 with N < 128, 6 with
  // M < 128) in nn, nt and tt, the loop ran the 128x128x16 tile 1.019x as
  // fast by geometric mean (1.01-1.17x where N is short, 0.93-1.07x where M
  // is), the 256x128x16 one 1.023x (0.95-1.13x); at 4 of the shapes the
  // tiles of 4 warps that split to fill (127-140 registers unrolled) ran
  // 0.996x and 0.986x, and in session 61 the 128x128x16 tile split 4 ways
  // or splitting its tail (127-128) 0.90-0.99x, so they keep the unrolled
  // copies (bench/harness/sgemm_short_ab.sh,
  // bench/results/h200-2026-12-02-session62.md).
  static constexpr bool kShortLoop = kFill && kThreads >= 256;
  static constexpr int kLanesN = WN / TN;  // threads side by side along N in a warp
  // How lanes map onto the warp's 32 / kLanesN x kLanesN thread grid
  // (lane_coords): 0 row by row; 1 column by column; 2 pairs of rows.
  static constexpr int kLaneMap = LANE_MAP_;
  // The order of a k step's multiply-adds over the thread tile
  // (multiply_tile): 0 row by row; 1 row by row, odd rows reversed; 2 4x4
  // quadrants, each like 1.
  static constexpr int kFmaOrder = FMA_ORDER_;
  // With RING_ the cp.async ring's copies and reads are synchronised by
  // mbarriers, one pair per slot, instead of one barrier a k tile
  // (mainloop_async).
  static constexpr bool kRing = RING_ && kAsync;
  static constexpr int kGroupsM = TM / 4;  // a thread's float4 groups along M
  static constexpr int kGroupsN = TN / 4;
  static constexpr int kGroupStrideM = WM / kGroupsM;  // distance between them
  static constexpr int kGroupStrideN = WN / kGroupsN;
  static constexpr bool kAKContig = A_ORDER_ == Order::Row;  // A is M x K
  static constexpr bool kBKContig = B_ORDER_ == Order::Col;  // B is K x N
  // Shared-memory rows of the cp.async pipeline's m/n-contiguous A (tn, tt)
  // and, in tn, its n-contiguous B, in the 256x128x16 and 128x256x16 tiles
  // of 8x16 threads and the 128x128x16 tile in quads_zigzag order:
  // unpadded, so that every row of the tile starts on a 128-byte line and a
  // warp's 16-byte copies of a row (512 bytes) fill 4 wavefronts. Padded as
  // the k-contiguous operands' tiles (rows of MN + 4 floats: 16 bytes past a
  // line per row), ncu counted the 128x128x16 tile's 16-byte copies of B in
  // nn at 2.6x the ideal shared wavefronts and 1.5x the ideal global sectors
  // (all the kernel's excess sectors). On an H200
  // (bench/harness/sgemm_copy_banks.cu,
  // bench/results/h200-2026-11-29-session46.md), against padded rows, x
  // cuBLAS: the 256x128 tile split to fill the GPU 2.5-4.4% faster in tn and
  // tt at 768^3-2048^3 (the engine's picks of it at 768^3, 512x512x8192,
  // 1024x1024x8192: 2.7-5.0%); the 128x128 tile in quads_zigzag order split
  // 4 ways and to fill, tn 1.3-1.8% at 768^3-2048^3, tt 0.7-1.0% at 768^3
  // and 1024^3 and 0.1-0.2% at 2048^3 (the engine's picks of it in tt level,
  // within the bench's noise between runs). Not kept elsewhere: the 128x128
  // tile in rows_zigzag order ran whole 0.7-1.0% slower in tn at 768^3 and
  // 1024^3 (1.6% faster at 2048^3), and the engine's picks of it 0.9-1.5%
  // slower (tn 1024^3 split in clusters, tn 4096x128x1024 split, tt 2048^3
  // stream-K); in nn the unpadded B ran the 128x128 tiles 0.5-0.9% slower
  // at 2048^3. The 128x256x16 tile, unpadded since session 47
  // (bench/harness/sgemm_unpad_wide.cu, bench/results/
  // h200-2026-11-30-session47.md), whole and split 4 ways: tn 3.6-4.5%
  // faster at 768^3-4096^3 and 128x8192x8192, tt 0.6-1.3%. The other tiles
  // were not measured. gen/ir's F32RowPads is this rule for the generator,
  // whose sources static_assert the ring's bytes against it.
  static constexpr bool kUnpaddedRows = kAsync && BK == 16 && !kAKContig &&
                                        ((BM == 256 && BN == 128 && TM == 8 && TN == 16) ||
                                         (BM == 128 && BN == 256 && TM == 8 && TN == 16) ||
                                         (BM == 128 && BN == 128 && TM == 8 && TN == 8 && FMA_ORDER_ == 2));
  static constexpr int kPadA = kUnpaddedRows ? 0 : kPad;
  static constexpr int kPadB = kUnpaddedRows && !kBKContig ? 0 : kPad;
  using LoaderA = TileLoader<BM, BK, kThreads, kAKContig, kPadA>;
  using LoaderB = TileLoader<BN, BK, kThreads, kBKContig, kPadB>;
  static constexpr int kStageA = BK * LoaderA::kRow;  // floats per buffer
  static constexpr int kStageB = BK * LoaderB::kRow;
  // With CLUSTER_ the splits of a C tile sum in a thread-block cluster
  // (cluster_sum_tile, kgen/common.cuh) instead of through a workspace and
  // a second kernel: in objects for sm_90 and later; an older arch's object
  // splits through the workspace. The partial tile is staged in the
  // pipeline's shared memory, rows of kTileRow floats.
  static constexpr bool kClusterReduce = CLUSTER_ && SPLIT_K_ > 1 && kArch >= 90;
  static constexpr int kTileRow = BN + kPad;
  // With kStagedStore a C whose rows take no float4 stores (or a moved
  // edge tile's part of C) is stored through shared memory, whole rows at a
  // time (store_c_staged): the 8x16 thread tiles', which hold one block per
  // SM (ptxas: 213-223 registers), so that no other block's multiply-adds
  // hide their 4-byte stores. On an H200, against those stores, the 256x128
  // tile split to fill the GPU ran 1.0-1.43x faster at shapes that are not
  // aligned (1023^3 1.29-1.37x, 5791x5791x191 1.24-1.32x); the 128x128,
  // 128x64 and 64x64 tiles, two to four blocks an SM, ran 0.86-1.2x, most
  // slower: their 4-byte stores overlap another block's multiply-adds
  // (bench/harness/sgemm_staged.cu, bench/results/
  // h200-2026-11-28-session35.md).
  static constexpr bool kStagedStore = kAsync && TM * TN >= 128;
  // With kShiftedStore the edge kernels store a C whose rows take no float4
  // stores (N not a multiple of 4, C or ldc unaligned, a split's workspace
  // of such rows) by store_c_shifted: each row's float4 groups shifted onto
  // its 16-byte boundaries by warp shuffles. A moved edge tile's part of an
  // aligned C, a few columns, keeps store_c's 4-byte stores (through the
  // shuffles it ran no faster). On an H200, against the 4-byte stores, the
  // instances of threads 8 columns wide ran 0.98-1.11x as fast (geometric
  // mean by instance) over the tune's 29 larger shapes of odd N (the splits
  // most: 1.05-1.11x), except tn's 128x128x16 kernel by columns in
  // rows_zigzag order, which the packing instances run too: 0.93-0.97x, and
  // 2-8% slower also where the path is not taken, so its code costs that
  // kernel's k loop: that kernel (kShiftedLoses) keeps store_c. The others
  // ran 2-5% slower at 156^3 too (a 10 us problem, aligned). Threads of 4
  // columns (64x64 t8x4, four blocks an SM) ran 0.95-1.05x
  // (bench/harness/sgemm_shifted.cu, bench/results/
  // h200-2026-11-28-session37.md).
  static constexpr bool kShiftedLoses =
      !kAKContig && !kBKContig && SPLIT_K_ == 1 && LANE_MAP_ == 1 && FMA_ORDER_ == 1;
  static constexpr bool kShiftedStore = TN == 8 && !kStagedStore && !kShiftedLoses;
  // kCopyPlace is where in a tile mainloop_async issues the copies of the
  // tile kStages - 1 ahead (CopyPlace). Issued first, the copies sit in the
  // memory pipe ahead of the tile's first fragment reads, which wait for
  // them (per-instruction sampling, bench/results/
  // h200-2026-11-28-session36.md and h200-2026-11-29-session42.md). Where
  // else they go is measured per tile, on an H200, against the same kernel
  // with the copies first, in one run:
  // - kCopiesLate: the 128x128x16 tile of 8x8 threads by columns in
  //   rows_zigzag order (every tiling of it: splits, tails, stream-K,
  //   packing). x cuBLAS at 2048^3: tn 0.975 -> 0.988, nn 0.983 -> 0.997,
  //   nt 0.990 -> 1.005, tt 1.025 -> 1.040; 0.7-1.6% at 4096^3 and
  //   2048x2048x8192. The same tile in quads_zigzag or rows order ran tn
  //   2-9% slower (the other layouts 0.4-2% faster), 4 splits of 128x128x8
  //   tn 4-6% faster but the others 4-5% slower (bench/harness/
  //   sgemm_late_copies.cu, bench/results/h200-2026-11-29-session42.md).
  // - kCopiesLate: that tile in quads_zigzag order split (k4, k32f), but
  //   not in tn, where it ran up to 3.5% slower late (1024^3 x cuBLAS:
  //   1.001 -> 0.974). Elsewhere, at the shapes the tables run it at: nn
  //   2.7-7.5% faster (1024^3 1.085 -> 1.147), tt 2.9-7.3% (1.058 ->
  //   1.116), nt -0.3 to +1.6% (1.136 -> 1.147) (bench/harness/
  //   sgemm_copy_place.cu -DSET=2, bench/results/
  //   h200-2026-11-29-session43.md).
  // - The 8x16 thread tiles (128x256x16, 256x128x16): split (k4, k32f),
  //   kCopiesLate, 0.1-6.3% faster in every layout at the shapes the tables
  //   run them at (768^3 to 8192 x 128 x 8192) and 2048^3; 1024^3 x cuBLAS:
  //   nn 1.100 -> 1.145 (128x256 k4), nt 1.065 -> 1.087 (256x128 k32f), tn
  //   0.999 -> 1.014, tt 1.090 -> 1.096. Whole, kCopiesBeforeLastStep,
  //   0-6.7% faster there (late was slower in some: 2048^3 nn 0.957 ->
  //   0.936) (bench/harness/sgemm_copy_place.cu,
  //   bench/results/h200-2026-11-29-session43.md).
  static constexpr bool kTile8x8ByColumns =
      kAsync && BM == 128 && BN == 128 && BK == 16 && TM == 8 && TN == 8 && LANE_MAP_ == 1;
  static constexpr bool kTile8x16 = kAsync && BK == 16 && TM == 8 && TN == 16 && LANE_MAP_ == 0 && FMA_ORDER_ == 0;
  static constexpr bool kSplitNotTn = SPLIT_K_ > 1 && (kAKContig || kBKContig);
  // - kCopiesSpread: the 64x64x8 tile of 8x4 threads in 4 stages
  //   synchronised by the barrier (split to fill the GPU in every layout,
  //   whole in tn), a share of the copies after each k step's fragment
  //   reads, as cuBLAS's xmma kernels interleave theirs with the FFMAs
  //   (with the copies first, Nsight Compute's per-instruction samples of
  //   the small tiles show their warps waiting on the burst of copies and
  //   their 64-bit address chains). Against copies first, in one run of
  //   each: 1.035x faster by geometric mean over 13 mid-size, narrow and
  //   square shapes in every layout (0.97-1.15x), and out of sample, at
  //   14 random shapes of seed 58 in every layout, split 1.034x (45 of 56
  //   faster; 0.97-1.18x), whole 1.043x (44 of 56; 0.97-1.11x). Spread,
  //   the other small tiles ran slower: the 128x32x16, 32x128x16,
  //   64x64x16 and 64x128x16 tiles in 3 stages (0.92-0.98x by geometric
  //   mean; in 4 stages too), the 4x8 threads' 64x64x8 tile split (0.997x),
  //   the 64x64x8 tile with the mbarrier ring (0.993x) (bench/harness/
  //   sgemm_spread.cu, bench/results/h200-2026-12-01-session58.md).
  static constexpr bool kTile64x64x8Barrier =
      kAsync && BM == 64 && BN == 64 && BK == 8 && TM == 8 && TN == 4 && !kRing;
  // With kCopiesSpread the copies go a share in each of the first
  // kSpreadSteps k steps of a tile (a harness may shadow it).
  static constexpr int kSpreadSteps = BK_;
  static constexpr CopyPlace kCopyPlace =
      kTile8x8ByColumns && FMA_ORDER_ == 1                  ? kCopiesLate
      : kTile8x8ByColumns && FMA_ORDER_ == 2 && kSplitNotTn ? kCopiesLate
      : kTile8x16 && SPLIT_K_ > 1                           ? kCopiesLate
      : kTile8x16                                           ? kCopiesBeforeLastStep
      : kTile64x64x8Barrier                                 ? kCopiesSpread
                                                              : kCopiesFirst;
  // With kMovedKernel a problem whose edge tiles all move inside C and all
  // take kVectors' copies (M and N multiples of 4 but not of the tile, e.g.
  // 6888 x 6888 x 156) runs gemm_kernel<K, kEdgesMoved>, the fast path with
  // the moves, instead of the kernel with the element path built in
  // (edges_kind). Built in, that path changes how ptxas allocates the fast
  // path's registers: in tn's 128x128x16 tile by columns in quads_zigzag
  // order it doubled the k loop's FFMAs that read two registers of one
  // bank parity (606 against the fast kernel's 311; rows_zigzag 569
  // against 153; bench/harness/sass_loops.py) and left its fragment reads
  // 12 instructions ahead of their use instead of 40. On an H200, against
  // the kernel with the element path in one run, at 6888x6888x156,
  // 312x312x11584, 724x724x8192, 1000x3000x500, 2000^3 and 156x6888x4872
  // (bench/harness/sgemm_moved.cu, bench/results/
  // h200-2026-11-30-session50.md): that tile in tn ran 1.08-1.24x faster in
  // quads_zigzag order and 1.00-1.03x in rows order. Not kept elsewhere:
  // that tile in rows_zigzag order ran tn 0.98-1.12x, and in nn, nt and tt
  // 0.97-1.01x in every order; the 64x64x8 tile of 8x4 threads nn
  // 0.87-1.05x, tn 0.93-1.07x; 128x64x8 0.97-1.04x; the 8x16 thread tiles
  // 0.98-1.01x.
  static constexpr bool kMovedKernel = kTile8x8ByColumns && !kAKContig && !kBKContig && FMA_ORDER_ != 1;
  // The ring: kStages slots of A's and B's tiles, then with kRing a full
  // and an empty mbarrier per slot.
  static constexpr int kRingBarrierBytes = kRing ? 2 * kStages * 8 : 0;
  static constexpr int kRingBytes = kAsync ? kStages * (kStageA + kStageB) * 4 + kRingBarrierBytes : 0;
  static constexpr int kTileBytes = kClusterReduce ? BM * kTileRow * 4 : 0;
  // Dynamic shared memory of the cp.async pipeline (0 for the register one).
  static constexpr int kSmemBytes = kRingBytes > kTileBytes ? kRingBytes : kTileBytes;
  // With TAIL_ (sm_90 and later; kernel objects for older archs launch
  // every tile alike) launch runs the tiles of the last, partly filled wave
  // as a second grid of TailOf<Config>: each tile's k range split among up
  // to kMaxClusterSplits blocks of a cluster, summed through distributed
  // shared memory (tail_plan decides, and whether it pays).
  static constexpr bool kTail = TAIL_ == kTailCluster && kAsync && SPLIT_K_ == 1 && kArch >= 90;
  // With TAIL_ kTailStream launch runs the tiles of a one-wave problem, or
  // of the last, partly filled wave, by stream-K (launch_stream): every
  // resident block an equal share of their k tiles.
  static constexpr bool kStream = TAIL_ == kTailStream && kAsync && SPLIT_K_ == 1;
  // The stream kernel's blocks per multiprocessor for __launch_bounds__:
  // as many as the thread tile's estimated registers allow (its two
  // segments' state left ptxas at 144-173 registers where gemm_kernel's
  // 128x128 tile takes 121-123: one block an SM). The estimate,
  // kStreamRegs, is gen/spec's Tiling.Regs for the cp.async pipeline
  // (accumulators, double-buffered fragments and 24), rounded up to
  // ptxas's units of 8.
  static constexpr int kStreamRegs = (TM * TN + 2 * (TM + TN) + 24 + 7) / 8 * 8;
  static constexpr int kStreamMinBlocks =
      MIN_BLOCKS_ > 65536 / (kThreads * kStreamRegs) ? MIN_BLOCKS_ : 65536 / (kThreads * kStreamRegs);
  // kTailGrid: this grid covers the last gridDim.x tiles of the raster
  // (TailOf's), not the first.
  static constexpr bool kTailGrid = false;

  static_assert(BM % WM == 0 && BN % WN == 0, "warp tiles divide the block tile");
  static_assert(WM % TM == 0 && WN % TN == 0, "thread tiles divide the warp tile");
  static_assert((WM / TM) * (WN / TN) == 32, "a warp is 32 threads");
  static_assert(TM % 4 == 0 && TN % 4 == 0 && BK % 4 == 0, "fragments and k tiles are float4s");
  static_assert(STAGES_ >= 2 && STAGES_ <= 5, "2 stages through registers, 3 to 5 through cp.async");
  static_assert(SPLIT_K_ >= 1, "split_k is at least 1");
  static_assert(LANE_MAP_ >= 0 && LANE_MAP_ <= 2 && (LANE_MAP_ != 2 || (32 / kLanesN) % 2 == 0),
                "lane map 0, 1 or 2 (2: an even number of thread rows)");
  static_assert(FMA_ORDER_ >= 0 && FMA_ORDER_ <= 2, "FFMA order 0, 1 or 2");
  static_assert(!CLUSTER_ || (kAsync && SPLIT_K_ >= 2 && SPLIT_K_ <= kMaxClusterSplits),
                "a cluster split needs the cp.async pipeline and 2 to 8 splits");
  static_assert(!(CLUSTER_ && FILL_), "a split that fills the GPU sums through the workspace");
  static_assert(!RING_ || STAGES_ >= 3, "the mbarrier ring is the cp.async pipeline's");
  static_assert(TAIL_ >= kTailWhole && TAIL_ <= kTailStream, "tail whole, cluster or stream");
  static_assert(TAIL_ == kTailWhole || (STAGES_ >= 3 && SPLIT_K_ == 1),
                "a tail split needs the cp.async pipeline and no split");
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 800
  static_assert(!kAsync, "cp.async needs sm_80");
#endif
};

// TailOf is K's tail grid (K::kTail): the same tile, its k range split among
// the blocks of a cluster (grid y, up to kMaxClusterSplits) that sum in
// distributed shared memory, over the last gridDim.x tiles of the raster.
template <class K>
struct TailOf : K {
  static constexpr int kSplitK = kMaxClusterSplits;
  static constexpr bool kFill = false;
  static constexpr bool kClusterReduce = true;
  static constexpr bool kTail = false;
  static constexpr bool kTailGrid = true;
  static constexpr int kTileBytes = K::BM * K::kTileRow * 4;
  static constexpr int kSmemBytes = K::kRingBytes > kTileBytes ? K::kRingBytes : kTileBytes;
};

// lane_coords places lane in the warp's thread grid: row lm (of 32 / kLanesN,
// along M) and column ln (of kLanesN, along N). The map decides which
// fragments the 8 lanes of each quarter-warp read together from shared
// memory. On an H100 (bench/results/h100-2026-11-24-session8.md), lanes by
// column ran the 128x128x16 tile of 8x8 threads 2-4% faster than by row in
// nn, nt and tt (tn level), and cut no shared-memory wavefronts: its gain is
// in issue (dispatch stalls 10.4% -> 7.4%); the 8x16 thread tile stays by
// row.
template <class K>
__host__ __device__ inline void lane_coords(int lane, int& lm, int& ln) {
  constexpr int LN = K::kLanesN, LM = 32 / LN;
  if constexpr (K::kLaneMap == 1) {
    lm = lane % LM;
    ln = lane / LM;
  } else if constexpr (K::kLaneMap == 2) {
    lm = (lane / (2 * LN)) * 2 + lane % 2;
    ln = (lane / 2) % LN;
  } else {
    lm = lane / LN;
    ln = lane % LN;
  }
}

// lane_of is lane_coords's inverse: the lane at (lm, ln) of the warp's thread
// grid.
template <class K>
__host__ __device__ constexpr int lane_of(int lm, int ln) {
  constexpr int LN = K::kLanesN, LM = 32 / LN;
  if constexpr (K::kLaneMap == 1) {
    return ln * LM + lm;
  } else if constexpr (K::kLaneMap == 2) {
    return (lm / 2) * (2 * LN) + ln * 2 + lm % 2;
  } else {
    return lm * LN + ln;
  }
}

// thread_offsets_of are thread's first row of A (a_off) and column of B
// (b_off) in the block tile: its warp's place, then its lane's
// (lane_coords). kernels/tests/sgemm_host_test.cu places its emulated
// warps' threads by it.
template <class K>
__host__ __device__ __forceinline__ void thread_offsets_of(unsigned thread, int& a_off, int& b_off) {
  const int warp = static_cast<int>(thread / 32), lane = static_cast<int>(thread % 32);
  int lm = 0, ln = 0;
  lane_coords<K>(lane, lm, ln);
  a_off = (warp / K::kWarpsN) * K::WM + lm * 4;
  b_off = (warp % K::kWarpsN) * K::WN + ln * 4;
}

// thread_offsets is thread_offsets_of the calling thread.
template <class K>
__device__ __forceinline__ void thread_offsets(int& a_off, int& b_off) {
  thread_offsets_of<K>(threadIdx.x, a_off, b_off);
}

// Nothing is a step that does nothing (multiply_tile's copies).
struct Nothing {
  __device__ void operator()(int = -1) const {}
};

// Fragments of one k step: a thread's TM values of A and TN values of B,
// multiplied into acc in the order K::kFmaOrder names. Every order computes
// the same sums in the same k order; the source order is what ptxas
// schedules and allocates registers from, and on an H100 it moves a tile by
// up to 9% (bench/harness/sgemm_variants.cu -DSET=4,
// bench/results/h100-2026-11-24-session13.md). The zigzags end one row
// where the next begins, so the B value at the turn is reused.
// copies runs once, at the last k step where K::kCopyPlace says (before or
// after its fragment reads; never with kCopiesFirst: mainloop_async issues
// those copies itself).
template <class K, class Copies = Nothing>
__device__ __forceinline__ void multiply_tile(const float* sA, const float* sB, int a_off, int b_off,
                                              float (&acc)[K::TM][K::TN], Copies&& copies = Copies()) {
#pragma unroll
  for (int kk = 0; kk < K::BK; ++kk) {
    if (K::kCopyPlace == kCopiesBeforeLastStep && kk == K::BK - 1) copies();
    float a[K::TM], b[K::TN];
#pragma unroll
    for (int g = 0; g < K::kGroupsM; ++g) {
      const float4 t = *reinterpret_cast<const float4*>(&sA[kk * K::LoaderA::kRow + a_off + g * K::kGroupStrideM]);
      a[g * 4 + 0] = t.x, a[g * 4 + 1] = t.y, a[g * 4 + 2] = t.z, a[g * 4 + 3] = t.w;
    }
#pragma unroll
    for (int g = 0; g < K::kGroupsN; ++g) {
      const float4 t = *reinterpret_cast<const float4*>(&sB[kk * K::LoaderB::kRow + b_off + g * K::kGroupStrideN]);
      b[g * 4 + 0] = t.x, b[g * 4 + 1] = t.y, b[g * 4 + 2] = t.z, b[g * 4 + 3] = t.w;
    }
    if (K::kCopyPlace == kCopiesLate && kk == K::BK - 1) copies();
    if (K::kCopyPlace == kCopiesSpread && kk < K::kSpreadSteps) copies(kk);
    // Quadrants of QM x QN in turn (order 2: 4x4; else the whole tile),
    // each row by row, odd rows reversed unless the order is 0.
    constexpr int QM = K::kFmaOrder == 2 ? 4 : K::TM, QN = K::kFmaOrder == 2 ? 4 : K::TN;
    constexpr bool kZigzag = K::kFmaOrder != 0;
#pragma unroll
    for (int qi = 0; qi < K::TM; qi += QM)
#pragma unroll
      for (int qj = 0; qj < K::TN; qj += QN)
#pragma unroll
        for (int i = qi; i < qi + QM; ++i)
#pragma unroll
          for (int jj = 0; jj < QN; ++jj) {
            const int j = qj + (kZigzag && i % 2 ? QN - 1 - jj : jj);
            acc[i][j] = fmaf(a[i], b[j], acc[i][j]);
          }
  }
}

// host_warp is a warp as store_c_shifted's host compilation sees it: the
// calling lane, the value lane src passes, and each store of C (width 1 or
// 4 floats). Only a host test defines it.
namespace host_warp {
int lane();
float shfl(float v, int src);
void stored(const float* p, int width);
}  // namespace host_warp

// store_c_shifted is store_c's path for a C whose rows, as the tile lies on
// them, take no float4 stores (vec false): where a row's 16-byte boundaries
// fall inside the thread's float4 groups, each lane takes the next group's
// first values from the lane that holds them (warp shuffles; a warp's groups
// of a row are WN consecutive columns, kLanesN lanes times kGroupsN groups)
// and stores one aligned float4 from the boundary on. Only the first
// columns of a warp's row before a boundary and the last ones after one take
// 4-byte stores. store_c's 4-byte stores write 2 elements of each of 16
// sectors an instruction, four instructions a group. It stores the rows and
// columns from 0 to below M and N, as store_c<K, true> without vec (a moved
// edge tile's own part, gemm_kernel). Every lane of the warp must call it
// (the shuffles). Compiled for the host, it takes the lane and the shuffle
// from host_warp, which kernels/tests/sgemm_host_test.cu defines to emulate
// a warp.
template <class K>
__host__ __device__ __forceinline__ void store_c_shifted(const float (&acc)[K::TM][K::TN], int m_base, int n_base,
                                                         int M, int N, float alpha, float beta, float* C,
                                                         int64_t ldc) {
  constexpr int LN = K::kLanesN, kChunks = LN * K::kGroupsN;  // float4 groups in a warp's row
  int lm = 0, ln = 0;
#ifdef __CUDA_ARCH__
  lane_coords<K>(threadIdx.x % 32, lm, ln);
#else
  lane_coords<K>(host_warp::lane(), lm, ln);
#endif
  const int next = lane_of<K>(lm, (ln + 1) % LN);  // the lane holding the group after each of this lane's
  const int n_row = n_base - ln * 4;               // the warp's first column
  auto in_m = [&](int m) { return static_cast<unsigned>(m) < static_cast<unsigned>(M); };
  auto in_n = [&](int n) { return static_cast<unsigned>(n) < static_cast<unsigned>(N); };
  auto put = [&](float* c, int n, float v) {
#ifndef __CUDA_ARCH__
    if (in_n(n)) host_warp::stored(c + n, 1);
#endif
    if (in_n(n)) store_blended(c + n, v, beta);
  };
  auto put4 = [&](float* c, int n, const float (&v)[4]) {
#ifndef __CUDA_ARCH__
    if (in_n(n) && in_n(n + 3)) host_warp::stored(c + n, 4);
#endif
    if (in_n(n) && in_n(n + 3)) {
      store_blended4(c + n, make_float4(v[0], v[1], v[2], v[3]), beta);
    } else {
#pragma unroll
      for (int j = 0; j < 4; ++j) put(c, n + j, v[j]);
    }
  };
#pragma unroll
  for (int i = 0; i < K::TM; ++i) {
    const int m = m_base + (i / 4) * K::kGroupStrideM + (i % 4);
    float* const c = C + static_cast<int64_t>(m) * ldc;
    // The row's columns before its first 16-byte boundary, from the warp's
    // first column on (C is 4-byte aligned).
    const int lead = static_cast<int>((0u - static_cast<unsigned>(reinterpret_cast<uintptr_t>(c + n_row) >> 2)) & 3u);
#pragma unroll
    for (int g = 0; g < K::kGroupsN; ++g) {
      float v[4], after[3];
#pragma unroll
      for (int j = 0; j < 4; ++j) v[j] = alpha * acc[i][g * 4 + j];
      // Each lane sends what the lane before it on the row needs: its
      // group g, or where it holds the row's first group of g's successor
      // (ln 0, whose predecessor is the last lane of group g), g + 1.
#pragma unroll
      for (int j = 0; j < 3; ++j) {
        const float send = ln == 0 && g + 1 < K::kGroupsN ? alpha * acc[i][(g + 1) * 4 + j] : v[j];
#ifdef __CUDA_ARCH__
        after[j] = __shfl_sync(0xffffffffu, send, next);
#else
        after[j] = host_warp::shfl(send, next);
#endif
      }
      if (!in_m(m)) continue;
      const int chunk = g * LN + ln, n = n_row + 4 * chunk;
      if (lead == 0) {
        put4(c, n, v);
        continue;
      }
      if (chunk == 0) {
#pragma unroll
        for (int j = 0; j < 3; ++j)
          if (j < lead) put(c, n + j, v[j]);
      }
      if (chunk + 1 < kChunks) {
        // Columns n + lead to n + lead + 3: this group's from lead on,
        // then the next one's first.
        const float u[7] = {v[0], v[1], v[2], v[3], after[0], after[1], after[2]};
        float w[4];
#pragma unroll
        for (int j = 0; j < 4; ++j) w[j] = lead == 1 ? u[j + 1] : lead == 2 ? u[j + 2] : u[j + 3];
        put4(c, n + lead, w);
      } else {
#pragma unroll
        for (int j = 1; j < 4; ++j)
          if (j >= lead) put(c, n + j, v[j]);
      }
    }
  }
}

// store_c writes alpha * acc + beta * C; with beta == 0 it never reads C, so
// C may hold anything (NaN included) on entry. Unless vec, only rows below M
// and columns below N are stored, and with LOWER only rows and columns from
// 0 on (a moved edge tile's, gemm_kernel).
template <class K, bool LOWER = false>
__device__ __forceinline__ void store_c(const float (&acc)[K::TM][K::TN], int m_base, int n_base, int M, int N,
                                        float alpha, float beta, float* C, int64_t ldc, bool vec) {
#pragma unroll
  for (int i = 0; i < K::TM; ++i) {
    const int m = m_base + (i / 4) * K::kGroupStrideM + (i % 4);
#pragma unroll
    for (int g = 0; g < K::kGroupsN; ++g) {
      const int n = n_base + g * K::kGroupStrideN;
      const float* r = &acc[i][g * 4];
      if (vec) {
        store_blended4(C + static_cast<int64_t>(m) * ldc + n,
                       make_float4(alpha * r[0], alpha * r[1], alpha * r[2], alpha * r[3]), beta);
      } else if (LOWER ? static_cast<unsigned>(m) < static_cast<unsigned>(M) : m < M) {
        float* c = C + static_cast<int64_t>(m) * ldc;
#pragma unroll
        for (int j = 0; j < 4; ++j) {
          if (LOWER ? static_cast<unsigned>(n + j) < static_cast<unsigned>(N) : n + j < N)
            store_blended(c + n + j, alpha * r[j], beta);
        }
      }
    }
  }
}

// store_c_staged is store_c for a tile of the cp.async pipeline whose C rows
// take no float4 stores (C not 16-byte aligned, or a moved edge tile's
// part): the tile goes through the drained ring's shared memory, as many rows
// at a time as the ring holds, and each warp writes whole rows of C, 32
// consecutive elements an instruction. store_c's 4-byte stores write 2
// elements of each of 16 sectors an instruction (8x8 and 8x16 threads
// alike), four times as many transactions. The tile computed is the one at
// D, rows of ldd; the block stores its rows [r_lo, r_hi) and columns
// [c_lo, c_hi) of it. Every thread of the block must call it (it
// synchronises the block).
template <class K>
__device__ __forceinline__ void store_c_staged(const float (&acc)[K::TM][K::TN], int a_off, int b_off, int r_lo,
                                               int r_hi, int c_lo, int c_hi, float alpha, float beta, float* D,
                                               int64_t ldd, float* smem) {
  constexpr int kRingRows = K::kStages * (K::kStageA + K::kStageB) / K::kTileRow;
  constexpr int kRows = kRingRows < K::BM ? kRingRows : K::BM;
  static_assert(kRows >= 1, "the ring holds a row of the tile");
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
#pragma unroll
  for (int r0 = 0; r0 < K::BM; r0 += kRows) {
#pragma unroll
    for (int i = 0; i < K::TM; ++i) {
      const int m = a_off + (i / 4) * K::kGroupStrideM + (i % 4) - r0;
      if (static_cast<unsigned>(m) < static_cast<unsigned>(kRows)) {
#pragma unroll
        for (int g = 0; g < K::kGroupsN; ++g) {
          const float* r = &acc[i][g * 4];
          *reinterpret_cast<float4*>(&smem[m * K::kTileRow + b_off + g * K::kGroupStrideN]) =
              make_float4(r[0], r[1], r[2], r[3]);
        }
      }
    }
    __syncthreads();
    const int last = min(r0 + kRows, r_hi);
    for (int m = max(r0, r_lo) + warp; m < last; m += K::kThreads / 32) {
      const float* s = smem + (m - r0) * K::kTileRow;
      float* c = D + static_cast<int64_t>(m) * ldd;
      for (int n = c_lo + lane; n < c_hi; n += 32) store_blended(c + n, alpha * s[n], beta);
    }
    if (r0 + kRows < K::BM) __syncthreads();  // the next rows reuse the shared memory
  }
}

// Mainloop multiplies the k tiles [kt_begin, kt_end) into acc. With VEC every
// tile lies inside A and B and is loaded 16 bytes at a time; without, loads
// are checked element by element. Keeping the two apart keeps the checked
// path's registers out of the fast loop.
template <class K, bool VEC>
__device__ __forceinline__ void mainloop(const Operand<K::kAKContig>& op_a, const Operand<K::kBKContig>& op_b,
                                         int m0, int n0, int M, int N, int Kd, int kt_begin, int kt_end,
                                         int a_off, int b_off, float* smem_a, float* smem_b,
                                         float (&acc)[K::TM][K::TN]) {
  const int tid = threadIdx.x;
  typename K::LoaderA load_a;
  typename K::LoaderB load_b;
  auto load = [&](int kt) {
    const int k0 = kt * K::BK;
    if (VEC) {
      load_a.load_vec(op_a, m0, k0, tid);
      load_b.load_vec(op_b, n0, k0, tid);
    } else {
      load_a.load_checked(op_a, m0, k0, M, Kd, tid);
      load_b.load_checked(op_b, n0, k0, N, Kd, tid);
    }
  };
  if (kt_begin >= kt_end) return;
  load(kt_begin);
  load_a.store(smem_a, tid);
  load_b.store(smem_b, tid);
  __syncthreads();
  for (int kt = kt_begin; kt < kt_end; ++kt) {
    const int cur = (kt - kt_begin) & 1;
    const bool more = kt + 1 < kt_end;
    if (more) load(kt + 1);
    multiply_tile<K>(smem_a + cur * K::kStageA, smem_b + cur * K::kStageB, a_off, b_off, acc);
    if (more) {
      load_a.store(smem_a + (cur ^ 1) * K::kStageA, tid);
      load_b.store(smem_b + (cur ^ 1) * K::kStageB, tid);
    }
    // One barrier per k tile: the buffer written above is read only after
    // it, and the buffer read above is next written after the following one.
    __syncthreads();
  }
}

// How mainloop_async copies tiles: kVectors, tiles wholly inside A and B
// whose rows allow it (fast_rows): 16 bytes at a time from an
// m/n-contiguous operand, 4 bytes at a time a few whole runs of k per warp
// from a k-contiguous one; kElements, tiles inside the matrices' k range at
// any alignment, 4 bytes at a time (rows and columns past M or N read ones
// inside); kRuns, whole tiles at any alignment: a k-contiguous operand's as
// kVectors copies them, an m/n-contiguous one's as kElements; kShortRuns,
// tiles inside the matrices' k range at any alignment that may reach past
// M or N: a k-contiguous operand's as kVectors copies them, the rows past
// the matrix left out (AsyncLoader::init_live), an m/n-contiguous one's
// as kElements, those past the matrix left out too (copy_elem's SKIP);
// kChecked, anything, every element's bounds checked (the
// last, partial k tile).
enum CopyPath { kChecked, kElements, kRuns, kVectors, kShortRuns };

// fast_rows reports whether an operand's rows allow kVectors' copies:
// 16-byte ones need 16-byte aligned rows, but the cp.async pipeline copies
// a k-contiguous operand 4 bytes at a time, which any rows allow. Without
// K::kVecGlobal no rows do.
template <class K, bool K_CONTIG>
__host__ __device__ inline bool fast_rows(const float* p, int64_t ld) {
  return K::kVecGlobal && ((K::kAsync && K_CONTIG) || vector_ok(p, ld));
}

// mainloop_async is mainloop through a cp.async ring of K::kStages buffers
// in smem (A's buffers, then B's). The k tiles [kt_begin, kt_end) are
// multiplied in order; the ring is drained on return so that another call may
// reuse it.
template <class K, CopyPath PATH>
__device__ __forceinline__ void mainloop_async(const Operand<K::kAKContig>& op_a, const Operand<K::kBKContig>& op_b,
                                               int m0, int n0, int M, int N, int Kd, int kt_begin, int kt_end,
                                               int a_off, int b_off, float* smem, float (&acc)[K::TM][K::TN]) {
  constexpr int S = K::kStages;
  using LA = AsyncLoader<K::BM, K::BK, K::kThreads, K::kAKContig, K::kPadA>;
  using LB = AsyncLoader<K::BN, K::BK, K::kThreads, K::kBKContig, K::kPadB>;
  const int tid = threadIdx.x;
  const int n = kt_end - kt_begin;
  if (n <= 0) return;
  float* const smem_a = smem;
  float* const smem_b = smem + S * K::kStageA;
  LA la;
  LB lb;
  // Whether each operand is copied as kVectors copies it (else as
  // kElements does).
  constexpr bool kRunsA = PATH == kVectors || (PATH == kRuns && K::kAKContig);
  constexpr bool kRunsB = PATH == kVectors || (PATH == kRuns && K::kBKContig);
  // Whether each operand is copied as kVectors copies it but past the
  // matrix's rows left out (kShortRuns: AsyncLoader::init_live).
  constexpr bool kLiveA = PATH == kShortRuns && K::kAKContig;
  constexpr bool kLiveB = PATH == kShortRuns && K::kBKContig;
  if (PATH != kChecked) {
    if constexpr (kRunsA) {
      la.init(op_a, m0, kt_begin * K::BK, tid);
    } else if constexpr (kLiveA) {
      la.init_live(op_a, m0, kt_begin * K::BK, M, tid);
    } else {
      la.init_elem(op_a, m0, kt_begin * K::BK, M, tid);
    }
    if constexpr (kRunsB) {
      lb.init(op_b, n0, kt_begin * K::BK, tid);
    } else if constexpr (kLiveB) {
      lb.init_live(op_b, n0, kt_begin * K::BK, N, tid);
    } else {
      lb.init_elem(op_b, n0, kt_begin * K::BK, N, tid);
    }
  }
  const uint32_t sa = smem_addr(smem_a), sb = smem_addr(smem_b);
  // issue_step issues k step step's share of the fast paths' copies of a
  // tile into ring slot slot: with kCopiesSpread a share in each of the
  // first kSpreadSteps steps, else all of them at step 0. A refill's first
  // share waits for its slot, its last one arrives or commits; step -1
  // (every share at once) is both.
  constexpr int kSteps = K::kCopyPlace == kCopiesSpread ? K::kSpreadSteps : 1;
  const auto first_share = [](int step) { return step <= 0; };
  const auto last_share = [](int step) { return step < 0 || step == kSteps - 1; };
  auto issue_step = [&](int slot, int step) {
    if constexpr (kRunsA || kLiveA) {
      la.template copy_vec<kSteps, kLiveA, kLiveA && K::kShortLoop>(sa + slot * K::kStageA * 4, step);
    } else {
      la.template copy_elem<kSteps, PATH == kShortRuns>(sa + slot * K::kStageA * 4, step);
    }
    if constexpr (kRunsB || kLiveB) {
      lb.template copy_vec<kSteps, kLiveB, kLiveB && K::kShortLoop>(sb + slot * K::kStageB * 4, step);
    } else {
      lb.template copy_elem<kSteps, PATH == kShortRuns>(sb + slot * K::kStageB * 4, step);
    }
  };
  // issue copies tile t (counted from kt_begin; the fast path's tiles in
  // order, one call each) into ring slot slot: k step step's share of its
  // copies (multiply_tile's with kCopiesSpread; the checked path's all at
  // step 0), or all of them (step -1).
  auto issue = [&](int t, int slot, int step = -1) {
    if (PATH != kChecked) {
      if (step >= 0) {
        issue_step(slot, step);
      } else {
#pragma unroll
        for (int k = 0; k < kSteps; ++k) issue_step(slot, k);
      }
    } else if (first_share(step)) {
      const int k0 = (kt_begin + t) * K::BK;
      LA::copy_checked(op_a, m0, k0, M, Kd, smem_a + slot * K::kStageA, tid);
      LB::copy_checked(op_b, n0, k0, N, Kd, smem_b + slot * K::kStageB, tid);
    }
  };
  if constexpr (K::kRing && PATH != kChecked) {
    // The ring through mbarriers: full[s] completes once every thread's
    // copies into slot s have landed (each thread's copies count as one
    // arrival when they do), empty[s] once every thread has read it. A
    // thread refills the slot of tile t - 1 after its FFMAs of tile t (or
    // within them, at the last k step: K::kCopyPlace), so
    // the warps of a block drift up to a tile apart where the barrier kept
    // them in step (S - 2 tiles in flight during a tile's FFMAs, the
    // barrier's S - 1). On an H100 the 128x128x16 tile by columns ran 1.12x
    // faster with it in nn, 1.01-1.11x in tt (by FFMA order) and 1.01x in
    // nt at 2048-8192, where a k-contiguous operand is copied 4 bytes at a
    // time, and 1.10x in nn at odd sizes, where every copy is; level in tn
    // (bench/harness/sgemm_variants.cu -DSET=6,
    // bench/results/h100-2026-11-27-session23.md). The checked path, whose
    // copies are plain stores, keeps the barrier.
    const uint32_t full = smem_addr(smem + S * (K::kStageA + K::kStageB)), empty = full + 8 * S;
    if (tid == 0) {
#pragma unroll
      for (int s = 0; s < 2 * S; ++s) mbar_init(full + 8 * s, K::kThreads);
    }
    __syncthreads();
#pragma unroll
    for (int s = 0; s < S - 1; ++s) {
      if (s < n) {
        issue(s, s);
        mbar_arrive_on_copies(full + 8 * s);
      }
    }
    int slot = 0;        // tile t's
    uint32_t phase = 0;  // of slot's barriers at tile t
#pragma unroll 1
    for (int t = 0; t < n; ++t) {
      mbar_wait(full + 8 * slot, phase);
      // Tile t + S - 1 into tile t - 1's slot, once every thread is done
      // with that (tile 0 has no predecessor: slot S - 1 is still empty).
      auto refill = [&](int step = -1) {
        if (t + S - 1 < n) {
          const int to = slot == 0 ? S - 1 : slot - 1;
          if (t > 0 && first_share(step)) mbar_wait(empty + 8 * to, slot == 0 ? phase ^ 1 : phase);
          issue(t + S - 1, to, step);
          if (last_share(step)) mbar_arrive_on_copies(full + 8 * to);
        }
      };
      // Unless K::kCopyPlace puts it first, multiply_tile runs the refill
      // inside the tile's multiply-adds.
      multiply_tile<K>(smem_a + slot * K::kStageA, smem_b + slot * K::kStageB, a_off, b_off, acc, refill);
      mbar_arrive(empty + 8 * slot);
      if constexpr (K::kCopyPlace == kCopiesFirst) refill();
      if (++slot == S) slot = 0, phase ^= 1;
    }
    // Every copy has landed (each thread waited for every tile); once every
    // thread is past its last wait the barriers may go, and the ring's
    // shared memory with them.
    __syncthreads();
    if (tid == 0) {
#pragma unroll
      for (int s = 0; s < 2 * S; ++s) mbar_inval(full + 8 * s);
    }
    __syncthreads();
  } else {
#pragma unroll
    for (int s = 0; s < S - 1; ++s) {
      if (s < n) issue(s, s);
      cp_async_commit();  // empty groups keep the wait counts uniform
    }
    int read_slot = 0, write_slot = S - 1;
    for (int t = 0; t < n; ++t) {
      // Tile t has landed (at most S - 2 younger groups pending), and every
      // thread is done with the slot read in the previous iteration, which is
      // the one refilled next.
      cp_async_wait<S - 2>();
      __syncthreads();
      auto refill = [&](int step = -1) {
        if (t + S - 1 < n) issue(t + S - 1, write_slot, step);
        if (last_share(step)) cp_async_commit();
      };
      if constexpr (K::kCopyPlace == kCopiesFirst) refill();
      multiply_tile<K>(smem_a + read_slot * K::kStageA, smem_b + read_slot * K::kStageB, a_off, b_off, acc, refill);
      read_slot = read_slot == S - 1 ? 0 : read_slot + 1;
      write_slot = write_slot == S - 1 ? 0 : write_slot + 1;
    }
    cp_async_wait<0>();
    __syncthreads();
  }
}

// Smem is the kernel's shared memory: static buffers for the register
// pipeline, the dynamic ring (sized at launch) for cp.async.
template <class K, bool ASYNC = K::kAsync>
struct Smem {
  __device__ static float* get() {
    extern __shared__ float4 kgen_sgemm_dyn[];
    return reinterpret_cast<float*>(kgen_sgemm_dyn);
  }
};
template <class K>
struct Smem<K, false> {
  __device__ static float* get() {
    __shared__ __align__(16) float buf[2 * (K::kStageA + K::kStageB)];
    return buf;
  }
};

// gemm_kernel computes one BM x BN tile of C per block; with grid y > 1 the
// block takes split blockIdx.y of the k tiles and writes its unscaled partial
// sums to ws + blockIdx.y * M * N (row-major, ld N) instead of C, or with
// K::kClusterReduce sums them with the other splits in its cluster. EDGES
// is for problems with tiles past M or N or rows of A or B that kVectors
// cannot copy (fast_rows): it moves edge tiles inside the matrix where it
// can and builds the element path in (kElements); without it every tile
// must lie inside C and both operands' rows allow kVectors (launch
// decides), and the kernel is the fast path alone. EDGES kEdgesRuns is for
// problems whose moved tiles all lie inside C (M >= BM, N >= BN) and whose
// only k-contiguous operand may take kVectors' copies but the other's rows
// may not: it copies them by kRuns (launch decides, edges_kind). EDGES
// kEdgesMoved is for problems whose moved tiles all lie inside C and take
// kVectors' copies (both operands' rows allow them, and the moves keep an
// m/n-contiguous operand's copies aligned: its M or N a multiple of 4): it
// builds the fast path alone with the moves (Config::kMovedKernel). EDGES
// kEdgesShort is for problems with fewer rows than a tile (M < BM) or fewer
// columns (N < BN), where no tile takes kVectors' copies: every tile
// copies by kShortRuns (launch decides, edges_kind). Each kind is a kernel
// of its own: a path built into the kEdgesAny kernel changes how ptxas
// compiles its fast path, which the
// problems with moved edge tiles take (kShortRuns built in ran the
// 64x128x16 tile's at 110x3652x2080 nn and nt 7-8% slower on an H200;
// bench/results/h200-2026-12-01-session60.md).
constexpr int kEdgesNone = 0, kEdgesAny = 1, kEdgesRuns = 2, kEdgesMoved = 3, kEdgesShort = 4;
template <class K, int EDGES = kEdgesNone>
__global__ void __launch_bounds__(K::kThreads, K::kMinBlocks)
    gemm_kernel(int M, int N, int Kd, float alpha, const float* __restrict__ A, int64_t lda,
                const float* __restrict__ B, int64_t ldb, float beta, float* __restrict__ C, int64_t ldc,
                float* __restrict__ ws) {
  float* const smem = Smem<K>::get();
  float* const smem_a = smem;
  float* const smem_b = smem + 2 * K::kStageA;
  if constexpr (K::kEarly) {
    // The reduction of the splits (or the next kernel), launched early, may
    // start once every block of this grid has: it waits for this one. And
    // this grid may have been launched early (early_pays): nothing before the
    // wait touches global memory.
    allow_early_start();
    wait_prior_grids();
  }

  // Grouped raster order over the block tiles (a tail grid's: the last ones).
  const int tiles_m = ceil_div(M, K::BM), tiles_n = ceil_div(N, K::BN);
  int m0, n0;
  tile_origin<K>(K::kTailGrid ? tiles_m * tiles_n - (gridDim.x - blockIdx.x) : blockIdx.x, tiles_m, tiles_n, m0, n0);
  // With EDGES, a tile reaching past M (N) is computed as the whole tile
  // ending at row M (column N) where the matrix has that many, moved up
  // (left) by dm (dn) over its neighbour's rows (columns): it then copies
  // its operands as the tiles inside do (an edge tile by 4-byte copies of
  // every operand was the slowest block of one-wave problems such as
  // 1023^3), and stores only its own rows and columns.
  int dm = 0, dn = 0;
  if constexpr (EDGES != kEdgesNone) {
    dm = max(0, min(m0 + K::BM - M, m0));
    dn = max(0, min(n0 + K::BN - N, n0));
  }
  const int tm0 = m0 - dm, tn0 = n0 - dn;  // the tile computed

  int a_off, b_off;
  thread_offsets<K>(a_off, b_off);

  const Operand<K::kAKContig> op_a{A, lda};
  const Operand<K::kBKContig> op_b{B, ldb};
  const bool full_mn = tm0 + K::BM <= M && tn0 + K::BN <= N;
  // (A moved tile's 16-byte copies of an m/n-contiguous operand need the
  // move to keep them aligned.)
  const bool vec = K::kVecGlobal && full_mn && fast_rows<K, K::kAKContig>(A, lda) &&
                   fast_rows<K, K::kBKContig>(B, ldb) && (K::kAKContig || dm % 4 == 0) && (K::kBKContig || dn % 4 == 0);

  float acc[K::TM][K::TN];
#pragma unroll
  for (int i = 0; i < K::TM; ++i) {
#pragma unroll
    for (int j = 0; j < K::TN; ++j) acc[i][j] = 0.0f;
  }

  // This block's k tiles: all of them, or its split's share.
  int kt_begin, kt_end;
  split_k_tiles(ceil_div(Kd, K::BK), kt_begin, kt_end);
  if constexpr (K::kAsync && EDGES != kEdgesNone) {
    // Whole k tiles by kVectors where the tile and rows allow, else 4 bytes
    // at a time (kRuns in its own kernel: built into this one as a third
    // path it took the 128x128 tiles' kernel from 127 to 130-141 registers,
    // one block per SM, where on its own it takes 125-128); then the partial
    // k tile, if any, checked.
    const int kt_full = max(kt_begin, min(kt_end, Kd / K::BK));
    if constexpr (EDGES == kEdgesRuns) {
      mainloop_async<K, kRuns>(op_a, op_b, tm0, tn0, M, N, Kd, kt_begin, kt_full, a_off, b_off, smem, acc);
    } else if constexpr (EDGES == kEdgesShort) {
      mainloop_async<K, kShortRuns>(op_a, op_b, tm0, tn0, M, N, Kd, kt_begin, kt_full, a_off, b_off, smem, acc);
    } else if constexpr (EDGES == kEdgesMoved) {
      mainloop_async<K, kVectors>(op_a, op_b, tm0, tn0, M, N, Kd, kt_begin, kt_full, a_off, b_off, smem, acc);
    } else if (vec) {
      mainloop_async<K, kVectors>(op_a, op_b, tm0, tn0, M, N, Kd, kt_begin, kt_full, a_off, b_off, smem, acc);
    } else {
      mainloop_async<K, kElements>(op_a, op_b, tm0, tn0, M, N, Kd, kt_begin, kt_full, a_off, b_off, smem, acc);
    }
    mainloop_async<K, kChecked>(op_a, op_b, tm0, tn0, M, N, Kd, kt_full, kt_end, a_off, b_off, smem, acc);
  } else if constexpr (K::kAsync) {
    // Whole k tiles on the fast path, then the partial one, if any, checked.
    const int kt_full = vec ? max(kt_begin, min(kt_end, Kd / K::BK)) : kt_begin;
    mainloop_async<K, kVectors>(op_a, op_b, tm0, tn0, M, N, Kd, kt_begin, kt_full, a_off, b_off, smem, acc);
    mainloop_async<K, kChecked>(op_a, op_b, tm0, tn0, M, N, Kd, kt_full, kt_end, a_off, b_off, smem, acc);
  } else {
    // Whole k tiles on the fast path, then the partial one, if any, checked.
    const int kt_full = vec ? max(kt_begin, min(kt_end, Kd / K::BK)) : kt_begin;
    mainloop<K, true>(op_a, op_b, tm0, tn0, M, N, Kd, kt_begin, kt_full, a_off, b_off, smem_a, smem_b, acc);
    mainloop<K, false>(op_a, op_b, tm0, tn0, M, N, Kd, kt_full, kt_end, a_off, b_off, smem_a, smem_b, acc);
  }

  // The block's own part of the tile computed: all of it, or a moved
  // tile's rows and columns from (m0, n0) on, stored by store_c<K, true> in
  // coordinates from there. The fast kernel keeps the absolute form, which
  // compiles to the SASS it had before edge tiles moved.
  const bool moved = (dm | dn) != 0;
  auto store = [&](float* D, int64_t ldd, float al, float be, bool vec_d) {
    if constexpr (EDGES != kEdgesNone && K::kStagedStore) {
      if (vec_d && !moved) {
        store_c<K, true>(acc, a_off, b_off, M - m0, N - n0, al, be, D + static_cast<int64_t>(m0) * ldd + n0, ldd,
                         true);
      } else {
        store_c_staged<K>(acc, a_off, b_off, dm, min(K::BM, M - tm0), dn, min(K::BN, N - tn0), al, be,
                          D + static_cast<int64_t>(tm0) * ldd + tn0, ldd, smem);
      }
    } else if constexpr (EDGES != kEdgesNone) {
      if constexpr (K::kShiftedStore) {
        if (!vec_d) {
          return store_c_shifted<K>(acc, a_off - dm, b_off - dn, M - m0, N - n0, al, be,
                                    D + static_cast<int64_t>(m0) * ldd + n0, ldd);
        }
      }
      store_c<K, true>(acc, a_off - dm, b_off - dn, M - m0, N - n0, al, be, D + static_cast<int64_t>(m0) * ldd + n0,
                       ldd, vec_d && !moved);
    } else {
      store_c<K>(acc, m0 + a_off, n0 + b_off, M, N, al, be, D, ldd, vec_d);
    }
  };
  if constexpr (K::kClusterReduce) {
    if (gridDim.y > 1) {
      // The ring is drained (mainloop_async): the partial tile takes its
      // place, rows of kTileRow floats, at (m0, n0) (rows and columns past
      // M or N are summed and never stored).
      store_c<K, EDGES != kEdgesNone>(acc, a_off - dm, b_off - dn, K::BM, K::BN, 1.0f, 0.0f, smem, K::kTileRow, !moved);
      cluster_sum_tile<F32, K::BM, K::BN, K::kTileRow, K::kThreads>(smem, m0, n0, M, N, alpha, beta, C, ldc);
      return;
    }
  }
  if constexpr (K::kSplitK > 1) {
    if (gridDim.y > 1) {
      float* const part = ws + static_cast<int64_t>(blockIdx.y) * M * N;
      store(part, N, 1.0f, 0.0f, K::kVecGlobal && full_mn && vector_ok(part, N));
      return;
    }
  }
  store(C, ldc, alpha, beta, K::kVecGlobal && full_mn && vector_ok(C, ldc));
}

// Stream-K (Config's TAIL kTailStream, launch_stream). A one-wave problem
// leaves multiprocessors short: 2048^3 in 128x128 tiles fills 256 of an
// H100's 264 block slots (two an SM), 1536^3 144; whole tiles cannot
// balance that, and splitting whole tiles (split-K, the tail's clusters)
// only moves the quantisation. Stream-K gives each of G resident blocks an
// equal share of the (tile, k tile) iterations of those tiles, in order:
// block b the iterations [b * total / G, (b + 1) * total / G), total =
// tiles x k tiles. A share of at most one tile's k tiles (tiles <= G) has
// one or two segments: the end of one tile and the start of the next. The
// block whose segment ends a tile owns it; the earlier blocks with a part
// of that tile write their partial sums to their slot of the workspace and
// raise their flag; the owner adds them, in block order (the result is the
// same from run to run), and stores C. A block does its part of the next
// tile first, then the end of its first, so that the partials an owner
// waits for were written first, by blocks with lower indices: those were
// dispatched before it and wait for no later block, so a grid cannot
// deadlock, whatever else shares the GPU. On an H100, against the tail
// clusters in every layout: 1024^3 1.17-1.24x faster, 1536^3 1.10-1.16x,
// 3072^3 1.02-1.04x, 128 x 8192 x 8192 1.26-1.32x
// (bench/harness/sgemm_stream_ab.cu); a prototype ran 2048^3 0.95x: its
// 256 tiles fill 97% of the slots, and the partials and the second
// segment's pipeline fill cost more than the idle 3%
// (bench/results/h100-2026-11-27-session29.md).

// stream_fill_pays: stream-K runs the tiles of the last wave where they fill
// at most 7/8 of the G slots (on an H100 2048^3's 256 of 264 ran 5% slower by
// stream-K, 4096^3's 232 within 1% either way).
inline bool stream_fill_pays(int64_t tiles, int64_t slots) { return tiles * 8 <= slots * 7; }

// StreamArgs are a stream-K launch's arguments, in shared memory for
// stream_segment: passed as arguments (or kept from the kernel's
// parameters), they stayed in registers across its multiply-adds.
struct StreamArgs {
  int M, N, Kd;
  float alpha, beta;
  const float* A;
  int64_t lda;
  const float* B;
  int64_t ldb;
  float* C;
  int64_t ldc;
  float* ws;
  unsigned* flags;
};

template <class K>
__device__ __forceinline__ StreamArgs& stream_args() {
  __shared__ StreamArgs args;
  return args;
}

__device__ __forceinline__ void flag_raise(unsigned* f) {
  asm volatile("fence.acq_rel.gpu;\n\tst.relaxed.gpu.global.u32 [%0], %1;\n" ::"l"(f), "r"(1u) : "memory");
}
__device__ __forceinline__ unsigned flag_read(const unsigned* f) {
  unsigned v;
  asm volatile("ld.acquire.gpu.global.u32 %0, [%1];\n" : "=r"(v) : "l"(f) : "memory");
  return v;
}

// stream_segment multiplies k tiles [k0, k1) of the tile at (m0, n0). Unless
// OWNER, the sums go to block b's slot of the workspace (each thread's
// float4s, thread-major) and its flag is raised; an OWNER adds the slots of
// blocks [c_first, b), in order, each once its flag is up, and stores C.
template <class K, bool OWNER>
__device__ __forceinline__ void stream_segment(int m0, int n0, int k0, int k1, int b, int c_first) {
  constexpr int kQuads = K::TM * K::TN / 4;
  constexpr int64_t kSlot = int64_t{K::BM} * K::BN;
  StreamArgs& g = stream_args<K>();
  float* const smem = Smem<K>::get();
  int a_off, b_off;
  thread_offsets<K>(a_off, b_off);
  // The operands from k tile k0 on, so that the ring starts at its tile 0
  // (from k0, ptxas allocated the multiply-adds' registers worse: by
  // bench/harness/sass_loops.py 3x gemm_kernel's same-bank operands).
  const Operand<K::kAKContig> a_all{g.A, g.lda};
  const Operand<K::kBKContig> b_all{g.B, g.ldb};
  const Operand<K::kAKContig> op_a{a_all.at(0, k0 * K::BK), g.lda};
  const Operand<K::kBKContig> op_b{b_all.at(0, k0 * K::BK), g.ldb};
  float acc[K::TM][K::TN];
#pragma unroll
  for (int i = 0; i < K::TM; ++i) {
#pragma unroll
    for (int j = 0; j < K::TN; ++j) acc[i][j] = 0.0f;
  }
  mainloop_async<K, kVectors>(op_a, op_b, m0, n0, g.M, g.N, g.Kd - k0 * K::BK, 0, k1 - k0, a_off, b_off, smem, acc);
  // (The ring ends with a barrier: g is read again from here on.)
  if constexpr (!OWNER) {
    float4* const slot = reinterpret_cast<float4*>(g.ws + b * kSlot);
#pragma unroll
    for (int q = 0; q < kQuads; ++q) {
      const float* r = &acc[q / K::kGroupsN][(q % K::kGroupsN) * 4];
      __stcg(slot + q * K::kThreads + threadIdx.x, make_float4(r[0], r[1], r[2], r[3]));
    }
    __syncthreads();
    if (threadIdx.x == 0) flag_raise(g.flags + b);
  } else {
    for (int c = c_first; c < b; ++c) {
      if (threadIdx.x == 0) {
        while (flag_read(g.flags + c) == 0) {
        }
      }
      __syncthreads();
      const float4* slot = reinterpret_cast<const float4*>(g.ws + c * kSlot);
#pragma unroll
      for (int q = 0; q < kQuads; ++q) {
        const float4 p = __ldcg(slot + q * K::kThreads + threadIdx.x);
        float* r = &acc[q / K::kGroupsN][(q % K::kGroupsN) * 4];
        r[0] += p.x, r[1] += p.y, r[2] += p.z, r[3] += p.w;
      }
    }
    store_c<K>(acc, m0 + a_off, n0 + b_off, g.M, g.N, g.alpha, g.beta, g.C, g.ldc, vector_ok(g.C, g.ldc));
  }
}

// stream_first is block blk's first iteration of total over G blocks.
__device__ __forceinline__ int stream_first(int64_t blk, int64_t total, int64_t G) {
  return static_cast<int>(blk * total / G);
}

// stream_kernel runs the last `tiles` tiles of an M x N x Kd problem of
// whole tiles and k tiles by stream-K over its gridDim.x >= tiles blocks.
// flags (a word per block) are 0 on entry. The two segments are written out
// one after the other, each working out its place from the arguments alone
// (a loop over them kept its state in registers across the multiply-adds).
// A share has at most one part it does not own: the start of the next tile
// where it reaches it (then it ends its first tile), else all of it where
// it ends inside its first tile.
template <class K>
__global__ void __launch_bounds__(K::kThreads, K::kStreamMinBlocks)
    stream_kernel(int M, int N, int Kd, float alpha, const float* __restrict__ A, int64_t lda,
                  const float* __restrict__ B, int64_t ldb, float beta, float* __restrict__ C, int64_t ldc,
                  int tiles, float* __restrict__ ws, unsigned* __restrict__ flags) {
  if constexpr (K::kEarly) {
    allow_early_start();
    wait_prior_grids();
  }
  if (threadIdx.x == 0) stream_args<K>() = StreamArgs{M, N, Kd, alpha, beta, A, lda, B, ldb, C, ldc, ws, flags};
  __syncthreads();
  const int b = blockIdx.x;
  {
    // The share's part that it does not own, if any: the start of the next
    // tile where the share reaches it, else all of it where it ends inside
    // its first tile. (One call site: with two, three inlined copies of the
    // multiply-add loop, 1536^3 ran 8-15% slower on an H100, by
    // bench/harness/sgemm_stream_ab.cu.)
    const int tiles_m = M / K::BM, tiles_n = N / K::BN, kt = Kd / K::BK;
    const int64_t total = static_cast<int64_t>(tiles) * kt;
    const int lo = stream_first(b, total, gridDim.x), hi = stream_first(b + 1, total, gridDim.x);
    const int t = lo / kt, next = (t + 1) * kt;
    if (next < hi || hi < next) {
      const int tp = next < hi ? t + 1 : t;
      int m0, n0;
      tile_origin<K>(tiles_m * tiles_n - tiles + tp, tiles_m, tiles_n, m0, n0);
      stream_segment<K, false>(m0, n0, next < hi ? 0 : lo - t * kt, hi - tp * kt, b, 0);
    }
  }
  // The end of its first tile, which it owns, where the share reaches it.
  const StreamArgs& g = stream_args<K>();
  const int tiles_m = g.M / K::BM, tiles_n = g.N / K::BN, kt = g.Kd / K::BK;
  const int64_t total = static_cast<int64_t>(tiles) * kt;
  const int lo = stream_first(b, total, gridDim.x), hi = stream_first(b + 1, total, gridDim.x);
  const int t = lo / kt, end = (t + 1) * kt;
  if (hi < end) return;
  int m0, n0;
  tile_origin<K>(tiles_m * tiles_n - tiles + t, tiles_m, tiles_n, m0, n0);
  // The earlier blocks that hold the rest of the tile.
  int c_first = b;
  while (c_first > 0 && stream_first(c_first, total, gridDim.x) > t * kt) --c_first;
  stream_segment<K, true>(m0, n0, lo - t * kt, kt, b, c_first);
}

// StreamKey keys the per-device caches of stream_kernel<K>.
template <class K>
struct StreamKey {};

// kHasRuns: K builds gemm_kernel<K, kEdgesRuns>, for exactly one
// k-contiguous operand on the cp.async pipeline (with two, whole tiles
// always take kVectors' copies; with none, kRuns is kElements).
template <class K>
constexpr bool kHasRuns = K::kAsync && K::kVecGlobal && K::kAKContig != K::kBKContig;
// kHasMoved: K builds gemm_kernel<K, kEdgesMoved> (Config::kMovedKernel).
template <class K>
constexpr bool kHasMoved = K::kAsync && K::kVecGlobal && K::kMovedKernel;
// kHasShort: K builds gemm_kernel<K, kEdgesShort>, on the cp.async
// pipeline (with no k-contiguous operand, tn's, kShortRuns copies both as
// kElements, leaving out those past the matrix: copy_elem's SKIP).
template <class K>
constexpr bool kHasShort = K::kAsync && K::kVecGlobal;

// edges_kind is the EDGES of gemm_kernel that launch runs for an M x N
// problem (M, N > 0): kEdgesNone where every tile lies inside C and both
// operands' rows allow kVectors; kEdgesRuns where the moved tiles all lie
// inside C and only the m/n-contiguous operand's rows do not (on an H100
// the element path, whose copies of the other read 32 rows a warp
// instruction, ran the 128x128 ring tile at 0.89x cuBLAS at 2047^3 nn and
// 0.94x at 4097^3, kRuns at 0.95x and 1.00x: bench/harness/sgemm_runs.sh,
// bench/results/h100-2026-11-28-session32.md); kEdgesMoved where the moved
// tiles all lie inside C and all take kVectors' copies (gemm_kernel's vec on
// every tile); kEdgesShort where C has fewer rows or columns than a tile
// (so that no tile takes kVectors' copies: on an H200, against the
// element path, at 110x3652x2080 the 128x128x16 tiles ran 1.6-1.9x faster
// in nt, 1.2-1.6x in nn and 1.2-1.4x in tt, and at 64x64x65536 nt
// 1.9-2.0x: bench/results/h200-2026-12-01-session60.md; tn's 1.19x by
// geometric mean at 8 shapes: h200-2026-12-02-session64.md); else
// kEdgesAny.
template <class K>
inline int edges_kind(int M, int N, const float* A, int64_t lda, const float* B, int64_t ldb) {
  if (!K::kAsync) return kEdgesNone;
  const bool rows = fast_rows<K, K::kAKContig>(A, lda) && fast_rows<K, K::kBKContig>(B, ldb);
  if (rows && M % K::BM == 0 && N % K::BN == 0) return kEdgesNone;
  // A tile moved up by dm rows starts dm elements before its place, so an
  // m-contiguous A's 16-byte copies stay aligned where dm, M's distance to
  // a whole number of tiles, is a multiple of 4: where M is (N likewise).
  if (kHasMoved<K> && rows && M >= K::BM && N >= K::BN && (K::kAKContig || M % 4 == 0) &&
      (K::kBKContig || N % 4 == 0)) {
    return kEdgesMoved;
  }
  if (kHasRuns<K> && !rows && M >= K::BM && N >= K::BN) return kEdgesRuns;
  if (kHasShort<K> && (M < K::BM || N < K::BN)) return kEdgesShort;
  return kEdgesAny;
}

// edges_kernel is gemm_kernel<K, kind>.
template <class K>
inline auto edges_kernel(int kind) {
  if constexpr (kHasRuns<K>) {
    if (kind == kEdgesRuns) return gemm_kernel<K, kEdgesRuns>;
  }
  if constexpr (kHasMoved<K>) {
    if (kind == kEdgesMoved) return gemm_kernel<K, kEdgesMoved>;
  }
  if constexpr (kHasShort<K>) {
    if (kind == kEdgesShort) return gemm_kernel<K, kEdgesShort>;
  }
  return kind == kEdgesAny ? gemm_kernel<K, kEdgesAny> : gemm_kernel<K, kEdgesNone>;
}

// prepare sets the cp.async kernels' dynamic shared memory limit above the
// 48 KiB default, once per device.
template <class K>
inline cudaError_t prepare() {
  if constexpr (K::kTail) {
    const cudaError_t err = prepare<TailOf<K>>();
    if (err != cudaSuccess) return err;
  }
  // The stream kernel's static StreamArgs count against the default too: a
  // ring of exactly 48 KiB (tn's 128x128x16 tile in unpadded rows) needs
  // the attribute there.
  if constexpr (K::kStream) {
    if (K::kSmemBytes + sizeof(StreamArgs) > 48 * 1024) {
      const cudaError_t err = once_per_device<StreamKey<K>>([] {
        return cudaFuncSetAttribute(stream_kernel<K>, cudaFuncAttributeMaxDynamicSharedMemorySize, K::kSmemBytes);
      });
      if (err != cudaSuccess) return err;
    }
  }
  if (K::kSmemBytes <= 48 * 1024) return cudaSuccess;
  return once_per_device<K>([] {
    cudaError_t err =
        cudaFuncSetAttribute(gemm_kernel<K, kEdgesNone>, cudaFuncAttributeMaxDynamicSharedMemorySize, K::kSmemBytes);
    if (err != cudaSuccess) return err;
    if constexpr (kHasRuns<K>) {
      err = cudaFuncSetAttribute(gemm_kernel<K, kEdgesRuns>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                 K::kSmemBytes);
      if (err != cudaSuccess) return err;
    }
    if constexpr (kHasMoved<K>) {
      err = cudaFuncSetAttribute(gemm_kernel<K, kEdgesMoved>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                 K::kSmemBytes);
      if (err != cudaSuccess) return err;
    }
    if constexpr (kHasShort<K>) {
      err = cudaFuncSetAttribute(gemm_kernel<K, kEdgesShort>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                 K::kSmemBytes);
      if (err != cudaSuccess) return err;
    }
    return cudaFuncSetAttribute(gemm_kernel<K, kEdgesAny>, cudaFuncAttributeMaxDynamicSharedMemorySize, K::kSmemBytes);
  });
}

// check_operands is launch's check of an M x N x Kd problem whose A and B
// store k contiguously or not (a_k, b_k): KGEN_OK, or the first
// KGEN_ERR_* that applies. An empty C (M or N zero) passes unchecked past
// its leading dimensions.
inline int check_operands(int M, int N, int Kd, bool a_k, bool b_k, const float* A, int64_t lda, const float* B,
                          int64_t ldb, const float* C, int64_t ldc) {
  if (M < 0 || N < 0 || Kd < 0) return KGEN_ERR_NEGATIVE_DIM;
  const int64_t need_lda = a_k ? Kd : M;  // length of a stored row of A
  const int64_t need_ldb = b_k ? Kd : N;
  if (lda < (need_lda > 1 ? need_lda : 1) || ldb < (need_ldb > 1 ? need_ldb : 1) || ldc < (N > 1 ? N : 1)) {
    return KGEN_ERR_LEADING_DIM;
  }
  if (M == 0 || N == 0) return KGEN_OK;
  if (C == nullptr || (Kd > 0 && (A == nullptr || B == nullptr))) return KGEN_ERR_NULL_POINTER;
  return KGEN_OK;
}

// launch_stream is launch's stream-K path for a problem of whole tiles and k
// tiles whose operands' rows allow kVectors. Where the tiles (every one, or
// those of the last, partly filled wave, after the others whole) fill at
// most 7/8 of the G slots the device holds (stream_fill_pays), it clears the
// flags, runs stream_kernel over min(G, their k tiles) blocks and returns
// true with the launches' error in err; else it launches nothing and
// returns false.
template <class K>
bool launch_stream(int M, int N, int Kd, float alpha, const float* A, int64_t lda, const float* B, int64_t ldb,
                   float beta, float* C, int64_t ldc, void* ws, int64_t blocks, bool early, cudaStream_t stream,
                   cudaError_t& err) {
  int dev = 0;
  if (cudaGetDevice(&dev) != cudaSuccess) {
    cudaGetLastError();
    return false;
  }
  const int per_sm = blocks_per_sm<StreamKey<K>>(dev, stream_kernel<K>, K::kThreads, K::kSmemBytes);
  int64_t slots = static_cast<int64_t>(per_sm) * sm_count(dev);
  if (slots <= 0) return false;  // the occupancy query failed, or no block fits
  if (slots > kStreamMaxBlocks) slots = kStreamMaxBlocks;
  const int64_t tiles = blocks <= slots ? blocks : blocks % slots;
  if (tiles == 0 || !stream_fill_pays(tiles, slots)) return false;
  const int64_t k_tiles = tiles * (Kd / K::BK);
  const int64_t grid = k_tiles < slots ? k_tiles : slots;
  float* const part = static_cast<float*>(ws);
  unsigned* const flags = reinterpret_cast<unsigned*>(part + grid * K::BM * K::BN);
  // (The flags go first: the whole tiles' kernel may start the stream
  // kernel early, which a memset between them would not.)
  err = cudaMemsetAsync(flags, 0, grid * sizeof(unsigned), stream);
  if (err == cudaSuccess && tiles < blocks) {
    err = launch_maybe_early(early, gemm_kernel<K, kEdgesNone>, dim3(static_cast<unsigned>(blocks - tiles)),
                             dim3(K::kThreads), K::kSmemBytes, stream, M, N, Kd, alpha, A, lda, B, ldb, beta, C, ldc,
                             part);
  }
  if (err == cudaSuccess) {
    // Launched early after the whole tiles (it waits for them): its blocks
    // take the multiprocessors their last wave leaves.
    err = launch_maybe_early(tiles < blocks, stream_kernel<K>, dim3(static_cast<unsigned>(grid)), dim3(K::kThreads),
                             K::kSmemBytes, stream, M, N, Kd, alpha, A, lda, B, ldb, beta, C, ldc,
                             static_cast<int>(tiles), part, flags);
  }
  return true;
}

// EdgesKey keys the per-device caches of gemm_kernel<K, EDGES>: K itself,
// or WithEdges. with_edges calls f with kind as a constant
// (std::integral_constant), so that f can name the key.
template <class K, int EDGES = kEdgesAny>
struct WithEdges {};
template <class K, int EDGES>
using EdgesKey = std::conditional_t<EDGES == kEdgesNone, K, WithEdges<K, EDGES>>;
template <class F>
inline auto with_edges(int kind, F&& f) {
  if (kind == kEdgesRuns) return f(std::integral_constant<int, kEdgesRuns>{});
  if (kind == kEdgesMoved) return f(std::integral_constant<int, kEdgesMoved>{});
  if (kind == kEdgesShort) return f(std::integral_constant<int, kEdgesShort>{});
  if (kind == kEdgesAny) return f(std::integral_constant<int, kEdgesAny>{});
  return f(std::integral_constant<int, kEdgesNone>{});
}

// launch checks the arguments and starts the kernel (and, when the k range is
// split through a workspace, the reduction) on stream. ws must hold
// workspace_bytes(M, N, Kd) bytes, 16-byte aligned; it may be null when that
// is 0. It returns KGEN_OK, a negative KGEN_ERR_* code, or the cudaError_t
// of the launch.
template <class K>
int launch(int M, int N, int Kd, float alpha, const float* A, int64_t lda, const float* B, int64_t ldb, float beta,
           float* C, int64_t ldc, void* ws, int64_t ws_bytes, cudaStream_t stream) {
  if (const int st = check_operands(M, N, Kd, K::kAKContig, K::kBKContig, A, lda, B, ldb, C, ldc); st != KGEN_OK) {
    return st;
  }
  if (M == 0 || N == 0) return KGEN_OK;
  const int64_t blocks = static_cast<int64_t>(ceil_div(M, K::BM)) * ceil_div(N, K::BN);
  if (blocks > 0x7fffffff) return KGEN_ERR_GRID_TOO_LARGE;
  if (const int st = check_workspace<K>(M, N, Kd, ws, ws_bytes); st != KGEN_OK) return st;
  int splits = splits_for<K>(M, N, Kd);  // M, N > 0: a workspace is needed exactly when splits > 1
  const cudaError_t err = prepare<K>();
  if (err != cudaSuccess) return static_cast<int>(err);
  float* const part = static_cast<float*>(ws);
  // The kernel with the element path (or kRuns) only where a tile needs
  // it: built in, it cost the fast path of tn 3-12% on an H100 (session 17,
  // call 9).
  const int kind = edges_kind<K>(M, N, A, lda, B, ldb);
  const bool edges = kind != kEdgesNone;
  const auto kernel = edges_kernel<K>(kind);
  if constexpr (K::kFill) {
    const int64_t k_tiles = ceil_div(Kd, K::BK);
    splits = with_edges(kind, [&](auto e) {
      constexpr int E = decltype(e)::value;
      return fill_splits_on<EdgesKey<K, E>>(kernel, K::kThreads, K::kSmemBytes, blocks, k_tiles, splits);
    });
  }
  const bool early = kArch >= 90 && K::kEarly && with_edges(kind, [&](auto e) {
                       constexpr int E = decltype(e)::value;
                       return early_pays<EdgesKey<K, E>>(kernel, K::kThreads, K::kSmemBytes);
                     });
  if constexpr (K::kTail) {
    // The last, partly filled wave's tiles split in clusters, where that
    // pays (tail_plan): the other tiles first, then those.
    using T = TailOf<K>;
    const auto tail = edges_kernel<T>(kind);
    const TailPlan plan = with_edges(kind, [&](auto e) {
      constexpr int E = decltype(e)::value;
      return tail_plan_on<EdgesKey<K, E>, EdgesKey<T, E>>(kernel, tail, K::kThreads, K::kSmemBytes, T::kSmemBytes,
                                                          blocks, ceil_div(Kd, K::BK));
    });
    if (plan.splits > 1) {
      cudaError_t e = cudaSuccess;
      if (plan.tiles < blocks) {
        e = launch_in_clusters(early, 1, kernel, dim3(static_cast<unsigned>(blocks - plan.tiles)), dim3(K::kThreads),
                               K::kSmemBytes, stream, M, N, Kd, alpha, A, lda, B, ldb, beta, C, ldc, part);
      }
      if (e == cudaSuccess) {
        // Launched early after the other tiles (it waits for them): its
        // blocks take the multiprocessors their last wave leaves.
        e = launch_in_clusters(plan.tiles < blocks || early, plan.splits, tail,
                               dim3(static_cast<unsigned>(plan.tiles), plan.splits), dim3(K::kThreads), T::kSmemBytes,
                               stream, M, N, Kd, alpha, A, lda, B, ldb, beta, C, ldc, part);
      }
      return static_cast<int>(e);
    }
  }
  if constexpr (K::kStream) {
    if (!edges && stream_aligned<K>(M, N, Kd)) {
      cudaError_t e = cudaSuccess;
      if (launch_stream<K>(M, N, Kd, alpha, A, lda, B, ldb, beta, C, ldc, ws, blocks, early, stream, e)) {
        return static_cast<int>(e);
      }
    }
  }
  const dim3 grid(static_cast<unsigned>(blocks), splits);
  const unsigned cluster = K::kClusterReduce ? splits : 1;
  cudaError_t e = launch_in_clusters(early, cluster, kernel, grid, dim3(K::kThreads), K::kSmemBytes, stream, M, N, Kd,
                                     alpha, A, lda, B, ldb, beta, C, ldc, part);
  if (e == cudaSuccess && splits > 1 && !K::kClusterReduce) {
    e = launch_reduce<K, F32>(M, N, splits, alpha, static_cast<const float*>(part), beta, C, ldc, stream);
  }
  return static_cast<int>(e);
}

// Packing (an instance of the spec's `pack: true`): a k-contiguous operand,
// A row-major or B column-major, is first transposed into the workspace
// (kgen/transpose.cuh), and K, whose A is column-major and B row-major,
// multiplies the copies, both by 16-byte cp.async copies, where the user's
// layout's own kernel copies a k-contiguous operand 4 bytes at a time. On an
// H100 (bench/harness/sgemm_pack.cu, bench/results/
// h100-2026-11-27-session20.md) that took nn, nt and tt from 0.96-1.00x
// cuBLAS to 0.99-1.04x at 4096 and 8192 with the transposes counted; at 2048
// they cost as much as they save.

// kPackAlign aligns each packed operand in the workspace, in bytes.
constexpr int64_t kPackAlign = 256;

// packed_ld is the leading dimension of a packed operand of mn rows or
// columns: rows of whole 128-byte lines.
inline int64_t packed_ld(int mn) { return (static_cast<int64_t>(mn) + 31) / 32 * 32; }

// packed_bytes is the workspace of one packed K x mn operand.
inline int64_t packed_bytes(int mn, int Kd) {
  const int64_t b = packed_ld(mn) * Kd * static_cast<int64_t>(sizeof(float));
  return (b + kPackAlign - 1) / kPackAlign * kPackAlign;
}

// PackedOps says which operands of the user's orders A_ORDER and B_ORDER
// are packed: the k-contiguous ones.
template <Order A_ORDER, Order B_ORDER>
struct PackedOps {
  static constexpr bool kA = A_ORDER == Order::Row, kB = B_ORDER == Order::Col;
  static_assert(kA || kB, "packing needs a k-contiguous operand: layouts nn, nt or tt");
};

// packed_workspace_bytes is the workspace launch_packed needs for an M x N
// x Kd problem: the packed operands, then K's own (go/internal/kernels.
// GEMMWorkspaceBytes mirrors it).
template <class K, Order A_ORDER, Order B_ORDER>
inline int64_t packed_workspace_bytes(int M, int N, int Kd) {
  using P = PackedOps<A_ORDER, B_ORDER>;
  if (M <= 0 || N <= 0 || Kd <= 0) return 0;
  return (P::kA ? packed_bytes(M, Kd) : 0) + (P::kB ? packed_bytes(N, Kd) : 0) + workspace_bytes<K>(M, N, Kd);
}

// launch_packed is launch for operands stored in A_ORDER and B_ORDER (the
// instance's layout): it checks the arguments as launch does for those
// orders, transposes the k-contiguous operands into ws, and launches K
// (A column-major, B row-major) on the copies, with the rest of ws as K's
// own workspace. ws must hold packed_workspace_bytes(M, N, Kd) bytes,
// 16-byte aligned.
template <class K, Order A_ORDER, Order B_ORDER>
int launch_packed(int M, int N, int Kd, float alpha, const float* A, int64_t lda, const float* B, int64_t ldb,
                  float beta, float* C, int64_t ldc, void* ws, int64_t ws_bytes, cudaStream_t stream) {
  static_assert(!K::kAKContig && !K::kBKContig, "the packed operands are m- and n-contiguous");
  using P = PackedOps<A_ORDER, B_ORDER>;
  if (const int st = check_operands(M, N, Kd, P::kA, P::kB, A, lda, B, ldb, C, ldc); st != KGEN_OK) return st;
  if (M == 0 || N == 0) return KGEN_OK;
  if (Kd == 0) {
    // C = beta * C: nothing to pack, and K reads neither operand.
    return launch<K>(M, N, 0, alpha, A, M, B, N, beta, C, ldc, nullptr, 0, stream);
  }
  const int64_t blocks = static_cast<int64_t>(ceil_div(M, K::BM)) * ceil_div(N, K::BN);
  if (blocks > 0x7fffffff || transpose_blocks(M, Kd) > 0x7fffffff || transpose_blocks(N, Kd) > 0x7fffffff) {
    return KGEN_ERR_GRID_TOO_LARGE;
  }
  const int64_t need = packed_workspace_bytes<K, A_ORDER, B_ORDER>(M, N, Kd);  // > 0: Kd > 0 packs something
  if (const int st = check_workspace_of(need, ws, ws_bytes); st != KGEN_OK) return st;
  char* free_ws = static_cast<char*>(ws);
  if constexpr (P::kA) {
    float* const a = reinterpret_cast<float*>(free_ws);
    const cudaError_t e = transpose<K>(M, Kd, A, lda, a, packed_ld(M), stream);
    if (e != cudaSuccess) return static_cast<int>(e);
    A = a, lda = packed_ld(M), free_ws += packed_bytes(M, Kd);
  }
  if constexpr (P::kB) {
    float* const b = reinterpret_cast<float*>(free_ws);
    const cudaError_t e = transpose<K>(N, Kd, B, ldb, b, packed_ld(N), stream);
    if (e != cudaSuccess) return static_cast<int>(e);
    B = b, ldb = packed_ld(N), free_ws += packed_bytes(N, Kd);
  }
  const int64_t rest = ws_bytes - (free_ws - static_cast<char*>(ws));
  return launch<K>(M, N, Kd, alpha, A, lda, B, ldb, beta, C, ldc, rest > 0 ? free_ws : nullptr, rest, stream);
}

}  // namespace sgemm
}  // namespace kgen
