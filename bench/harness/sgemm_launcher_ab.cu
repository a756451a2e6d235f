// Harness (session 61, calls 2-4): one SGEMM instance through its C entry point (-DFN=kgen_<instance>_sm90),
// linked against the instance built with one set of headers or another (bench/harness/launcher_ab.sh's ab_build,
// for sgemm_short_ab.sh and sgemm_elem_ab.sh), at one problem: random operands (a hash, never zeros), as many
// copies as take 200 MB (at most 64) rotated past the L2, 20 launches of warm-up, then the median (p10, p90) of
// `reps` launches each between its own pair of events, and the sum of C, which two builds of the same arithmetic
// print alike.
//   usage: ab LAYOUT M N K reps    (LAYOUT nn, nt, tn or tt: A, then B, n row-major, t column-major; C row-major)
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <vector>
#include <algorithm>
#include <cuda_runtime.h>
extern "C" int FN(int device, int m, int n, int k, float alpha, const float* a, int64_t lda, const float* b, int64_t ldb,
                  float beta, float* c, int64_t ldc, float* workspace, int64_t workspace_bytes, void* stream);
__global__ void fill(float* p, size_t n, uint32_t seed) {
  for (size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    uint32_t x = (uint32_t)i * 2654435761u ^ seed;
    x ^= x >> 13; x *= 0x5bd1e995u; x ^= x >> 15;
    p[i] = (x & 0xffff) / 65536.0f - 0.5f;
  }
}
int main(int argc, char** argv) {
  const char* lay = argv[1];
  int M = atoi(argv[2]), N = atoi(argv[3]), K = atoi(argv[4]), reps = atoi(argv[5]);
  const bool at = lay[0] == 't', bt = lay[1] == 't';
  int64_t lda = at ? M : K, ldb = bt ? K : N, ldc = N;
  size_t na = (size_t)M * K, nb = (size_t)K * N, nc = (size_t)M * N;
  const int sets = std::min<int>(64, std::max<int>(2, (int)(200e6 / ((na + nb + nc) * 4)) + 1));
  std::vector<float*> A(sets), B(sets), C(sets);
  for (int s = 0; s < sets; ++s) {
    cudaMalloc(&A[s], na * 4); cudaMalloc(&B[s], nb * 4); cudaMalloc(&C[s], nc * 4);
    fill<<<1024, 256>>>(A[s], na, 1 + s); fill<<<1024, 256>>>(B[s], nb, 100 + s);
  }
  float* ws; const int64_t wsb = 1ll << 30; cudaMalloc(&ws, wsb);
  cudaEvent_t e0, e1; cudaEventCreate(&e0); cudaEventCreate(&e1);
  for (int i = 0; i < 20; ++i) {
    int s = i % sets;
    int rc = FN(0, M, N, K, 1.f, A[s], lda, B[s], ldb, 0.f, C[s], ldc, ws, wsb, nullptr);
    if (rc) { printf("launch error %d\n", rc); return 1; }
  }
  cudaDeviceSynchronize();
  std::vector<float> t(reps);
  for (int i = 0; i < reps; ++i) {
    int s = i % sets;
    cudaEventRecord(e0);
    FN(0, M, N, K, 1.f, A[s], lda, B[s], ldb, 0.f, C[s], ldc, ws, wsb, nullptr);
    cudaEventRecord(e1);
    cudaEventSynchronize(e1);
    cudaEventElapsedTime(&t[i], e0, e1);
  }
  cudaError_t err = cudaGetLastError();
  std::sort(t.begin(), t.end());
  // checksum of the last C, to compare variants
  std::vector<float> h(nc); cudaMemcpy(h.data(), C[(reps - 1) % sets], nc * 4, cudaMemcpyDeviceToHost);
  double cs = 0; for (float v : h) cs += v;
  printf("%s %dx%dx%d median %.4f ms p10 %.4f p90 %.4f sum %.6g %s\n", lay, M, N, K, t[reps / 2], t[reps / 10],
         t[reps * 9 / 10], cs, cudaGetErrorString(err));
  return 0;
}
