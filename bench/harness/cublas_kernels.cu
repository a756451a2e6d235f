// Harness (session 26): which kernels cuBLAS SGEMM (pedantic math) runs at given shapes and layouts, for Nsight
// Compute to name. Before each cuBLAS call it launches `marker` with as many blocks as the call's index, so in ncu's
// list the kernels after marker's row of grid size i belong to the i-th (shape, layout) the program prints. Row-major
// C = A B as kgen has it, through cuBLAS's column-major call with the operands swapped, as bench/harness does.
// Build and run on the GPU machine from the repository root:
//   nvcc -O3 -std=c++17 -gencode=arch=compute_90,code=sm_90 -o /tmp/cublas_kernels \
//     bench/harness/cublas_kernels.cu -lcublas
//   ncu --clock-control none --csv --metrics gpu__time_duration.sum,launch__grid_size,launch__block_size,\
//     launch__registers_per_thread /tmp/cublas_kernels 886x886x886,1024x1024x1024
#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>

#include <vector>

__global__ void marker(int) {}

static void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) {
    fprintf(stderr, "%s: %s\n", what, cudaGetErrorString(e));
    exit(1);
  }
}

int main(int argc, char** argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: %s MxNxK[,MxNxK...]\n", argv[0]);
    return 2;
  }
  struct Shape {
    int M, N, K;
  };
  std::vector<Shape> shapes;
  for (const char* p = argv[1]; *p;) {
    Shape s;
    int used = 0;
    if (sscanf(p, "%dx%dx%d%n", &s.M, &s.N, &s.K, &used) != 3) {
      fprintf(stderr, "bad shape list at %s\n", p);
      return 2;
    }
    shapes.push_back(s);
    p += used;
    if (*p == ',') p++;
  }
  cublasHandle_t h;
  if (cublasCreate(&h) != CUBLAS_STATUS_SUCCESS || cublasSetMathMode(h, CUBLAS_PEDANTIC_MATH) != CUBLAS_STATUS_SUCCESS) {
    fprintf(stderr, "cublas setup failed\n");
    return 1;
  }
  int call = 0;
  for (const Shape& s : shapes) {
    float *A, *B, *C;
    check(cudaMalloc(&A, sizeof(float) * s.M * s.K), "cudaMalloc A");
    check(cudaMalloc(&B, sizeof(float) * s.K * s.N), "cudaMalloc B");
    check(cudaMalloc(&C, sizeof(float) * s.M * s.N), "cudaMalloc C");
    check(cudaMemset(A, 0x3c, sizeof(float) * s.M * s.K), "memset A");  // 0.0115 in every element
    check(cudaMemset(B, 0x3c, sizeof(float) * s.K * s.N), "memset B");
    for (int layout = 0; layout < 4; layout++) {
      const bool aCol = layout >= 2, bCol = layout % 2 == 1;
      const float alpha = 1, beta = 0;
      call++;
      marker<<<call, 1>>>(call);
      const cublasStatus_t st =
          cublasSgemm(h, bCol ? CUBLAS_OP_T : CUBLAS_OP_N, aCol ? CUBLAS_OP_T : CUBLAS_OP_N, s.N, s.M, s.K, &alpha, B,
                      bCol ? s.K : s.N, A, aCol ? s.M : s.K, &beta, C, s.N);
      check(cudaDeviceSynchronize(), "sgemm");
      printf("call %d: %dx%dx%d %s%s%s\n", call, s.M, s.N, s.K, aCol ? "t" : "n", bCol ? "t" : "n",
             st == CUBLAS_STATUS_SUCCESS ? "" : " (cublas failed)");
    }
    cudaFree(A);
    cudaFree(B);
    cudaFree(C);
  }
  return 0;
}
