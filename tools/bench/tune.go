package main

import (
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/kgen-gpu/kgen/gen/tunefile"
	"github.com/kgen-gpu/kgen/go/cuda"
	"github.com/kgen-gpu/kgen/go/f16"
	"github.com/kgen-gpu/kgen/go/gemm"
	"github.com/kgen-gpu/kgen/internal/cublasref"
	"github.com/kgen-gpu/kgen/internal/tuning"
)

// bench -tune measures every instance of the GEMM families over a grid of
// shapes and shapes between its points, in all four layouts, checks each
// output against cuBLAS before timing it, and writes every instance's time
// at every shape as this GPU's dispatch table, kernels/tuning/<gpu>.yaml
// (kernels/README.md, "Dispatch tables"). It then scores each family's grid
// of the table (tuning.SelectAligned, against that family's fastest) at
// each shape left out of it, predicted from the others: issue 9 wants the
// pick within tuneTolerance of the fastest everywhere.
var (
	tuneFlag     = flag.Bool("tune", false, "measure the GEMM families over a grid of shapes and write this GPU's dispatch table instead of benchmarking")
	tuneGrid     = flag.String("tune-grid", "full", "-tune's grid of shapes: small (5 shapes, under a minute), full (48: 13 not aligned, 11 aligned but not whole tiles, the ragged grid's 10 among them; and 41 shapes between them; about 15 minutes for 125 sgemm instances by the estimate it prints) or ragged (its 10 and 10 between them alone, to add to a full tune of before session 52: -tune-add)")
	tuneFamilies = flag.String("tune-families", "", "GEMM families -tune measures, comma-separated (default: every family the engine picks from in this build)")
	tuneOut      = flag.String("tune-out", "kernels/tuning", "directory -tune writes <gpu>.yaml into")
	tuneRandom   = flag.Int("tune-random", -1, "random off-grid shapes -tune measures besides the grid's midpoints, all of them in the table too (-1: 2 for small, 8 for full; ragged has fixed shapes between and takes none)")
	tuneSeed     = flag.Uint64("tune-seed", 1, "seed of -tune's random shapes")
	tuneRaw      = flag.String("tune-raw", "", "also write every time -tune measured, grid and between shapes, as JSON here (to study selectors offline)")
	tuneAdd      = flag.String("tune-add", "", "a previous run's -tune-raw file (e.g. of the full grid) whose shapes this run's (e.g. -tune-grid ragged) join: the table holds both runs' shapes. The runs may share no shape and must measure the same instances of each layout both measured; a layout only the previous run measured comes whole from it")
	tuneOwn      = flag.String("tune-shapes", "", "shapes MxNxK,... that -tune measures instead of -tune-grid's (and none between them): the shapes your program runs. With -tune-add, a previous tune's -tune-raw file, the table holds them beside that tune's shapes")
	tuneMerge    = flag.String("tune-merge", "", "a previous run's -tune-raw file of the same -tune-grid and -tune-seed (or -tune-shapes): its times of the built instances this run does not measure join this run's, so that a run of new or changed instances alone (-filter) completes the table; a layout it measured and this run did not comes whole from it. With -tune-add too, the merged shapes join that file's")
)

// tuneTolerance is issue 9's bound: the pick within 5% of the fastest.
const tuneTolerance = 0.05

// tuneMaxFlops bounds a random shape's size (4096 x 4096 x 8192), so that
// the scoring shapes do not dominate the run.
const tuneMaxFlops = 1 << 38

