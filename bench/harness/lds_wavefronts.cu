// Harness (session 42): shared-memory wavefronts of one LDS.128 by the lane bits its address depends on. Launch
// `mask` (0-31) reads, in every lane, the float4 whose index is the lane bits that mask selects, packed low to high
// (a warp's own 64-float4 row: no bank conflicts); Nsight Compute's wavefronts per shared load, per launch, give the
// rule. On an H200 (bench/results/h200-2026-11-29-session42.md, call 1): 4 where the index depends on both lane bits
// 0 and 1, else 2, a broadcast to every lane included. Build and run on the GPU machine:
//   nvcc -O3 -arch=sm_90 -o /tmp/wf bench/harness/lds_wavefronts.cu
//   ncu --metrics l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,smsp__inst_executed_op_shared_ld.sum /tmp/wf
#include <cuda_runtime.h>
#include <stdio.h>

__global__ void lds_kernel(int mask, int iters, float* out) {
  __shared__ float4 s[1024];
  for (int i = threadIdx.x; i < 1024; i += blockDim.x) s[i] = make_float4(i, i + 1, i + 2, i + 3);
  __syncthreads();
  const int lane = threadIdx.x % 32;
  int idx = 0, o = 0;
  for (int b = 0; b < 5; ++b)
    if (mask >> b & 1) idx |= ((lane >> b) & 1) << o++;
  const int base = (threadIdx.x / 32) * 64;
  // An offset the compiler cannot see is zero keeps one load an iteration.
  volatile int zero = 0;
  const int z = zero;
  float4 acc = make_float4(0, 0, 0, 0);
  for (int it = 0; it < iters; ++it) {
    const float4 v = s[base + idx + (it & z)];
    acc.x += v.x, acc.y += v.y, acc.z += v.z, acc.w += v.w;
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = acc.x + acc.y + acc.z + acc.w;
}

int main() {
  float* out;
  if (cudaMalloc(&out, 132 * 256 * sizeof(float)) != cudaSuccess) return 1;
  for (int mask = 0; mask < 32; ++mask) lds_kernel<<<132, 256>>>(mask, 1000, out);
  const cudaError_t e = cudaDeviceSynchronize();
  printf("%s\n", cudaGetErrorString(e));
  cudaFree(out);
  return e != cudaSuccess;
}
