package gemmtest

import (
	"math"
	"testing"

	"github.com/kgen-gpu/kgen/go/gemm"
	"github.com/kgen-gpu/kgen/internal/compare"
)

// compareWithCuBLAS requires cuBLAS's C (want, laid out as ref) within the
// reference bound of the float64 result (the harness is right) and the
// kernel's C (got, laid out as c) within twice that bound of cuBLAS. The
// cuBLAS call itself is in cublas_test.go (gorgonia, make) or
// cublas_shim_test.go (kgen's shim, Bazel).
func compareWithCuBLAS(t *testing.T, o operands, alpha, beta float32, got []float32, c gemm.Matrix, want []float32, ref gemm.Matrix) {
	t.Helper()
	p := o.p
	for i := 0; i < p.M; i++ {
		for j := 0; j < p.N; j++ {
			at := index(c, i, j)
			c0 := float64(p.C0[i*p.N+j])
			exact := float64(alpha)*p.AB[i*p.N+j] + float64(beta)*c0
			bound := compare.DotBound(compare.F32, p.K, math.Abs(float64(alpha))*p.rowA[i]*p.colB[j]+math.Abs(float64(beta)*c0), exact)
			cb := float64(want[index(ref, i, j)])
			if !compare.Within(cb, exact, bound) {
				t.Fatalf("cuBLAS C[%d,%d] = %v, reference %v: the harness disagrees with cuBLAS", i, j, cb, exact)
			}
			if d := math.Abs(float64(got[at]) - cb); !(d <= 2*bound) {
				t.Fatalf("C[%d,%d] = %v, cuBLAS %v (difference %.3g > %.3g)", i, j, got[at], cb, d, 2*bound)
			}
		}
	}
}
