package compare

import (
	"math"
	"testing"
)

func TestDotBoundGrowsWithKAndIsZeroForGF256(t *testing.T) {
	if DotBound(GF256, 1000, 1, 1) != 0 {
		t.Error("GF(2^8) has no rounding")
	}
	if !(DotBound(F32, 4096, 1, 1) > DotBound(F32, 16, 1, 1)) {
		t.Error("the bound must grow with k")
	}
	if got, want := DotBound(F32, 16, 2, 0), 4*4*0x1p-24*2.0; got != want {
		t.Errorf("DotBound(F32, 16, 2) = %g, want %g", got, want)
	}
	if !(DotBound(F16, 16, 1, 1) > DotBound(F32, 16, 1, 1)) {
		t.Error("f16 output rounding must widen the bound")
	}
}

func TestWithin(t *testing.T) {
	for _, tc := range []struct {
		got, ref, bound float64
		want            bool
	}{
		{1, 1, 0, true}, {1.5, 1, 0.5, true}, {1.6, 1, 0.5, false},
		{math.NaN(), 1, 10, false}, {1, math.NaN(), 10, false},
		{math.Inf(1), math.Inf(1), 0, true}, {1e30, math.Inf(1), math.Inf(1), false},
	} {
		if Within(tc.got, tc.ref, tc.bound) != tc.want {
			t.Errorf("Within(%v, %v, %v) = %v", tc.got, tc.ref, tc.bound, !tc.want)
		}
	}
}

func TestFirstDiff(t *testing.T) {
	if FirstDiff([]byte{1, 2, 3}, []byte{1, 2, 3}) != -1 {
		t.Error("equal slices")
	}
	if FirstDiff([]byte{1, 2, 3}, []byte{1, 9, 3}) != 1 {
		t.Error("difference at 1")
	}
	if FirstDiff([]byte{1, 2}, []byte{1, 2, 3}) != 2 {
		t.Error("a shorter slice differs where it ends")
	}
}
