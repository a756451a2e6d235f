/* Status codes shared by kgen's launchers and runtime shim. Zero is success,
   positive values are cudaError_t codes passed through, negative values are
   kgen's own argument errors. Also the launchers' limits that callers plan
   by. Plain C: included by cgo and by nvcc. */
#ifndef KGEN_STATUS_H
#define KGEN_STATUS_H

enum {
  KGEN_OK = 0,
  KGEN_ERR_NEGATIVE_DIM = -1,  /* M, N or K below zero */
  KGEN_ERR_LEADING_DIM = -2,   /* a leading dimension smaller than the row length */
  KGEN_ERR_NULL_POINTER = -3,  /* a matrix pointer is NULL while its size is not zero */
  KGEN_ERR_GRID_TOO_LARGE = -4, /* the problem needs more blocks than a grid holds */
  KGEN_ERR_WORKSPACE = -5,      /* the split-K workspace is smaller than the problem needs, or misaligned */
  KGEN_ERR_INLINE_LIMIT = -6    /* arrays given in host memory exceed what a launch carries (see below) */
};

/* A GF(2^8) launch given its shard pointers and coefficients in host memory
   (host_arrays) carries them in the kernel's parameters: at most this many
   shards, inputs and outputs together (and so at most 32 x 32
   coefficients). */
#define KGEN_GF256_INLINE_SHARDS 64

#endif
