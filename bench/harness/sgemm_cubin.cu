// Harness (session 41): the same kernel source built by two toolkits. The device's kgen is built by its nvcc (13.0);
// CI and users on Debian build by nvcc 11.8. This loads the fast-path kernel (gemm_kernel<Config, kEdgesNone>) of a
// generated 128x128 instance from cubins (CUBINS: comma-separated paths, each built by `nvcc -cubin` of
// kernels/generated/<instance>.cu; KERNEL: its mangled name, the same in every cubin) and times each, launched plain
// (no programmatic dependent launch) on whole tiles, against the same instance through kgen::sgemm::launch built into
// this binary (SpecTile), and cuBLAS (those two alone where CUBINS is unset). Shapes must be whole 128x128x16 tiles.
// Output as sgemm_mid.cu's. Build on the GPU machine from the repository root:
//   nvcc -O3 -std=c++17 -DKGEN_ARCH=sm90 -DLAYOUT=2 -I kernels/include -I . \
//     -gencode=arch=compute_90,code=sm_90 -o /tmp/cubin bench/harness/sgemm_cubin.cu -lcublas -lcuda
#include <cuda.h>
#include <string.h>

#include <string>

#include "bench/harness/sgemm_harness.h"

constexpr int kMaxCubins = 4;
static CUfunction g_fn[kMaxCubins];

#define CU(x)                                                \
  do {                                                       \
    CUresult r_ = (x);                                       \
    if (r_ != CUDA_SUCCESS) {                                \
      printf("%s: driver error %d\n", #x, static_cast<int>(r_)); \
      exit(1);                                               \
    }                                                        \
  } while (0)

// from_cubin launches cubin I's kernel as kgen::sgemm::launch launches the fast path on whole tiles.
template <int I>
int from_cubin(int M, int N, int K, float alpha, const float* A, int64_t lda, const float* B, int64_t ldb, float beta,
               float* C, int64_t ldc, void* ws, int64_t, cudaStream_t st) {
  if (M % SpecTile::BM || N % SpecTile::BN || K % SpecTile::BK) return 1;
  float* w = static_cast<float*>(ws);
  void* args[] = {&M, &N, &K, &alpha, &A, &lda, &B, &ldb, &beta, &C, &ldc, &w};
  const unsigned blocks = (M / SpecTile::BM) * (N / SpecTile::BN);
  return cuLaunchKernel(g_fn[I], blocks, 1, 1, SpecTile::kThreads, 1, 1, SpecTile::kSmemBytes, st, args,
                        nullptr) != CUDA_SUCCESS;
}

static const Launch kFromCubin[kMaxCubins] = {from_cubin<0>, from_cubin<1>, from_cubin<2>, from_cubin<3>};

int main(int argc, char** argv) {
  const char* cubins = getenv("CUBINS");
  const char* kernel = getenv("KERNEL");
  if (cubins && *cubins && !kernel) {
    printf("CUBINS needs KERNEL, the mangled name of the kernel to time in each\n");
    return 2;
  }
  CK(cudaFree(nullptr));  // the primary context, current for the driver API too
  static std::string names[kMaxCubins];
  std::vector<Variant> vs = {{"launch<Config> (this build)", kgen::sgemm::launch<SpecTile>, nullptr}};
  std::string list = cubins ? cubins : "";
  for (int i = 0; i < kMaxCubins && !list.empty(); ++i) {
    const size_t comma = list.find(',');
    names[i] = list.substr(0, comma);
    list = comma == std::string::npos ? "" : list.substr(comma + 1);
    CUmodule mod;
    CU(cuModuleLoad(&mod, names[i].c_str()));
    CU(cuModuleGetFunction(&g_fn[i], mod, kernel));
    CU(cuFuncSetAttribute(g_fn[i], CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, SpecTile::kSmemBytes));
    int regs = 0;
    CU(cuFuncGetAttribute(&regs, CU_FUNC_ATTRIBUTE_NUM_REGS, g_fn[i]));
    printf("# cubin %d %s: %d registers\n", i, names[i].c_str(), regs);
    vs.push_back({names[i].c_str(), kFromCubin[i], nullptr});
  }
  return run_shapes(argc, argv, vs.data(), static_cast<int>(vs.size()), 9, no_extra);
}
