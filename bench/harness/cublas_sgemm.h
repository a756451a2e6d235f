// The SGEMM harnesses' reference: cuBLAS SGEMM in pedantic math (strict fp32, no TF32), as the bench times it.
#pragma once

#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

// CublasSgemm computes the row-major C = A * B (M x N, ld N) on a stream, A stored column-major where a_col and B
// where b_col: column-major cuBLAS computes C^T = B^T * A^T. A harness has no use for its numbers after a cuBLAS
// failure, so it exits there.
class CublasSgemm {
 public:
  CublasSgemm() {
    if (cublasCreate(&h_) != CUBLAS_STATUS_SUCCESS ||
        cublasSetMathMode(h_, CUBLAS_PEDANTIC_MATH) != CUBLAS_STATUS_SUCCESS) {
      fail("cublasCreate");
    }
  }
  ~CublasSgemm() { cublasDestroy(h_); }
  CublasSgemm(const CublasSgemm&) = delete;
  CublasSgemm& operator=(const CublasSgemm&) = delete;

  void operator()(cudaStream_t st, bool a_col, bool b_col, int M, int N, int K, const float* A, int64_t lda,
                  const float* B, int64_t ldb, float* C) const {
    const float alpha = 1.f, beta = 0.f;
    if (cublasSetStream(h_, st) != CUBLAS_STATUS_SUCCESS ||
        cublasSgemm(h_, b_col ? CUBLAS_OP_T : CUBLAS_OP_N, a_col ? CUBLAS_OP_T : CUBLAS_OP_N, N, M, K, &alpha, B,
                    ldb, A, lda, &beta, C, N) != CUBLAS_STATUS_SUCCESS) {
      fail("cublasSgemm");
    }
  }

 private:
  static void fail(const char* what) {
    printf("%s failed\n", what);
    exit(1);
  }
  cublasHandle_t h_ = nullptr;
};
