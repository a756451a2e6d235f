// The fp16 GEMM on tensor cores that every hgemm instance instantiates:
//   C = alpha * A * B + beta * C,  A: M x K, B: K x N, C: M x N row-major,
// A, B and C fp16 (passed as uint16_t bits), A and B each row- or
// column-major, alpha and beta fp32, any M, N, K >= 0 and leading dimensions;
// products accumulated in fp32 (or fp16, a Config choice).
//
// Technique: a BM x BN block tile split into WM x WN warp tiles, each warp
// issuing mma.sync.m16n8k16 (sm_80 and later). k tiles of BK move from global
// to shared memory with 16-byte cp.async.cg copies into a ring of STAGES
// buffers in dynamic shared memory (STAGES - 1 tiles in flight while one is
// multiplied, one barrier per k tile). Each operand's tile is kept as stored
// (k-contiguous or m/n-contiguous rows) and its 16-byte chunks are XOR-
// swizzled within 128-byte lines, so the cp.async stores and the ldmatrix
// reads (.trans for the m/n-contiguous layouts) touch every bank once per
// phase. Fragments are double-buffered in registers across k steps. The
// epilogue computes alpha * acc + beta * C in fp32, rounds once
// (__float2half_rn: overflow gives +-Inf), transposes the half2 words within
// each quad of lanes so that each lane holds 8 consecutive columns, and
// writes 16 bytes at a time.
//
// On sm_90, a kernel of which one block fills a multiprocessor starts early
// (programmatic dependent launch: its blocks wait on the kernel before it
// from the multiprocessors that one leaves, instead of after the launch
// gap); where more blocks fit, it starts as usual (early_pays).
//
// With split-K (Config SPLIT_K > 1, for problems whose M x N tiles leave
// SMs idle and whose K is long), grid y splits each tile's k tiles; each
// block writes its unscaled fp32 partial C to the caller's workspace and a
// second kernel (kgen/common.cuh's reduce_splits, launched early on sm_90) adds the partials
// in split order, so the result does not depend on timing, then applies
// alpha and beta in fp32 and rounds once.
//
// Blocks whose tile lies inside C, with A and B 16-byte aligned and leading
// dimensions multiples of 8, run the unchecked main loop over the whole k
// tiles; every other tile (partial k, edge blocks, misaligned operands) goes
// through a separately instantiated checked loop that zero-fills what lies
// outside, so the hot loop carries no bounds tests.
//
// The index arithmetic (swizzle, copy and ldmatrix lane addresses, raster
// order, the epilogue's quad transpose and stores) is in __host__ __device__
// functions, shared with kernels/tests/hgemm_host_test.cu, which checks it on
// the host against the PTX ISA's fragment layouts.
#pragma once

#include <cuda_fp16.h>
#include <stdint.h>

#include <type_traits>

#include "kgen/common.cuh"
#include "kgen/ptx.cuh"

namespace kgen {
namespace hgemm {

// Accum is the type of the mma accumulators.
enum class Accum { F32, F16 };

// max_smem_per_block is the opt-in dynamic shared memory per block of compute
// capability cc (major * 10 + minor), 0 where kgen has no entry.
__host__ __device__ constexpr int max_smem_per_block(int cc) {
  return cc == 80 || cc == 87 ? 163 << 10 : cc == 86 || cc == 89 ? 99 << 10 : cc == 90 ? 227 << 10 : 0;
}

__host__ __device__ constexpr bool swizzle_ok(int chunks_per_row) {
  return chunks_per_row == 1 || chunks_per_row == 2 || chunks_per_row == 4 ||
         (chunks_per_row > 0 && chunks_per_row % 8 == 0);
}

// ---------------------------------------------------------------------------
// Shared-memory tiles.

// Tile is one operand's k tile in shared memory, stored as in global memory:
// K_CONTIG (A row-major, B column-major) holds MN rows of BK halves, otherwise
// BK rows of MN halves. Rows are cut into 16-byte chunks (8 halves); a chunk's
// place in its row is XORed with a function of the row that is constant over
// each 128-byte line of 8 chunks and differs between the 8 lines that 8
// consecutive rows span. Then 8 consecutive rows at one logical chunk (an
// ldmatrix phase) land in 8 distinct bank groups, and so do 8 consecutive
// chunks (a cp.async phase), which the XOR only permutes within a line.
template <int MN, int BK, bool K_CONTIG>
struct Tile {
  static constexpr bool kKContig = K_CONTIG;
  static constexpr int kRows = K_CONTIG ? MN : BK;
  static constexpr int kChunksPerRow = (K_CONTIG ? BK : MN) / 8;
  static constexpr int kRowBytes = kChunksPerRow * 16;
  static constexpr int kChunks = kRows * kChunksPerRow;
  static constexpr int kBytes = kChunks * 16;
  // Rows sharing one 128-byte line, and how many chunk positions the XOR mixes.
  static constexpr int kLineRows = kChunksPerRow >= 8 ? 1 : 8 / kChunksPerRow;
  static constexpr int kXorSpan = kChunksPerRow >= 8 ? 8 : kChunksPerRow;
  static_assert(swizzle_ok(kChunksPerRow), "a tile row must be 16, 32 or 64 bytes, or a multiple of 128");

