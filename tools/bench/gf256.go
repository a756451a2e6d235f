package main

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"regexp"
	"sort"
	"time"

	"github.com/klauspost/reedsolomon"

	"github.com/kgen-gpu/kgen/go/cuda"
	"github.com/kgen-gpu/kgen/go/gf256"
	"github.com/kgen-gpu/kgen/go/rs"
)

// GFResult is one row of the GF(2^8) section: one kernel (or reference)
// encoding or decoding one shape.
type GFResult struct {
	Op         string // encode, decode (4 lost data shards), host-encode
	Kernel     string // instance name, or copy-floor, klauspost, pipeline
	K, M       int
	ShardBytes int
	Ms         float64 // median
	DataGBs    float64 // k x shard bytes per second, as klauspost counts "data"
	VsFloor    float64 // this rate / the copy-bandwidth floor's
	VsCPU      float64 // this rate / klauspost's on all cores
	GPUShare   float64 `json:",omitempty"` // host-encode: bytes the GPU served / all
}

// GFReport is the GF(2^8) section.
type GFReport struct {
	CopyGBs       float64 // device-to-device copy, bytes read + written per second
	PinnedH2DGBs  float64 // pinned host -> device, one way
	PinnedD2HGBs  float64
	PinnedBothGBs float64 // each way, both at once
	CPUCores      int
	Results       []GFResult
}

var gfShapes = [][2]int{{4, 2}, {10, 4}, {17, 3}, {32, 8}}

// gfSection times every GF(2^8) instance on the device-resident encode of
// each shape and size, and the references, in one run; every kernel's
// parity is checked bit for bit against klauspost's first (a wrong kernel
// fails the bench).
func (b *bencher) gfSection(sizes []int, re *regexp.Regexp, cores int) (*GFReport, error) {
	eng, err := gf256.New(b.dev)
	if err != nil {
		return nil, err
	}
	defer eng.Close()
	rep := &GFReport{CPUCores: cores}
	if rep.CopyGBs, err = b.copyRate(); err != nil {
		return nil, err
	}
	if rep.PinnedH2DGBs, rep.PinnedD2HGBs, rep.PinnedBothGBs, err = b.pinnedRates(); err != nil {
		return nil, err
	}
	fmt.Printf("GF(2^8): device copy %.0f GB/s (read + written); pinned H2D %.1f, D2H %.1f, both at once %.1f GB/s each way; %d CPU cores\n",
		rep.CopyGBs, rep.PinnedH2DGBs, rep.PinnedD2HGBs, rep.PinnedBothGBs, cores)
	for _, km := range gfShapes {
		for _, size := range sizes {
			rows, err := b.gfShape(eng, km[0], km[1], size, re, rep.CopyGBs)
			if err != nil {
				return nil, fmt.Errorf("GF(2^8) %d+%d, %d-byte shards: %w", km[0], km[1], size, err)
			}
			rep.Results = append(rep.Results, rows...)
		}
	}
	for _, size := range sizes {
		rows, err := b.gfHost(10, 4, size, rep)
		if err != nil {
			return nil, fmt.Errorf("GF(2^8) host-to-host 10+4, %d-byte shards: %w", size, err)
		}
		rep.Results = append(rep.Results, rows...)
	}
	return rep, nil
}

// copyRate measures device-to-device copies of 1 GiB, in bytes read plus
// written per second.
func (b *bencher) copyRate() (float64, error) {
	const n = 1 << 30
	src, err := b.dev.Alloc(n)
	if err != nil {
		return 0, err
	}
	defer src.Free()
	dst, err := b.dev.Alloc(n)
	if err != nil {
		return 0, err
	}
	defer dst.Free()
	ms, err := b.timeOnce(func() error { return cuda.Copy(nil, dst, 0, src, 0, n) })
	if err != nil {
		return 0, err
	}
	return 2 * n / (ms / 1e3) / 1e9, nil
}

