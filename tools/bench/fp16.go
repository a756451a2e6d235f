package main

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/kgen-gpu/kgen/go/cuda"
	"github.com/kgen-gpu/kgen/go/f16"
	"github.com/kgen-gpu/kgen/go/gemm"
	"github.com/kgen-gpu/kgen/go/gemv"
	"github.com/kgen-gpu/kgen/internal/compare"
)

// hgemvShapes are the issue's: square K = N, then the LLM shapes (N, K).
var hgemvShapes = [][2]int{
	{256, 256}, {512, 512}, {1024, 1024}, {2048, 2048}, {4096, 4096}, {8192, 8192}, {16384, 16384},
	{11008, 4096}, {4096, 11008}, {14336, 4096},
}

// hgemvSection times the engine's choice at every shape, M and layout, and
// every HGEMV instance at the shapes -instances names, against cuBLAS
// GemmEx (fp16 in and out, fp32 compute, default tensor-core algorithm) and
// the copy floor measured in the same run, each checked against cuBLAS
// first, next to the read ceiling: the same weights read by a kernel that
// only reads (cuda.Sweep), the most a memory-bound kernel can approach.
// Weights rotate through enough copies to exceed the L2, as in inference.
func (b *bencher) hgemvSection(rep *Report) error {
	eng, err := gemv.New(b.dev)
	if err != nil {
		return err
	}
	b.prog.section("hgemv", len(b.cfg.gemvShapes)*len(b.cfg.gemvM)*2)
	for _, sh := range b.cfg.gemvShapes {
		if err := b.hgemvWeights(eng, rep, sh[0], sh[1]); err != nil {
			return err
		}
	}
	return nil
}

// gemvWeights is one HGEMV shape's weights on the device: copies of one
// random N x K fp16 matrix, enough of them to exceed the L2, the host
// values, and the check's sums of them in each layout.
type gemvWeights struct {
	n, k int
	host []float32 // the matrix, as stored (either layout reads it)
	bufs []*cuda.Buffer
	sums map[bool][]float64 // gemvRowSums by layout (transposed or not)
}

// gemvRowSums is, for layout tr, sum over l of |op(A)[j][l]| for each row j
// of the N x K op(A) stored in host: the check's column sums of op(A)^T, in
// one pass in storage order.
func gemvRowSums(host []float32, n, k int, tr bool) []float64 {
	s := make([]float64, n)
	if !tr { // row-major: op(A)[j][l] at j*K + l
		for j := range s {
			for _, v := range host[j*k : (j+1)*k] {
				s[j] += math.Abs(float64(v))
			}
		}
	} else { // column-major: op(A)[j][l] at l*N + j
		for l := range k {
			for j, v := range host[l*n : (l+1)*n] {
				s[j] += math.Abs(float64(v))
			}
		}
	}
	return s
}

// hgemvWeights makes one shape's weights and times every M and layout on
// them: the weights are made once per shape (at 16384 x 16384 making them
// and the check's sums takes about 8 s of host time, which the section
// spent again at each M and layout until session 49), the vectors per
// problem.
func (b *bencher) hgemvWeights(eng *gemv.Engine, rep *Report, n, k int) error {
	aBytes := 2 * n * k
	l2 := max(b.dev.Info().L2Bytes, 1<<20)
	copies := max(1, min(64, 4*l2/aBytes+1))
	rng := rand.New(rand.NewPCG(uint64(n), uint64(k)))
	host := randomValues(rng, n*k)
	w := &gemvWeights{n: n, k: k, host: host,
		sums: map[bool][]float64{false: gemvRowSums(host, n, k, false), true: gemvRowSums(host, n, k, true)}}
	defer func() {
		for _, x := range w.bufs {
			x.Free()
		}
	}()
	for i := range copies {
		buf, err := b.dev.Alloc((aBytes + 3) &^ 3) // whole words: see allocSets
		if err != nil {
			return err
		}
		w.bufs = append(w.bufs, buf)
		if i == 0 {
			err = f16.Upload(buf, 0, w.host)
		} else {
			// The same values: the copies are there to be read from
			// HBM, not for their contents.
			err = cuda.Copy(b.stream, buf, 0, w.bufs[0], 0, aBytes)
		}
		if err != nil {
			return err
		}
	}
	if err := b.stream.Synchronize(); err != nil {
		return err
	}
	for _, m := range b.cfg.gemvM {
		for _, tr := range []bool{false, true} {
			if err := b.hgemvShape(eng, rep, w, m, tr, rng); err != nil {
				return fmt.Errorf("hgemv %dx%d m=%d transposed=%v: %w", n, k, m, tr, err)
			}
			b.prog.step()
		}
	}
	return nil
}

