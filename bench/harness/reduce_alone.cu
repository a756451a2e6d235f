// Harness (session 45, call 5): kgen/common.cuh's launch_reduce alone (not early, no GEMM before it) over S partials
// of an M x N fp32 C, built on the headers given by -I (-DVARIANT names the run): events over 50 back-to-back launches,
// the median of 15 repeats. Results: bench/results/h200-2026-11-29-session45.md (back to back, the launches took 4-6
// us each whatever the kernel: this harness did not separate the variants; sgemm_entry_ab.cu did). On the GPU machine:
//   nvcc -O3 -std=c++17 -DKGEN_ARCH=sm90 -I kernels/include -I . -gencode=arch=compute_90,code=sm_90 \
//     -DVARIANT='"new"' -o /tmp/reduce_alone bench/harness/reduce_alone.cu
#include <cstdio>
#include <algorithm>
#include <vector>
#include "kgen/common.cuh"
struct KE { static constexpr bool kEarly = false; };
int main() {
  const int shapes[][3] = {{64, 64, 128}, {64, 64, 32}, {512, 512, 16}, {512, 512, 4}, {768, 768, 7}, {1024, 1024, 4}, {4096, 128, 4}, {640, 640, 8}};
  float *ws, *C;
  cudaMalloc(&ws, size_t{64} << 20);
  cudaMalloc(&C, size_t{16} << 20);
  cudaMemset(ws, 0, size_t{64} << 20);
  cudaStream_t st;
  cudaStreamCreate(&st);
  cudaEvent_t a, b;
  cudaEventCreate(&a);
  cudaEventCreate(&b);
  for (auto& s : shapes) {
    const int M = s[0], N = s[1], S = s[2];
    std::vector<float> t;
    for (int r = 0; r < 15; ++r) {
      cudaEventRecord(a, st);
      for (int i = 0; i < 50; ++i) kgen::launch_reduce<KE, kgen::F32>(M, N, S, 1.f, ws, 0.f, C, N, st);
      cudaEventRecord(b, st);
      cudaEventSynchronize(b);
      float ms;
      cudaEventElapsedTime(&ms, a, b);
      t.push_back(ms * 1000 / 50);
    }
    std::sort(t.begin(), t.end());
    printf("%s,%dx%d,%d splits,%.3f us\n", VARIANT, M, N, S, t[t.size() / 2]);
  }
  printf("%s,status %s\n", VARIANT, cudaGetErrorString(cudaDeviceSynchronize()));
  return 0;
}
