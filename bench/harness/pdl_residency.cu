// Harness (session 7): does block residency matter for HGEMV-like pure reads launched back to back with PDL?
// Limit blocks per SM with padding shared memory (1 .. none) and compare, PDL on and off.
// Build on the GPU machine from the repository root: nvcc -O3 -std=c++17 -I . -gencode=arch=compute_90,code=sm_90 -o /tmp/x bench/harness/pdl_residency.cu
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <algorithm>
#include <vector>
#include "bench/harness/timing.h"

template <bool PDL>
__device__ __forceinline__ void pdl() {
  if (PDL) {
    asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
    asm volatile("griddepcontrol.wait;" ::: "memory");
  }
}
__device__ __forceinline__ uint4 ld(const uint16_t* p) { return __ldg(reinterpret_cast<const uint4*>(p)); }

// hgemvtc layout n pattern: 16 rows a block, W warps each a contiguous run of k, U 32-wide steps in flight.
template <int W, int U, bool PDL>
__global__ void __launch_bounds__(W * 32) rn(const uint16_t* __restrict__ a, int n, int k, unsigned* out) {
  pdl<PDL>();
  extern __shared__ unsigned red[];
  const int w = threadIdx.x / 32, lane = threadIdx.x % 32, g = lane / 4, t = lane % 4;
  const int row0 = blockIdx.x * 16;
  const int nb = k / 32 / U, per = (nb + W - 1) / W, b0 = w * per, b1 = min(nb, b0 + per);
  unsigned acc = 0;
  for (int b = b0; b < b1; ++b) {
    uint4 v[U][2];
#pragma unroll
    for (int u = 0; u < U; ++u) {
      const int c = (b * U + u) * 32 + 8 * t;
      v[u][0] = ld(a + (int64_t)(row0 + g) * k + c);
      v[u][1] = ld(a + (int64_t)(row0 + g + 8) * k + c);
    }
#pragma unroll
    for (int u = 0; u < U; ++u) acc ^= v[u][0].x ^ v[u][0].w ^ v[u][1].y ^ v[u][1].z;
  }
  red[threadIdx.x] = acc;
  __syncthreads();
  if (threadIdx.x < 16) {
    unsigned s = 0;
    for (int q = 0; q < W; ++q) s ^= red[q * 32 + threadIdx.x];
    if (s == 0x12345678u) out[row0 + threadIdx.x] = s;
  }
}

// hgemv p32 pattern (one warp per row, 8 rows a block): lane reads 16 bytes at 8 (q + u 32), U in flight.
template <int U, bool PDL>
__global__ void __launch_bounds__(256) rw(const uint16_t* __restrict__ a, int n, int k, unsigned* out) {
  pdl<PDL>();
  extern __shared__ unsigned red[];
  const int w = threadIdx.x / 32, lane = threadIdx.x % 32;
  const int row = blockIdx.x * 8 + w;
  const uint16_t* p = a + (int64_t)row * k;
  const int chunks = k / 8;
  unsigned acc = 0;
  int q = lane;
  for (; q + (U - 1) * 32 < chunks; q += U * 32) {
    uint4 v[U];
#pragma unroll
    for (int u = 0; u < U; ++u) v[u] = ld(p + (q + u * 32) * 8);
#pragma unroll
    for (int u = 0; u < U; ++u) acc ^= v[u].x ^ v[u].w;
  }
  for (; q < chunks; q += 32) { uint4 v = ld(p + q * 8); acc ^= v.x ^ v.y; }
  for (int o = 16; o; o /= 2) acc ^= __shfl_xor_sync(0xffffffffu, acc, o);
  if (lane == 0) red[w] = acc;
  __syncthreads();
  if (threadIdx.x == 0) {
    unsigned s = 0;
    for (int i = 0; i < 8; ++i) s ^= red[i];
    if (s == 0x12345678u) out[blockIdx.x] = s;
  }
}

// hgemvtct layout t pattern: 64 columns a block, W warps each a contiguous run of k, U 16-wide steps in flight.
template <int W, int U, bool PDL>
__global__ void __launch_bounds__(W * 32) rt(const uint16_t* __restrict__ a, int n, int k, unsigned* out) {
  pdl<PDL>();
  extern __shared__ unsigned red[];
  const int w = threadIdx.x / 32, lane = threadIdx.x % 32, g = lane / 4, t = lane % 4;
  const int col = blockIdx.x * 64 + 8 * g;
  const int nb = k / 16 / U, per = (nb + W - 1) / W, b0 = w * per, b1 = min(nb, b0 + per);
  unsigned acc = 0;
  for (int b = b0; b < b1; ++b) {
    uint4 v[U][4];
#pragma unroll
    for (int u = 0; u < U; ++u)
#pragma unroll
      for (int q = 0; q < 4; ++q) v[u][q] = ld(a + (int64_t)((b * U + u) * 16 + 4 * t + q) * n + col);
#pragma unroll
    for (int u = 0; u < U; ++u)
#pragma unroll
      for (int q = 0; q < 4; ++q) acc ^= v[u][q].x ^ v[u][q].w;
  }
  red[threadIdx.x] = acc;
  __syncthreads();
  if (threadIdx.x < 64) {
    unsigned s = 0;
    for (int q = 0; q < W; ++q) s ^= red[q * 32 + threadIdx.x % 32];
    if (s == 0x12345678u) out[blockIdx.x * 64 + threadIdx.x] = s;
  }
}