// randomValues is n values uniform in [-1, 1).
func randomValues(rng *rand.Rand, n int) []float32 {
	vals := make([]float32, n)
	for i := range vals {
		vals[i] = float32(rng.Float64()*2 - 1)
	}
	return vals
}

// readCeilingOf times the read ceiling of HGEMV weights of aBytes: the
// bytes alone, read back to back from the rotated copies as by a kernel that
// does nothing else (cuda.Sweep). It depends on the byte count only, so each
// count is measured once per run, at the first problem that reads it, and
// the later vector counts and layouts of the shape show that time.
func (b *bencher) readCeilingOf(as []gemm.Matrix, aBytes int) (Timing, error) {
	if t, ok := b.readCeiling[aBytes]; ok {
		return t, nil
	}
	sinkBytes, err := b.dev.SweepSinkBytes(aBytes)
	if err != nil {
		return Timing{}, err
	}
	sink, err := b.dev.Alloc(sinkBytes)
	if err != nil {
		return Timing{}, err
	}
	defer sink.Free()
	t, err := b.Measure(func(s *cuda.Stream, i int) error { return cuda.Sweep(s, as[i%len(as)].Buf, 0, aBytes, sink) })
	if err != nil {
		return Timing{}, err
	}
	if b.readCeiling == nil {
		b.readCeiling = map[int]Timing{}
	}
	b.readCeiling[aBytes] = t
	return t, nil
}

