package gemm

import (
	"testing"

	"github.com/kgen-gpu/kgen/go/internal/kernels"
	"github.com/kgen-gpu/kgen/internal/tuning"
)

func BenchmarkChoose(b *testing.B) {
	e, err := newEngine(nil, 90)
	if err != nil {
		b.Fatal(err)
	}
	for i := 0; i < b.N; i++ {
		if _, _, err := e.choose(F16, F32, "", RowMajor, RowMajor, 1024, 1024, 1024); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkChooseByTable is a choice the engine has not made before, by the
// H100's table: the prediction of each of HGEMM's families (or SGEMM's
// one), which fits their grids' timing models.
func BenchmarkChooseByTable(b *testing.B) {
	e, err := newEngine(nil, 90)
	if err != nil {
		b.Fatal(err)
	}
	e.setTable(tuning.Find(kernels.Tunings, "NVIDIA H100 80GB HBM3", 90))
	for _, dt := range []DType{F32, F16} {
		b.Run(dt.String(), func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				if _, c, err := e.chooseFor(132, dt, F32, RowMajor, RowMajor, 1000, 1000, 1000); err != nil || c.Source != Table {
					b.Fatal(err, c)
				}
			}
		})
	}
}
