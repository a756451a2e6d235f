package gemm

import "testing"

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