// runTune is bench -tune; iters bounds the timed runs per instance and
// shape (fewer for slow shapes), filter keeps instances by name.
func runTune(iters, warmup int, filter string) error {
	re, err := regexp.Compile(filter)
	if err != nil {
		return fmt.Errorf("-filter: %w", err)
	}
	families, err := tuneFamilyList(*tuneFamilies, gemm.BuiltInstances())
	if err != nil {
		return err
	}
	random := *tuneRandom
	if random < 0 {
		random = map[string]int{"small": 2, "full": 8}[*tuneGrid]
	}
	if iters < 1 || warmup < 0 {
		return errors.New("-iters must be at least 1 and -warmup at least 0")
	}
	grid, between, err := runShapes(*tuneGrid, *tuneOwn, random, *tuneSeed)
	if err != nil {
		return err
	}
	b, err := newBencher(config{iters: iters, warmup: warmup, minSpanMs: 1, filter: re}, os.Stdout)
	if err != nil {
		return err
	}
	defer b.close()
	f16ref := b.blasF16 // on the bench's stream, where the timing events are

	var insts []gemm.Instance
	count := map[string]int{}
	for _, in := range b.eng.Instances() {
		if slices.Contains(families, in.Family) && !in.Reference && re.MatchString(in.Name) {
			insts = append(insts, in)
			count[in.Family]++
		}
	}
	if len(insts) == 0 {
		return fmt.Errorf("-tune: no instance of %s matches -filter %q on this GPU", strings.Join(families, ", "), filter)
	}
	shapes := append(slices.Clone(grid), between...)
	info := b.dev.Info()
	arch, jit := b.eng.Arch()
	fmt.Printf("tune: %s, sm_%d (kernels sm_%d, jit %v), driver %s, nvcc %s\n", info.Name, info.CC(), arch, jit, cudaVersion(info.DriverVersion), cuda.BuildToolkit())
	if date, ok := b.eng.Tuned(); ok {
		fmt.Printf("tune: the engine as built dispatches by this GPU's table of %s\n", date)
	} else {
		fmt.Println("tune: the engine as built has no table for this GPU: it dispatches by the heuristic")
	}
	fmt.Printf("tune: %d instances (%v), %d grid shapes and %d between them, 4 layouts; about %.0f s at H100 speed\n",
		len(insts), count, len(grid), len(between), estimateSeconds(shapes, count, h100Model, warmup, iters))

	t := timings{}
	var wrong []string
	start := time.Now()
	for i, s := range shapes {
		kind := "grid"
		if i >= len(grid) {
			kind = "between"
		}
		for _, dt := range []gemm.DType{gemm.F32, gemm.F16} {
			w, err := b.tuneShape(t, s, dt, insts, f16ref)
			if err != nil {
				return fmt.Errorf("%s: %w", s, err)
			}
			wrong = append(wrong, w...)
		}
		fmt.Printf("tune: [%d/%d] %-16s %-7s done at %5.1f s:", i+1, len(shapes), s, kind, time.Since(start).Seconds())
		for _, f := range families {
			if r := ranked(t[gridKey{f, "nn"}][s]); len(r) > 0 {
				fmt.Printf("  %s nn %s %.4g ms", f, r[0], t[gridKey{f, "nn"}][s][r[0]])
			}
		}
		fmt.Println()
	}

	if *tuneMerge != "" {
		prev, err := tuning.ReadRaw(*tuneMerge)
		if err != nil {
			return fmt.Errorf("-tune-merge: %w", err)
		}
		// The other built instances: one this run measured and left out
		// (its output was wrong) stays out.
		others := map[string]bool{}
		for _, in := range b.eng.Instances() {
			others[in.Name] = true
		}
		for _, in := range insts {
			delete(others, in.Name)
		}
		n, err := mergeTimings(t, prev, families, others)
		if err != nil {
			return fmt.Errorf("-tune-merge %s: %w", *tuneMerge, err)
		}
		fmt.Printf("tune: merged %d times of instances not measured in this run from %s\n", n, *tuneMerge)
	}

	if *tuneAdd != "" {
		prev, err := tuning.ReadRaw(*tuneAdd)
		if err != nil {
			return fmt.Errorf("-tune-add: %w", err)
		}
		prevGrid, prevBetween, err := addTimings(t, prev, families)
		if err != nil {
			return fmt.Errorf("-tune-add %s: %w", *tuneAdd, err)
		}
		fmt.Printf("tune: added %d grid shapes and %d between them from %s\n", len(prevGrid), len(prevBetween), *tuneAdd)
		// A run that added its shapes to some layouts (-filter) before
		// has them on its grid: each shape once.
		grid, between = joined(prevGrid, grid), joined(prevBetween, between)
	}

	// The table holds every shape measured: the grid's and those between
	// (since session 56; before, the grid's alone, the others scoring it).
	// On the H200's times of sessions 53 to 56, four runs of 40 or 24 fresh
	// random shapes in every layout, a table of both picked over 5% of the
	// fastest at 101 of 576 problems, one of the grid's at 108; where a
	// shape between is measured the engine takes its fastest, and its
	// neighbours are predicted from it (466 x 2321 x 233 tn: 1.375x the
	// fastest from the grid alone, bench/results/
	// h200-2026-12-01-session56.md).
	table := tuning.Table{
		GPU: info.Name, Arch: arch, Driver: cudaVersion(info.DriverVersion), NVCC: "nvcc " + cuda.BuildToolkit(),
		Date: time.Now().UTC().Format("2006-01-02"), Grids: buildGrids(t, families, joined(grid, between)),
	}
	dir := outputPath(*tuneOut)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	path := filepath.Join(dir, tuning.Slug(info.Name)+".yaml")
	kept, err := keepOtherGrids(path, &table, families)
	if err != nil {
		return err
	}
	if len(kept) > 0 {
		fmt.Printf("tune: kept the grids of %s from %s (not measured in this run)\n", strings.Join(kept, ", "), path)
	}
	if err := os.WriteFile(path, tuning.Format(table), 0o644); err != nil {
		return err
	}
	fmt.Printf("tune: wrote %s after %.1f s (run `go run ./gen/cmd/kgen` to compile it in)\n", path, time.Since(start).Seconds())

	if *tuneRaw != "" {
		if err := writeRaw(outputPath(*tuneRaw), t, grid); err != nil {
			return err
		}
	}

	elems := map[string]gemm.DType{}
	for _, in := range insts {
		elems[in.Family] = in.Elem
	}
	alignOf := func(family string) int { return gemm.VectorElems(elems[family]) }

	var rep strings.Builder
	worst := 1.0
	for _, part := range []struct {
		what   string
		shapes []shape
	}{{"grid", grid}, {"between", between}} {
		pt := only(t, part.shapes)
		worst = max(worst, printVerdicts(&rep, "new table (tuning.SelectAligned), each of the "+part.what+" shapes left out of it", score(pt, leaveOneOutPick(table.Grids, info.Multiprocessors, alignOf), tuneTolerance), tuneTolerance))
		printVerdicts(&rep, "heuristic (no table, its family only), "+part.what+" shapes", score(pt, b.enginePick(false), tuneTolerance), tuneTolerance)
		if date, ok := b.eng.Tuned(); ok {
			printVerdicts(&rep, "engine as built (table of "+date+"), "+part.what+" shapes", score(pt, b.enginePick(true), tuneTolerance), tuneTolerance)
		}
	}
	fmt.Print(rep.String())
	verdict := "meets"
	if worst > 1+tuneTolerance {
		verdict = "misses"
	}
	fmt.Printf("tune: worst pick %.3fx the fastest: %s issue 9's %.0f%%\n", worst, verdict, 100*tuneTolerance)
	if len(wrong) > 0 {
		return fmt.Errorf("%d outputs differ from cuBLAS (left out of the table):\n  %s", len(wrong), strings.Join(wrong, "\n  "))
	}
	return nil
}