// pinnedRates measures pinned host <-> device copies of 256 MiB: each way
// alone, then both at once on two streams (the rate of each).
func (b *bencher) pinnedRates() (h2d, d2h, both float64, err error) {
	const n = 256 << 20
	host, err := b.dev.AllocHost(2 * n)
	if err != nil {
		return 0, 0, 0, err
	}
	defer host.Free()
	dev, err := b.dev.Alloc(2 * n)
	if err != nil {
		return 0, 0, 0, err
	}
	defer dev.Free()
	s1, err := b.dev.NewStream()
	if err != nil {
		return 0, 0, 0, err
	}
	defer s1.Destroy()
	s2, err := b.dev.NewStream()
	if err != nil {
		return 0, 0, 0, err
	}
	defer s2.Destroy()
	wall := func(f func() error) (float64, error) {
		var ts []float64
		for i := 0; i < b.warmup+b.iters; i++ {
			start := time.Now()
			if err := f(); err != nil {
				return 0, err
			}
			if err := errors.Join(s1.Synchronize(), s2.Synchronize()); err != nil {
				return 0, err
			}
			if i >= b.warmup {
				ts = append(ts, time.Since(start).Seconds())
			}
		}
		sort.Float64s(ts)
		return n / ts[len(ts)/2] / 1e9, nil
	}
	if h2d, err = wall(func() error { return cuda.CopyToDeviceAsync(s1, dev, 0, host, 0, n) }); err != nil {
		return
	}
	if d2h, err = wall(func() error { return cuda.CopyToHostAsync(s1, host, 0, dev, 0, n) }); err != nil {
		return
	}
	both, err = wall(func() error {
		return errors.Join(cuda.CopyToDeviceAsync(s1, dev, 0, host, 0, n), cuda.CopyToHostAsync(s2, host, n, dev, n, n))
	})
	return
}

// timeOnce is b.time for work without operand sets.
func (b *bencher) timeOnce(f func() error) (float64, error) {
	return b.time([]operandSet{{}}, func(operandSet) error { return f() })
}

// shardSet is one copy of a shape's shards on the device; several are
// rotated so that timings come from HBM, not L2.
type shardSet []gf256.Shard

func (b *bencher) gfShape(eng *gf256.Engine, k, m, size int, re *regexp.Regexp, copyGBs float64) ([]GFResult, error) {
	rng := rand.New(rand.NewPCG(uint64(k*1000+m), uint64(size)))
	host := make([][]byte, k+m)
	for i := range host {
		host[i] = make([]byte, size)
		if i < k {
			for j := range host[i] {
				host[i][j] = byte(rng.IntN(256))
			}
		}
	}
	enc, err := rs.New(k, m, rs.WithGPU(rs.GPURequired))
	if err != nil {
		return nil, err
	}
	defer enc.Close()
	ref, err := reedsolomon.New(k, m)
	if err != nil {
		return nil, err
	}
	if err := ref.Encode(host); err != nil {
		return nil, err
	}
	setBytes := (k + m) * size
	l2 := max(b.dev.Info().L2Bytes, 1<<20)
	count := max(2, min(8, 4*l2/setBytes+1))
	sets := make([]shardSet, count)
	var bufs []*cuda.Buffer
	defer func() {
		for _, x := range bufs {
			x.Free()
		}
	}()
	for s := range sets {
		sets[s] = make(shardSet, k+m)
		for i := range sets[s] {
			buf, err := b.dev.Alloc(size)
			if err != nil {
				return nil, err
			}
			bufs = append(bufs, buf)
			if i < k {
				if err := cuda.CopyFromHost(buf, host[i]); err != nil {
					return nil, err
				}
			}
			sets[s][i] = gf256.Shard{Buf: buf}
		}
	}
	dataGBs := func(ms float64) float64 { return float64(k*size) / (ms / 1e3) / 1e9 }
	floorMs := float64((k+m)*size) / (copyGBs * 1e9) * 1e3
	cpuMs, err := wallMedian(b.iters, func() error { return ref.Encode(host) })
	if err != nil {
		return nil, err
	}
	row := func(op, kernel string, ms float64) GFResult {
		return GFResult{Op: op, Kernel: kernel, K: k, M: m, ShardBytes: size, Ms: ms, DataGBs: dataGBs(ms),
			VsFloor: floorMs / ms, VsCPU: cpuMs / ms}
	}
	out := []GFResult{row("encode", "copy-floor", floorMs), row("encode", "klauspost", cpuMs)}
	coeffs := parityRows(enc, k, m)
	for _, in := range eng.Instances() {
		if !re.MatchString(in.Name) {
			continue
		}
		run := func(set shardSet) error { return eng.MatMulWith(in.Name, nil, coeffs, set[:k], set[k:], size, false) }
		if err := b.checkParity(run, sets[0], host, k, m, size); err != nil {
			return nil, fmt.Errorf("%s: %w", in.Name, err)
		}
		ms, err := b.timeSets(sets, run)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", in.Name, err)
		}
		r := row("encode", in.Name, ms)
		out = append(out, r)
		fmt.Printf("  encode %2d+%d %8d B %-28s %8.3f ms %7.1f GB/s  %.2fx floor  %5.1fx klauspost\n", k, m, size, in.Name, ms, r.DataGBs, r.VsFloor, r.VsCPU)
	}
	// The engine's own choice through the coder, as users call it.
	encRun := func(set shardSet) error { return enc.EncodeDevice(nil, set, size) }
	if err := b.checkParity(encRun, sets[0], host, k, m, size); err != nil {
		return nil, fmt.Errorf("EncodeDevice: %w", err)
	}
	ms, err := b.timeSets(sets, encRun)
	if err != nil {
		return nil, err
	}
	out = append(out, row("encode", "EncodeDevice", ms))
	if k == 10 && m == 4 {
		r, err := b.gfDecode(enc, sets, host, size, row)
		if err != nil {
			return nil, err
		}
		out = append(out, r...)
	}
	return out, nil
}

