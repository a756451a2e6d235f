package main

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"sort"
	"time"

	"github.com/klauspost/reedsolomon"

	"github.com/kgen-gpu/kgen/go/cuda"
	"github.com/kgen-gpu/kgen/go/gf256"
	"github.com/kgen-gpu/kgen/go/rs"
)

var gfShapes = [][2]int{{4, 2}, {10, 4}, {17, 3}, {32, 8}}

// gfSection times every GF(2^8) instance on the device-resident encode of
// each shape and size, and the references, in one run; every kernel's
// parity is checked bit for bit against klauspost's first (a wrong kernel
// fails the bench).
func (b *bencher) gfSection(rep *Report, cores int) error {
	eng, err := gf256.New(b.dev)
	if err != nil {
		return err
	}
	defer eng.Close()
	d := &rep.Device
	d.CPUCores = cores
	if d.PinnedH2DGBs, d.PinnedD2HGBs, d.PinnedBothGBs, err = b.pinnedRates(); err != nil {
		return err
	}
	b.printf("GF(2^8): pinned H2D %.1f, D2H %.1f, both at once %.1f GB/s each way; %d CPU cores\n",
		d.PinnedH2DGBs, d.PinnedD2HGBs, d.PinnedBothGBs, cores)
	sizes := b.cfg.gfSizes
	b.prog.section("gf256", len(gfShapes)*len(sizes)+len(sizes))
	for _, km := range gfShapes {
		for _, size := range sizes {
			if err := b.gfShape(eng, rep, km[0], km[1], size); err != nil {
				return fmt.Errorf("GF(2^8) %d+%d, %d-byte shards: %w", km[0], km[1], size, err)
			}
			b.prog.step()
		}
	}
	for _, size := range sizes {
		b.prog.item(fmt.Sprintf("host-encode 10+4 %d B", size))
		if err := b.gfHost(10, 4, size, rep); err != nil {
			return fmt.Errorf("GF(2^8) host-to-host 10+4, %d-byte shards: %w", size, err)
		}
		b.prog.step()
	}
	return nil
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
	t, err := b.Measure(func(s *cuda.Stream, _ int) error { return cuda.Copy(s, dst, 0, src, 0, n) })
	if err != nil {
		return 0, err
	}
	return 2 * n / (t.Ms / 1e3) / 1e9, nil
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

// shardSet is one copy of a shape's shards on the device; several are
// rotated so that timings come from HBM, not L2.
type shardSet []gf256.Shard

func (b *bencher) gfShape(eng *gf256.Engine, rep *Report, k, m, size int) error {
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
		return err
	}
	defer enc.Close()
	ref, err := reedsolomon.New(k, m)
	if err != nil {
		return err
	}
	if err := ref.Encode(host); err != nil {
		return err
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
				return err
			}
			bufs = append(bufs, buf)
			if i < k {
				if err := cuda.CopyFromHost(buf, host[i]); err != nil {
					return err
				}
			}
			sets[s][i] = gf256.Shard{Buf: buf}
		}
	}
	floorMs := float64((k+m)*size) / (rep.Device.CopyGBs * 1e9) * 1e3
	cpu, err := wallTiming(b.iters, func() error { return ref.Encode(host) })
	if err != nil {
		return err
	}
	shape := fmt.Sprintf("%d+%d %dB", k, m, size)
	row := func(op, kernel string, t Timing) Row {
		return Row{Family: "gf256", Op: op, Kernel: kernel, Shape: shape, Method: t.Method, Launches: t.Launches, Ms: t.Ms, NoiseMs: t.NoiseMs,
			Rate: float64(k*size) / t.Ms / 1e6, Unit: "GB/s", VsRef: cpu.Ms / t.Ms, VsFloor: floorMs / t.Ms}
	}
	add := func(r Row) {
		rep.Rows = append(rep.Rows, r)
		b.printf("  %-6s %-14s %-34s %-6s %9.4f ms %7.1f GB/s  %.2fx floor  %5.1fx klauspost\n", r.Op, shape, r.Kernel, r.Method, r.Ms, r.Rate, r.VsFloor, r.VsRef)
	}
	add(row("encode", "copy-floor", Timing{Ms: floorMs, Method: "model"}))
	add(row("encode", "klauspost", cpu))
	coeffs := parityRows(enc, k, m)
	var cands []candidate
	for _, in := range eng.Instances() {
		if !b.cfg.filter.MatchString(in.Name) {
			continue
		}
		b.prog.item(shape + " " + in.Name)
		run := func(s *cuda.Stream, set shardSet) error {
			return eng.MatMulWith(in.Name, s, coeffs, set[:k], set[k:], size, false)
		}
		if err := b.checkParity(run, sets[0], host, k, m, size); err != nil {
			return fmt.Errorf("%s: %w", in.Name, err)
		}
		t, err := b.Measure(rotateShards(sets, run))
		if err != nil {
			return fmt.Errorf("%s: %w", in.Name, err)
		}
		add(row("encode", in.Name, t))
		cands = append(cands, candidate{Name: in.Name, Params: structParams(in, "Name", "Arch", "Threads", "SharedBytes"), Ms: t.Ms})
	}
	rep.Ablation = append(rep.Ablation, ablate("gf256", shape, "", cands)...)
	// The engine's own choice through the coder, as users call it, for the
	// m parity rows it computes.
	picked, err := eng.Pick(m)
	if err != nil {
		return err
	}
	label := "engine(" + picked + ")"
	encRun := func(s *cuda.Stream, set shardSet) error { return enc.EncodeDevice(s, set, size) }
	if err := b.checkParity(encRun, sets[0], host, k, m, size); err != nil {
		return fmt.Errorf("EncodeDevice: %w", err)
	}
	t, err := b.Measure(rotateShards(sets, encRun))
	if err != nil {
		return err
	}
	add(row("encode", label, t))
	b.judge(rep, "gf256", shape, "", picked, false, cands)
	if k == 10 && m == 4 {
		return b.gfDecode(enc, sets, host, size, row, add)
	}
	return nil
}