  __host__ __device__ static constexpr int swizzle(int row, int chunk) {
    return chunk ^ ((row / kLineRows) % kXorSpan);
  }
  // offset is the byte offset of logical chunk (row, chunk) in the tile.
  __host__ __device__ static constexpr uint32_t offset(int row, int chunk) {
    return static_cast<uint32_t>(row * kRowBytes + swizzle(row, chunk) * 16);
  }
  // A stored row a multiple of 8 rows down keeps its swizzle: offsets move by
  // whole rows (used to fold row steps into constants).
  static_assert(8 % kLineRows == 0 && (8 / kLineRows) % kXorSpan == 0, "the swizzle repeats every 8 rows");

  // Stored coordinates (row, column in halves) of element (mn, k).
  __host__ __device__ static constexpr int stored_row(int mn, int k) { return K_CONTIG ? mn : k; }
  __host__ __device__ static constexpr int stored_col(int mn, int k) { return K_CONTIG ? k : mn; }
};

// Copy maps a block's threads onto the 16-byte chunks of a tile: thread tid's
// i-th copy is chunk tid + i * THREADS in row-major order, so consecutive
// lanes copy consecutive chunks of a row (coalesced reads, and one 128-byte
// line per 8 lanes in shared memory).
template <class T, int THREADS>
struct Copy {
  static constexpr int C = T::kChunksPerRow;
  static constexpr int kCopies = (T::kChunks + THREADS - 1) / THREADS;
  static constexpr bool kPartial = T::kChunks % THREADS != 0;  // some threads skip the last copy
  static constexpr int kRowStep = THREADS / C;                  // rows between a thread's copies
  static_assert(THREADS % C == 0, "threads per block must be a multiple of the 16-byte chunks in a tile row");

