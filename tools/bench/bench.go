package main

import (
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"slices"
	"strings"

	"github.com/kgen-gpu/kgen/go/cuda"
	"github.com/kgen-gpu/kgen/go/f16"
	"github.com/kgen-gpu/kgen/go/gemm"
	"github.com/kgen-gpu/kgen/internal/compare"
	"github.com/kgen-gpu/kgen/internal/cublasref"
)

// bencher holds the device, the engine, cuBLAS, the stream every timing
// runs on and its events.
type bencher struct {
	cfg         config
	dev         *cuda.Device
	eng         *gemm.Engine
	tuned       *gemm.Engine      // -engine-tune's: Tune at each problem, then its GEMM
	blas        *cublasref.Handle // pedantic fp32: the SGEMM reference
	blasF16     *cublasref.Handle // default math: the fp16 reference
	stream      *cuda.Stream
	start, stop *cuda.Event
	iters       int
	warmup      int
	minSpanMs   float64
	out         io.Writer
	prog        *progress
	// readCeiling is the HGEMV read ceiling (cuda.Sweep) per byte count of
	// A, measured at the first problem that reads that many.
	readCeiling map[int]Timing
}

func newBencher(cfg config, out io.Writer) (*bencher, error) {
	dev, err := cuda.Open(0)
	if err != nil {
		return nil, err
	}
	b := &bencher{cfg: cfg, dev: dev, iters: cfg.iters, warmup: cfg.warmup, minSpanMs: cfg.minSpanMs, out: out}
	b.prog = newProgress(os.Stderr, (cfg.progress || stderrIsTerminal()) && !cfg.noProgress)
	if b.eng, err = gemm.New(dev); err != nil {
		b.close()
		return nil, err
	}
	if cfg.engineTune != 0 {
		if b.tuned, err = gemm.New(dev); err != nil {
			b.close()
			return nil, err
		}
	}
	if b.stream, err = dev.NewStream(); err != nil {
		b.close()
		return nil, err
	}
	if b.blas, err = cublasref.New(b.stream.Handle()); err != nil {
		b.close()
		return nil, err
	}
	if b.blasF16, err = cublasref.NewDefault(b.stream.Handle()); err != nil {
		b.close()
		return nil, err
	}
	if b.start, err = dev.NewEvent(); err != nil {
		b.close()
		return nil, err
	}
	if b.stop, err = dev.NewEvent(); err != nil {
		b.close()
		return nil, err
	}
	return b, nil
}

// close releases what newBencher made, whatever it got to.
func (b *bencher) close() {
	b.prog.clear()
	if b.start != nil {
		b.start.Destroy()
	}
	if b.stop != nil {
		b.stop.Destroy()
	}
	if b.blas != nil {
		b.blas.Close()
	}
	if b.blasF16 != nil {
		b.blasF16.Close()
	}
	for _, e := range []*gemm.Engine{b.eng, b.tuned} {
		if e != nil {
			e.Close() // its split-K workspaces, before their streams go
		}
	}
	if b.stream != nil {
		b.stream.Destroy()
	}
	b.dev.Close()
}

// printf writes a result line to stdout, clearing the progress line first.
func (b *bencher) printf(format string, args ...any) {
	b.prog.clear()
	fmt.Fprintf(b.out, format, args...)
	b.prog.redraw()
}

// fp32LanesPerSM is FP32 lanes (FMA units) per SM by compute capability,
// from the CUDA C++ Programming Guide's throughput table.
var fp32LanesPerSM = map[int]int{60: 64, 61: 128, 62: 128, 70: 64, 72: 64, 75: 64, 80: 64, 86: 128, 87: 128, 89: 128, 90: 128, 100: 128, 103: 128, 120: 128}

// tensorFLOPsPerClock is dense fp16 tensor-core throughput per SM per clock
// with fp32 accumulation (A100: 312 TFLOPS at 108 SMs and 1.41 GHz; H100
// SXM: 989 at 132 and 1.83 GHz; the sm_86/sm_89 parts run fp32
// accumulation at half their fp16 rate).
var tensorFLOPsPerClock = map[int]float64{80: 2048, 86: 512, 89: 512, 90: 4096}

