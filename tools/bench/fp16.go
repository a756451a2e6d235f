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
	"github.com/kgen-gpu/kgen/go/gemv"
	"github.com/kgen-gpu/kgen/internal/cublasref"
)

// HGEMVResult is one kernel (or cuBLAS, or the copy floor) at one shape.
type HGEMVResult struct {
	Kernel     string
	N, K, M    int
	Transposed bool
	Us         float64 // median microseconds per launch, launches back to back
	GBs        float64 // bytes of A, x and y per second
	VsCuBLAS   float64 // cuBLAS time / this time
	VsFloor    float64 // copy-floor time / this time
	MaxRelDiff float64 `json:",omitempty"` // against cuBLAS, relative to max |y|
}

// HGEMMResult is one kernel or cuBLAS at one size and layout.
type HGEMMResult struct {
	Kernel   string
	N        int
	Layout   string
	Ms       float64
	TFLOPS   float64
	PctPeak  float64 // of the dense fp16 tensor peak
	VsCuBLAS float64
}

// hgemvShapes are the issue's: square K = N, then the LLM shapes (N, K).
var hgemvShapes = [][2]int{
	{256, 256}, {512, 512}, {1024, 1024}, {2048, 2048}, {4096, 4096}, {8192, 8192}, {16384, 16384},
	{11008, 4096}, {4096, 11008}, {14336, 4096},
}

// launchesPerEvent is how many launches one event pair times: one launch
// per pair measures launch latency, not the kernel.
const launchesPerEvent = 50

// timeLaunches runs f(i) launchesPerEvent times back to back between one
// pair of events, iters times after warm-up, and returns the median
// microseconds per launch.
func (b *bencher) timeLaunches(f func(i int) error) (float64, error) {
	n := 0
	us := make([]float64, 0, b.iters)
	for r := 0; r < b.warmup+b.iters; r++ {
		if err := b.start.Record(nil); err != nil {
			return 0, err
		}
		for range launchesPerEvent {
			if err := f(n); err != nil {
				return 0, err
			}
			n++
		}
		if err := b.stop.Record(nil); err != nil {
			return 0, err
		}
		if err := b.stop.Synchronize(); err != nil {
			return 0, err
		}
		ms, err := cuda.Elapsed(b.start, b.stop)
		if err != nil {
			return 0, err
		}
		if r >= b.warmup {
			us = append(us, float64(ms)*1e3/launchesPerEvent)
		}
	}
	sort.Float64s(us)
	return us[len(us)/2], nil
}

// hgemvSection times every HGEMV instance at every shape, M and layout it
// takes, against cuBLAS GemmEx (fp16 in and out, fp32 compute, default
// tensor-core algorithm) and the copy floor measured in the same run.
// Weights rotate through enough copies to exceed the L2, as in inference.
func (b *bencher) hgemvSection(re *regexp.Regexp, copyGBs float64) ([]HGEMVResult, error) {
	eng, err := gemv.New(b.dev)
	if err != nil {
		return nil, err
	}
	blas, err := cublasref.NewDefault(nil)
	if err != nil {
		return nil, err
	}
	defer blas.Close()
	var out []HGEMVResult
	for _, sh := range hgemvShapes {
		for _, m := range []int{1, 2, 4, 8} {
			for _, tr := range []bool{false, true} {
				rows, err := b.hgemvShape(eng, blas, re, copyGBs, sh[0], sh[1], m, tr)
				if err != nil {
					return nil, fmt.Errorf("HGEMV %dx%d m=%d: %w", sh[0], sh[1], m, err)
				}
				out = append(out, rows...)
			}
		}
	}
	return out, nil
}

