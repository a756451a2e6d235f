// The seed article's SGEMM ladder (kgen issue 9), kept as reference kernels
// so that the bench can show what each step is worth on the GPU it runs on:
//   C = alpha * A * B + beta * C,  A: M x K, B: K x N, C: M x N, all row-major,
// any M, N, K >= 0 and leading dimensions; beta == 0 never reads C.
//
// The steps, each one change from the one before:
//   Naive        one thread per C element, consecutive threads on consecutive
//                rows of C, so a warp's reads of B and writes of C are
//                strided by the leading dimension (uncoalesced);
//   Coalesced    the same with consecutive threads on consecutive columns:
//                a warp reads one row of B and writes one row of C;
//   Smem         BM x BK and BK x BN tiles of A and B staged in shared memory,
//                each element read from global memory once per block;
//   BlockTile1D  each thread TM rows of one column, so a B element read from
//                shared memory serves TM products;
//   BlockTile2D  each thread a TM x TN tile: an outer product of TM values of
//                A and TN of B held in registers per k;
//   Vectorized   the same with 16-byte global loads (A transposed into shared
//                memory on the way), float4 shared-memory reads and 16-byte C
//                stores, each where the rows are aligned and the tile lies
//                inside the matrix, element by element elsewhere.
// The later steps (warp tiles, double buffering, cp.async) are kgen's own
// template, sgemm.cuh. Launchers take the f32 gemm signature; split-K's
// workspace arguments are ignored.
#pragma once

#include "kgen/common.cuh"