// keepOtherGrids puts into t, ahead of its own, the grids of the table at
// path (when there is one, for t's GPU and arch) whose families were not
// measured, so that tuning one family leaves the others' measurements in
// place. It returns those families; a table at path that does not parse is
// an error rather than something to overwrite.
func keepOtherGrids(path string, t *tuning.Table, measured []string) ([]string, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	old, err := tunefile.Parse(path, data)
	if err != nil {
		return nil, fmt.Errorf("-tune: the table already at %s does not parse (move it away to start afresh): %w", path, err)
	}
	if old.Table.GPU != t.GPU || old.Table.Arch != t.Arch {
		return nil, nil
	}
	var grids []tuning.Grid
	var kept []string
	for _, g := range old.Table.Grids {
		if !slices.Contains(measured, g.Family) {
			grids = append(grids, g)
			if !slices.Contains(kept, g.Family) {
				kept = append(kept, g.Family)
			}
		}
	}
	t.Grids = append(grids, t.Grids...)
	return kept, nil
}

// tuneFamilyList parses -tune-families: GEMM families of built instances,
// but for reference families (the SGEMM ladder), which the engine never
// picks, so a table of them would be dead weight. An empty list is every
// other family: a default that named some would leave the families the
// engine picks from on some archs (hgemmk on sm_80 and sm_90) unmeasured.
func tuneFamilyList(list string, built []gemm.Instance) ([]string, error) {
	var known, reference, out []string
	for _, in := range built {
		switch {
		case in.Reference && !slices.Contains(reference, in.Family):
			reference = append(reference, in.Family)
		case !in.Reference && !slices.Contains(known, in.Family):
			known = append(known, in.Family)
		}
	}
	if strings.TrimSpace(list) == "" {
		return known, nil
	}
	for _, f := range strings.Split(list, ",") {
		f = strings.TrimSpace(f)
		if slices.Contains(reference, f) {
			return nil, fmt.Errorf("-tune-families: %q is a reference family, which the engine never picks by itself; tuning skips it (tune %s)", f, strings.Join(known, ", "))
		}
		if !slices.Contains(known, f) {
			return nil, fmt.Errorf("-tune-families: %q is not a GEMM family of this build (%s)", f, strings.Join(known, ", "))
		}
		if !slices.Contains(out, f) {
			out = append(out, f)
		}
	}
	return out, nil
}