func (b *bencher) hgemvShape(eng *gemv.Engine, blas *cublasref.Handle, re *regexp.Regexp, copyGBs float64, n, k, m int, tr bool) ([]HGEMVResult, error) {
	aBytes := 2 * n * k
	l2 := max(b.dev.Info().L2Bytes, 1<<20)
	copies := max(1, min(64, 4*l2/aBytes+1))
	rng := rand.New(rand.NewPCG(uint64(n), uint64(k)))
	var bufs []*cuda.Buffer
	defer func() {
		for _, x := range bufs {
			x.Free()
		}
	}()
	alloc := func(elems int) (*cuda.Buffer, error) {
		vals := make([]float32, elems)
		for i := range vals {
			vals[i] = float32(rng.Float64()*2 - 1)
		}
		buf, err := b.dev.Alloc(2 * elems)
		if err != nil {
			return nil, err
		}
		bufs = append(bufs, buf)
		return buf, f16.Upload(buf, 0, vals)
	}
	as := make([]gemm.Matrix, copies)
	for i := range as {
		buf, err := alloc(n * k)
		if err != nil {
			return nil, err
		}
		as[i] = gemm.Matrix{Buf: buf, Rows: n, Cols: k}
		if tr {
			as[i].Order = gemm.ColMajor
		}
	}
	xb, err := alloc(m * k)
	if err != nil {
		return nil, err
	}
	yb, err := alloc(m * n)
	if err != nil {
		return nil, err
	}
	x, y := gemm.Matrix{Buf: xb, Rows: m, Cols: k}, gemm.Matrix{Buf: yb, Rows: m, Cols: n}
	cublasRun := func(i int) error {
		a := as[i%copies]
		// y (m x n) = x (m x k) * op(A)^T: op(A)^T is A read column-major (N) or A itself (T).
		return blas.GemmExF16(false, !tr, m, n, k, 1, x.Buf.Ptr(), x.LD(), a.Buf.Ptr(), a.LD(), 0, y.Buf.Ptr(), y.LD(), false)
	}
	ref, err := b.timeLaunches(cublasRun)
	if err != nil {
		return nil, err
	}
	want, err := b.sampleHalves(y, func() error { return cublasRun(0) })
	if err != nil {
		return nil, err
	}
	bytes := float64(2 * (n*k + m*k + m*n))
	floorUs := bytes / (copyGBs * 1e9) * 1e6
	row := func(kernel string, us float64) HGEMVResult {
		return HGEMVResult{Kernel: kernel, N: n, K: k, M: m, Transposed: tr, Us: us, GBs: bytes / us / 1e3, VsCuBLAS: ref / us, VsFloor: floorUs / us}
	}
	out := []HGEMVResult{row("copy-floor", floorUs), row("cublas_gemmex", ref)}
	names := []string{""}
	for _, in := range eng.Instances() {
		if in.Transposed == tr && re.MatchString(in.Name) {
			names = append(names, in.Name)
		}
	}
	for _, name := range names {
		run := func(i int) error { return eng.HGEMVWith(name, nil, 1, as[i%copies], x, 0, y) }
		got, err := b.sampleHalves(y, func() error { return run(0) })
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		diff := maxRelDiff(got, want)
		if !(diff <= 8*math.Sqrt(float64(k))*0x1p-11) {
			return nil, fmt.Errorf("%s: output differs from cuBLAS by %.3g of max |y|: the kernel is wrong", name, diff)
		}
		us, err := b.timeLaunches(run)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		label := name
		if name == "" {
			label = "HGEMV (engine's choice)"
		}
		r := row(label, us)
		r.MaxRelDiff = diff
		out = append(out, r)
		fmt.Printf("  hgemv %5dx%-5d m=%d t=%-5v %-44s %8.2f us %7.0f GB/s  %.2fx cuBLAS  %.2fx floor\n", n, k, m, tr, label, us, r.GBs, r.VsCuBLAS, r.VsFloor)
	}
	return out, nil
}

// sampleHalves poisons out, runs f, and reads out back as float32.
func (b *bencher) sampleHalves(out gemm.Matrix, f func() error) ([]float32, error) {
	if err := out.Buf.Fill32(nil, 0x7e007e00); err != nil { // fp16 NaN pairs
		return nil, err
	}
	if err := f(); err != nil {
		return nil, err
	}
	if err := b.dev.Synchronize(); err != nil {
		return nil, err
	}
	got := make([]float32, out.Rows*out.Cols)
	return got, f16.Download(got, out.Buf, 0)
}

