// Implementation of kgen_cublas.h.
#include <cublas_v2.h>

#include "kernels/runtime/kgen_cublas.h"

extern "C" {

int kgen_cublas_create(void** handle, void* stream) {
  cublasHandle_t h = nullptr;
  cublasStatus_t s = cublasCreate(&h);
  *handle = h;
  if (s != CUBLAS_STATUS_SUCCESS) return s;
  if ((s = cublasSetStream(h, static_cast<cudaStream_t>(stream))) != CUBLAS_STATUS_SUCCESS) return s;
  return cublasSetMathMode(h, CUBLAS_PEDANTIC_MATH);
}

int kgen_cublas_destroy(void* handle) { return cublasDestroy(static_cast<cublasHandle_t>(handle)); }

// cuBLAS is column-major. A row-major C (M x N) is a column-major C^T (N x M),
// and C^T = op(B)^T op(A)^T: call it with the operands swapped. A row-major
// operand read as column-major is its transpose, so a row-major A or B needs
// no transpose flag here, and a column-major one needs CUBLAS_OP_T.
int kgen_cublas_sgemm(void* handle, int a_col, int b_col, int m, int n, int k, float alpha, const float* a,
                      int64_t lda, const float* b, int64_t ldb, float beta, float* c, int64_t ldc) {
  const cublasOperation_t op_b = b_col ? CUBLAS_OP_T : CUBLAS_OP_N;
  const cublasOperation_t op_a = a_col ? CUBLAS_OP_T : CUBLAS_OP_N;
  return cublasSgemm(static_cast<cublasHandle_t>(handle), op_b, op_a, n, m, k, &alpha, b, static_cast<int>(ldb), a,
                     static_cast<int>(lda), &beta, c, static_cast<int>(ldc));
}

const char* kgen_cublas_status_string(int s) {
  switch (s) {
    case CUBLAS_STATUS_SUCCESS: return "CUBLAS_STATUS_SUCCESS";
    case CUBLAS_STATUS_NOT_INITIALIZED: return "CUBLAS_STATUS_NOT_INITIALIZED";
    case CUBLAS_STATUS_ALLOC_FAILED: return "CUBLAS_STATUS_ALLOC_FAILED";
    case CUBLAS_STATUS_INVALID_VALUE: return "CUBLAS_STATUS_INVALID_VALUE";
    case CUBLAS_STATUS_ARCH_MISMATCH: return "CUBLAS_STATUS_ARCH_MISMATCH";
    case CUBLAS_STATUS_EXECUTION_FAILED: return "CUBLAS_STATUS_EXECUTION_FAILED";
    case CUBLAS_STATUS_NOT_SUPPORTED: return "CUBLAS_STATUS_NOT_SUPPORTED";
    default: return "CUBLAS_STATUS_OTHER";
  }
}

}  // extern "C"
