// Harness (session 26): which kernels cuBLAS SGEMM (pedantic math) runs at given shapes and layouts, for Nsight
// Compute to name. Before each cuBLAS call it launches `marker` with as many blocks as the call's index, so in ncu's
// list the kernels after marker's row of grid size i belong to the i-th (shape, layout) the program prints. Row-major
// C = A B as kgen has it, through cuBLAS's column-major call with the operands swapped, as bench/harness does.
// Build and run on the GPU machine from the repository root:
//   nvcc -O3 -std=c++17 -I . -gencode=arch=compute_90,code=sm_90 -o /tmp/cublas_kernels \
//     bench/harness/cublas_kernels.cu -lcublas
//   ncu --clock-control none --csv --metrics gpu__time_duration.sum,launch__grid_size,launch__block_size,\
//     launch__registers_per_thread /tmp/cublas_kernels 886x886x886,1024x1024x1024
#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>

#include <vector>

#include "bench/harness/timing.h"

__global__ void marker(int) {}

int main(int argc, char** argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: %s MxNxK[,MxNxK...]\n", argv[0]);
    return 2;
  }
  std::vector<GemmShape> shapes;
  if (!parse_shapes(argv[1], shapes)) {
    fprintf(stderr, "bad shape list %s (want MxNxK,...)\n", argv[1]);
    return 2;
  }
  cublasHandle_t h;
  if (cublasCreate(&h) != CUBLAS_STATUS_SUCCESS || cublasSetMathMode(h, CUBLAS_PEDANTIC_MATH) != CUBLAS_STATUS_SUCCESS) {
    fprintf(stderr, "cublas setup failed\n");
    return 1;
  }
  int call = 0;
  for (const GemmShape& s : shapes) {
    float *A, *B, *C;
    CK(cudaMalloc(&A, sizeof(float) * s.M * s.K));
    CK(cudaMalloc(&B, sizeof(float) * s.K * s.N));
    CK(cudaMalloc(&C, sizeof(float) * s.M * s.N));
    CK(cudaMemset(A, 0x3c, sizeof(float) * s.M * s.K));  // 0.0115 in every element
    CK(cudaMemset(B, 0x3c, sizeof(float) * s.K * s.N));
    for (int layout = 0; layout < 4; layout++) {
      const bool aCol = layout >= 2, bCol = layout % 2 == 1;
      const float alpha = 1, beta = 0;
      call++;
      marker<<<call, 1>>>(call);
      const cublasStatus_t st =
          cublasSgemm(h, bCol ? CUBLAS_OP_T : CUBLAS_OP_N, aCol ? CUBLAS_OP_T : CUBLAS_OP_N, s.N, s.M, s.K, &alpha, B,
                      bCol ? s.K : s.N, A, aCol ? s.M : s.K, &beta, C, s.N);
      CK(cudaDeviceSynchronize());
      printf("call %d: %dx%dx%d %s%s%s\n", call, s.M, s.N, s.K, aCol ? "t" : "n", bCol ? "t" : "n",
             st == CUBLAS_STATUS_SUCCESS ? "" : " (cublas failed)");
    }
    cudaFree(A);
    cudaFree(B);
    cudaFree(C);
  }
  return 0;
}