// tensorFLOPsPerClock is dense fp16 tensor-core throughput per SM per clock
// with fp32 accumulation (A100: 312 TFLOPS at 108 SMs and 1.41 GHz; H100
// SXM: 989 at 132 and 1.83 GHz; the sm_86/sm_89 parts run fp32
// accumulation at half their fp16 rate).
var tensorFLOPsPerClock = map[int]float64{80: 2048, 86: 512, 89: 512, 90: 4096}

// hgemmSection times every fp16 GEMM instance against cuBLAS GemmEx (fp32
// accumulation) at each size and layout.
func (b *bencher) hgemmSection(sizes []int, re *regexp.Regexp) ([]HGEMMResult, error) {
	blas, err := cublasref.NewDefault(nil)
	if err != nil {
		return nil, err
	}
	defer blas.Close()
	info := b.dev.Info()
	peak := tensorFLOPsPerClock[info.CC()] * float64(info.Multiprocessors) * float64(info.ClockKHz) * 1e3 / 1e12
	var out []HGEMMResult
	for _, n := range sizes {
		flops := 2 * math.Pow(float64(n), 3)
		for _, order := range layoutPairs {
			var insts []gemm.Instance
			for _, in := range gemm.Of(gemm.F16, b.eng.Instances()) {
				if in.A == order[0] && in.B == order[1] && re.MatchString(in.Name) {
					insts = append(insts, in)
				}
			}
			if len(insts) == 0 {
				continue
			}
			sets, free, err := b.allocSets(n, order, gemm.F16)
			if err != nil {
				return nil, err
			}
			cublasRun := func(s operandSet) error {
				return blas.GemmExF16(s.a.Order == gemm.ColMajor, s.b.Order == gemm.ColMajor, n, n, n, 1, s.a.Buf.Ptr(), s.a.LD(),
					s.b.Buf.Ptr(), s.b.LD(), 0, s.c.Buf.Ptr(), s.c.LD(), false)
			}
			ref, err := b.time(sets, cublasRun)
			if err != nil {
				free()
				return nil, err
			}
			want, err := b.sampleHalves(sets[0].c, func() error { return cublasRun(sets[0]) })
			if err != nil {
				free()
				return nil, err
			}
			lay := layoutName(order)
			out = append(out, HGEMMResult{Kernel: "cublas_gemmex_" + lay, N: n, Layout: lay, Ms: ref, TFLOPS: flops / ref / 1e9, PctPeak: 100 * flops / ref / 1e9 / peak, VsCuBLAS: 1})
			for _, in := range insts {
				run := func(s operandSet) error { return b.eng.HGEMMWith(in.Name, nil, 1, s.a, s.b, 0, s.c) }
				got, err := b.sampleHalves(sets[0].c, func() error { return run(sets[0]) })
				if err == nil && !(maxRelDiff(got, want) <= 8*math.Sqrt(float64(n))*0x1p-11) {
					err = fmt.Errorf("output differs from cuBLAS by %.3g of max |C|: the kernel is wrong", maxRelDiff(got, want))
				}
				var ms float64
				if err == nil {
					ms, err = b.time(sets, run)
				}
				if err != nil {
					free()
					return nil, fmt.Errorf("%s: %w", in.Name, err)
				}
				r := HGEMMResult{Kernel: in.Name, N: n, Layout: lay, Ms: ms, TFLOPS: flops / ms / 1e9, PctPeak: 100 * flops / ms / 1e9 / peak, VsCuBLAS: ref / ms}
				out = append(out, r)
				fmt.Printf("  hgemm n=%d %-48s %7.3f ms %6.1f TFLOPS (%4.1f%% of peak)  %.2fx cuBLAS\n", n, in.Name, ms, r.TFLOPS, r.PctPeak, r.VsCuBLAS)
			}
			free()
		}
	}
	return out, nil
}