// deviceReport describes the device from its properties; the peaks are SMs
// x per-SM rate x clock, 0 where the table has no entry for the CC.
func (b *bencher) deviceReport() DeviceReport {
	info := b.dev.Info()
	lanes := fp32LanesPerSM[info.CC()]
	cc, jit := b.eng.Arch()
	clock := float64(info.ClockKHz) * 1e3
	table, _ := b.eng.Tuned()
	return DeviceReport{
		Table: table, TableFamilies: b.eng.TunedFamilies(),
		Name: info.Name, CC: info.CC(), SMs: info.Multiprocessors, ClockMHz: info.ClockKHz / 1000, FP32LanesPerSM: lanes,
		PeakTFLOPS:    float64(info.Multiprocessors*lanes*2) * clock / 1e12,
		PeakF16TFLOPS: tensorFLOPsPerClock[info.CC()] * float64(info.Multiprocessors) * clock / 1e12,
		PeakMemGBs:    info.PeakMemoryGBs(),
		L2MB:          info.L2Bytes >> 20, Driver: cudaVersion(info.DriverVersion), Runtime: cudaVersion(info.RuntimeVersion),
		NVCC: "nvcc " + cuda.BuildToolkit(), KernelArch: cc, JIT: jit,
	}
}

// dispatchLine tells how the engine chooses its GEMM kernels on the GPU
// called name: by the table measured on such a GPU on the day table, for
// the families tuned, and by its rule for the others of families (every
// family it picks from); or by its rule alone when table is "".
func dispatchLine(name, table string, tuned, families []string) string {
	if table == "" {
		return fmt.Sprintf("dispatch: no table for the %s; the engine picks GEMM kernels by its rule (bench -tune measures one: kernels/README.md, \"Dispatch tables\")", name)
	}
	line := fmt.Sprintf("dispatch: %s by the %s's table of %s", strings.Join(tuned, ", "), name, table)
	var rest []string
	for _, f := range families {
		if !slices.Contains(tuned, f) {
			rest = append(rest, f)
		}
	}
	if len(rest) > 0 {
		line += fmt.Sprintf("; %s by the engine's rule", strings.Join(rest, ", "))
	}
	return line
}

func cudaVersion(v int) string { return fmt.Sprintf("%d.%d", v/1000, v%1000/10) }

// operandSet is one A, B, C triple; several are rotated so that small
// problems are not timed out of the L2.
type operandSet struct{ a, b, c gemm.Matrix }

// operands are a problem's rotated sets and the check's view of set 0.
type operands struct {
	sets []operandSet
	prod product
	free func()
}

// layoutName is nn, nt, tn or tt: A's storage order, then B's.
func layoutName(o [2]gemm.Order) string {
	l := map[gemm.Order]string{gemm.RowMajor: "n", gemm.ColMajor: "t"}
	return l[o[0]] + l[o[1]]
}

// allocSets makes random operand sets of element type dt for shape sh, A and
// B stored in orders order, C row-major: enough sets for 4x the L2 (16 at
// most).
func (b *bencher) allocSets(sh shape, order [2]gemm.Order, dt gemm.DType) (*operands, error) {
	size := dt.Size()
	setBytes := (sh.M*sh.K + sh.K*sh.N + sh.M*sh.N) * size
	l2 := max(b.dev.Info().L2Bytes, 1<<20)
	count := max(1, min(16, 4*l2/setBytes+1))
	rng := rand.New(rand.NewPCG(uint64(sh.M)<<40^uint64(sh.N)<<20^uint64(sh.K), 7+9*uint64(dt)))
	ops := &operands{}
	var bufs []*cuda.Buffer
	ops.free = func() {
		for _, x := range bufs {
			x.Free()
		}
	}
	alloc := func(elems int) (*cuda.Buffer, []float32, error) {
		host := make([]float32, elems)
		for i := range host {
			host[i] = float32(rng.Float64()*2 - 1)
		}
		// Whole 32-bit words, so that the poison fill reaches an odd count of halves' last one.
		buf, err := b.dev.Alloc(max((elems*size+3)&^3, 4))
		if err != nil {
			return nil, nil, err
		}
		bufs = append(bufs, buf)
		if dt == gemm.F16 {
			return buf, host, f16.Upload(buf, 0, host)
		}
		return buf, host, cuda.CopyFromHost(buf, host)
	}
	for s := range count {
		ab, ah, err := alloc(sh.M * sh.K)
		if err != nil {
			ops.free()
			return nil, err
		}
		bb, bh, err := alloc(sh.K * sh.N)
		if err != nil {
			ops.free()
			return nil, err
		}
		cb, _, err := alloc(sh.M * sh.N)
		if err != nil {
			ops.free()
			return nil, err
		}
		set := operandSet{
			a: gemm.Matrix{Buf: ab, Rows: sh.M, Cols: sh.K, Order: order[0]},
			b: gemm.Matrix{Buf: bb, Rows: sh.K, Cols: sh.N, Order: order[1]},
			c: gemm.Matrix{Buf: cb, Rows: sh.M, Cols: sh.N},
		}
		ops.sets = append(ops.sets, set)
		if s == 0 {
			inflate := 1.0
			if dt == gemm.F16 {
				inflate = 1 + 0x1p-10 // the inputs' rounding to fp16 on upload
			}
			ops.prod = newProduct(sh.M, sh.N, sh.K, at(ah, set.a), at(bh, set.b), inflate)
		}
	}
	return ops, nil
}

