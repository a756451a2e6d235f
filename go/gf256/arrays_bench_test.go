package gf256

import (
	"fmt"
	"testing"

	"github.com/kgen-gpu/kgen/go/cuda"
)

// BenchmarkArrays compares the two ways a product's coefficients and shard
// pointers reach the device, on a 10+4 encode of 16 MiB shards: carried in
// the launch's parameters, and staged in a slot that is copied to the device
// ahead of each launch. Calls are queued back to back on one stream over
// three shard sets (672 MiB, past the L2), so ns/op is the device's time per
// product whenever that exceeds the host's. The sub-benchmarks alternate
// within each -count repeat, so drift in clocks affects both alike.
func BenchmarkArrays(b *testing.B) {
	dev, err := cuda.Open(0)
	if err != nil {
		b.Skip(err)
	}
	const k, m, n, sets = 10, 4, 16 << 20, 3
	type set struct{ in, out []Shard }
	var all []set
	for range sets {
		var s set
		for i := range k + m {
			buf, err := dev.Alloc(n)
			if err != nil {
				b.Fatal(err)
			}
			b.Cleanup(func() { buf.Free() })
			if err := buf.Fill32(nil, uint32(0x9e3779b9*(i+1))); err != nil {
				b.Fatal(err)
			}
			if i < k {
				s.in = append(s.in, Shard{Buf: buf})
			} else {
				s.out = append(s.out, Shard{Buf: buf})
			}
		}
		all = append(all, s)
	}
	coeffs := make([]byte, k*m)
	for i := range coeffs {
		coeffs[i] = byte(37*i + 11)
	}
	stream, err := dev.NewStream()
	if err != nil {
		b.Fatal(err)
	}
	defer stream.Destroy()
	for _, staged := range []bool{false, true} {
		b.Run(fmt.Sprintf("staged=%v", staged), func(b *testing.B) {
			eng, err := New(dev)
			if err != nil {
				b.Fatal(err)
			}
			defer eng.Close()
			eng.staged = staged
			run := func(i int) {
				s := all[i%sets]
				if err := eng.MatMul(stream, coeffs, s.in, s.out, n, false); err != nil {
					b.Fatal(err)
				}
			}
			for i := range 6 { // warm-up: slots, caches, clocks
				run(i)
			}
			if err := stream.Synchronize(); err != nil {
				b.Fatal(err)
			}
			b.ResetTimer()
			for i := range b.N {
				run(i)
			}
			if err := stream.Synchronize(); err != nil {
				b.Fatal(err)
			}
			b.ReportMetric(float64(k*n)/b.Elapsed().Seconds()*float64(b.N)/1e9, "GB/s")
		})
	}
}