// gfDecode times ReconstructDevice of the first four data shards of 10+4,
// checked against the originals, and klauspost's ReconstructData.
func (b *bencher) gfDecode(enc *rs.Encoder, sets []shardSet, host [][]byte, size int, row func(op, kernel string, ms float64) GFResult) ([]GFResult, error) {
	present := make([]bool, 14)
	for i := range present {
		present[i] = i >= 4
	}
	dec := func(set shardSet) error { return enc.ReconstructDevice(nil, set, present, size, true) }
	if err := dec(sets[0]); err != nil {
		return nil, err
	}
	if err := b.dev.Synchronize(); err != nil {
		return nil, err
	}
	got := make([]byte, size)
	for i := 0; i < 4; i++ {
		if err := cuda.CopyToHost(got, sets[0][i].Buf); err != nil {
			return nil, err
		}
		if !bytes.Equal(got, host[i]) {
			return nil, fmt.Errorf("ReconstructDevice: data shard %d differs from the original", i)
		}
	}
	ms, err := b.timeSets(sets, dec)
	if err != nil {
		return nil, err
	}
	ref, err := reedsolomon.New(10, 4)
	if err != nil {
		return nil, err
	}
	lost := make([][]byte, 14)
	cpuMs, err := wallMedian(b.iters, func() error {
		copy(lost, host)
		for i := 0; i < 4; i++ {
			lost[i] = lost[i][:0]
		}
		return ref.ReconstructData(lost)
	})
	if err != nil {
		return nil, err
	}
	g, c := row("decode", "ReconstructDevice", ms), row("decode", "klauspost", cpuMs)
	g.VsCPU = cpuMs / ms
	fmt.Printf("  decode 10+4 %8d B ReconstructDevice %8.3f ms %7.1f GB/s  %.2fx floor  %5.1fx klauspost\n", size, ms, g.DataGBs, g.VsFloor, g.VsCPU)
	return []GFResult{g, c}, nil
}

