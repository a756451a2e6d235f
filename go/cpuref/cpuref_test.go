package cpuref

import (
	"math"
	"testing"
)

func TestMatMulHandChecked(t *testing.T) {
	// [1 2 3]   [ 7  8]   [ 58  64]
	// [4 5 6] x [ 9 10] = [139 154]
	//           [11 12]
	a := Matrix{Rows: 2, Cols: 3, Stride: 3, Data: []float32{1, 2, 3, 4, 5, 6}}
	b := Matrix{Rows: 3, Cols: 2, Stride: 2, Data: []float32{7, 8, 9, 10, 11, 12}}
	want := []float64{58, 64, 139, 154}
	check := func(name string, got []float64) {
		t.Helper()
		for i := range want {
			if got[i] != want[i] {
				t.Fatalf("%s: got %v, want %v", name, got, want)
			}
		}
	}
	check("row-major", MatMul(a, b))

	// The same matrices stored column-major with padded strides.
	ac := Matrix{Rows: 2, Cols: 3, Stride: 3, ColMajor: true, Data: []float32{1, 4, -1, 2, 5, -1, 3, 6, -1}}
	bc := Matrix{Rows: 3, Cols: 2, Stride: 4, ColMajor: true, Data: []float32{7, 9, 11, -1, 8, 10, 12, -1}}
	check("column-major", MatMul(ac, bc))
}

func TestMatMulDegenerate(t *testing.T) {
	a := Matrix{Rows: 2, Cols: 0, Stride: 1}
	b := Matrix{Rows: 0, Cols: 3, Stride: 3}
	got := MatMul(a, b)
	if len(got) != 6 {
		t.Fatalf("len = %d, want 6", len(got))
	}
	for _, v := range got {
		if v != 0 {
			t.Fatalf("K = 0 product must be zero, got %v", got)
		}
	}
}

func TestMatMulKeepsFloat64Precision(t *testing.T) {
	// 1e8 + 1 - 1e8 is 1 in float64 but 0 when accumulated in float32.
	a := Matrix{Rows: 1, Cols: 3, Stride: 3, Data: []float32{1e8, 1, -1e8}}
	b := Matrix{Rows: 3, Cols: 1, Stride: 1, Data: []float32{1, 1, 1}}
	if got := MatMul(a, b)[0]; got != 1 {
		t.Fatalf("got %v, want 1", got)
	}
}

func TestNorms(t *testing.T) {
	m := Matrix{Rows: 2, Cols: 2, Stride: 2, Data: []float32{3, 4, 0, 5}}
	if r := RowNorms(m); r[0] != 5 || r[1] != 5 {
		t.Fatalf("RowNorms = %v, want [5 5]", r)
	}
	// Columns (3, 0) and (4, 5): norms 3 and sqrt(41).
	if c := ColNorms(m); c[0] != 3 || math.Abs(c[1]-math.Sqrt(41)) > 1e-15 {
		t.Fatalf("ColNorms = %v, want [3 %v]", c, math.Sqrt(41))
	}
}
