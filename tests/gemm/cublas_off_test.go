//go:build !cublas && !cublasshim

package gemmtest

import "testing"

// TestCuBLASCrossCheckIsBuiltIn skips, visibly, in builds without the cublas
// tag: the cross-check against cuBLAS is compiled in only where a GPU is.
func TestCuBLASCrossCheckIsBuiltIn(t *testing.T) {
	t.Skip("SKIP: cuBLAS cross-check not built in; run `make test` on a machine with a GPU (it adds -tags cublas)")
}