// enginePick is the engine's choice (table: as built, with its table if it
// has one; else the heuristic alone) for the grids of its own family.
func (b *bencher) enginePick(table bool) func(gridKey, shape) string {
	return func(k gridKey, s shape) string {
		// The family's element and accumulator types: the engine picks an
		// fp16-accumulating family's instances for GEMMAcc only.
		dt, acc := gemm.F32, gemm.F32
		for _, in := range b.eng.Instances() {
			if in.Family == k.family {
				dt, acc = in.Elem, in.Acc
			}
		}
		order := func(c byte) gemm.Order {
			if c == 't' {
				return gemm.ColMajor
			}
			return gemm.RowMajor
		}
		c, err := b.eng.PickAcc(dt, acc, order(k.layout[0]), order(k.layout[1]), s.M, s.N, s.K)
		name := c.Heuristic
		if table {
			name = c.Name
		}
		if err != nil || !strings.HasPrefix(name, k.family+"_") {
			return "" // the engine runs another family for this dtype
		}
		return name
	}
}

// checkBound is the largest max |got - want| / max |want| an instance may
// show against cuBLAS at reduction length k: eight times sqrt(k) units of
// the dtype's rounding (the bench's fp16 check; fp32 measured at 0.8 of
// one such unit on the H100).
func checkBound(dt gemm.DType, k int) float64 {
	unit := 0x1p-24
	if dt == gemm.F16 {
		unit = 0x1p-11
	}
	return 8 * math.Sqrt(float64(k)) * unit
}

// tuneShape measures, at s, every instance of insts of element type dt in
// each layout: checked against cuBLAS first, then timed. It returns the
// instances whose output was wrong; an instance whose launch fails is
// reported and left out too.
func (b *bencher) tuneShape(t timings, s shape, dt gemm.DType, insts []gemm.Instance, f16ref *cublasref.Handle) ([]string, error) {
	insts = gemm.Of(dt, insts)
	if len(insts) == 0 {
		return nil, nil
	}
	sets, free, err := b.shapeSets(s, dt)
	if err != nil {
		return nil, err
	}
	defer free()
	var wrong []string
	for _, order := range layoutPairs {
		views := make([]operandSet, len(sets))
		for i, o := range sets {
			o.a.Order, o.b.Order = order[0], order[1]
			views[i] = o
		}
		ref := sgemmFamily.ref(b)
		if dt == gemm.F16 {
			ref = func(_ *cuda.Stream, o operandSet) error {
				return f16ref.GemmExF16(o.a.Order == gemm.ColMajor, o.b.Order == gemm.ColMajor, s.M, s.N, s.K, 1,
					o.a.Buf.Ptr(), o.a.LD(), o.b.Buf.Ptr(), o.b.LD(), 0, o.c.Buf.Ptr(), o.c.LD(), false)
			}
		}
		var want []float32
		for _, in := range insts {
			if in.A != order[0] || in.B != order[1] {
				continue
			}
			if want == nil {
				if want, err = b.sample(views[0], dt, ref); err != nil {
					return nil, fmt.Errorf("cuBLAS: %w", err)
				}
			}
			run := func(st *cuda.Stream, o operandSet) error { return b.eng.GEMMWith(dt, in.Name, st, 1, o.a, o.b, 0, o.c) }
			got, err := b.sample(views[0], dt, run)
			if err == nil && !(maxRelDiff(got, want) <= checkBound(dt, s.K)) {
				err = fmt.Errorf("output differs from cuBLAS by %.3g of max |C| (bound %.3g)", maxRelDiff(got, want), checkBound(dt, s.K))
				wrong = append(wrong, fmt.Sprintf("%s at %s: %v", in.Name, s, err))
			}
			if err != nil {
				fmt.Printf("tune: %s at %s: %v; left out\n", in.Name, s, err)
				continue
			}
			ms, err := b.timeTuned(views, run)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", in.Name, err)
			}
			t.add(gridKey{in.Family, layoutName(order)}, s, in.Name, ms)
		}
	}
	return wrong, nil
}

