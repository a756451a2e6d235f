package main

import (
	"fmt"
	"math"
	"math/rand/v2"
	"regexp"
	"sort"

	"github.com/kgen-gpu/kgen/go/cuda"
	"github.com/kgen-gpu/kgen/go/f16"
	"github.com/kgen-gpu/kgen/go/gemm"
	"github.com/kgen-gpu/kgen/internal/cublasref"
)

// bencher holds the device, the engine, cuBLAS and the timing events.
type bencher struct {
	dev           *cuda.Device
	eng           *gemm.Engine
	blas          *cublasref.Handle
	start, stop   *cuda.Event
	iters, warmup int
	peak          float64 // FP32 TFLOPS
}

func newBencher(iters, warmup int) (*bencher, error) {
	dev, err := cuda.Open(0)
	if err != nil {
		return nil, err
	}
	b := &bencher{dev: dev, iters: iters, warmup: warmup}
	if b.eng, err = gemm.New(dev); err != nil {
		return nil, err
	}
	if b.blas, err = cublasref.New(nil); err != nil {
		return nil, err
	}
	if b.start, err = dev.NewEvent(); err != nil {
		return nil, err
	}
	if b.stop, err = dev.NewEvent(); err != nil {
		return nil, err
	}
	b.peak = b.deviceReport().PeakTFLOPS
	return b, nil
}

func (b *bencher) close() {
	b.start.Destroy()
	b.stop.Destroy()
	b.blas.Close()
	b.dev.Close()
}

// deviceReport describes the device; its peak is SMs x FP32 lanes x 2 flops x clock.
func (b *bencher) deviceReport() DeviceReport {
	info := b.dev.Info()
	lanes := 128
	if info.CC() == 80 {
		lanes = 64
	}
	cc, jit := b.eng.Arch()
	return DeviceReport{
		Name: info.Name, CC: info.CC(), SMs: info.Multiprocessors, ClockMHz: info.ClockKHz / 1000,
		L2MB: info.L2Bytes >> 20, Driver: cudaVersion(info.DriverVersion), Runtime: cudaVersion(info.RuntimeVersion),
		KernelArch: cc, JIT: jit,
		PeakTFLOPS: float64(info.Multiprocessors*lanes*2) * float64(info.ClockKHz) * 1e3 / 1e12,
	}
}

func cudaVersion(v int) string { return fmt.Sprintf("%d.%d", v/1000, v%1000/10) }

// operandSet is one A, B, C triple; several are rotated so that small sizes
// are not timed out of L2.
type operandSet struct{ a, b, c gemm.Matrix }

// layoutPairs are the four storage orders of A and B, nn, nt, tn, tt.
var layoutPairs = [][2]gemm.Order{{gemm.RowMajor, gemm.RowMajor}, {gemm.RowMajor, gemm.ColMajor}, {gemm.ColMajor, gemm.RowMajor}, {gemm.ColMajor, gemm.ColMajor}}

// allocSets makes random n x n operand sets of element type dt.
func (b *bencher) allocSets(n int, order [2]gemm.Order, dt gemm.DType) ([]operandSet, func(), error) {
	bytes := n * n * dt.Size()
	l2 := max(b.dev.Info().L2Bytes, 1<<20)
	count := max(1, min(16, (4*l2)/(3*bytes)+1)) // at least 4x L2 across the sets
	rng := rand.New(rand.NewPCG(uint64(n), 7+9*uint64(dt)))
	host := make([]float32, n*n)
	var bufs []*cuda.Buffer
	free := func() {
		for _, x := range bufs {
			x.Free()
		}
	}
	alloc := func() (*cuda.Buffer, error) {
		for i := range host {
			host[i] = float32(rng.Float64()*2 - 1)
		}
		buf, err := b.dev.Alloc(bytes)
		if err != nil {
			return nil, err
		}
		bufs = append(bufs, buf)
		if dt == gemm.F16 {
			return buf, f16.Upload(buf, 0, host)
		}
		return buf, cuda.CopyFromHost(buf, host)
	}
	var sets []operandSet
	for range count {
		var s [3]*cuda.Buffer
		for i := range s {
			buf, err := alloc()
			if err != nil {
				free()
				return nil, nil, err
			}
			s[i] = buf
		}
		sets = append(sets, operandSet{
			a: gemm.Matrix{Buf: s[0], Rows: n, Cols: n, Order: order[0]},
			b: gemm.Matrix{Buf: s[1], Rows: n, Cols: n, Order: order[1]},
			c: gemm.Matrix{Buf: s[2], Rows: n, Cols: n},
		})
	}
	return sets, free, nil
}

