// Package f16 moves fp16 data between Go and the GPU: IEEE half-precision
// values as github.com/x448/float16 holds them, converted from and to
// float32 with round-to-nearest-even, uploaded to and downloaded from
// device buffers.
package f16

import (
	"github.com/x448/float16"

	"github.com/kgen-gpu/kgen/go/cuda"
)

// Float16 is an IEEE half; its bits are what the kernels read.
type Float16 = float16.Float16

// FromFloat32 rounds each src value to the nearest half (ties to even;
// overflow to +-Inf, as IEEE says).
func FromFloat32(src []float32) []Float16 {
	out := make([]Float16, len(src))
	for i, v := range src {
		out[i] = float16.Fromfloat32(v)
	}
	return out
}

// ToFloat32 widens each half exactly.
func ToFloat32(src []Float16) []float32 {
	out := make([]float32, len(src))
	for i, v := range src {
		out[i] = v.Float32()
	}
	return out
}

// Upload rounds src to halves and copies them into b at element offset off.
func Upload(b *cuda.Buffer, off int, src []float32) error {
	return cuda.CopyFromHostAt(b, 2*off, FromFloat32(src))
}

// Download copies len(dst) halves from element offset off of b and widens
// them into dst.
func Download(dst []float32, b *cuda.Buffer, off int) error {
	h := make([]Float16, len(dst))
	if err := cuda.CopyToHostAt(h, b, 2*off); err != nil {
		return err
	}
	copy(dst, ToFloat32(h))
	return nil
}
