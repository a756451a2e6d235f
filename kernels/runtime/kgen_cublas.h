/* A cuBLAS reference for the bench: row-major SGEMM in pedantic math mode (no
   TF32), behind a plain-C API. Kept out of libkgen so the library itself does
   not depend on cuBLAS. */
#ifndef KGEN_CUBLAS_H
#define KGEN_CUBLAS_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Returns 0 or a cublasStatus_t value. */
int kgen_cublas_create(void** handle, void* stream);
/* A handle in the default math mode (tensor cores allowed): the fp16 reference. */
int kgen_cublas_create_default(void** handle, void* stream);
int kgen_cublas_destroy(void* handle);
/* C (M x N, row-major, ldc) = alpha * op(A) * op(B) + beta * C, where A is
   M x K stored row-major (a_col == 0) or column-major, and likewise B (K x N). */
int kgen_cublas_sgemm(void* handle, int a_col, int b_col, int m, int n, int k, float alpha, const float* a,
                      int64_t lda, const float* b, int64_t ldb, float beta, float* c, int64_t ldc);
/* C = alpha * op(A) * op(B) + beta * C with fp16 A, B, C (row-major C, layouts
   as kgen_cublas_sgemm), GemmEx with fp32 (acc16 == 0) or fp16 accumulation. */
int kgen_cublas_gemmex_f16(void* handle, int a_col, int b_col, int m, int n, int k, float alpha, const void* a,
                           int64_t lda, const void* b, int64_t ldb, float beta, void* c, int64_t ldc, int acc16);
const char* kgen_cublas_status_string(int status);

#ifdef __cplusplus
}
#endif

#endif