// at reads element (i, j) of m from host, m's packed contents.
func at(host []float32, m gemm.Matrix) func(i, j int) float32 {
	if m.Order == gemm.ColMajor {
		return func(i, j int) float32 { return host[j*m.Rows+i] }
	}
	return func(i, j int) float32 { return host[i*m.Cols+j] }
}

// rotate makes a Launch of f over the sets, one set per launch.
func rotate(sets []operandSet, f func(s *cuda.Stream, set operandSet) error) Launch {
	return func(s *cuda.Stream, i int) error { return f(s, sets[i%len(sets)]) }
}

// sample poisons C of set 0, runs f once on it, and reads C back as
// float32, so that it can be checked.
func (b *bencher) sample(set operandSet, dt gemm.DType, f func(s *cuda.Stream, set operandSet) error) ([]float32, error) {
	poison := uint32(0x7fc00000) // fp32 NaN
	if dt == gemm.F16 {
		poison = 0x7e007e00 // fp16 NaN pairs
	}
	if err := set.c.Buf.Fill32(b.stream, poison); err != nil {
		return nil, err
	}
	if err := f(b.stream, set); err != nil {
		return nil, err
	}
	if err := b.stream.Synchronize(); err != nil {
		return nil, err
	}
	out := make([]float32, set.c.Rows*set.c.Cols)
	if dt == gemm.F16 {
		return out, f16.Download(out, set.c.Buf, 0)
	}
	return out, cuda.CopyToHost(out, set.c.Buf)
}

// gemmFamily is what the SGEMM and HGEMM sections differ in.
type gemmFamily struct {
	name    string // sgemm, hgemm
	dt      gemm.DType
	cdt     compare.DType
	refName string
	ref     func(b *bencher) func(s *cuda.Stream, set operandSet) error
	// acc16 is the reference of the instances that accumulate in fp16
	// (checkType F16Acc16), cuBLAS with the same types, where the family
	// has such instances.
	acc16Name string
	acc16     func(b *bencher) func(s *cuda.Stream, set operandSet) error
	peak      func(d DeviceReport) float64
}

var sgemmFamily = gemmFamily{
	name: "sgemm", dt: gemm.F32, cdt: compare.F32, refName: "cublas_sgemm",
	ref: func(b *bencher) func(s *cuda.Stream, set operandSet) error {
		return func(_ *cuda.Stream, x operandSet) error {
			return b.blas.SGEMM(x.a.Order == gemm.ColMajor, x.b.Order == gemm.ColMajor, x.c.Rows, x.c.Cols, x.a.Cols,
				1, x.a.Buf.Ptr(), x.a.LD(), x.b.Buf.Ptr(), x.b.LD(), 0, x.c.Buf.Ptr(), x.c.LD())
		}
	},
	peak: func(d DeviceReport) float64 { return d.PeakTFLOPS },
}

var hgemmFamily = gemmFamily{
	name: "hgemm", dt: gemm.F16, cdt: compare.F16, refName: "cublas_gemmex",
	ref:       func(b *bencher) func(s *cuda.Stream, set operandSet) error { return gemmExF16(b, false) },
	acc16Name: "cublas_gemmex_acc16",
	acc16:     func(b *bencher) func(s *cuda.Stream, set operandSet) error { return gemmExF16(b, true) },
	peak:      func(d DeviceReport) float64 { return d.PeakF16TFLOPS },
}