// hgemvShape times one problem: M random vectors times w's weights read in
// layout tr (transposed: column-major), drawing the vectors from rng.
func (b *bencher) hgemvShape(eng *gemv.Engine, rep *Report, w *gemvWeights, m int, tr bool, rng *rand.Rand) error {
	n, k := w.n, w.k
	as := make([]gemm.Matrix, len(w.bufs))
	for i, buf := range w.bufs {
		as[i] = gemm.Matrix{Buf: buf, Rows: n, Cols: k}
		if tr {
			as[i].Order = gemm.ColMajor
		}
	}
	copies, aBytes := len(as), 2*n*k
	var bufs []*cuda.Buffer
	defer func() {
		for _, x := range bufs {
			x.Free()
		}
	}()
	alloc := func(elems int) (*cuda.Buffer, []float32, error) {
		vals := randomValues(rng, elems)
		buf, err := b.dev.Alloc((2*elems + 3) &^ 3) // whole words: see allocSets
		if err != nil {
			return nil, nil, err
		}
		bufs = append(bufs, buf)
		return buf, vals, f16.Upload(buf, 0, vals)
	}
	xb, xh, err := alloc(m * k)
	if err != nil {
		return err
	}
	yb, _, err := alloc(m * n)
	if err != nil {
		return err
	}
	x, y := gemm.Matrix{Buf: xb, Rows: m, Cols: k}, gemm.Matrix{Buf: yb, Rows: m, Cols: n}
	// y (m x n) = x (m x k) * op(A)^T: the check's B is op(A)^T.
	prod := product{m: m, n: n, k: k, rowMaxA: rowMax(m, k, at(xh, x)), colSumB: w.sums[tr], inflate: 1 + 0x1p-10}
	cublasRun := func(s *cuda.Stream, i int) error {
		a := as[i%copies]
		// op(A)^T is A read column-major (N) or A itself (T).
		return b.blasF16.GemmExF16(false, !tr, m, n, k, 1, x.Buf.Ptr(), x.LD(), a.Buf.Ptr(), a.LD(), 0, y.Buf.Ptr(), y.LD(), false)
	}
	set := operandSet{c: y}
	want, err := b.sample(set, gemm.F16, func(s *cuda.Stream, _ operandSet) error { return cublasRun(s, 0) })
	if err != nil {
		return err
	}
	ref, err := b.Measure(cublasRun)
	if err != nil {
		return err
	}
	bytes := float64(2 * (n*k + m*k + m*n))
	floorMs := bytes / (rep.Device.CopyGBs * 1e9) * 1e3
	lay := map[bool]string{false: "n", true: "t"}[tr]
	shape := fmt.Sprintf("%dx%d m=%d", n, k, m)
	row := func(kernel string, t Timing, errRatio float64) Row {
		return Row{Family: "hgemv", Kernel: kernel, Shape: shape, Layout: lay, Method: t.Method, Launches: t.Launches, Ms: t.Ms, NoiseMs: t.NoiseMs,
			Rate: bytes / t.Ms / 1e6, Unit: "GB/s", VsRef: ref.Ms / t.Ms, VsFloor: floorMs / t.Ms, ErrRatio: errRatio}
	}
	add := func(r Row) {
		rep.Rows = append(rep.Rows, r)
		b.printf("  hgemv %-16s %s %-44s %-6s %9.2f us %7.0f GB/s  %.2fx cuBLAS  %.2fx floor\n", shape, lay, r.Kernel, r.Method, 1e3*r.Ms, r.Rate, r.VsRef, r.VsFloor)
	}
	add(row("copy-floor", Timing{Ms: floorMs, Method: "model"}, 0))
	sweep, err := b.readCeilingOf(as, aBytes)
	if err != nil {
		return err
	}
	add(row("read-ceiling", sweep, 0))
	add(row("cublas_gemmex", ref, 0))
	pick, err := eng.Pick(tr, m, n)
	if err != nil {
		return err
	}
	names := []string{""}
	var insts []gemv.Instance
	for _, in := range eng.Instances() {
		if in.Transposed == tr && b.cfg.instances.atGEMV(n, k) && b.cfg.filter.MatchString(in.Name) {
			names = append(names, in.Name)
			insts = append(insts, in)
		}
	}
	var cands []candidate
	for i, name := range names {
		label := name
		if name == "" {
			label = "engine(" + pick + ")"
		}
		b.prog.item(shape + " " + lay + " " + label)
		run := func(s *cuda.Stream, i int) error { return eng.HGEMVWith(name, s, 1, as[i%copies], x, 0, y) }
		got, err := b.sample(set, gemm.F16, func(s *cuda.Stream, _ operandSet) error { return run(s, 0) })
		if err != nil {
			return fmt.Errorf("%s: %w", label, err)
		}
		errRatio, err := prod.check(compare.F16, got, want)
		if err != nil {
			return fmt.Errorf("%s differs from cuBLAS: %w", label, err)
		}
		t, err := b.Measure(run)
		if err != nil {
			return fmt.Errorf("%s: %w", label, err)
		}
		add(row(label, t, errRatio))
		if name != "" {
			cands = append(cands, candidate{Name: name, Params: structParams(insts[i-1], "Name", "Arch", "Threads"), Ms: t.Ms})
			continue
		}
		if rg, eg, ok := b.graphPair(label, cublasRun, run, t.Launches); ok {
			r, e := row("cublas_gemmex", rg, 0), row(label, eg, errRatio)
			r.VsRef, e.VsRef = 1, rg.Ms/eg.Ms
			add(r)
			add(e)
		}
	}
	rep.Ablation = append(rep.Ablation, ablate("hgemv", shape, lay, cands)...)
	b.judge(rep, "hgemv", shape, lay, pick, false, cands)
	return nil
}