typedef void (*K)(const uint16_t*, int, int, unsigned*);

int main() {
  const size_t pool = 1ull << 30;
  uint8_t* buf; CK(cudaMalloc(&buf, pool)); CK(cudaMemset(buf, 1, pool));
  unsigned* out; CK(cudaMalloc(&out, 1 << 20));
  cudaStream_t st; CK(cudaStreamCreate(&st));
  cudaEvent_t e0, e1; cudaEventCreate(&e0); cudaEventCreate(&e1);
  int sms; cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
  int smem_sm; cudaDeviceGetAttribute(&smem_sm, cudaDevAttrMaxSharedMemoryPerMultiprocessor, 0);
  struct Sh { int n, k; };
  const Sh shapes[] = {{4096, 4096}, {4096, 11008}, {11008, 4096}, {8192, 8192}, {2048, 2048}};
  struct KV { const char* name; K on, off; int threads, per_block; char layout; };
  KV ks[] = {
      {"n tc w8 u4 (16 rows)", rn<8, 4, true>, rn<8, 4, false>, 256, 16, 'n'},
      {"n tc w16 u4 (16 rows)", rn<16, 4, true>, rn<16, 4, false>, 512, 16, 'n'},
      {"n warp/row u4 (8 rows)", rw<4, true>, rw<4, false>, 256, 8, 'n'},
      {"n warp/row u8 (8 rows)", rw<8, true>, rw<8, false>, 256, 8, 'n'},
      {"t tc w16 u2 (64 cols)", rt<16, 2, true>, rt<16, 2, false>, 512, 64, 't'},
      {"t tc w8 u2 (64 cols)", rt<8, 2, true>, rt<8, 2, false>, 256, 64, 't'},
  };
  cudaLaunchAttribute at[1];
  at[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
  at[0].val.programmaticStreamSerializationAllowed = 1;
  for (auto& kv : ks) {
    for (K f : {kv.on, kv.off}) {
      CK(cudaFuncSetAttribute(f, cudaFuncAttributeMaxDynamicSharedMemorySize, 227 * 1024));
      CK(cudaFuncSetAttribute(f, cudaFuncAttributePreferredSharedMemoryCarveout, 100));
    }
  }
  for (const Sh& s : shapes) {
    const size_t bytes = (size_t)s.n * s.k * 2;
    const int copies = (int)std::min<size_t>(pool / bytes, 16);
    const int reps = std::max(20, (int)(1000.0 / (bytes / 3.0e6)));
    for (auto& kv : ks) {
      const int grid = s.n / kv.per_block;
      const int need = (grid + sms - 1) / sms;  // blocks per SM for one even wave
      for (int pdl = 1; pdl >= 0; --pdl) {
        for (int lim : {need, need + 1, 2 * need, 0}) {
          if (lim > 16) continue;
          size_t smem = kv.threads * 4;
          if (lim > 0) smem = std::max<size_t>(smem, (size_t)smem_sm / lim - 1024 - 256);
          if (smem > 227 * 1024) smem = 227 * 1024;
          int occ = 0;
          CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&occ, pdl ? kv.on : kv.off, kv.threads, smem));
          cudaLaunchConfig_t cfg = {};
          cfg.gridDim = dim3(grid); cfg.blockDim = dim3(kv.threads); cfg.dynamicSmemBytes = smem; cfg.stream = st;
          cfg.attrs = at; cfg.numAttrs = pdl;
          const int nn = s.n, kk = s.k;
          int it = 0;
          auto launch = [&]() { CK(cudaLaunchKernelEx(&cfg, pdl ? kv.on : kv.off, (const uint16_t*)(buf + (it++ % copies) * bytes), nn, kk, out)); };
          for (int i = 0; i < 10; ++i) launch();
          std::vector<float> ts;
          for (int r = 0; r < 9; ++r) {
            cudaEventRecord(e0, st);
            for (int i = 0; i < reps; ++i) launch();
            cudaEventRecord(e1, st); CK(cudaEventSynchronize(e1));
            float ms; cudaEventElapsedTime(&ms, e0, e1); ts.push_back(ms / reps);
          }
          const float us = median(ts) * 1e3f;
          printf("%5dx%-5d %-24s pdl %d grid %5d (%d a wave/SM) resident/SM %2d: %7.2f us %5.0f GB/s\n", s.n, s.k, kv.name, pdl, grid, need, occ, us, bytes / us / 1e3);
        }
      }
    }
  }
  CK(cudaDeviceSynchronize());
  return 0;
}
