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
#pragma once

#include "kgen/common.cuh"

namespace kgen {
namespace sgemm {

// Padding of each shared-memory row, in floats: rows stay 16-byte aligned and
// the transposing stores of two k-rows land in different banks.
constexpr int kPad = 4;

// Raster groups: consecutive blocks walk down this many block rows before
// moving right, so blocks running together share A and B panels in L2.
constexpr int kGroupRows = 8;

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
// registers into shared memory laid out k-major: smem[k * kRow + mn].
template <int MN, int BK, int THREADS, bool K_CONTIG>
struct TileLoader {
  static constexpr int kVecs = MN * BK / 4 / THREADS;  // float4s per thread
  static constexpr int kRow = MN + kPad;
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

// Config fixes one instance: tiles, occupancy hint, whether 16-byte global
// accesses are allowed, and the storage orders of A and B.
template <int BM_, int BN_, int BK_, int WM_, int WN_, int TM_, int TN_, int MIN_BLOCKS_, bool VEC_GLOBAL_,
          Order A_ORDER_, Order B_ORDER_>
struct Config {
  static constexpr int BM = BM_, BN = BN_, BK = BK_, WM = WM_, WN = WN_, TM = TM_, TN = TN_;
  static constexpr int kMinBlocks = MIN_BLOCKS_;
  static constexpr bool kVecGlobal = VEC_GLOBAL_;
  static constexpr int kWarpsN = BN / WN;
  static constexpr int kThreads = 32 * (BM / WM) * kWarpsN;
  static constexpr int kLanesN = WN / TN;  // threads side by side along N in a warp
  static constexpr int kGroupsM = TM / 4;  // a thread's float4 groups along M
  static constexpr int kGroupsN = TN / 4;
  static constexpr int kGroupStrideM = WM / kGroupsM;  // distance between them
  static constexpr int kGroupStrideN = WN / kGroupsN;
  static constexpr bool kAKContig = A_ORDER_ == Order::Row;  // A is M x K
  static constexpr bool kBKContig = B_ORDER_ == Order::Col;  // B is K x N
  using LoaderA = TileLoader<BM, BK, kThreads, kAKContig>;
  using LoaderB = TileLoader<BN, BK, kThreads, kBKContig>;
  static constexpr int kStageA = BK * LoaderA::kRow;  // floats per buffer
  static constexpr int kStageB = BK * LoaderB::kRow;

