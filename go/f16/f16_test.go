package f16

import (
	"math"
	"testing"
)

func TestRoundTripAndIEEEEdges(t *testing.T) {
	src := []float32{0, 1, -2.5, 65504, -65504, 65520, 1e-7, 6e-8, float32(math.Inf(-1))}
	got := ToFloat32(FromFloat32(src))
	want := []float32{0, 1, -2.5, 65504, -65504, float32(math.Inf(1)), 1.1920929e-07, 5.9604645e-08, float32(math.Inf(-1))}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("%g -> %g, want %g", src[i], got[i], want[i])
		}
	}
	if !math.IsNaN(float64(ToFloat32(FromFloat32([]float32{float32(math.NaN())}))[0])) {
		t.Error("NaN must stay NaN")
	}
}

func TestUploadRejectsBadBuffers(t *testing.T) {
	if Upload(nil, 0, []float32{1}) == nil {
		t.Error("Upload to a nil buffer succeeded")
	}
	if Download(make([]float32, 1), nil, 0) == nil {
		t.Error("Download from a nil buffer succeeded")
	}
}
