// Harness (session 45, call 6; call 7, refused, would have run it again): two SGEMM instances through their C entry
// points alone, built on the headers before a change and after it (a binary of each, -I picks the headers, -DVARIANT
// names the run): the 64x64x8 tile split 128 ways (k128) at 64x64x65536 and 64x64x16384, whose reduction takes one
// element a thread, and the 128x128x16 quads_zigzag tile's fill split (k32f) at 512x512x8192 (one element) and 768^3
// (float4s since session 45). Events over 50 launches after one, the median of 15 repeats; operands in place (zeros:
// the times, not the sums, are the subject; tests/gemm checks the sums). Results:
// bench/results/h200-2026-11-29-session45.md. On the GPU machine:
//   F="-O3 -std=c++17 -I . -DKGEN_ARCH=sm90 -gencode=arch=compute_90,code=sm_90"
//   nvcc $F -I kernels/include -c kernels/generated/sgemm_nn_f32_b64x64x8_w32x32_t4x8_s4_o4_k128.cu -o /tmp/k128.o
//   nvcc $F -I kernels/include -c kernels/generated/sgemm_nn_f32_b128x128x16_w32x64_t8x8_s3_k32f_lc_fq_mb.cu -o /tmp/fq.o
//   nvcc $F -DVARIANT='"new"' bench/harness/sgemm_entry_ab.cu /tmp/k128.o /tmp/fq.o -o /tmp/entry-new
#include <cstdio>
#include <cstdint>
#include <algorithm>
#include <vector>
#include <cuda_runtime.h>
extern "C" int kgen_sgemm_nn_f32_b64x64x8_w32x32_t4x8_s4_o4_k128_sm90(int, int, int, int, float, const float*, int64_t,
  const float*, int64_t, float, float*, int64_t, float*, int64_t, void*);
extern "C" int kgen_sgemm_nn_f32_b128x128x16_w32x64_t8x8_s3_k32f_lc_fq_mb_sm90(int, int, int, int, float, const float*,
  int64_t, const float*, int64_t, float, float*, int64_t, float*, int64_t, void*);
typedef int (*Fn)(int, int, int, int, float, const float*, int64_t, const float*, int64_t, float, float*, int64_t,
                  float*, int64_t, void*);
int main() {
  struct { const char* name; Fn f; int M, N, K; } runs[] = {
    {"k128", kgen_sgemm_nn_f32_b64x64x8_w32x32_t4x8_s4_o4_k128_sm90, 64, 64, 65536},
    {"k128", kgen_sgemm_nn_f32_b64x64x8_w32x32_t4x8_s4_o4_k128_sm90, 64, 64, 16384},
    {"fq k32f", kgen_sgemm_nn_f32_b128x128x16_w32x64_t8x8_s3_k32f_lc_fq_mb_sm90, 512, 512, 8192},
    {"fq k32f", kgen_sgemm_nn_f32_b128x128x16_w32x64_t8x8_s3_k32f_lc_fq_mb_sm90, 768, 768, 768},
  };
  float *A, *B, *C, *W;
  const int64_t ws = int64_t{256} << 20;
  cudaMalloc(&A, size_t{64} << 20); cudaMalloc(&B, size_t{64} << 20); cudaMalloc(&C, size_t{16} << 20); cudaMalloc(&W, ws);
  cudaMemset(A, 0, size_t{64} << 20); cudaMemset(B, 0, size_t{64} << 20);
  cudaStream_t st; cudaStreamCreate(&st);
  cudaEvent_t a, b; cudaEventCreate(&a); cudaEventCreate(&b);
  for (auto& r : runs) {
    const int lda = r.K, ldb = r.N;  // nn: A M x K, B K x N, row-major
    int rc = r.f(0, r.M, r.N, r.K, 1.f, A, lda, B, ldb, 0.f, C, r.N, W, ws, st);
    std::vector<float> t;
    for (int rep = 0; rep < 15; ++rep) {
      cudaEventRecord(a, st);
      for (int i = 0; i < 50; ++i) rc |= r.f(0, r.M, r.N, r.K, 1.f, A, lda, B, ldb, 0.f, C, r.N, W, ws, st);
      cudaEventRecord(b, st); cudaEventSynchronize(b);
      float ms; cudaEventElapsedTime(&ms, a, b); t.push_back(ms * 1000 / 50);
    }
    std::sort(t.begin(), t.end());
    printf("%s,%s,%dx%dx%d,%.2f us,rc %d\n", VARIANT, r.name, r.M, r.N, r.K, t[t.size() / 2], rc);
  }
  printf("%s,%s\n", VARIANT, cudaGetErrorString(cudaDeviceSynchronize()));
}
