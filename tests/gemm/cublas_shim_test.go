//go:build cublasshim

package gemmtest

// Built with -tags cublasshim (the Bazel target gemm_cublas_test): the
// cross-check calls cuBLAS through kgen's own C shim (internal/cublasref,
// pedantic math, no TF32), which builds against whatever toolkit builds the
// kernels, where gorgonia.org/cu does not (see docs/bazel.md).

import (
	"runtime"
	"sync"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/require"

	"github.com/kgen-gpu/kgen/go/gemm"
	"github.com/kgen-gpu/kgen/internal/cublasref"
)

func init() { crossCheck = checkAgainstCuBLASShim }

var (
	shimOnce sync.Once
	shim     *cublasref.Handle
	shimErr  error
)

func TestCuBLASCrossCheckIsBuiltIn(t *testing.T) {
	needGPU(t)
	require.NotNil(t, crossCheck)
}

// checkAgainstCuBLASShim runs cuBLAS SGEMM on the same operands, on the
// default stream, and compares as compareWithCuBLAS says.
func checkAgainstCuBLASShim(t *testing.T, o operands, alpha, beta float32, got []float32, c gemm.Matrix) {
	t.Helper()
	p := o.p
	if p.M == 0 || p.N == 0 || p.K == 0 {
		return // as the gorgonia cross-check: cuBLAS wants leading dimensions >= 1
	}
	runtime.LockOSThread() // the handle belongs to the device current on this thread
	defer runtime.UnlockOSThread()
	require.NoError(t, dev.Synchronize())
	shimOnce.Do(func() { shim, shimErr = cublasref.New(nil) })
	require.NoError(t, shimErr)

	ref := o.freshC(t, beta)
	at := func(m gemm.Matrix) unsafe.Pointer { return unsafe.Add(m.Buf.Ptr(), m.Offset*4) }
	a, b := o.a, o.b
	require.NoError(t, shim.SGEMM(a.Order == gemm.ColMajor, b.Order == gemm.ColMajor, p.M, p.N, p.K,
		alpha, at(a), a.LD(), at(b), b.LD(), beta, at(ref), ref.LD()))
	require.NoError(t, dev.Synchronize())
	compareWithCuBLAS(t, o, alpha, beta, got, c, download(t, ref), ref)
}
