package hgemvtest

import (
	"testing"

	"github.com/kgen-gpu/kgen/go/cuda"
	"github.com/kgen-gpu/kgen/go/gemm"
)

// The per-call cost of a small HGEMV as a Go program sees it: b.N calls
// queued on one stream, then one wait. At K = N = 256 the kernel takes
// under 2 us on an H100 (graph replay), so ns/op is the host's cost of a
// call (Go checks, cgo, binding the device, the CUDA launch) whenever that
// is the larger. BenchmarkEventRecord is the floor of any call into CUDA
// through go/cuda, for comparison.
func BenchmarkHGEMV256(b *testing.B) {
	if devErr != nil {
		b.Skip(devErr)
	}
	const n = 256
	alloc := func(rows, cols int) gemm.Matrix {
		buf, err := dev.Alloc(2 * rows * cols)
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { buf.Free() })
		return gemm.Matrix{Buf: buf, Rows: rows, Cols: cols, Order: gemm.RowMajor}
	}
	a, x, y := alloc(n, n), alloc(1, n), alloc(1, n)
	s, err := dev.NewStream()
	if err != nil {
		b.Fatal(err)
	}
	defer s.Destroy()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := eng.HGEMV(s, 1, a, x, 0, y); err != nil {
			b.Fatal(err)
		}
	}
	if err := s.Synchronize(); err != nil {
		b.Fatal(err)
	}
}

func BenchmarkEventRecord(b *testing.B) {
	if devErr != nil {
		b.Skip(devErr)
	}
	ev, err := dev.NewEvent()
	if err != nil {
		b.Fatal(err)
	}
	defer ev.Destroy()
	var s *cuda.Stream
	for i := 0; i < b.N; i++ {
		if err := ev.Record(s); err != nil {
			b.Fatal(err)
		}
	}
}