// rotateShards makes a Launch of f over the shard sets.
func rotateShards(sets []shardSet, f func(s *cuda.Stream, set shardSet) error) Launch {
	return func(s *cuda.Stream, i int) error { return f(s, sets[i%len(sets)]) }
}

// gfDecode times ReconstructDevice of the first four data shards of 10+4,
// checked against the originals, and klauspost's ReconstructData.
func (b *bencher) gfDecode(enc *rs.Encoder, sets []shardSet, host [][]byte, size int, row func(op, kernel string, t Timing) Row, add func(Row)) error {
	present := make([]bool, 14)
	for i := range present {
		present[i] = i >= 4
	}
	dec := func(s *cuda.Stream, set shardSet) error { return enc.ReconstructDevice(s, set, present, size, true) }
	for _, s := range sets[0][:4] {
		if err := s.Buf.Fill32(b.stream, 0xA5A5A5A5); err != nil {
			return err
		}
	}
	if err := dec(b.stream, sets[0]); err != nil {
		return err
	}
	if err := b.stream.Synchronize(); err != nil {
		return err
	}
	got := make([]byte, size)
	for i := 0; i < 4; i++ {
		if err := cuda.CopyToHost(got, sets[0][i].Buf); err != nil {
			return err
		}
		if !bytes.Equal(got, host[i]) {
			return fmt.Errorf("ReconstructDevice: data shard %d differs from the original", i)
		}
	}
	t, err := b.Measure(rotateShards(sets, dec))
	if err != nil {
		return err
	}
	ref, err := reedsolomon.New(10, 4)
	if err != nil {
		return err
	}
	lost := make([][]byte, 14)
	cpu, err := wallTiming(b.iters, func() error {
		copy(lost, host)
		for i := 0; i < 4; i++ {
			lost[i] = lost[i][:0]
		}
		return ref.ReconstructData(lost)
	})
	if err != nil {
		return err
	}
	g, c := row("decode", "ReconstructDevice", t), row("decode", "klauspost", cpu)
	g.VsRef, c.VsRef = cpu.Ms/t.Ms, 1
	add(g)
	add(c)
	return nil
}