// gfHost times the host-to-host encode of k+m through rs.Encoder (the GPU
// pipeline beside klauspost on the CPU) against klauspost alone. The
// Encoder's shards are rs.AllocPinned memory, which the pipeline moves
// without CPU staging (ordinary shards stay on the CPU by default).
func (b *bencher) gfHost(k, m, size int, rep *GFReport) (_ []GFResult, err error) {
	rng := rand.New(rand.NewPCG(3, uint64(size)))
	pinned, err := rs.AllocPinned(k+m, size)
	if err != nil {
		return nil, err
	}
	defer func() { err = errors.Join(err, pinned.Free()) }()
	shards := pinned.Shards
	for i := range shards {
		for j := range shards[i] {
			shards[i][j] = byte(rng.IntN(256))
		}
	}
	want := make([][]byte, k+m)
	for i := range want {
		want[i] = bytes.Clone(shards[i])
	}
	ref, err := reedsolomon.New(k, m)
	if err != nil {
		return nil, err
	}
	if err := ref.Encode(want); err != nil {
		return nil, err
	}
	enc, err := rs.New(k, m)
	if err != nil {
		return nil, err
	}
	defer enc.Close()
	if err := enc.Encode(shards); err != nil {
		return nil, err
	}
	for i := k; i < k+m; i++ {
		if !bytes.Equal(shards[i], want[i]) {
			return nil, fmt.Errorf("rs.Encoder: parity %d differs from klauspost", i-k)
		}
	}
	ms, err := wallMedian(b.iters, func() error { return enc.Encode(shards) })
	if err != nil {
		return nil, err
	}
	last := enc.LastBackends()
	cpuMs, err := wallMedian(b.iters, func() error { return ref.Encode(want) })
	if err != nil {
		return nil, err
	}
	data := func(ms float64) float64 { return float64(k*size) / (ms / 1e3) / 1e9 }
	// The copy floor of the pipeline: data up and parity down at the pinned
	// rates measured, both directions at once.
	floorMs := max(float64(k*size)/rep.PinnedBothGBs, float64(m*size)/rep.PinnedBothGBs) / 1e6
	share := 0.0
	if all := last.CPUBytes + last.GPUBytes; all > 0 {
		share = float64(last.GPUBytes) / float64(all)
	}
	g := GFResult{Op: "host-encode", Kernel: "pinned pipeline+cpu", K: k, M: m, ShardBytes: size, Ms: ms, DataGBs: data(ms),
		VsFloor: floorMs / ms, VsCPU: cpuMs / ms, GPUShare: share}
	c := GFResult{Op: "host-encode", Kernel: "klauspost", K: k, M: m, ShardBytes: size, Ms: cpuMs, DataGBs: data(cpuMs), VsCPU: 1}
	fmt.Printf("  host-encode 10+4 %8d B rs.Encoder %8.3f ms %7.1f GB/s (GPU share %.0f%%)  %.2fx klauspost\n", size, ms, g.DataGBs, 100*share, g.VsCPU)
	return []GFResult{g, c}, nil
}

// parityRows are the encoding coefficients of enc: encoding unit vectors
// gives them, one data shard at a time (and checks nothing else is used).
func parityRows(enc *rs.Encoder, k, m int) []byte {
	shards := make([][]byte, k+m)
	for i := range shards {
		shards[i] = make([]byte, k)
	}
	for j := 0; j < k; j++ {
		shards[j][j] = 1
	}
	_ = enc.Encode(shards) // k-byte shards: below any GPU threshold
	coeffs := make([]byte, k*m)
	for r := 0; r < m; r++ {
		copy(coeffs[r*k:], shards[k+r])
	}
	return coeffs
}

// checkParity runs f once on set with the parity poisoned and compares the
// parity with klauspost's.
func (b *bencher) checkParity(f func(shardSet) error, set shardSet, host [][]byte, k, m, size int) error {
	for _, s := range set[k:] {
		if err := s.Buf.Fill32(nil, 0xA5A5A5A5); err != nil {
			return err
		}
	}
	if err := f(set); err != nil {
		return err
	}
	if err := b.dev.Synchronize(); err != nil {
		return err
	}
	got := make([]byte, size)
	for r := 0; r < m; r++ {
		if err := cuda.CopyToHost(got, set[k+r].Buf); err != nil {
			return err
		}
		if !bytes.Equal(got, host[k+r]) {
			return fmt.Errorf("parity %d differs from klauspost's: the kernel is wrong", r)
		}
	}
	return nil
}

// timeSets is b.time over shard sets.
func (b *bencher) timeSets(sets []shardSet, f func(shardSet) error) (float64, error) {
	i := 0
	return b.time(make([]operandSet, len(sets)), func(operandSet) error {
		s := sets[i%len(sets)]
		i++
		return f(s)
	})
}

// wallMedian is the median wall time of iters runs of f, in milliseconds,
// after one warm-up.
func wallMedian(iters int, f func() error) (float64, error) {
	if err := f(); err != nil {
		return 0, err
	}
	ts := make([]float64, iters)
	for i := range ts {
		start := time.Now()
		if err := f(); err != nil {
			return 0, err
		}
		ts[i] = float64(time.Since(start).Microseconds()) / 1e3
	}
	sort.Float64s(ts)
	return ts[len(ts)/2], nil
}