namespace kgen {
namespace sgemm_ladder {

// Step is the rung of the ladder an instance implements.
enum class Step { Naive, Coalesced, Smem, BlockTile1D, BlockTile2D, Vectorized };

// Config is an instance's step and tile: a BM x BN block tile of C, BK-deep
// k tiles through shared memory (Smem onwards), TM x TN C elements per
// thread (BlockTile1D onwards; TN is 1 for BlockTile1D).
template <Step STEP, int BM_, int BN_, int BK_, int TM_, int TN_>
struct Config {
  static constexpr Step kStep = STEP;
  static constexpr int BM = BM_, BN = BN_, BK = BK_, TM = TM_, TN = TN_;
  static constexpr int kThreads = (BM / TM) * (BN / TN);
  static_assert(BM % TM == 0 && BN % TN == 0, "thread tiles must divide the block tile");
  static_assert(kThreads % 32 == 0 && kThreads <= 1024, "whole warps, at most 1024 threads");
  static_assert(STEP != Step::Vectorized || (BK % 4 == 0 && BN % 4 == 0 && TM % 4 == 0 && TN % 4 == 0),
                "the vectorized step moves float4s");
};

// element is A[r][c] of a rows x cols row-major matrix, 0 outside it, so a
// partial tile multiplies as if padded with zeros.
__device__ __forceinline__ float element(const float* p, int64_t ld, int r, int c, int rows, int cols) {
  return r < rows && c < cols ? p[static_cast<int64_t>(r) * ld + c] : 0.0f;
}

// store writes alpha * acc + beta * C[m][n] inside C; beta == 0 does not
// read C, which may hold anything (NaN included).
__device__ __forceinline__ void store(float* C, int64_t ldc, int m, int n, int M, int N, float alpha, float beta,
                                      float acc) {
  if (m < M && n < N) store_blended(C + static_cast<int64_t>(m) * ldc + n, alpha * acc, beta);
}

// column_origin maps the block to its C tile, the tiles of one column of
// block tiles being consecutive blocks (the article's grid, x over M).
template <class K>
__device__ __forceinline__ void column_origin(int M, int& m0, int& n0) {
  const int tiles_m = ceil_div(M, K::BM);
  m0 = static_cast<int>(blockIdx.x % tiles_m) * K::BM;
  n0 = static_cast<int>(blockIdx.x / tiles_m) * K::BN;
}

// direct is the Naive and Coalesced steps: no reuse, every operand element
// read from global memory (or cache) once per product.
template <class K>
__global__ void __launch_bounds__(K::kThreads)
    direct(int M, int N, int Kd, float alpha, const float* __restrict__ A, int64_t lda, const float* __restrict__ B,
           int64_t ldb, float beta, float* __restrict__ C, int64_t ldc) {
  int m0, n0;
  column_origin<K>(M, m0, n0);
  const int t = threadIdx.x;
  const bool rows_first = K::kStep == Step::Naive;  // the uncoalesced order
  const int m = m0 + (rows_first ? t % K::BM : t / K::BN);
  const int n = n0 + (rows_first ? t / K::BM : t % K::BN);
  if (m >= M || n >= N) return;
  const float* a = A + static_cast<int64_t>(m) * lda;
  float acc = 0.0f;
  for (int k = 0; k < Kd; ++k) acc = fmaf(a[k], B[static_cast<int64_t>(k) * ldb + n], acc);
  store(C, ldc, m, n, M, N, alpha, beta, acc);
}

// load_tiles stages the k tile at k0 element by element: As[BM][BK] and
// Bs[BK][BN], zeros outside the matrices. The strided loops let any tile and
// thread count fit; consecutive threads read consecutive addresses.
template <class K>
__device__ __forceinline__ void load_tiles(const float* A, int64_t lda, const float* B, int64_t ldb, int M, int N,
                                           int Kd, int m0, int n0, int k0, float* As, float* Bs) {
  for (int i = threadIdx.x; i < K::BM * K::BK; i += K::kThreads) {
    const int r = i / K::BK, c = i % K::BK;
    As[i] = element(A, lda, m0 + r, k0 + c, M, Kd);
  }
  for (int i = threadIdx.x; i < K::BK * K::BN; i += K::kThreads) {
    const int r = i / K::BN, c = i % K::BN;
    Bs[i] = element(B, ldb, k0 + r, n0 + c, Kd, N);
  }
}

// tiled is the Smem, BlockTile1D and BlockTile2D steps: one kernel, since
// they differ only in the thread tile (1 x 1, TM x 1, TM x TN); the k tile
// goes through shared memory, one barrier before and one after its products.
template <class K>
__global__ void __launch_bounds__(K::kThreads)
    tiled(int M, int N, int Kd, float alpha, const float* __restrict__ A, int64_t lda, const float* __restrict__ B,
          int64_t ldb, float beta, float* __restrict__ C, int64_t ldc) {
  __shared__ float As[K::BM * K::BK];
  __shared__ float Bs[K::BK * K::BN];
  int m0, n0;
  column_origin<K>(M, m0, n0);
  constexpr int kCols = K::BN / K::TN;  // threads along a row of the block tile
  const int tm = threadIdx.x / kCols * K::TM, tn = threadIdx.x % kCols * K::TN;

  float acc[K::TM][K::TN] = {};
  for (int k0 = 0; k0 < Kd; k0 += K::BK) {
    load_tiles<K>(A, lda, B, ldb, M, N, Kd, m0, n0, k0, As, Bs);
    __syncthreads();
#pragma unroll
    for (int kk = 0; kk < K::BK; ++kk) {
      float a[K::TM], b[K::TN];
#pragma unroll
      for (int i = 0; i < K::TM; ++i) a[i] = As[(tm + i) * K::BK + kk];
#pragma unroll
      for (int j = 0; j < K::TN; ++j) b[j] = Bs[kk * K::BN + tn + j];
#pragma unroll
      for (int i = 0; i < K::TM; ++i) {
#pragma unroll
        for (int j = 0; j < K::TN; ++j) acc[i][j] = fmaf(a[i], b[j], acc[i][j]);
      }
    }
    __syncthreads();
  }
#pragma unroll
  for (int i = 0; i < K::TM; ++i) {
#pragma unroll
    for (int j = 0; j < K::TN; ++j) store(C, ldc, m0 + tm + i, n0 + tn + j, M, N, alpha, beta, acc[i][j]);
  }
}

// load4 reads p[r][c..c+3] of a rows x cols matrix: one 16-byte load when
// vec says the rows are aligned and the four lie inside, else one by one.
__device__ __forceinline__ float4 load4(const float* p, int64_t ld, int r, int c, int rows, int cols, bool vec) {
  if (vec && r < rows && c + 3 < cols) {
    return *reinterpret_cast<const float4*>(p + static_cast<int64_t>(r) * ld + c);
  }
  return make_float4(element(p, ld, r, c, rows, cols), element(p, ld, r, c + 1, rows, cols),
                     element(p, ld, r, c + 2, rows, cols), element(p, ld, r, c + 3, rows, cols));
}

// vectorized is the Vectorized step: BlockTile2D with float4 traffic. A is
// stored transposed in shared memory (AsT[BK][BM]) so that a thread's TM
// values of one k are contiguous, like its TN values of B.
template <class K>
__global__ void __launch_bounds__(K::kThreads)
    vectorized(int M, int N, int Kd, float alpha, const float* __restrict__ A, int64_t lda,
               const float* __restrict__ B, int64_t ldb, float beta, float* __restrict__ C, int64_t ldc) {
  __shared__ __align__(16) float AsT[K::BK * K::BM];
  __shared__ __align__(16) float Bs[K::BK * K::BN];
  int m0, n0;
  column_origin<K>(M, m0, n0);
  constexpr int kCols = K::BN / K::TN;
  const int tm = threadIdx.x / kCols * K::TM, tn = threadIdx.x % kCols * K::TN;
  // k0 and the chunk offsets are multiples of 4, so aligned rows give
  // aligned float4s.
  const bool vec_a = vector_ok(A, lda), vec_b = vector_ok(B, ldb);

  float acc[K::TM][K::TN] = {};
  for (int k0 = 0; k0 < Kd; k0 += K::BK) {
    for (int i = threadIdx.x; i < K::BM * K::BK / 4; i += K::kThreads) {
      const int r = i / (K::BK / 4), c = i % (K::BK / 4) * 4;
      const float4 v = load4(A, lda, m0 + r, k0 + c, M, Kd, vec_a);
      AsT[(c + 0) * K::BM + r] = v.x;
      AsT[(c + 1) * K::BM + r] = v.y;
      AsT[(c + 2) * K::BM + r] = v.z;
      AsT[(c + 3) * K::BM + r] = v.w;
    }
    for (int i = threadIdx.x; i < K::BK * K::BN / 4; i += K::kThreads) {
      const int r = i / (K::BN / 4), c = i % (K::BN / 4) * 4;
      *reinterpret_cast<float4*>(Bs + r * K::BN + c) = load4(B, ldb, k0 + r, n0 + c, Kd, N, vec_b);
    }
    __syncthreads();
#pragma unroll
    for (int kk = 0; kk < K::BK; ++kk) {
      float a[K::TM], b[K::TN];
#pragma unroll
      for (int i = 0; i < K::TM; i += 4) {
        const float4 v = *reinterpret_cast<const float4*>(AsT + kk * K::BM + tm + i);
        a[i] = v.x, a[i + 1] = v.y, a[i + 2] = v.z, a[i + 3] = v.w;
      }
#pragma unroll
      for (int j = 0; j < K::TN; j += 4) {
        const float4 v = *reinterpret_cast<const float4*>(Bs + kk * K::BN + tn + j);
        b[j] = v.x, b[j + 1] = v.y, b[j + 2] = v.z, b[j + 3] = v.w;
      }
#pragma unroll
      for (int i = 0; i < K::TM; ++i) {
#pragma unroll
        for (int j = 0; j < K::TN; ++j) acc[i][j] = fmaf(a[i], b[j], acc[i][j]);
      }
    }
    __syncthreads();
  }
  const bool vec_c = vector_ok(C, ldc);
#pragma unroll
  for (int i = 0; i < K::TM; ++i) {
    const int m = m0 + tm + i;
#pragma unroll
    for (int j = 0; j < K::TN; j += 4) {
      const int n = n0 + tn + j;
      if (vec_c && m < M && n + 3 < N) {
        store_blended4(C + static_cast<int64_t>(m) * ldc + n,
                       make_float4(alpha * acc[i][j], alpha * acc[i][j + 1], alpha * acc[i][j + 2],
                                   alpha * acc[i][j + 3]),
                       beta);
      } else {
#pragma unroll
        for (int q = 0; q < 4; ++q) store(C, ldc, m, n + q, M, N, alpha, beta, acc[i][j + q]);
      }
    }
  }
}

// launch has sgemm.cuh's contract: it checks the arguments and starts the
// step's kernel on stream, returning KGEN_OK, a negative KGEN_ERR_* code or
// the cudaError_t of the launch. The ladder never splits K, so the workspace
// arguments (every f32 gemm launcher has them) are ignored.
template <class K>
int launch(int M, int N, int Kd, float alpha, const float* A, int64_t lda, const float* B, int64_t ldb, float beta,
           float* C, int64_t ldc, void* /*ws*/, int64_t /*ws_bytes*/, cudaStream_t stream) {
  if (M < 0 || N < 0 || Kd < 0) return KGEN_ERR_NEGATIVE_DIM;
  if (lda < (Kd > 1 ? Kd : 1) || ldb < (N > 1 ? N : 1) || ldc < (N > 1 ? N : 1)) return KGEN_ERR_LEADING_DIM;
  if (M == 0 || N == 0) return KGEN_OK;
  if (C == nullptr || (Kd > 0 && (A == nullptr || B == nullptr))) return KGEN_ERR_NULL_POINTER;
  const int64_t blocks = static_cast<int64_t>(ceil_div(M, K::BM)) * ceil_div(N, K::BN);
  if (blocks > 0x7fffffff) return KGEN_ERR_GRID_TOO_LARGE;
  const dim3 grid(static_cast<unsigned>(blocks));
  if constexpr (K::kStep == Step::Naive || K::kStep == Step::Coalesced) {
    direct<K><<<grid, K::kThreads, 0, stream>>>(M, N, Kd, alpha, A, lda, B, ldb, beta, C, ldc);
  } else if constexpr (K::kStep == Step::Vectorized) {
    vectorized<K><<<grid, K::kThreads, 0, stream>>>(M, N, Kd, alpha, A, lda, B, ldb, beta, C, ldc);
  } else {
    tiled<K><<<grid, K::kThreads, 0, stream>>>(M, N, Kd, alpha, A, lda, B, ldb, beta, C, ldc);
  }
  return static_cast<int>(cudaGetLastError());
}

}  // namespace sgemm_ladder
}  // namespace kgen