// timeTuned times f over sets with the bench's Measure, with as many
// event pairs as fit in about 150 ms (tuneIters), so that large shapes do
// not dominate the run: one pair first to learn the time, then the rest.
func (b *bencher) timeTuned(sets []operandSet, f func(*cuda.Stream, operandSet) error) (float64, error) {
	probe := *b
	probe.iters = 1
	t, err := probe.Measure(rotate(sets, f))
	if err != nil {
		return 0, err
	}
	probe.iters, probe.warmup = tuneIters(t.Ms, b.iters), 0
	t, err = probe.Measure(rotate(sets, f))
	return t.Ms, err
}

// maxRelDiff is max |got - want| / max |want|, NaN if anything is NaN: the
// tuner's check against cuBLAS (checkBound).
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

// shapeSets makes operand sets for s of element type dt: A (M x K), B
// (K x N) and C (M x N), packed, orders left to the caller. Every set
// holds the same random A and B; there are enough sets to exceed four
// times the L2, as in the bench.
func (b *bencher) shapeSets(s shape, dt gemm.DType) ([]operandSet, func(), error) {
	size := dt.Size()
	bytes := (s.M*s.K + s.K*s.N + s.M*s.N) * size
	l2 := max(b.dev.Info().L2Bytes, 1<<20)
	count := max(1, min(16, 4*l2/bytes+1))
	rng := newRand(s)
	hostA, hostB := randomFloats(rng, s.M*s.K), randomFloats(rng, s.K*s.N)
	var bufs []*cuda.Buffer
	free := func() {
		for _, x := range bufs {
			x.Free()
		}
	}
	alloc := func(elems int, host []float32) (*cuda.Buffer, error) {
		// Whole 32-bit words, so the poison fill reaches an odd count of halves' last one.
		buf, err := b.dev.Alloc((elems*size + 3) &^ 3)
		if err != nil {
			return nil, err
		}
		bufs = append(bufs, buf)
		switch {
		case host == nil:
			return buf, nil
		case dt == gemm.F16:
			return buf, f16.Upload(buf, 0, host)
		}
		return buf, cuda.CopyFromHost(buf, host)
	}
	var sets []operandSet
	for range count {
		a, err := alloc(s.M*s.K, hostA)
		if err != nil {
			free()
			return nil, nil, err
		}
		bm, err := alloc(s.K*s.N, hostB)
		if err != nil {
			free()
			return nil, nil, err
		}
		c, err := alloc(s.M*s.N, nil)
		if err != nil {
			free()
			return nil, nil, err
		}
		sets = append(sets, operandSet{
			a: gemm.Matrix{Buf: a, Rows: s.M, Cols: s.K},
			b: gemm.Matrix{Buf: bm, Rows: s.K, Cols: s.N},
			c: gemm.Matrix{Buf: c, Rows: s.M, Cols: s.N},
		})
	}
	return sets, free, nil
}

// newRand seeds the operands of s from its shape, so runs are repeatable.
func newRand(s shape) *rand.Rand {
	return rand.New(rand.NewPCG(uint64(s.M)<<32|uint64(s.N), uint64(s.K)))
}

// randomFloats is n values uniform in [-1, 1).
func randomFloats(rng *rand.Rand, n int) []float32 {
	out := make([]float32, n)
	for i := range out {
		out[i] = float32(rng.Float64()*2 - 1)
	}
	return out
}