  __host__ __device__ static constexpr int row(int tid, int i) { return tid / C + i * kRowStep; }
  __host__ __device__ static constexpr int chunk(int tid) { return tid % C; }
  __host__ __device__ static constexpr bool active(int tid, int i) { return !kPartial || row(tid, i) < T::kRows; }
  __host__ __device__ static constexpr uint32_t smem_offset(int tid, int i) {
    return kRowStep % 8 == 0 ? T::offset(row(tid, 0), chunk(tid)) + static_cast<uint32_t>(i * kRowStep * T::kRowBytes)
                             : T::offset(row(tid, i), chunk(tid));
  }
};

// ---------------------------------------------------------------------------
// Fragments.
//
// ldmatrix.x4 loads four 8x8 matrices of halves; lanes 8j..8j+7 give the row
// addresses of matrix j, and register j of every lane receives matrix j. The
// mma wants, for the 16 x 16 A fragment, matrices (m 0-7, k 0-7), (m 8-15,
// k 0-7), (m 0-7, k 8-15), (m 8-15, k 8-15), and for two 8-column B fragments
// (n 0-7, k 0-7), (n 0-7, k 8-15), (n 8-15, k 0-7), (n 8-15, k 8-15). A
// k-contiguous tile gives each matrix as 8 stored rows of 8 k (plain
// ldmatrix); an m/n-contiguous one as 8 stored k rows of 8 m or n, which
// ldmatrix.trans transposes into the same registers.

// Frag addresses one operand's ldmatrix.x4 loads for a warp: t counts 16-wide
// steps along m (an m16 tile of A) or n (a pair of n8 tiles of B) from the
// warp tile's first row or column, ks counts k16 steps.
template <class T, bool IS_A>
struct Frag {
  // Row and logical chunk of lane's address for the fragment at (mn0, k0)
  // within the tile.
  __host__ __device__ static constexpr void coord(int lane, int mn0, int k0, int& row, int& chunk) {
    const int j = lane / 8, r = lane % 8;
    const int mn = mn0 + (IS_A ? (j % 2) * 8 : (j / 2) * 8);
    const int k = k0 + (IS_A ? (j / 2) * 8 : (j % 2) * 8);
    row = T::kKContig ? mn + r : k + r;
    chunk = T::kKContig ? k / 8 : mn / 8;
  }
  __host__ __device__ static constexpr uint32_t offset(int lane, int mn0, int k0) {
    int row = 0, chunk = 0;
    coord(lane, mn0, k0, row, chunk);
    return T::offset(row, chunk);
  }
  // Bases holds the loop-invariant addresses: in a k-contiguous tile the
  // swizzled chunk changes with ks (one base per k step), in an m/n-contiguous
  // one with t (one per t). The other index moves the address by whole groups
  // of 16 stored rows, which keep their swizzle: a constant.
  template <int KSTEPS, int TSTEPS>
  struct Bases {
    static constexpr int kN = T::kKContig ? KSTEPS : TSTEPS;
    uint32_t v[kN];
    __host__ __device__ void init(int lane, int mn_warp) {
#pragma unroll
      for (int i = 0; i < kN; ++i) {
        v[i] = T::kKContig ? offset(lane, mn_warp, i * 16) : offset(lane, mn_warp + i * 16, 0);
      }
    }
    __host__ __device__ uint32_t at(int ks, int t) const {
      return T::kKContig ? v[ks] + static_cast<uint32_t>(t * 16 * T::kRowBytes)
                         : v[t] + static_cast<uint32_t>(ks * 16 * T::kRowBytes);
    }
  };
};

// Accumulator fragment of one m16n8 mma: c0..c3 in fp32, or two half2 words.
template <Accum A>
using AccFrag = std::conditional_t<A == Accum::F32, float[4], uint32_t[2]>;

__host__ __device__ inline float half_bits_to_float(uint16_t b) {
  __half_raw r;
  r.x = b;
  return __half2float(__half(r));
}

// acc_pair gives, as fp32, the two elements of a fragment in row g + 8h (g =
// lane / 4): columns 2q and 2q + 1 of the n8 tile (q = lane % 4).
__host__ __device__ inline float2 acc_pair(const float (&c)[4], int h) { return make_float2(c[2 * h], c[2 * h + 1]); }
__host__ __device__ inline float2 acc_pair(const uint32_t (&c)[2], int h) {
  return make_float2(half_bits_to_float(static_cast<uint16_t>(c[h])),
                     half_bits_to_float(static_cast<uint16_t>(c[h] >> 16)));
}

// pack_rn rounds two fp32 values to fp16, each once to nearest even (lo in the
// low half); overflow gives +-Inf.
__host__ __device__ inline uint32_t pack_rn(float lo, float hi) {
#ifdef __CUDA_ARCH__
  const __half2 h2 = __floats2half2_rn(lo, hi);  // one cvt.rn.f16x2.f32
  return *reinterpret_cast<const uint32_t*>(&h2);
#else
  const __half_raw l = __half_raw(__float2half_rn(lo)), h = __half_raw(__float2half_rn(hi));
  return static_cast<uint32_t>(l.x) | static_cast<uint32_t>(h.x) << 16;
#endif
}

// The epilogue transposes, within each quad of lanes (one row of an mma
// fragment), a 4 x 4 matrix of half2 words: lane q holds word q of n8 tiles
// 0..3, and afterwards holds words 0..3 of tile q, 8 consecutive columns. Two
// steps, across lane bit 1 then bit 2; in each, a lane swaps with its partner
// the two words whose index differs from q in that bit. xpose_send and
// xpose_recv are the per-lane halves of one exchange (o picks which of the
// two words), so the host test can run them on 32 simulated lanes.
template <int BIT>
__host__ __device__ __forceinline__ uint32_t xpose_send(const uint32_t (&w)[4], int q, int o) {
  const int j0 = BIT == 1 ? 2 * o : o;  // the pair {j0, j0 + BIT} differs in bit BIT
  return (q & BIT) ? w[j0] : w[j0 + BIT];
}
template <int BIT>
__host__ __device__ __forceinline__ void xpose_recv(uint32_t (&w)[4], int q, int o, uint32_t v) {
  const int j0 = BIT == 1 ? 2 * o : o;
  if (q & BIT) {
    w[j0] = v;
  } else {
    w[j0 + BIT] = v;
  }
}

// Epilogue geometry of a warp tile: for m16 tile mi, row half h and group of
// four n8 tiles grp, lane stores row epi_row and 8 columns from epi_col; the
// NI % 4 remaining n8 tiles, if any, are stored two columns per lane as the
// mma leaves them (epi_tail_col).
__host__ __device__ constexpr int epi_row(int lane, int mi, int h) { return mi * 16 + h * 8 + lane / 4; }
__host__ __device__ constexpr int epi_col(int lane, int grp) { return grp * 32 + (lane % 4) * 8; }
__host__ __device__ constexpr int epi_tail_col(int lane, int ni) { return ni * 8 + (lane % 4) * 2; }

// ---------------------------------------------------------------------------
// Configuration.

// Config fixes one instance: block tile BM x BN x BK, warp tile WM x WN,
// pipeline STAGES, occupancy hint, storage orders of A and B, accumulator,
// and the most blocks sharing one C tile's k range (SPLIT_K).
template <int BM_, int BN_, int BK_, int WM_, int WN_, int STAGES_, int MIN_BLOCKS_, Order A_ORDER_, Order B_ORDER_,
          Accum ACC_, int SPLIT_K_ = 1>
struct Config {
  static constexpr int BM = BM_, BN = BN_, BK = BK_, WM = WM_, WN = WN_;
  static constexpr int kStages = STAGES_;
  static constexpr int kMinBlocks = MIN_BLOCKS_;
  static constexpr Accum kAccum = ACC_;
  static constexpr int kSplitK = SPLIT_K_;
  static constexpr bool kStream = false;  // (kgen::workspace_bytes: sgemm's stream-K only)
  // Splits always sum through a workspace (kgen/common.cuh).
  static constexpr bool kClusterReduce = false;
  // Launched early on sm_90 (programmatic dependent launch, kgen/launch.cuh)
  // where early_pays.
  static constexpr bool kEarly = true;
  static constexpr bool kAKContig = A_ORDER_ == Order::Row;  // A is M x K
  static constexpr bool kBKContig = B_ORDER_ == Order::Col;  // B is K x N
  static constexpr int kWarpsM = BM / WM, kWarpsN = BN / WN;
  static constexpr int kThreads = 32 * kWarpsM * kWarpsN;
  static constexpr int kMI = WM / 16, kNI = WN / 8, kKSteps = BK / 16;
  static constexpr int kEpiGroups = kNI / 4;  // groups of four n8 tiles written 16 bytes per lane