  static_assert(BM % WM == 0 && BN % WN == 0, "warp tiles divide the block tile");
  static_assert(WM % TM == 0 && WN % TN == 0, "thread tiles divide the warp tile");
  static_assert((WM / TM) * (WN / TN) == 32, "a warp is 32 threads");
  static_assert(TM % 4 == 0 && TN % 4 == 0 && BK % 4 == 0, "fragments and k tiles are float4s");
};

// Fragments of one k step: a thread's TM values of A and TN values of B.
template <class K>
__device__ __forceinline__ void multiply_tile(const float* sA, const float* sB, int a_off, int b_off,
                                              float (&acc)[K::TM][K::TN]) {
#pragma unroll
  for (int kk = 0; kk < K::BK; ++kk) {
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
#pragma unroll
    for (int i = 0; i < K::TM; ++i) {
#pragma unroll
      for (int j = 0; j < K::TN; ++j) acc[i][j] = fmaf(a[i], b[j], acc[i][j]);
    }
  }
}

// store_c writes alpha * acc + beta * C; with beta == 0 it never reads C, so
// C may hold anything (NaN included) on entry.
template <class K>
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
        float4* c = reinterpret_cast<float4*>(C + static_cast<int64_t>(m) * ldc + n);
        float4 out = make_float4(alpha * r[0], alpha * r[1], alpha * r[2], alpha * r[3]);
        if (beta != 0.0f) {
          const float4 old = *c;
          out.x = fmaf(beta, old.x, out.x), out.y = fmaf(beta, old.y, out.y);
          out.z = fmaf(beta, old.z, out.z), out.w = fmaf(beta, old.w, out.w);
        }
        *c = out;
      } else if (m < M) {
        float* c = C + static_cast<int64_t>(m) * ldc;
#pragma unroll
        for (int j = 0; j < 4; ++j) {
          if (n + j < N) {
            float out = alpha * r[j];
            if (beta != 0.0f) out = fmaf(beta, c[n + j], out);
            c[n + j] = out;
          }
        }
      }
    }
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

template <class K>
__global__ void __launch_bounds__(K::kThreads, K::kMinBlocks)
    gemm_kernel(int M, int N, int Kd, float alpha, const float* __restrict__ A, int64_t lda,
                const float* __restrict__ B, int64_t ldb, float beta, float* __restrict__ C, int64_t ldc) {
  __shared__ __align__(16) float smem_a[2 * K::kStageA];
  __shared__ __align__(16) float smem_b[2 * K::kStageB];

  // Grouped raster order over the block tiles.
  const int tiles_m = ceil_div(M, K::BM), tiles_n = ceil_div(N, K::BN);
  const int per_group = kGroupRows * tiles_n;
  const int group = blockIdx.x / per_group;
  const int first_m = group * kGroupRows;
  const int rows = min(tiles_m - first_m, kGroupRows);
  const int in_group = blockIdx.x % per_group;
  const int m0 = (first_m + in_group % rows) * K::BM;
  const int n0 = (in_group / rows) * K::BN;

  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const int a_off = (warp / K::kWarpsN) * K::WM + (lane / K::kLanesN) * 4;
  const int b_off = (warp % K::kWarpsN) * K::WN + (lane % K::kLanesN) * 4;

  const Operand<K::kAKContig> op_a{A, lda};
  const Operand<K::kBKContig> op_b{B, ldb};
  const bool full_mn = m0 + K::BM <= M && n0 + K::BN <= N;
  const bool vec = K::kVecGlobal && full_mn && vector_ok(A, lda) && vector_ok(B, ldb);

  float acc[K::TM][K::TN];
#pragma unroll
  for (int i = 0; i < K::TM; ++i) {
#pragma unroll
    for (int j = 0; j < K::TN; ++j) acc[i][j] = 0.0f;
  }

  const int k_tiles = ceil_div(Kd, K::BK);
  if (vec) {
    // Whole k tiles on the fast path, then the partial one, if any, checked.
    const int k_full = Kd / K::BK;
    mainloop<K, true>(op_a, op_b, m0, n0, M, N, Kd, 0, k_full, a_off, b_off, smem_a, smem_b, acc);
    mainloop<K, false>(op_a, op_b, m0, n0, M, N, Kd, k_full, k_tiles, a_off, b_off, smem_a, smem_b, acc);
  } else {
    mainloop<K, false>(op_a, op_b, m0, n0, M, N, Kd, 0, k_tiles, a_off, b_off, smem_a, smem_b, acc);
  }

  const bool vec_c = K::kVecGlobal && full_mn && vector_ok(C, ldc);
  store_c<K>(acc, m0 + a_off, n0 + b_off, M, N, alpha, beta, C, ldc, vec_c);
}

// launch checks the arguments and starts the kernel on stream. It returns
// KGEN_OK, a negative KGEN_ERR_* code, or the cudaError_t of the launch.
template <class K>
int launch(int M, int N, int Kd, float alpha, const float* A, int64_t lda, const float* B, int64_t ldb, float beta,
           float* C, int64_t ldc, cudaStream_t stream) {
  if (M < 0 || N < 0 || Kd < 0) return KGEN_ERR_NEGATIVE_DIM;
  const int64_t need_lda = K::kAKContig ? Kd : M;  // length of a stored row of A
  const int64_t need_ldb = K::kBKContig ? Kd : N;
  if (lda < (need_lda > 1 ? need_lda : 1) || ldb < (need_ldb > 1 ? need_ldb : 1) || ldc < (N > 1 ? N : 1)) {
    return KGEN_ERR_LEADING_DIM;
  }
  if (M == 0 || N == 0) return KGEN_OK;
  if (C == nullptr || (Kd > 0 && (A == nullptr || B == nullptr))) return KGEN_ERR_NULL_POINTER;
  const int64_t blocks = static_cast<int64_t>(ceil_div(M, K::BM)) * ceil_div(N, K::BN);
  if (blocks > 0x7fffffff) return KGEN_ERR_GRID_TOO_LARGE;
  gemm_kernel<K><<<static_cast<unsigned>(blocks), K::kThreads, 0, stream>>>(M, N, Kd, alpha, A, lda, B, ldb, beta,
                                                                             C, ldc);
  return static_cast<int>(cudaGetLastError());
}

}  // namespace sgemm
}  // namespace kgen