// gemmExF16 runs cuBLAS GemmEx on fp16 operands, accumulating in fp16 where
// acc16, else in fp32.
func gemmExF16(b *bencher, acc16 bool) func(s *cuda.Stream, set operandSet) error {
	return func(_ *cuda.Stream, x operandSet) error {
		return b.blasF16.GemmExF16(x.a.Order == gemm.ColMajor, x.b.Order == gemm.ColMajor, x.c.Rows, x.c.Cols, x.a.Cols,
			1, x.a.Buf.Ptr(), x.a.LD(), x.b.Buf.Ptr(), x.b.LD(), 0, x.c.Buf.Ptr(), x.c.LD(), acc16)
	}
}

// gemmSection times, per shape and layout, the reference, the engine's
// choice and, at the shapes -instances names, every instance of fam that
// -filter keeps, each checked against the reference before it is timed;
// short problems get graph rows for the reference and the engine too. It
// returns the rows and the ablation.
//
// Reference instances (the SGEMM ladder) run at one problem only, the
// ladder's (-ladder-n), so that they do not slow the default run: with every
// other instance there too, so that the ladder ends at kgen's best. That
// problem is added when -sizes and -layouts lack it.
func (b *bencher) gemmSection(fam gemmFamily, rep *Report) error {
	ladder, extra := b.ladderProblem(fam)
	type problem struct {
		sh    shape
		order [2]gemm.Order
	}
	var probs []problem
	for _, sh := range b.cfg.shapes {
		for _, order := range b.cfg.layouts {
			probs = append(probs, problem{sh, order})
		}
	}
	if extra {
		probs = append(probs, problem{*ladder, nn})
	}
	// Each problem's expected time, for the progress line: every timing
	// spans at least -min-span-ms, and a launch takes at least its flops
	// at the GPU's peak.
	work := make([]float64, len(probs))
	peak := fam.peak(rep.Device)
	for i, p := range probs {
		ms := b.minSpanMs
		if peak > 0 {
			ms = max(ms, p.sh.flops()/peak/1e9)
		}
		work[i] = max(ms, 1e-3)
	}
	b.prog.sectionWork(fam.name, work)
	for _, p := range probs {
		if err := b.gemmProblem(fam, p.sh, p.order, ladder != nil && p.sh == *ladder && p.order == nn, rep); err != nil {
			return fmt.Errorf("%s %s %s: %w", fam.name, p.sh, layoutName(p.order), err)
		}
		b.prog.step()
	}
	return nil
}

// nn is the layout of the ladder's instances: A and B row-major.
var nn = [2]gemm.Order{gemm.RowMajor, gemm.RowMajor}

// ladderProblem is the shape at which fam's reference instances run (nil
// when -ladder-n is 0 or fam has none that -filter keeps), and whether the
// configured shapes and layouts lack it.
func (b *bencher) ladderProblem(fam gemmFamily) (*shape, bool) {
	if b.cfg.ladderN <= 0 {
		return nil, false
	}
	found := false
	for _, in := range gemm.Of(fam.dt, b.eng.Instances()) {
		found = found || in.Reference && in.A == nn[0] && in.B == nn[1] && b.cfg.filter.MatchString(in.Name)
	}
	if !found {
		return nil, false
	}
	sh := shape{b.cfg.ladderN, b.cfg.ladderN, b.cfg.ladderN}
	return &sh, !slices.Contains(b.cfg.shapes, sh) || !slices.Contains(b.cfg.layouts, nn)
}

// gemmInstances is the instances of ins timed by name at sh in order: at
// the shapes -instances names, those -filter keeps, but the reference
// instances only where withRef (the ladder's problem, where every other
// instance runs too).
func (c config) gemmInstances(ins []gemm.Instance, sh shape, order [2]gemm.Order, withRef bool) []gemm.Instance {
	var out []gemm.Instance
	for _, in := range ins {
		at := withRef || !in.Reference && c.instances.atGEMM(sh)
		if at && in.A == order[0] && in.B == order[1] && c.filter.MatchString(in.Name) {
			out = append(out, in)
		}
	}
	return out
}

