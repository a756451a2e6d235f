// An out-of-place fp32 transpose: dst (cols x rows, row-major, ld ldd) =
// src^T (src: rows x cols, row-major, ld lds). kgen::sgemm::launch_packed
// uses it to pack a k-contiguous operand into an m/n-contiguous copy, which
// the cp.async pipeline then copies 16 bytes at a time instead of 4.
//
// The kernel is a template of a tag, the instance's own Config: the objects
// of several instances and archs link into one binary, and kernels of equal
// names would share one host stub (see kernels/generated's Config).
//
// Technique: 64 x 64 tiles through shared memory (rows padded by one float,
// so the column reads fall in 32 different banks), 256 threads a block, each
// reading and writing 16 elements with every warp touching 128 contiguous
// bytes; all of a thread's loads are issued before its stores.
#pragma once

#include <cuda_runtime.h>
#include <stdint.h>

namespace kgen {

constexpr int kTransposeTile = 64;
constexpr int kTransposeThreads = 256;

template <class Tag>
__global__ void __launch_bounds__(kTransposeThreads)
    transpose_kernel(int rows, int cols, const float* __restrict__ src, int64_t lds, float* __restrict__ dst,
                     int64_t ldd) {
  constexpr int T = kTransposeTile, W = 32, H = kTransposeThreads / W;  // a pass covers H rows of 32
  __shared__ float tile[T][T + 1];
  const int tiles_c = cols / T + (cols % T != 0);
  const int r0 = (blockIdx.x / tiles_c) * T, c0 = (blockIdx.x % tiles_c) * T;
  const int tx = threadIdx.x % W, ty = threadIdx.x / W;
  // Rows and columns of the tile inside the matrix, counted from its
  // corner, so that no index passes INT_MAX.
  const int rows_in = rows - r0, cols_in = cols - c0;
#pragma unroll
  for (int h = 0; h < T / W; ++h) {
#pragma unroll
    for (int i = 0; i < T / H; ++i) {
      const int r = ty + i * H, c = tx + h * W;
      if (r < rows_in && c < cols_in) tile[r][c] = src[static_cast<int64_t>(r0 + r) * lds + (c0 + c)];
    }
  }
  __syncthreads();
#pragma unroll
  for (int h = 0; h < T / W; ++h) {
#pragma unroll
    for (int i = 0; i < T / H; ++i) {
      const int c = ty + i * H, r = tx + h * W;  // dst row c0 + c, column r0 + r
      if (r < rows_in && c < cols_in) dst[static_cast<int64_t>(c0 + c) * ldd + (r0 + r)] = tile[r][c];
    }
  }
}

// transpose_blocks is transpose_kernel's grid for a rows x cols source.
inline int64_t transpose_blocks(int rows, int cols) {
  constexpr int64_t T = kTransposeTile;
  return (rows + T - 1) / T * ((cols + T - 1) / T);
}

// transpose launches transpose_kernel<Tag> on stream; rows, cols >= 0 and
// transpose_blocks(rows, cols) at most 2^31 - 1 (the caller checks).
template <class Tag>
inline cudaError_t transpose(int rows, int cols, const float* src, int64_t lds, float* dst, int64_t ldd,
                             cudaStream_t stream) {
  if (rows == 0 || cols == 0) return cudaSuccess;
  const int64_t blocks = transpose_blocks(rows, cols);
  transpose_kernel<Tag><<<static_cast<unsigned>(blocks), kTransposeThreads, 0, stream>>>(rows, cols, src, lds, dst,
                                                                                        ldd);
  return cudaGetLastError();
}

}  // namespace kgen
