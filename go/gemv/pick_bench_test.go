package gemv

import "testing"

func BenchmarkChoose(b *testing.B) {
	e, err := newEngine(nil, 90)
	if err != nil {
		b.Fatal(err)
	}
	for i := 0; i < b.N; i++ {
		if _, err := e.choose("", false, 2, 4096); err != nil {
			b.Fatal(err)
		}
	}
}
