// Package gemmtest checks every generated SGEMM instance on the GPU against
// a float64 CPU reference and, built with the cublas tag, against cuBLAS.
// Without a GPU every test here skips with the reason.
package gemmtest
