// Implementation of kgen_cublas.h.
#include <cublas_v2.h>
#include <cuda_fp16.h>

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

int kgen_cublas_create_default(void** handle, void* stream) {
  cublasHandle_t h = nullptr;
  cublasStatus_t s = cublasCreate(&h);
  *handle = h;
  if (s != CUBLAS_STATUS_SUCCESS) return s;
  if ((s = cublasSetStream(h, static_cast<cudaStream_t>(stream))) != CUBLAS_STATUS_SUCCESS) return s;
  return cublasSetMathMode(h, CUBLAS_DEFAULT_MATH);
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

// fp16 A, B, C through GemmEx, row-major as kgen_cublas_sgemm, fp32 (or,
// with acc16, fp16) accumulation, the default algorithm: on tensor cores
// whatever the math mode allows.
int kgen_cublas_gemmex_f16(void* handle, int a_col, int b_col, int m, int n, int k, float alpha, const void* a,
                           int64_t lda, const void* b, int64_t ldb, float beta, void* c, int64_t ldc, int acc16) {
  const cublasOperation_t op_b = b_col ? CUBLAS_OP_T : CUBLAS_OP_N;
  const cublasOperation_t op_a = a_col ? CUBLAS_OP_T : CUBLAS_OP_N;
  cublasHandle_t h = static_cast<cublasHandle_t>(handle);
  if (acc16) {
    const __half ha = __float2half(alpha), hb = __float2half(beta);
    return cublasGemmEx(h, op_b, op_a, n, m, k, &ha, b, CUDA_R_16F, static_cast<int>(ldb), a, CUDA_R_16F,
                        static_cast<int>(lda), &hb, c, CUDA_R_16F, static_cast<int>(ldc), CUBLAS_COMPUTE_16F,
                        CUBLAS_GEMM_DEFAULT);
  }
  return cublasGemmEx(h, op_b, op_a, n, m, k, &alpha, b, CUDA_R_16F, static_cast<int>(ldb), a, CUDA_R_16F,
                      static_cast<int>(lda), &beta, c, CUDA_R_16F, static_cast<int>(ldc), CUBLAS_COMPUTE_32F,
                      CUBLAS_GEMM_DEFAULT);
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
