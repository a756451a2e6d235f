//go:build cublas && !cublasshim

package gemmtest

// Built with -tags cublas (make test adds it where nvidia-smi sees a GPU):
// gorgonia.org/cu's init exits the process when there is no CUDA driver, so
// it cannot be linked into tests that must run anywhere. Under Bazel the
// cross-check goes through kgen's own shim instead (cublas_shim_test.go).

import (
	"runtime"
	"sync"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/blas"
	cublas "gorgonia.org/cu/blas"

	"github.com/kgen-gpu/kgen/go/gemm"
)

func init() { crossCheck = checkAgainstCuBLAS }

var (
	handleOnce sync.Once
	handle     cublas.Standard
	handleErr  error
)

// cublasHandle creates one cuBLAS handle for the test binary.
func cublasHandle(t *testing.T) *cublas.Standard {
	handleOnce.Do(func() { handleErr = handle.Init() })
	require.NoError(t, handleErr)
	return &handle
}

func TestCuBLASCrossCheckIsBuiltIn(t *testing.T) {
	needGPU(t)
	require.NotNil(t, crossCheck)
}

// checkAgainstCuBLAS runs cuBLAS SGEMM through gorgonia.org/cu/blas on the
// same operands and requires it within the reference bound (the harness is
// right) and the kernel within twice that bound of it.
func checkAgainstCuBLAS(t *testing.T, o operands, alpha, beta float32, got []float32, c gemm.Matrix) {
	t.Helper()
	p := o.p
	if p.M == 0 || p.N == 0 {
		return
	}
	runtime.LockOSThread() // gorgonia's calls need the context current on this thread
	defer runtime.UnlockOSThread()
	require.NoError(t, dev.Synchronize()) // makes the primary context current here

	h := cublasHandle(t)

	ref := o.freshC(t, beta)
	// Row-major C = A B is column-major C^T = B^T A^T: swap the operands; a
	// row-major operand read column-major is already its transpose.
	tr := func(m gemm.Matrix) blas.Transpose {
		if m.Order == gemm.ColMajor {
			return blas.Trans
		}
		return blas.NoTrans
	}
	view := func(m gemm.Matrix) []float32 {
		return unsafe.Slice((*float32)(unsafe.Add(m.Buf.Ptr(), m.Offset*4)), m.Buf.Bytes()/4-m.Offset)
	}
	a, b := o.a, o.b
	if p.K == 0 {
		return // gorgonia indexes a[0] even when K is 0
	}
	h.Sgemm(tr(b), tr(a), p.N, p.M, p.K, alpha, view(b), b.LD(), view(a), a.LD(), beta, view(ref), ref.LD())
	require.NoError(t, h.Err())
	compareWithCuBLAS(t, o, alpha, beta, got, c, download(t, ref), ref)
}
