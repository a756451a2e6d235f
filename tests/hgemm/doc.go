// Package hgemmtest checks every fp16 (tensor-core) GEMM instance on the GPU
// against a float64 reference: odd and degenerate shapes, every layout of A
// and B, misaligned pointers and padded leading dimensions, beta == 0 with
// C poisoned, guard values around C. Without a GPU the tests skip, visibly.
package hgemmtest
