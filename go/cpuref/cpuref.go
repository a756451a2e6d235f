// Package cpuref holds CPU reference implementations with float64
// accumulation, for checking the GPU kernels.
package cpuref

import (
	"math"
	"runtime"
	"sync"
)

// Matrix is a Rows x Cols matrix of float32 in host memory, row- or
// column-major with leading dimension Stride.
type Matrix struct {
	Rows, Cols, Stride int
	ColMajor           bool
	Data               []float32
}

// At is element (i, j).
func (m Matrix) At(i, j int) float32 {
	if m.ColMajor {
		return m.Data[j*m.Stride+i]
	}
	return m.Data[i*m.Stride+j]
}

// MatMul returns the exact-as-float64 product A * B as a row-major M x N slice.
func MatMul(a, b Matrix) []float64 {
	m, k, n := a.Rows, a.Cols, b.Cols
	bt := make([]float64, k*n) // B as row-major K x N
	for p := 0; p < k; p++ {
		for j := 0; j < n; j++ {
			bt[p*n+j] = float64(b.At(p, j))
		}
	}
	out := make([]float64, m*n)
	parallelRows(m, func(i int) {
		row := out[i*n : (i+1)*n]
		for p := 0; p < k; p++ {
			aip := float64(a.At(i, p))
			brow := bt[p*n : (p+1)*n]
			for j := range row {
				row[j] += aip * brow[j]
			}
		}
	})
	return out
}

// RowNorms returns the Euclidean norm of each row of m; ColNorms of each column.
func RowNorms(m Matrix) []float64 {
	out := make([]float64, m.Rows)
	for i := range out {
		var s float64
		for j := 0; j < m.Cols; j++ {
			v := float64(m.At(i, j))
			s += v * v
		}
		out[i] = math.Sqrt(s)
	}
	return out
}

// ColNorms returns the Euclidean norm of each column of m.
func ColNorms(m Matrix) []float64 {
	out := make([]float64, m.Cols)
	for j := range out {
		var s float64
		for i := 0; i < m.Rows; i++ {
			v := float64(m.At(i, j))
			s += v * v
		}
		out[j] = math.Sqrt(s)
	}
	return out
}

// parallelRows calls f for every row in [0, rows) across the CPU's cores.
func parallelRows(rows int, f func(i int)) {
	workers := min(runtime.GOMAXPROCS(0), max(rows, 1))
	var wg sync.WaitGroup
	next := make(chan int, rows)
	for i := 0; i < rows; i++ {
		next <- i
	}
	close(next)
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				f(i)
			}
		}()
	}
	wg.Wait()
}