// gemmProblem times one problem; withRef adds the reference instances.
func (b *bencher) gemmProblem(fam gemmFamily, sh shape, order [2]gemm.Order, withRef bool, rep *Report) error {
	insts := b.cfg.gemmInstances(gemm.Of(fam.dt, b.eng.Instances()), sh, order, withRef)
	choice, err := b.eng.Pick(fam.dt, order[0], order[1], sh.M, sh.N, sh.K)
	if err != nil {
		return err
	}
	pick := choice.Name
	ops, err := b.allocSets(sh, order, fam.dt)
	if err != nil {
		return err
	}
	defer ops.free()
	lay := layoutName(order)
	ref := fam.ref(b)
	want, err := b.sample(ops.sets[0], fam.dt, ref)
	if err != nil {
		return err
	}
	refT, err := b.Measure(rotate(ops.sets, ref))
	if err != nil {
		return err
	}
	row := func(kernel string, t Timing, errRatio float64) Row {
		r := Row{Family: fam.name, Kernel: kernel, Shape: sh.String(), Layout: lay, Method: t.Method, Launches: t.Launches,
			Ms: t.Ms, NoiseMs: t.NoiseMs, Rate: sh.flops() / t.Ms / 1e9, Unit: "TFLOPS", VsRef: refT.Ms / t.Ms, ErrRatio: errRatio}
		if p := fam.peak(rep.Device); p > 0 {
			r.PctPeak = 100 * r.Rate / p
		}
		return r
	}
	add := func(r Row) {
		rep.Rows = append(rep.Rows, r)
		refName := fam.refName
		if r.Ref != "" {
			refName = r.Ref
		}
		b.printf("  %s %s %s %-52s %-6s %9.4f ms %7.2f TFLOPS  %.2fx %s\n", fam.name, sh, lay, r.Kernel, r.Method, r.Ms, r.Rate, r.VsRef, refName)
	}
	add(row(fam.refName+"_"+lay, refT, 0))
	// The engine's choice, the engine's choice accumulating in fp16 where
	// the family has such instances for the layout (GEMMAcc), and every
	// instance by name. acc16 marks the jobs that accumulate in fp16;
	// picked is the instance an engine's choice runs (none for the rule's).
	type job struct {
		label, name, ladder, picked string
		engine, acc16, tuned        bool
		run                         func(s *cuda.Stream, set operandSet) error
	}
	jobs := []job{{label: "engine(" + pick + ")", picked: pick, engine: true, run: func(s *cuda.Stream, x operandSet) error {
		return b.eng.GEMM(fam.dt, s, 1, x.a, x.b, 0, x.c)
	}}}
	if b.tuned != nil {
		x := ops.sets[0]
		tu, err := b.tuned.Tune(fam.dt, b.stream, 1, x.a, x.b, 0, x.c, gemm.TuneOptions{Candidates: max(b.cfg.engineTune, 0), All: b.cfg.engineTune < 0})
		if err != nil {
			return fmt.Errorf("%s %s %s: tune: %w", fam.name, sh, lay, err)
		}
		jobs = append(jobs, job{label: "engine_tuned(" + tu.Choice.Name + ")", picked: tu.Choice.Name, engine: true, tuned: true,
			run: func(s *cuda.Stream, x operandSet) error {
				return b.tuned.GEMM(fam.dt, s, 1, x.a, x.b, 0, x.c)
			}})
	}
	if b.cfg.rule && choice.Source == gemm.Table && choice.Heuristic != choice.Name {
		// What the engine runs on a GPU without a table: what the table
		// buys here.
		jobs = append(jobs, job{label: "rule(" + choice.Heuristic + ")", engine: true,
			run: func(s *cuda.Stream, x operandSet) error {
				return b.eng.GEMMWith(fam.dt, choice.Heuristic, s, 1, x.a, x.b, 0, x.c)
			}})
	}
	if fam.acc16 != nil {
		if c16, err := b.eng.PickAcc(fam.dt, gemm.F16, order[0], order[1], sh.M, sh.N, sh.K); err == nil {
			jobs = append(jobs, job{label: "engine_acc16(" + c16.Name + ")", picked: c16.Name, engine: true, acc16: true,
				run: func(s *cuda.Stream, x operandSet) error {
					return b.eng.GEMMAcc(fam.dt, gemm.F16, s, 1, x.a, x.b, 0, x.c)
				}})
		}
	}
	for _, in := range insts {
		jobs = append(jobs, job{label: in.Name, name: in.Name, ladder: in.Ladder, acc16: in.Acc == gemm.F16,
			run: func(s *cuda.Stream, x operandSet) error {
				return b.eng.GEMMWith(fam.dt, in.Name, s, 1, x.a, x.b, 0, x.c)
			}})
	}
	// Jobs that accumulate in fp16 are compared with cuBLAS doing the same
	// (the "same types"), timed here too.
	var acc16T Timing
	if fam.acc16 != nil && slices.ContainsFunc(jobs, func(jb job) bool { return jb.acc16 }) {
		if acc16T, err = b.Measure(rotate(ops.sets, fam.acc16(b))); err != nil {
			return fmt.Errorf("%s: %w", fam.acc16Name, err)
		}
		r := row(fam.acc16Name+"_"+lay, acc16T, 0)
		r.VsRef, r.Ref = 1, fam.acc16Name
		add(r)
	}
	var cands []candidate
	// The instances timed by name that the engine chooses from, by
	// accumulation (GEMM's picks accumulate as the family does, GEMMAcc's
	// in fp16), to judge the engine's picks against.
	timed := map[bool][]candidate{}
	for _, jb := range jobs {
		b.prog.item(sh.String() + " " + lay + " " + jb.label)
		got, err := b.sample(ops.sets[0], fam.dt, jb.run)
		if err != nil {
			return fmt.Errorf("%s: %w", jb.label, err)
		}
		errRatio, err := ops.prod.check(checkType(fam, jb.acc16), got, want)
		if err != nil {
			return fmt.Errorf("%s differs from %s: %w", jb.label, fam.refName, err)
		}
		t, err := b.Measure(rotate(ops.sets, jb.run))
		if err != nil {
			return fmt.Errorf("%s: %w", jb.label, err)
		}
		r := row(jb.label, t, errRatio)
		r.Ladder = jb.ladder
		if jb.acc16 {
			r.VsRef, r.Ref = acc16T.Ms/r.Ms, fam.acc16Name
		}
		add(r)
		if jb.engine {
			// Short problems: the engine's choice and the reference
			// replayed from a graph, without the host between launches.
			gref, gname := ref, fam.refName
			if jb.acc16 {
				gref, gname = fam.acc16(b), fam.acc16Name
			}
			if rg, eg, ok := b.graphPair(jb.label, rotate(ops.sets, gref), rotate(ops.sets, jb.run), t.Launches); ok {
				r, e := row(gname+"_"+lay, rg, 0), row(jb.label, eg, errRatio)
				r.VsRef, e.VsRef = 1, rg.Ms/eg.Ms
				if gname != fam.refName {
					r.Ref, e.Ref = gname, gname
				}
				add(r)
				add(e)
			}
			continue
		}
		for _, in := range insts {
			// The ablation compares kgen's own instances; the ladder's
			// table ends at its best.
			if in.Name == jb.name && !in.Reference {
				cands = append(cands, candidate{Name: in.Name, Params: in.Spec, Ms: t.Ms})
				timed[jb.acc16] = append(timed[jb.acc16], candidate{Name: in.Name, Ms: t.Ms})
			}
		}
	}
	rep.Ablation = append(rep.Ablation, ablate(fam.name, sh.String(), lay, cands)...)
	for _, jb := range jobs {
		if jb.picked != "" {
			b.judge(rep, fam.name, sh.String(), lay, jb.picked, jb.tuned, timed[jb.acc16])
		}
	}
	return nil
}