// time runs f warmup times, then iters times between events, rotating the
// operand sets, and returns the median milliseconds.
func (b *bencher) time(sets []operandSet, f func(operandSet) error) (float64, error) {
	for i := range b.warmup {
		if err := f(sets[i%len(sets)]); err != nil {
			return 0, err
		}
	}
	ms := make([]float64, b.iters)
	for i := range ms {
		s := sets[i%len(sets)]
		if err := b.start.Record(nil); err != nil {
			return 0, err
		}
		if err := f(s); err != nil {
			return 0, err
		}
		if err := b.stop.Record(nil); err != nil {
			return 0, err
		}
		if err := b.stop.Synchronize(); err != nil {
			return 0, err
		}
		t, err := cuda.Elapsed(b.start, b.stop)
		if err != nil {
			return 0, err
		}
		ms[i] = float64(t)
	}
	sort.Float64s(ms)
	return ms[len(ms)/2], nil
}

func (b *bencher) cublas(s operandSet) error {
	return b.blas.SGEMM(s.a.Order == gemm.ColMajor, s.b.Order == gemm.ColMajor, s.c.Rows, s.c.Cols, s.a.Cols,
		1, s.a.Buf.Ptr(), s.a.LD(), s.b.Buf.Ptr(), s.b.LD(), 0, s.c.Buf.Ptr(), s.c.LD())
}

// size times cuBLAS and every matching instance at n, per layout of A and B.
func (b *bencher) size(n int, re *regexp.Regexp) ([]Result, error) {
	var out []Result
	flops := 2 * math.Pow(float64(n), 3)
	for _, order := range layoutPairs {
		var insts []gemm.Instance
		for _, in := range gemm.Of(gemm.F32, b.eng.Instances()) {
			if in.A == order[0] && in.B == order[1] && re.MatchString(in.Name) {
				insts = append(insts, in)
			}
		}
		if len(insts) == 0 {
			continue
		}
		sets, free, err := b.allocSets(n, order, gemm.F32)
		if err != nil {
			return nil, err
		}
		ref, err := b.time(sets, b.cublas)
		if err != nil {
			free()
			return nil, err
		}
		refRes := Result{Kernel: "cublas_sgemm_" + layoutName(order), N: n, Ms: ref, TFLOPS: flops / ref / 1e9, Ratio: 1}
		refRes.PctPeak = 100 * refRes.TFLOPS / b.peak
		out = append(out, refRes)
		want, err := b.sample(sets[0], b.cublas)
		if err != nil {
			free()
			return nil, err
		}
		for _, in := range insts {
			run := func(s operandSet) error { return b.eng.SGEMMWith(in.Name, nil, 1, s.a, s.b, 0, s.c) }
			ms, err := b.time(sets, run)
			if err != nil {
				free()
				return nil, fmt.Errorf("%s: %w", in.Name, err)
			}
			got, err := b.sample(sets[0], run)
			if err != nil {
				free()
				return nil, err
			}
			r := Result{Kernel: in.Name, N: n, Ms: ms, TFLOPS: flops / ms / 1e9, Ratio: ref / ms, MaxRelDiff: maxRelDiff(got, want)}
			r.PctPeak = 100 * r.TFLOPS / b.peak
			out = append(out, r)
			fmt.Printf("  n=%d %-48s %7.3f ms %6.1f TFLOPS  %.2fx cuBLAS\n", n, in.Name, ms, r.TFLOPS, r.Ratio)
		}
		free()
	}
	return out, nil
}

// sample runs f once on s and reads back C, so results can be compared.
func (b *bencher) sample(s operandSet, f func(operandSet) error) ([]float32, error) {
	if err := s.c.Buf.PoisonFloat32(nil); err != nil {
		return nil, err
	}
	if err := f(s); err != nil {
		return nil, err
	}
	out := make([]float32, s.c.Rows*s.c.Cols)
	if err := b.dev.Synchronize(); err != nil {
		return nil, err
	}
	return out, cuda.CopyToHost(out, s.c.Buf)
}

// maxRelDiff is max |got - want| / max |want|, NaN if anything is NaN.
func maxRelDiff(got, want []float32) float64 {
	var d, scale float64
	for i := range got {
		g, w := float64(got[i]), float64(want[i])
		if math.IsNaN(g) || math.IsNaN(w) {
			return math.NaN()
		}
		d = max(d, math.Abs(g-w))
		scale = max(scale, math.Abs(w))
	}
	if scale == 0 {
		return d
	}
	return d / scale
}

func layoutName(o [2]gemm.Order) string {
	l := map[gemm.Order]string{gemm.RowMajor: "n", gemm.ColMajor: "t"}
	return l[o[0]] + l[o[1]]
}
