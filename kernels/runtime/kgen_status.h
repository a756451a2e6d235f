/* Status codes shared by kgen's launchers and runtime shim. Zero is success,
   positive values are cudaError_t codes passed through, negative values are
   kgen's own argument errors. Plain C: included by cgo and by nvcc. */
#ifndef KGEN_STATUS_H
#define KGEN_STATUS_H

enum {
  KGEN_OK = 0,
  KGEN_ERR_NEGATIVE_DIM = -1,  /* M, N or K below zero */
  KGEN_ERR_LEADING_DIM = -2,   /* a leading dimension smaller than the row length */
  KGEN_ERR_NULL_POINTER = -3,  /* a matrix pointer is NULL while its size is not zero */
  KGEN_ERR_GRID_TOO_LARGE = -4, /* the problem needs more blocks than a grid holds */
  KGEN_ERR_WORKSPACE = -5       /* the split-K workspace is smaller than the problem needs, or misaligned */
};

#endif