// gfHost times the host-to-host encode of k+m through rs.Encoder (the GPU
// pipeline beside klauspost on the CPU) against klauspost alone. The
// Encoder's shards are rs.AllocPinned memory, which the pipeline moves
// without CPU staging (ordinary shards stay on the CPU by default).
func (b *bencher) gfHost(k, m, size int, rep *Report) (err error) {
	rng := rand.New(rand.NewPCG(3, uint64(size)))
	pinned, err := rs.AllocPinned(k+m, size)
	if err != nil {
		return err
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
		return err
	}
	if err := ref.Encode(want); err != nil {
		return err
	}
	enc, err := rs.New(k, m)
	if err != nil {
		return err
	}
	defer enc.Close()
	if err := enc.Encode(shards); err != nil {
		return err
	}
	for i := k; i < k+m; i++ {
		if !bytes.Equal(shards[i], want[i]) {
			return fmt.Errorf("rs.Encoder: parity %d differs from klauspost", i-k)
		}
	}
	t, err := wallTiming(b.iters, func() error { return enc.Encode(shards) })
	if err != nil {
		return err
	}
	last := enc.LastBackends()
	cpu, err := wallTiming(b.iters, func() error { return ref.Encode(want) })
	if err != nil {
		return err
	}
	// The copy floor of the pipeline: data up and parity down at the pinned
	// rates measured, both directions at once.
	d := rep.Device
	floorMs := max(float64(k*size)/d.PinnedBothGBs, float64(m*size)/d.PinnedBothGBs) / 1e6
	share := 0.0
	if all := last.CPUBytes + last.GPUBytes; all > 0 {
		share = float64(last.GPUBytes) / float64(all)
	}
	shape := fmt.Sprintf("%d+%d %dB", k, m, size)
	rate := func(ms float64) float64 { return float64(k*size) / ms / 1e6 }
	g := Row{Family: "gf256", Op: "host-encode", Kernel: "pinned pipeline+cpu", Shape: shape, Method: t.Method, Launches: 1, Ms: t.Ms, NoiseMs: t.NoiseMs,
		Rate: rate(t.Ms), Unit: "GB/s", VsRef: cpu.Ms / t.Ms, VsFloor: floorMs / t.Ms, GPUShare: share}
	c := Row{Family: "gf256", Op: "host-encode", Kernel: "klauspost", Shape: shape, Method: cpu.Method, Launches: 1, Ms: cpu.Ms, NoiseMs: cpu.NoiseMs,
		Rate: rate(cpu.Ms), Unit: "GB/s", VsRef: 1}
	rep.Rows = append(rep.Rows, g, c)
	// The GPU's part moves its data up at gpuRate while the parity comes
	// down: against the pinned rate of each way with both at once. Over the
	// median call's time (the CPU's part may end after it), and over the
	// GPU side's own time in the last call.
	gpuRate := float64(last.GPUBytes) / t.Ms / 1e6
	own := ""
	if last.GPUTime > 0 {
		r := float64(last.GPUBytes) / last.GPUTime.Seconds() / 1e9
		own = fmt.Sprintf("; GPU side %.3f ms, CPU side %.3f ms: %.1f GB/s, %.2fx pinned",
			float64(last.GPUTime.Microseconds())/1e3, float64(last.CPUTime.Microseconds())/1e3, r, r/d.PinnedBothGBs)
	}
	b.printf("  host-encode %s rs.Encoder %8.3f ms %7.1f GB/s (GPU share %.0f%%: %.1f GB/s up, %.2fx pinned%s)  %.2fx klauspost\n",
		shape, t.Ms, g.Rate, 100*share, gpuRate, gpuRate/d.PinnedBothGBs, own, g.VsRef)
	return nil
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
func (b *bencher) checkParity(f func(*cuda.Stream, shardSet) error, set shardSet, host [][]byte, k, m, size int) error {
	for _, s := range set[k:] {
		if err := s.Buf.Fill32(b.stream, 0xA5A5A5A5); err != nil {
			return err
		}
	}
	if err := f(b.stream, set); err != nil {
		return err
	}
	if err := b.stream.Synchronize(); err != nil {
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
