// Package compare is the one place kgen's tests decide whether a kernel's
// output is right, per element type: floating-point results against a
// float64 reference within a bound that grows with the reduction length,
// GF(2^8) results exactly.
package compare

import "math"

// DType is an output element type the tests compare.
type DType int

const (
	F32      DType = iota
	F16            // fp16 output, fp32 accumulation
	F16Acc16       // fp16 output and accumulation
	GF256          // exact: no rounding anywhere
)

// unit is the unit roundoff of the accumulation (the output's own rounding
// is added for fp16 outputs).
var unit = map[DType]float64{F32: 0x1p-24, F16: 0x1p-24, F16Acc16: 0x1p-11, GF256: 0}

// DotBound bounds the error of one output element that is a dot product of
// length k accumulated in d's precision: 4 sqrt(k) u times scale, the sum of
// the magnitudes of the terms (|alpha| |a_i| |b_j| + |beta| |c|), plus the
// output's own rounding: for f16, half an ulp, 2^-11 |ref| for normal
// values and 2^-25 (half the subnormal spacing) below them. It is 0 for
// GF(2^8).
func DotBound(d DType, k int, scale, ref float64) float64 {
	b := 4 * math.Sqrt(float64(max(k, 1))) * unit[d] * scale
	if d == F16 || d == F16Acc16 {
		b += max(0x1p-11*math.Abs(ref), 0x1p-25)
	}
	return b
}

// Within reports whether got is within bound of ref; NaN is never within,
// and an infinite ref needs got to be the same infinity (IEEE overflow).
func Within(got, ref, bound float64) bool {
	switch {
	case math.IsNaN(got) || math.IsNaN(ref):
		return false
	case math.IsInf(ref, 0):
		return got == ref
	}
	return math.Abs(got-ref) <= bound
}

// FirstDiff is the index of the first element where got and want differ, or
// -1 when they are equal (lengths included): the comparison for GF(2^8).
func FirstDiff[T comparable](got, want []T) int {
	for i := range min(len(got), len(want)) {
		if got[i] != want[i] {
			return i
		}
	}
	if len(got) != len(want) {
		return min(len(got), len(want))
	}
	return -1
}