  using TileA = Tile<BM, BK, kAKContig>;
  using TileB = Tile<BN, BK, kBKContig>;
  using CopyA = Copy<TileA, kThreads>;
  using CopyB = Copy<TileB, kThreads>;
  using FragA = Frag<TileA, true>;
  using FragB = Frag<TileB, false>;
  using BasesA = typename FragA::template Bases<kKSteps, kMI>;
  using BasesB = typename FragB::template Bases<kKSteps, kNI / 2>;

  static constexpr int kStageBytes = TileA::kBytes + TileB::kBytes;
  static constexpr int kSmemBytes = kStages * kStageBytes;

  static_assert(BM > 0 && BN > 0 && WM > 0 && WN > 0, "tiles are positive");
  static_assert(BM % WM == 0 && BN % WN == 0, "warp tiles divide the block tile");
  static_assert(WM % 16 == 0, "warp M is a multiple of the mma M (16)");
  static_assert(WN % 16 == 0, "warp N is a multiple of 16 (one ldmatrix.x4 gives two n8 B fragments)");
  static_assert(BK % 32 == 0, "block K is a multiple of 32 (an even number of k16 steps: fragments double-buffer)");
  static_assert(kStages >= 3 && kStages <= 8, "stages are 3 to 8");
  static_assert(kMinBlocks >= 1, "min blocks per SM is at least 1");
  static_assert(kSplitK >= 1, "split_k is at least 1");
  static_assert(kThreads <= 1024, "at most 1024 threads per block");
  static_assert(kSmemBytes <= max_smem_per_block(90), "shared memory exceeds every target's limit");
};

// ---------------------------------------------------------------------------
// Raster order and operands (host and device).

// block_origin gives the first row and column of C computed by block bid of
// an M x N problem, in the grouped raster order (tile_origin, kgen/common.cuh).
template <class K>
__host__ __device__ inline void block_origin(unsigned bid, int M, int N, int& m0, int& n0) {
  tile_origin<K>(bid, ceil_div(M, K::BM), ceil_div(N, K::BN), m0, n0);
}

// Stored is a matrix as it lies in memory: element (r, c) at ptr[r * ld + c].
struct Stored {
  const uint16_t* ptr;
  int64_t ld;
  int rows, cols;
};

// chunk_valid is how many of the 8 halves from stored (r, c) lie inside s.
__host__ __device__ inline int chunk_valid(const Stored& s, int r, int c) {
  if (r >= s.rows || c >= s.cols) return 0;
  return s.cols - c < 8 ? s.cols - c : 8;
}

// ---------------------------------------------------------------------------
// Device primitives (PTX).

__device__ __forceinline__ void mma(float (&d)[4], const uint32_t (&a)[4], const uint32_t (&b)[2]) {
  asm("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
      "{%0, %1, %2, %3};\n"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}
__device__ __forceinline__ void mma(uint32_t (&d)[2], const uint32_t (&a)[4], const uint32_t (&b)[2]) {
  asm("mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16 {%0, %1}, {%2, %3, %4, %5}, {%6, %7}, {%0, %1};\n"
      : "+r"(d[0]), "+r"(d[1])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}

// ---------------------------------------------------------------------------
// Main loop.

// Loader issues one operand's copies of k tile kt into a stage. Its address
// arithmetic is host-callable so that the host test can check that the fast
// path's incremented pointers equal the checked path's computed ones.
template <class T, class CP, int BK>
struct Loader {
  Stored s;
  int mn0;                // first m (A) or n (B) of the block
  bool vec;               // every stored row starts on 16 bytes
  int64_t k_step;         // elements between k tiles, for one chunk
  int64_t row_step;       // elements between a thread's consecutive copies
  const uint16_t* first;  // this thread's first chunk in k tile 0
  uint32_t soff[CP::kCopies];

  __host__ __device__ void init(const Stored& st, int mn0_, int tid) {
    s = st;
    mn0 = mn0_;
    vec = aligned16(s.ptr, s.ld);
    k_step = T::kKContig ? BK : static_cast<int64_t>(BK) * s.ld;
    row_step = static_cast<int64_t>(CP::kRowStep) * s.ld;
    const int r = T::stored_row(mn0, 0) + CP::row(tid, 0), c = T::stored_col(mn0, 0) + CP::chunk(tid) * 8;
    first = s.ptr + static_cast<int64_t>(r) * s.ld + c;
#pragma unroll
    for (int i = 0; i < CP::kCopies; ++i) soff[i] = CP::smem_offset(tid, i);
  }

  // fast_src is copy i's source in k tile kt on the fast path.
  __host__ __device__ const uint16_t* fast_src(int kt, int i) const { return first + kt * k_step + i * row_step; }

  // src is copy i's source in k tile kt, with the number of its halves that
  // lie inside the matrix.
  __host__ __device__ const uint16_t* src(int kt, int i, int tid, int& n) const {
    const int r = T::stored_row(mn0, kt * BK) + CP::row(tid, i), c = T::stored_col(mn0, kt * BK) + CP::chunk(tid) * 8;
    n = chunk_valid(s, r, c);
    return s.ptr + static_cast<int64_t>(r) * s.ld + c;
  }

  // The whole tile lies inside the matrix and vec holds.
  __device__ __forceinline__ void load_fast(uint32_t stage, int kt, int tid) const {
#pragma unroll
    for (int i = 0; i < CP::kCopies; ++i) {
      if (CP::active(tid, i)) cp_async16(stage + soff[i], fast_src(kt, i));
    }
  }

  // Chunk by chunk: whole in-bounds aligned chunks by cp.async, the rest
  // element by element with zeros outside the matrix.
  __device__ __forceinline__ void load_checked(uint32_t stage, int kt, int tid) const {
#pragma unroll
    for (int i = 0; i < CP::kCopies; ++i) {
      if (!CP::active(tid, i)) continue;
      int n = 0;
      const uint16_t* g = src(kt, i, tid, n);
      if (n == 8 && vec) {
        cp_async16(stage + soff[i], g);
      } else {
        uint32_t w[4] = {0, 0, 0, 0};
#pragma unroll
        for (int e = 0; e < 8; ++e) {
          if (e < n) {
            const uint32_t v = __ldg(reinterpret_cast<const unsigned short*>(g + e));
            w[e / 2] |= v << (16 * (e % 2));
          }
        }
        st_shared16(stage + soff[i], w[0], w[1], w[2], w[3]);
      }
    }
  }
};

template <class K>
struct Frags {
  uint32_t a[K::kMI][4];
  uint32_t b[K::kNI][2];
};

template <class K>
__device__ __forceinline__ void load_frags(Frags<K>& f, uint32_t sa, uint32_t sb, const typename K::BasesA& ba,
                                           const typename K::BasesB& bb, int ks) {
#pragma unroll
  for (int mi = 0; mi < K::kMI; ++mi) ldsm_x4<!K::kAKContig>(f.a[mi], sa + ba.at(ks, mi));
#pragma unroll
  for (int p = 0; p < K::kNI / 2; ++p) {
    uint32_t r[4];
    ldsm_x4<!K::kBKContig>(r, sb + bb.at(ks, p));
    f.b[2 * p][0] = r[0], f.b[2 * p][1] = r[1];
    f.b[2 * p + 1][0] = r[2], f.b[2 * p + 1][1] = r[3];
  }
}

// mma_step issues a k step's mmas in serpentine order over the warp tile
// (the fragment at each turn is reused): with fp32 accumulators column by
// column, with fp16 ones row by row. The order is what ptxas schedules
// from. On an H100, by column ran the fp32 256x128x64 and 128x256x32 tiles
// 2-8% faster than by row (harness hgemm_variants.cu -DMMA_ORDERS) and the
// engine's HGEMM 1-8% faster at n >= 2048 in the bench, but the
// fp16-accumulating tiles up to 5% slower (bench/results/
// h100-2026-11-24-session13.md).
template <class K>
__device__ __forceinline__ void mma_step(AccFrag<K::kAccum> (&acc)[K::kMI][K::kNI], const Frags<K>& f) {
  constexpr bool kByColumn = K::kAccum == Accum::F32;
  constexpr int kOuter = kByColumn ? K::kNI : K::kMI, kInner = kByColumn ? K::kMI : K::kNI;
#pragma unroll
  for (int o = 0; o < kOuter; ++o) {
#pragma unroll
    for (int j = 0; j < kInner; ++j) {
      const int in = (o % 2) ? kInner - 1 - j : j;
      const int mi = kByColumn ? in : o, ni = kByColumn ? o : in;
      mma(acc[mi][ni], f.a[mi], f.b[ni]);
    }
  }
}

// mainloop multiplies k tiles [kt_begin, kt_end) into acc. In k tile t, k
// step 0 issues the copies of tile t + STAGES - 1 into the stage read during
// tile t - 1 (free since the barrier in tile t - 1's last k step); the last k
// step waits for tile t + 1, passes a barrier and loads its first fragments,
// so the ldmatrix of the next tile overlaps this tile's last mmas. Committed
// groups, empty ones included, stay one per tile so that wait_group counts
// tiles.
template <class K, bool CHECKED>
__device__ __forceinline__ void mainloop(const Loader<typename K::TileA, typename K::CopyA, K::BK>& la,
                                         const Loader<typename K::TileB, typename K::CopyB, K::BK>& lb,
                                         int kt_begin, int kt_end, uint32_t smem, const typename K::BasesA& ba,
                                         const typename K::BasesB& bb, AccFrag<K::kAccum> (&acc)[K::kMI][K::kNI]) {
  constexpr int S = K::kStages, KS = K::kKSteps;
  constexpr uint32_t kB = K::TileA::kBytes;  // B's offset within a stage
  const int n = kt_end - kt_begin;
  if (n <= 0) return;
  const int tid = threadIdx.x;
  auto load = [&](int t, int slot) {
    const uint32_t stage = smem + slot * K::kStageBytes;
    if (CHECKED) {
      la.load_checked(stage, kt_begin + t, tid);
      lb.load_checked(stage + kB, kt_begin + t, tid);
    } else {
      la.load_fast(stage, kt_begin + t, tid);
      lb.load_fast(stage + kB, kt_begin + t, tid);
    }
  };
#pragma unroll
  for (int s = 0; s < S - 1; ++s) {
    if (s < n) load(s, s);
    cp_async_commit();
  }
  cp_async_wait<S - 2>();
  __syncthreads();

  Frags<K> f[2];
  int read_slot = 0, write_slot = S - 1;
  load_frags<K>(f[0], smem, smem + kB, ba, bb, 0);
#pragma unroll 1
  for (int t = 0; t < n; ++t) {
#pragma unroll
    for (int ks = 0; ks < KS; ++ks) {
      if (ks == 0) {
        if (t + S - 1 < n) load(t + S - 1, write_slot);
        cp_async_commit();
        write_slot = write_slot == S - 1 ? 0 : write_slot + 1;
      }
      if (ks == KS - 1) {
        cp_async_wait<S - 2>();
        __syncthreads();
        read_slot = read_slot == S - 1 ? 0 : read_slot + 1;
      }
      const uint32_t stage = smem + read_slot * K::kStageBytes;
      if (ks < KS - 1 || t + 1 < n) load_frags<K>(f[(ks + 1) % 2], stage, stage + kB, ba, bb, (ks + 1) % KS);
      mma_step<K>(acc, f[ks % 2]);
    }
  }
  // Drain the (empty) groups still counted and free the stages for a
  // following call.
  cp_async_wait<0>();
  __syncthreads();
}

// ---------------------------------------------------------------------------
// Epilogue.

// combine is alpha * v + beta * c in fp32, rounded once to a half2 word; with
// beta == 0, c is not used (the caller does not read it).
__host__ __device__ inline uint32_t combine(float2 v, float alpha, float beta, float2 c) {
  v.x *= alpha, v.y *= alpha;
  if (beta != 0.0f) v.x = fmaf(beta, c.x, v.x), v.y = fmaf(beta, c.y, v.y);
  return pack_rn(v.x, v.y);
}

// store_count says how lane writes n columns from (row, col) of C: with
// vector, one 16-byte store of all n == width of them; otherwise the first n
// one by one. Unchecked, the tile is known to lie inside C and be aligned.
__host__ __device__ inline int store_count(bool checked, bool vec, int row, int col, int M, int N, int width,
                                           bool& vector) {
  vector = !checked || (vec && row < M && col + width <= N);
  if (vector) return width;
  if (row >= M || col >= N) return 0;
  return N - col < width ? N - col : width;
}

// out_pair is combine() for the fragment pair at (row, col), col even, reading
// C only when beta != 0 and, when CHECKED, only inside it.
template <bool CHECKED>
__device__ __forceinline__ uint32_t out_pair(float2 v, int row, int col, int M, int N, float alpha, float beta,
                                             const uint16_t* C, int64_t ldc) {
  float2 c = make_float2(0.0f, 0.0f);
  if (beta != 0.0f) {
    const uint16_t* p = C + static_cast<int64_t>(row) * ldc + col;
    if (!CHECKED) {
      c = __half22float2(*reinterpret_cast<const __half2*>(p));
    } else if (row < M) {
      if (col < N) c.x = half_bits_to_float(p[0]);
      if (col + 1 < N) c.y = half_bits_to_float(p[1]);
    }
  }
  return combine(v, alpha, beta, c);
}

// store_words writes the first n of the 2 * W halves in w at p, as one
// vector store when vector.
template <int W>
__device__ __forceinline__ void store_words(uint16_t* p, const uint32_t (&w)[W], bool vector, int n) {
  if (vector) {
    if constexpr (W == 4) {
      *reinterpret_cast<uint4*>(p) = make_uint4(w[0], w[1], w[2], w[3]);
    } else {
      *reinterpret_cast<uint32_t*>(p) = w[0];
    }
    return;
  }
#pragma unroll
  for (int e = 0; e < 2 * W; ++e) {
    if (e < n) p[e] = static_cast<uint16_t>(w[e / 2] >> (16 * (e % 2)));
  }
}

// epilogue writes a warp tile whose first element is C's (wm0, wn0). CHECKED
// tests every row and column against M and N and uses 16-byte stores only
// where vec (C's rows 16-byte aligned) and the 8 columns fit.
template <class K, bool CHECKED>
__device__ __forceinline__ void epilogue(const AccFrag<K::kAccum> (&acc)[K::kMI][K::kNI], int wm0, int wn0, int M,
                                         int N, float alpha, float beta, uint16_t* C, int64_t ldc, bool vec) {
  const int lane = threadIdx.x % 32, q = lane % 4;
#pragma unroll
  for (int mi = 0; mi < K::kMI; ++mi) {
#pragma unroll
    for (int h = 0; h < 2; ++h) {
      const int row = wm0 + epi_row(lane, mi, h);
      uint16_t* crow = C + static_cast<int64_t>(row) * ldc;
#pragma unroll
      for (int grp = 0; grp < K::kEpiGroups; ++grp) {
        uint32_t w[4];
#pragma unroll
        for (int j = 0; j < 4; ++j) {
          const int ni = grp * 4 + j;
          w[j] = out_pair<CHECKED>(acc_pair(acc[mi][ni], h), row, wn0 + epi_tail_col(lane, ni), M, N, alpha, beta, C,
                                   ldc);
        }
#pragma unroll
        for (int o = 0; o < 2; ++o) xpose_recv<1>(w, q, o, __shfl_xor_sync(0xffffffffu, xpose_send<1>(w, q, o), 1));
#pragma unroll
        for (int o = 0; o < 2; ++o) xpose_recv<2>(w, q, o, __shfl_xor_sync(0xffffffffu, xpose_send<2>(w, q, o), 2));
        const int col = wn0 + epi_col(lane, grp);
        bool vector = false;
        const int n = store_count(CHECKED, vec, row, col, M, N, 8, vector);
        store_words(crow + col, w, vector, n);
      }
#pragma unroll
      for (int ni = K::kEpiGroups * 4; ni < K::kNI; ++ni) {
        const int col = wn0 + epi_tail_col(lane, ni);
        const uint32_t w[1] = {out_pair<CHECKED>(acc_pair(acc[mi][ni], h), row, col, M, N, alpha, beta, C, ldc)};
        bool vector = false;
        const int n = store_count(CHECKED, vec, row, col, M, N, 2, vector);
        store_words(crow + col, w, vector, n);
      }
    }
  }
}

// store_partial writes a warp tile's unscaled accumulators, as fp32, to the
// partial C part (M x N, row-major, ld N) of a split, from C's (wm0, wn0):
// 8 bytes a lane where N is even (then every pair starts on 8 bytes), else
// one float at a time; only inside M x N.
template <class K>
__device__ __forceinline__ void store_partial(const AccFrag<K::kAccum> (&acc)[K::kMI][K::kNI], int wm0, int wn0, int M,
                                              int N, float* part) {
  const int lane = threadIdx.x % 32;
#pragma unroll
  for (int mi = 0; mi < K::kMI; ++mi) {
#pragma unroll
    for (int h = 0; h < 2; ++h) {
      const int row = wm0 + epi_row(lane, mi, h);
      if (row >= M) continue;
      float* prow = part + static_cast<int64_t>(row) * N;
#pragma unroll
      for (int ni = 0; ni < K::kNI; ++ni) {
        const int col = wn0 + epi_tail_col(lane, ni);
        const float2 v = acc_pair(acc[mi][ni], h);
        if (N % 2 == 0 && col + 1 < N) {
          *reinterpret_cast<float2*>(prow + col) = v;
        } else {
          if (col < N) prow[col] = v.x;
          if (col + 1 < N) prow[col + 1] = v.y;
        }
      }
    }
  }
}

// ---------------------------------------------------------------------------
// Kernel and launcher.

template <class K>
__global__ void __launch_bounds__(K::kThreads, K::kMinBlocks)
    hgemm_kernel(int M, int N, int Kd, float alpha, const uint16_t* __restrict__ A, int64_t lda,
                 const uint16_t* __restrict__ B, int64_t ldb, float beta, uint16_t* __restrict__ C, int64_t ldc,
                 float* __restrict__ ws) {
#ifdef __CUDA_ARCH__
  static_assert(K::kSmemBytes <= max_smem_per_block(__CUDA_ARCH__ / 10),
                "the config's shared memory exceeds this arch's per-block limit");
#endif
  extern __shared__ __align__(128) uint8_t kgen_hgemm_smem[];
  const uint32_t smem = smem_u32(kgen_hgemm_smem);
  if constexpr (K::kEarly) {
    // Maybe launched early (early_pays): nothing before the wait touches
    // memory. Launched otherwise, the wait returns at once.
    allow_early_start();
    wait_prior_grids();
  }

  int m0 = 0, n0 = 0;
  block_origin<K>(blockIdx.x, M, N, m0, n0);
  const int tid = threadIdx.x, warp = tid / 32, lane = tid % 32;
  const int wm = (warp / K::kWarpsN) * K::WM, wn = (warp % K::kWarpsN) * K::WN;

  // A as stored is M x K (row-major) or K x M; B is N x K (column-major) or K x N.
  Loader<typename K::TileA, typename K::CopyA, K::BK> la;
  Loader<typename K::TileB, typename K::CopyB, K::BK> lb;
  la.init(K::kAKContig ? Stored{A, lda, M, Kd} : Stored{A, lda, Kd, M}, m0, tid);
  lb.init(K::kBKContig ? Stored{B, ldb, N, Kd} : Stored{B, ldb, Kd, N}, n0, tid);
  typename K::BasesA ba;
  typename K::BasesB bb;
  ba.init(lane, wm);
  bb.init(lane, wn);

  AccFrag<K::kAccum> acc[K::kMI][K::kNI];
#pragma unroll
  for (int mi = 0; mi < K::kMI; ++mi) {
#pragma unroll
    for (int ni = 0; ni < K::kNI; ++ni) {
#pragma unroll
      for (int i = 0; i < static_cast<int>(sizeof(acc[mi][ni]) / 4); ++i) acc[mi][ni][i] = 0;
    }
  }

  // This block's k tiles: all of them, or its split's share (grid y).
  int kt_begin, kt_end;
  split_k_tiles(ceil_div(Kd, K::BK), kt_begin, kt_end);
  const bool full_mn = m0 + K::BM <= M && n0 + K::BN <= N;
  // Whole k tiles on the fast path where it applies, then the rest (the
  // partial k tile, or everything) checked.
  int kt_checked = kt_begin;
  if (full_mn && la.vec && lb.vec) {
    kt_checked = max(kt_begin, min(kt_end, Kd / K::BK));
    mainloop<K, false>(la, lb, kt_begin, kt_checked, smem, ba, bb, acc);
  }
  mainloop<K, true>(la, lb, kt_checked, kt_end, smem, ba, bb, acc);

  if constexpr (K::kSplitK > 1) {
    if (gridDim.y > 1) {
      store_partial<K>(acc, m0 + wm, n0 + wn, M, N, ws + static_cast<int64_t>(blockIdx.y) * M * N);
      return;
    }
  }
  const bool vec_c = aligned16(C, ldc);
  if (full_mn && vec_c) {
    epilogue<K, false>(acc, m0 + wm, n0 + wn, M, N, alpha, beta, C, ldc, true);
  } else {
    epilogue<K, true>(acc, m0 + wm, n0 + wn, M, N, alpha, beta, C, ldc, vec_c);
  }
}

// check_args validates the launcher's arguments; KGEN_OK + 1 means "valid,
// nothing to do".
template <class K>
inline int check_args(int M, int N, int Kd, const void* A, int64_t lda, const void* B, int64_t ldb, const void* C,
                      int64_t ldc) {
  if (M < 0 || N < 0 || Kd < 0) return KGEN_ERR_NEGATIVE_DIM;
  const int64_t need_lda = K::kAKContig ? Kd : M;  // length of a stored row of A
  const int64_t need_ldb = K::kBKContig ? Kd : N;
  if (lda < (need_lda > 1 ? need_lda : 1) || ldb < (need_ldb > 1 ? need_ldb : 1) || ldc < (N > 1 ? N : 1)) {
    return KGEN_ERR_LEADING_DIM;
  }
  if (M == 0 || N == 0) return KGEN_OK + 1;
  if (C == nullptr || (Kd > 0 && (A == nullptr || B == nullptr))) return KGEN_ERR_NULL_POINTER;
  const int64_t blocks = static_cast<int64_t>(ceil_div(M, K::BM)) * ceil_div(N, K::BN);
  if (blocks > 0x7fffffff) return KGEN_ERR_GRID_TOO_LARGE;
  return KGEN_OK;
}

// F16 is C's element for reduce_splits (kgen/common.cuh): fp16 bits,
// rounded once to nearest even as the unsplit epilogue does.
struct F16 {
  using T = uint16_t;
  __device__ static float load(const uint16_t* p) { return half_bits_to_float(*p); }
  __device__ static void store(uint16_t* p, float v) { *p = static_cast<uint16_t>(pack_rn(v, 0.0f)); }
};

// launch checks the arguments and starts the kernel (and, when the k range
// is split, the reduction) on stream. ws must hold workspace_bytes(M, N, Kd)
// bytes (kgen/common.cuh), 16-byte aligned; it may be null when that is 0.
// It returns KGEN_OK, a negative KGEN_ERR_* code, or the cudaError_t of the
// launch.
template <class K>
int launch(int M, int N, int Kd, float alpha, const uint16_t* A, int64_t lda, const uint16_t* B, int64_t ldb,
           float beta, uint16_t* C, int64_t ldc, float* ws, int64_t ws_bytes, cudaStream_t stream) {
  const int st = check_args<K>(M, N, Kd, A, lda, B, ldb, C, ldc);
  if (st != KGEN_OK) return st == KGEN_OK + 1 ? KGEN_OK : st;
  if (const int ws_st = check_workspace<K>(M, N, Kd, ws, ws_bytes); ws_st != KGEN_OK) return ws_st;
  const int splits = splits_for<K>(M, N, Kd);  // M, N > 0: a workspace is needed exactly when splits > 1
  const cudaError_t err = allow_shared_memory<K>(hgemm_kernel<K>, K::kSmemBytes);
  if (err != cudaSuccess) return static_cast<int>(err);
  const int64_t blocks = static_cast<int64_t>(ceil_div(M, K::BM)) * ceil_div(N, K::BN);
  const dim3 grid(static_cast<unsigned>(blocks), splits);
  const bool early = kArch >= 90 && K::kEarly && early_pays<K>(hgemm_kernel<K>, K::kThreads, K::kSmemBytes);
  cudaError_t e = launch_maybe_early(early, hgemm_kernel<K>, grid, dim3(K::kThreads), K::kSmemBytes, stream, M, N, Kd,
                                     alpha, A, lda, B, ldb, beta, C, ldc, splits > 1 ? ws : nullptr);
  if constexpr (K::kSplitK > 1) {
    if (e == cudaSuccess && splits > 1) {
      e = launch_reduce<K, F16>(M, N, splits, alpha, static_cast<const float*>(ws), beta, C, ldc, stream);
    }
  }
  return static_cast<int>(e);
}

// launch without a workspace, for configs that do not split k (the
// harnesses'); a split config then returns KGEN_ERR_WORKSPACE where it
// would split.
template <class K>
int launch(int M, int N, int Kd, float alpha, const uint16_t* A, int64_t lda, const uint16_t* B, int64_t ldb,
           float beta, uint16_t* C, int64_t ldc, cudaStream_t stream) {
  return launch<K>(M, N, Kd, alpha, A, lda, B, ldb, beta, C, ldc, nullptr, 0, stream);
}

}  // namespace hgemm
}  // namespace kgen