// judge records the engine's pick at a problem where judgePick can judge
// it (tuned: the pick of the engine that ran gemm.Engine.Tune there), and
// prints its line.
func (b *bencher) judge(rep *Report, family, shape, layout, engine string, tuned bool, timed []candidate) {
	p, ok := judgePick(family, shape, layout, engine, timed)
	if !ok {
		return
	}
	p.Tuned = tuned
	rep.Picks = append(rep.Picks, p)
	b.printf("  %s\n", pickLine(p))
}

// graphPair times the reference and a kernel replayed from CUDA graphs of
// n launches each, where n > 1 (the kernel is shorter than an event pair's
// span, so that launch overhead may count). Where a capture fails it says
// why on stderr and returns false: the event rows stand, and a graph is no
// reason to stop the run.
func (b *bencher) graphPair(label string, ref, kernel Launch, n int) (rg, kg Timing, ok bool) {
	if n <= 1 {
		return rg, kg, false
	}
	rg, err := b.MeasureGraph(ref, n)
	if err == nil {
		kg, err = b.MeasureGraph(kernel, n)
	}
	if err != nil {
		b.prog.clear()
		fmt.Fprintf(os.Stderr, "bench: no graph rows for %s: %v\n", label, err)
		b.prog.redraw()
		return rg, kg, false
	}
	return rg, kg, true
}

// checkType is the dtype whose bound checks a result of fam: F16Acc16 for
// a kernel accumulating in fp16 (its bound also covers the fp32-accumulating
// reference's error), else the family's.
func checkType(fam gemmFamily, acc16 bool) compare.DType {
	if acc16 {
		return compare.F16Acc16
	}
	return fam.cdt
}
