package main

import (
	"fmt"
	"math"
	"runtime"
	"sync"

	"github.com/kgen-gpu/kgen/internal/compare"
)

// product is a matrix product C (M x N, row-major) = A (M x K) * B (K x N)
// on the host, as far as the check needs it: A's largest magnitude in each
// row and B's column sums of magnitudes, from which every element's error
// bound follows.
type product struct {
	m, n, k int
	rowMaxA []float64 // max over l of |A[i][l]|
	colSumB []float64 // sum over l of |B[l][j]|
	inflate float64   // 1 + the relative rounding of the inputs on upload (fp16)
}

// newProduct reads the magnitudes of A and B, given as at(i, l) and bt(l,
// j) so that any storage order serves.
func newProduct(m, n, k int, a, b func(int, int) float32, inflate float64) product {
	p := product{m: m, n: n, k: k, rowMaxA: rowMax(m, k, a), colSumB: make([]float64, n), inflate: inflate}
	for l := range k {
		for j := range n {
			p.colSumB[j] += math.Abs(float64(b(l, j)))
		}
	}
	return p
}

// rowMax is max over l of |a(i, l)| for each of the m rows.
func rowMax(m, k int, a func(int, int) float32) []float64 {
	out := make([]float64, m)
	for i := range m {
		for l := range k {
			out[i] = max(out[i], math.Abs(float64(a(i, l))))
		}
	}
	return out
}

// check compares got with the reference want, both M x N row-major and
// both computed from the same inputs: each may be off the exact product by
// compare.DotBound of its dtype, so they may differ by twice that. The
// bound uses scale max_l |A[i][l]| * sum_l |B[l][j]|, which is at least the
// sum of the terms' magnitudes that DotBound asks for. It returns the worst
// |error| / bound, and an error naming the worst element when any element
// is out of bounds (NaN where the reference is not, included).
func (p product) check(dt compare.DType, got, want []float32) (float64, error) {
	if len(got) != p.m*p.n || len(want) != p.m*p.n {
		return 0, fmt.Errorf("check: %d and %d elements for a %dx%d result", len(got), len(want), p.m, p.n)
	}
	bound := func(idx int) float64 {
		return 2 * compare.DotBound(dt, p.k, p.inflate*p.rowMaxA[idx/p.n]*p.colSumB[idx%p.n], float64(want[idx]))
	}
	// Rows are checked in parallel: at 8192 x 8192 one pass is 67M bounds.
	type part struct {
		worst  float64
		at     int
		failed bool
	}
	workers := max(1, min(runtime.NumCPU(), p.m))
	parts := make([]part, workers)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			pt := &parts[w]
			for idx := w * p.m / workers * p.n; idx < (w+1)*p.m/workers*p.n; idx++ {
				gv, wv, bv := float64(got[idx]), float64(want[idx]), bound(idx)
				ok := compare.Within(gv, wv, bv)
				r := math.Abs(gv-wv) / bv
				switch {
				case !ok && (math.IsNaN(r) || math.IsInf(r, 0)):
					r = math.Inf(1)
				case ok && (math.IsNaN(r) || math.IsInf(r, 0)):
					r = 0 // equal infinities, or both zero with a zero bound
				}
				pt.failed = pt.failed || !ok
				if r > pt.worst {
					pt.worst, pt.at = r, idx
				}
			}
		}()
	}
	wg.Wait()
	worst, at, failed := 0.0, 0, false
	for _, pt := range parts {
		failed = failed || pt.failed
		if pt.worst > worst {
			worst, at = pt.worst, pt.at
		}
	}
	if !failed {
		return worst, nil
	}
	g, w := float64(got[at]), float64(want[at])
	return worst, fmt.Errorf("C[%d,%d] = %g, the reference has %g: |difference| %.3g over the bound %.3g (%s, K = %d): the kernel is wrong",
		at/p.n, at%p.n, g, w, math.Abs(g-w), bound(at), dtName[dt], p.k)
}

var dtName = map[compare.DType]string{compare.F32: "fp32", compare.F16: "fp16 out, fp32 accumulation", compare.F16Acc16: "fp16", compare.GF256: "GF(2^8)"}
