// Harness (session 7): how fast can one kernel read N bytes, back to back, operands rotated past L2?
// The ceiling for a memory-bound GEMV of that many weight bytes. Variants: blocks per SM, threads, unroll, PDL.
// Build on the GPU machine from the repository root: nvcc -O3 -std=c++17 -I . -gencode=arch=compute_90,code=sm_90 -o /tmp/x bench/harness/read_ceiling.cu
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <algorithm>
#include <vector>
#include "bench/harness/timing.h"

template <int U, bool PDL>
__global__ void rd(const uint4* __restrict__ p, size_t n16, unsigned* out) {
  if (PDL) {
    asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
    asm volatile("griddepcontrol.wait;" ::: "memory");
  }
  unsigned acc = 0;
  const size_t stride = (size_t)gridDim.x * blockDim.x;
  size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  for (; i + (U - 1) * stride < n16; i += U * stride) {
    uint4 v[U];
#pragma unroll
    for (int u = 0; u < U; ++u) v[u] = __ldcs(p + i + u * stride);
#pragma unroll
    for (int u = 0; u < U; ++u) acc ^= v[u].x ^ v[u].y ^ v[u].z ^ v[u].w;
  }
  for (; i < n16; i += stride) { uint4 v = __ldcs(p + i); acc ^= v.x ^ v.y ^ v.z ^ v.w; }
  if (acc == 0x12345678u) out[blockIdx.x] = acc;
}

// Contiguous chunk per block (like a GEMV block reading its rows): block b reads [b*per, (b+1)*per).
template <int U, bool PDL>
__global__ void rdchunk(const uint4* __restrict__ p, size_t n16, unsigned* out) {
  if (PDL) {
    asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
    asm volatile("griddepcontrol.wait;" ::: "memory");
  }
  const size_t per = (n16 + gridDim.x - 1) / gridDim.x;
  const size_t b0 = blockIdx.x * per, b1 = min(b0 + per, n16);
  unsigned acc = 0;
  size_t i = b0 + threadIdx.x;
  for (; i + (U - 1) * blockDim.x < b1; i += U * blockDim.x) {
    uint4 v[U];
#pragma unroll
    for (int u = 0; u < U; ++u) v[u] = __ldcs(p + i + u * blockDim.x);
#pragma unroll
    for (int u = 0; u < U; ++u) acc ^= v[u].x ^ v[u].y ^ v[u].z ^ v[u].w;
  }
  for (; i < b1; i += blockDim.x) { uint4 v = __ldcs(p + i); acc ^= v.x ^ v.y ^ v.z ^ v.w; }
  if (acc == 0x12345678u) out[blockIdx.x] = acc;
}

typedef void (*K)(const uint4*, size_t, unsigned*);

int main() {
  const size_t pool = 512ull << 20;
  uint8_t* buf; CK(cudaMalloc(&buf, pool)); CK(cudaMemset(buf, 1, pool));
  unsigned* out; CK(cudaMalloc(&out, 1 << 20));
  cudaStream_t st; CK(cudaStreamCreate(&st));
  cudaEvent_t e0, e1; cudaEventCreate(&e0); cudaEventCreate(&e1);
  // Copy floor: D2D copy of 256 MiB, bytes read + written.
  {
    std::vector<float> ts;
    for (int r = 0; r < 9; ++r) {
      cudaEventRecord(e0, st);
      for (int i = 0; i < 4; ++i) CK(cudaMemcpyAsync(buf + (pool / 2), buf, pool / 2, cudaMemcpyDeviceToDevice, st));
      cudaEventRecord(e1, st); CK(cudaEventSynchronize(e1));
      float ms; cudaEventElapsedTime(&ms, e0, e1); ts.push_back(ms / 4);
    }
    printf("copy: %.0f GB/s (read+write)\n", 2.0 * (pool / 2) / median(ts) / 1e6);
  }
  int sms; cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
  const size_t sizes[] = {8ull << 20, 32ull << 20, 88ull << 20, 128ull << 20};
  struct KV { const char* name; K f; bool pdl; };
  KV ks[] = {{"stride u4", rd<4, false>, false}, {"stride u4 pdl", rd<4, true>, true}, {"stride u8 pdl", rd<8, true>, true},
             {"chunk u4 pdl", rdchunk<4, true>, true}, {"chunk u8 pdl", rdchunk<8, true>, true}, {"chunk u2 pdl", rdchunk<2, true>, true}};
  for (size_t n : sizes) {
    const int copies = (int)std::min<size_t>(pool / n, 16);
    for (auto& k : ks) {
      for (int th : {256, 512, 1024}) {
        for (int bps : {1, 2, 4, 8}) {
          if (th * bps > 2048) continue;
          const int grid = sms * bps;
          cudaLaunchAttribute at[1];
          at[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
          at[0].val.programmaticStreamSerializationAllowed = 1;
          cudaLaunchConfig_t cfg = {};
          cfg.gridDim = dim3(grid); cfg.blockDim = dim3(th); cfg.stream = st;
          cfg.attrs = at; cfg.numAttrs = k.pdl ? 1 : 0;
          int it = 0;
          auto run = [&]() { const uint4* p = (const uint4*)(buf + (size_t)(it++ % copies) * n); CK(cudaLaunchKernelEx(&cfg, k.f, p, n / 16, out)); };
          const int reps = std::max(20, (int)(1000.0 / (n / 3.0e6)));  // >= ~1 ms per timing
          for (int i = 0; i < 10; ++i) run();
          std::vector<float> ts;
          for (int r = 0; r < 9; ++r) {
            cudaEventRecord(e0, st);
            for (int i = 0; i < reps; ++i) run();
            cudaEventRecord(e1, st); CK(cudaEventSynchronize(e1));
            float ms; cudaEventElapsedTime(&ms, e0, e1); ts.push_back(ms / reps);
          }
          const float t = median(ts);
          printf("read %4zu MiB %-14s th %4d blk/SM %d: %7.2f us %6.0f GB/s\n", n >> 20, k.name, th, bps, t * 1e3, n / t / 1e6);
        }
      }
    }
  }
  return 0;
}
