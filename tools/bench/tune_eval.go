package main

import (
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"sort"
	"strings"

	"github.com/kgen-gpu/kgen/internal/tuning"
)

// The GPU-free half of bench -tune: the shapes it measures, the table it
// builds from the times, how it scores the table, and how long it takes.

// shape is one GEMM problem: C is M x N, the reduction K long.
type shape struct{ M, N, K int }

func (s shape) String() string { return fmt.Sprintf("%dx%dx%d", s.M, s.N, s.K) }

func (s shape) flops() float64 { return 2 * float64(s.M) * float64(s.N) * float64(s.K) }

// shapeList is shapes in the order first added, each once: the bench's
// -sizes and -shapes, the tune's shapes between the grid's.
type shapeList struct {
	seen map[shape]bool
	list []shape
}

// exclude keeps s out of the list from now on.
func (l *shapeList) exclude(s shape) {
	if l.seen == nil {
		l.seen = map[shape]bool{}
	}
	l.seen[s] = true
}

// add appends s unless it was added or excluded before, and reports
// whether it did.
func (l *shapeList) add(s shape) bool {
	if l.seen[s] {
		return false
	}
	l.exclude(s)
	l.list = append(l.list, s)
	return true
}

// tuneGrids are the shapes a table holds: square sizes (dense where the
// best tiling changes, 512 to 3072), a small C with a long K (where split-K
// wins, by how much depending on K), skinny shapes (a short K, a short M or
// N) and odd ones (a tile plus one, non-powers of two). The full grid's
// last row are shapes of the same kinds whose every dimension is not a
// multiple of 4 (the f32 vector; 8, fp16's, neither), away from the
// aligned ones: most shapes users ask for are not aligned, and the kernels'
// element-wise paths cost each instance differently, so the selector
// predicts such a shape from these (tuning.SelectAligned).
var tuneGrids = map[string][]shape{
	"full": {
		{128, 128, 128}, {256, 256, 256}, {512, 512, 512}, {768, 768, 768}, {1024, 1024, 1024}, {1536, 1536, 1536},
		{2048, 2048, 2048}, {3072, 3072, 3072}, {4096, 4096, 4096}, {8192, 8192, 8192},
		{128, 128, 4096}, {256, 256, 4096}, {512, 512, 8192}, {256, 256, 16384}, {1024, 1024, 8192}, {64, 64, 65536},
		{8192, 8192, 128}, {4096, 4096, 256}, {2048, 2048, 512}, {128, 8192, 8192}, {8192, 128, 8192}, {128, 4096, 1024}, {4096, 128, 1024},
		{4097, 4097, 4097}, {1000, 3000, 500}, {1023, 1023, 1023}, {640, 2560, 1280},
		{191, 191, 191}, {382, 382, 382}, {765, 765, 765}, {1279, 1279, 1279}, {2558, 2558, 2558}, {381, 381, 8190},
		{191, 5791, 2897}, {5791, 191, 2897}, {5791, 5791, 191}, {445, 1801, 727}, {3001, 1499, 1201},
	},
	"small": {{256, 256, 256}, {1024, 1024, 1024}, {4096, 4096, 4096}, {8192, 8192, 128}, {1000, 3000, 500}},
	// ragged: shapes aligned (every dimension a multiple of 8) whose M and
	// N are not whole 64- or 128-wide tiles, of the full grid's kinds
	// (square, skinny, a small C with a long K), none of them on it. There
	// most instances run their edge kernel, which costs each differently
	// (on an H200, tn's 128x128x16 tile in rows_zigzag order 7-17% slower
	// than in quads_zigzag order, which moves its edge tiles:
	// bench/results/h200-2026-11-30-session51.md), and the full grid's one
	// such shape, 1000x3000x500, cannot say it alone. The full grid
	// measures these too (tuneIncludes); a run of this grid alone joins an
	// older full tune's times by -tune-add.
	"ragged": {
		{1000, 1000, 1000}, {2000, 2000, 2000}, {3000, 3000, 3000}, {5000, 5000, 5000}, {5000, 5000, 1000},
		{6000, 6000, 200}, {600, 600, 6000}, {200, 6000, 3000}, {6000, 200, 3000}, {1400, 4200, 2800},
	},
}

// tuneBetween are the shapes between a grid's that -tune measures to score
// its table, where the geometric midpoints are not of the grid's kind: the
// ragged grid's midpoints are mostly not aligned (1414^3), so its own are
// aligned shapes off every grid.
var tuneBetween = map[string][]shape{
	"ragged": {
		{1504, 1504, 1504}, {2504, 2504, 2504}, {4000, 4000, 4000}, {6000, 6000, 6000}, {3000, 3000, 1000},
		{4000, 4000, 400}, {400, 400, 8000}, {1200, 5000, 2400}, {5000, 1200, 2400}, {2800, 1400, 5600},
	},
}

// tuneIncludes are, by grid, the grids whose shapes and shapes between it
// measures too: the full grid the ragged one, so that a table of a full tune
// has what the dispatch needs to learn the edge kernels (tuning's
// MinEdgePoints). Session 52's H200 table, session 51's full tune with
// the ragged grid added (-tune-add), measured the same shapes.
var tuneIncludes = map[string][]string{"full": {"ragged"}}

// tuneShapes returns what -tune-grid name measures: the grid's shapes and
// those of the grids it includes, and the shapes between them (the grid's
// own fixed ones, else random and midpoints of its own shapes by
// betweenShapes, then each included grid's), each once and none on the
// grid.
func tuneShapes(name string, random int, seed uint64) (grid, between []shape, err error) {
	own, err := gridShapes(name)
	if err != nil {
		return nil, nil, err
	}
	mid, fixed := tuneBetween[name]
	if !fixed {
		mid = betweenShapes(own, random, seed, tuneMaxFlops)
	}
	grid, between = own, mid
	for _, part := range tuneIncludes[name] {
		grid, between = joined(grid, tuneGrids[part]), joined(between, tuneBetween[part])
	}
	var off shapeList
	for _, s := range grid {
		off.exclude(s)
	}
	for _, s := range between {
		off.add(s)
	}
	return grid, off.list, nil
}

// runShapes is what a -tune run measures: own's shapes (-tune-shapes)
// alone where it names any, none between them, else tuneShapes of the
// named grid.
func runShapes(name, own string, random int, seed uint64) (grid, between []shape, err error) {
	if strings.TrimSpace(own) == "" {
		return tuneShapes(name, random, seed)
	}
	var l shapeList
	err = l.addList("-tune-shapes", own)
	return l.list, nil, err
}

// gridShapes returns the named grid's own shapes.
func gridShapes(name string) ([]shape, error) {
	g, ok := tuneGrids[name]
	if !ok {
		return nil, fmt.Errorf("-tune-grid: unknown grid %q (small, full, ragged)", name)
	}
	return g, nil
}

// betweenShapes are shapes off the grid, measured only to score the table:
// the geometric midpoint of each grid point and its nearest neighbours
// (log2 distance, as tuning.Select measures it), then random shapes with
// log-uniform dimensions within the grid's square range, at most
// maxFlops each. Neither repeats a grid shape.
func betweenShapes(grid []shape, random int, seed uint64, maxFlops float64) []shape {
	var out shapeList
	for _, s := range grid {
		out.exclude(s)
	}
	pt := func(s shape) tuning.Point { return tuning.Point{M: s.M, N: s.N, K: s.K} }
	for _, p := range grid {
		nearest := math.Inf(1)
		for _, q := range grid {
			if q != p {
				nearest = min(nearest, tuning.Distance(pt(q), p.M, p.N, p.K))
			}
		}
		for _, q := range grid {
			if q != p && tuning.Distance(pt(q), p.M, p.N, p.K) == nearest {
				out.add(shape{geoMean(p.M, q.M), geoMean(p.N, q.N), geoMean(p.K, q.K)})
			}
		}
	}
	lo, hi := math.Inf(1), 0.0
	for _, s := range grid {
		if s.M == s.N && s.N == s.K {
			lo, hi = min(lo, math.Log2(float64(s.M))), max(hi, math.Log2(float64(s.M)))
		}
	}
	rng := rand.New(rand.NewPCG(seed, 9))
	for tries := 0; random > 0 && hi > lo && tries < 1000*random; tries++ {
		dim := func() int { return int(math.Round(math.Exp2(lo + rng.Float64()*(hi-lo)))) }
		s := shape{dim(), dim(), dim()}
		if s.flops() <= maxFlops && out.add(s) {
			random--
		}
	}
	return out.list
}

func geoMean(a, b int) int { return int(math.Round(math.Sqrt(float64(a) * float64(b)))) }

// gridKey names one grid of a table: a family and a layout of A and B.
type gridKey struct{ family, layout string }

// timings are median milliseconds per grid, shape and instance; an
// instance that failed its check at a shape is absent there.
type timings map[gridKey]map[shape]map[string]float64

// mergeTimings adds to t, a run's times, prev's times (a previous run's
// -tune-raw records) of the families' instances in others, those built but
// not measured in this run, and returns how many it added. A grid (family
// and layout) that both runs measured must have the same shapes in both;
// one that only prev measured (this run tuned other layouts) comes whole
// from prev, and must have this run's shapes. That is what the same
// -tune-grid and -tune-seed give: else some instances would lack times at
// some shapes, which the table's prediction cannot use.
func mergeTimings(t timings, prev []tuning.RawPoint, families []string, others map[string]bool) (int, error) {
	// The shapes each grid must have: a grid this run measured, its own;
	// one only prev measured, every shape of this run.
	runShapes := map[shape]bool{}
	gridShapes := map[gridKey]map[shape]bool{}
	for k, byShape := range t {
		gridShapes[k] = map[shape]bool{}
		for s := range byShape {
			runShapes[s] = true
			gridShapes[k][s] = true
		}
	}
	want := func(k gridKey) map[shape]bool {
		if in, ok := gridShapes[k]; ok {
			return in
		}
		return runShapes
	}
	seen := map[gridKey]map[shape]bool{}
	added := 0
	for _, p := range prev {
		k, s := gridKey{p.Family, p.Layout}, shape{p.M, p.N, p.K}
		if !slices.Contains(families, p.Family) {
			continue
		}
		if !want(k)[s] {
			return 0, fmt.Errorf("%s %s %s is not measured in this run (use the previous run's -tune-grid and -tune-seed)", p.Family, p.Layout, s)
		}
		if seen[k] == nil {
			seen[k] = map[shape]bool{}
		}
		seen[k][s] = true
		for name, ms := range p.Ms {
			if _, ok := t[k][s][name]; !ok && others[name] && ms > 0 {
				t.add(k, s, name, ms)
				added++
			}
		}
	}
	for k, got := range seen {
		for s := range want(k) {
			if !got[s] {
				return 0, fmt.Errorf("%s %s %s is not in the previous run", k.family, k.layout, s)
			}
		}
	}
	return added, nil
}

// addTimings adds to t, a run's times, every time of prev (a previous
// run's -tune-raw records) of the families, at shapes this run did not
// measure, and returns prev's grid and between shapes (each once, in
// prev's order): the table then holds both runs' grids. A layout both runs
// measured must have no shape in common and the same instances in both
// (else some instances would lack times at some shapes, which the table's
// prediction cannot use); one only prev measured comes whole from it.
func addTimings(t timings, prev []tuning.RawPoint, families []string) (grid, between []shape, err error) {
	measured := map[gridKey]map[string]bool{} // this run's instances by grid
	for k, byShape := range t {
		measured[k] = map[string]bool{}
		for _, times := range byShape {
			for name := range times {
				measured[k][name] = true
			}
		}
	}
	prevNames := map[gridKey]map[string]bool{}
	var onGrid, off shapeList
	for _, p := range prev {
		k, s := gridKey{p.Family, p.Layout}, shape{p.M, p.N, p.K}
		if !slices.Contains(families, p.Family) {
			continue
		}
		if _, ok := measured[k]; ok {
			if _, both := t[k][s]; both {
				return nil, nil, fmt.Errorf("%s %s %s is measured in both runs (add a run of other shapes: another -tune-grid)", p.Family, p.Layout, s)
			}
		}
		if prevNames[k] == nil {
			prevNames[k] = map[string]bool{}
		}
		for name, ms := range p.Ms {
			prevNames[k][name] = true
			if ms > 0 {
				t.add(k, s, name, ms)
			}
		}
		if p.Grid {
			onGrid.add(s)
		} else {
			off.add(s)
		}
	}
	for k, names := range measured {
		if prevNames[k] == nil {
			continue // only this run measured the layout
		}
		var only []string
		for name := range names {
			if !prevNames[k][name] {
				only = append(only, name+" (this run)")
			}
		}
		for name := range prevNames[k] {
			if !names[name] {
				only = append(only, name+" (the previous run)")
			}
		}
		if len(only) > 0 {
			sort.Strings(only)
			return nil, nil, fmt.Errorf("%s %s: instances measured in one run only: %s", k.family, k.layout, strings.Join(only, ", "))
		}
	}
	return onGrid.list, off.list, nil
}

// joined is the shapes of lists in order, each once.
func joined(lists ...[]shape) []shape {
	var l shapeList
	for _, list := range lists {
		for _, s := range list {
			l.add(s)
		}
	}
	return l.list
}

func (t timings) add(k gridKey, s shape, inst string, ms float64) {
	if t[k] == nil {
		t[k] = map[shape]map[string]float64{}
	}
	if t[k][s] == nil {
		t[k][s] = map[string]float64{}
	}
	t[k][s][inst] = ms
}

// ranked orders a shape's instances by time (then name, for ties).
func ranked(times map[string]float64) []string {
	names := make([]string, 0, len(times))
	for n := range times {
		names = append(names, n)
	}
	sort.Slice(names, func(i, j int) bool {
		if times[names[i]] != times[names[j]] {
			return times[names[i]] < times[names[j]]
		}
		return names[i] < names[j]
	})
	return names
}

// buildGrids makes a table's grids from the times at the grid shapes:
// families in the given order, layouts nn, nt, tn, tt, points in the grid's
// order; the instances measured at any of them in name order, each point
// their times (four digits), 0 where one was not measured (tuning.GridOf,
// which the replay tests use on -tune-raw's files too). A shape where no
// instance ran is left out.
func buildGrids(t timings, families []string, grid []shape) []tuning.Grid {
	var out []tuning.Grid
	for _, f := range families {
		for _, l := range []string{"nn", "nt", "tn", "tt"} {
			var pts []tuning.RawPoint
			for _, s := range grid {
				if times := t[gridKey{f, l}][s]; len(times) > 0 {
					pts = append(pts, tuning.RawPoint{Family: f, Layout: l, M: s.M, N: s.N, K: s.K, Grid: true, Ms: times})
				}
			}
			if len(pts) > 0 {
				out = append(out, tuning.GridOf(pts))
			}
		}
	}
	return out
}

// verdict is how one selection rule did on one grid: its worst ratio of
// the picked instance's time to the best's over the measured shapes.
type verdict struct {
	key        gridKey
	worst      float64
	worstShape shape
	pick, best string // at the worst shape
	over       int    // shapes where the pick is more than the tolerance slower
	shapes     int
}

// score applies pick to every measured shape of every grid of t and
// compares the time of what it picks with the fastest time there. A pick
// that was not measured at a shape (it failed its check there, or names
// nothing) scores +Inf. pick returns "" where it has no opinion (the shape
// is skipped).
func score(t timings, pick func(k gridKey, s shape) string, tol float64) []verdict {
	var keys []gridKey
	for k := range t {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if keys[i].family != keys[j].family {
			return keys[i].family < keys[j].family
		}
		return keys[i].layout < keys[j].layout
	})
	var out []verdict
	for _, k := range keys {
		v := verdict{key: k, worst: 1}
		var shapes []shape
		for s := range t[k] {
			shapes = append(shapes, s)
		}
		sort.Slice(shapes, func(i, j int) bool { return shapes[i].flops() < shapes[j].flops() })
		for _, s := range shapes {
			times := t[k][s]
			if len(times) == 0 {
				continue
			}
			p := pick(k, s)
			if p == "" {
				continue
			}
			best := ranked(times)[0]
			ratio := math.Inf(1)
			if ms, ok := times[p]; ok {
				ratio = ms / times[best]
			}
			v.shapes++
			if ratio > 1+tol {
				v.over++
			}
			if ratio > v.worst || v.shapes == 1 {
				v.worst, v.worstShape, v.pick, v.best = ratio, s, p, best
			}
		}
		if v.shapes > 0 {
			out = append(out, v)
		}
	}
	return out
}

// tablePick is tuning.SelectAligned over the new table's grid of each
// family on a GPU of sms multiprocessors, as the engine predicts it, scored
// against that family's fastest; align gives a family's alignment quantum
// (gemm.VectorElems of its element type). The engine also compares the
// predictions of families it picks from together (HGEMM: hgemm and
// hgemmk); go/gemm's replay test scores that on a -tune-raw file.
func tablePick(grids []tuning.Grid, sms int, align func(family string) int) func(gridKey, shape) string {
	predictors := map[gridKey]*tuning.Predictor{}
	for _, g := range grids {
		g.SMs = sms
		predictors[gridKey{g.Family, g.Layout}] = tuning.NewPredictor(&g, align(g.Family))
	}
	return func(k gridKey, s shape) string {
		if p := predictors[k]; p != nil {
			name, _, _ := p.Predict(s.M, s.N, s.K)
			return name
		}
		return ""
	}
}

// leaveOneOutPick is tablePick at each shape of a grid from that grid
// without the shape: what the table would pick there had the tune not
// measured it, as it predicts the shapes a user asks for. (At a shape it
// holds, a table picks the fastest measured there.) One fit per shape:
// about a millisecond each on a 2-core machine for the H200's SGEMM grids.
func leaveOneOutPick(grids []tuning.Grid, sms int, align func(family string) int) func(gridKey, shape) string {
	byKey := map[gridKey]tuning.Grid{}
	for _, g := range grids {
		byKey[gridKey{g.Family, g.Layout}] = g
	}
	return func(k gridKey, s shape) string {
		g, ok := byKey[k]
		if !ok {
			return ""
		}
		g.SMs = sms
		g.Points = slices.DeleteFunc(slices.Clone(g.Points), func(p tuning.Point) bool {
			return p.M == s.M && p.N == s.N && p.K == s.K
		})
		if len(g.Points) == 0 {
			return ""
		}
		name, _, _ := tuning.Predict(&g, s.M, s.N, s.K, align(k.family))
		return name
	}
}

// only is t restricted to shapes.
func only(t timings, shapes []shape) timings {
	out := timings{}
	for k, byShape := range t {
		for _, s := range shapes {
			for name, ms := range byShape[s] {
				out.add(k, s, name, ms)
			}
		}
	}
	return out
}

// printVerdicts writes one line per grid and the overall worst case.
func printVerdicts(w *strings.Builder, title string, vs []verdict, tol float64) float64 {
	worst := 1.0
	fmt.Fprintf(w, "%s:\n", title)
	for _, v := range vs {
		worst = max(worst, v.worst)
		fmt.Fprintf(w, "  %-7s %s: worst %.3fx at %s (picked %s, best %s); %d of %d shapes over %.0f%%\n",
			v.key.family, v.key.layout, v.worst, v.worstShape, v.pick, v.best, v.over, v.shapes, 100*tol)
	}
	return worst
}

// costModel is what the run-time estimate assumes of the GPU.
type costModel struct {
	tflops      map[string]float64 // per family, sustained
	launchMs    float64            // floor of one timed run (launch, events)
	hostNsElem  float64            // filling and uploading one random operand element
	checkNsElem float64            // reading back and comparing one element of C
}

// h100Model: SGEMM at about 51 TFLOPS (2.7 ms at 4096, 21 ms at 8192, the
// measured kernels), the fp16 kernels at a third of the dense tensor peak;
// the host side (random operands, float16 conversion, reading C back and
// comparing it in Go) priced high rather than low.
var h100Model = costModel{tflops: map[string]float64{"sgemm": 51, "hgemm": 300, "hgemmk": 300, "hgemmh": 300}, launchMs: 0.02, hostNsElem: 15, checkNsElem: 8}

// rate is family f's sustained TFLOPS in m; a family m does not know is
// priced at the slowest it does, so that the estimate errs long, not
// infinite.
func (m costModel) rate(f string) float64 {
	if r, ok := m.tflops[f]; ok {
		return r
	}
	slowest := math.Inf(1)
	for _, r := range m.tflops {
		slowest = min(slowest, r)
	}
	return slowest
}

// tuneIters is how many timed runs an instance gets at a shape whose one
// run took ms: about 150 ms of runs, at least 3, at most maxIters.
func tuneIters(ms float64, maxIters int) int {
	n := 3
	if ms > 0 {
		n = int(150 / ms)
	}
	return max(3, min(n, maxIters))
}

// estimateSeconds is the run time of measuring shapes for instances
// (count per family, summed over the four layouts) under model m: per
// shape, the operands' set-up; per instance, one check run and the C read
// back, one estimating run, warm-up and the timed runs; per layout, the
// reference (cuBLAS) once.
func estimateSeconds(shapes []shape, instances map[string]int, m costModel, warmup, maxIters int) float64 {
	var ms float64
	for _, s := range shapes {
		elems := float64(s.M*s.K + s.K*s.N + s.M*s.N)
		ms += elems * m.hostNsElem * 1e-6 * 2 // one set of operands per element size
		for f, count := range instances {
			t := max(m.launchMs, s.flops()/(m.rate(f)*1e9))
			runs := float64(2 + warmup + tuneIters(t, maxIters))
			ms += float64(count) * (runs*t + float64(s.M*s.N)*m.checkNsElem*1e-6)
			ms += 4 * (t + float64(s.M*s.N)*m.checkNsElem*1e-6) // the reference, once per layout (over-counted for two families of a dtype)
		}
	}
	return ms / 1e3
}

// writeRaw writes every time of t, grid shapes marked, as JSON.
func writeRaw(path string, t timings, grid []shape) error {
	onGrid := map[shape]bool{}
	for _, s := range grid {
		onGrid[s] = true
	}
	var pts []tuning.RawPoint
	for k, byShape := range t {
		for s, ms := range byShape {
			pts = append(pts, tuning.RawPoint{Family: k.family, Layout: k.layout, M: s.M, N: s.N, K: s.K, Grid: onGrid[s], Ms: ms})
		}
	}
	sort.Slice(pts, func(i, j int) bool {
		a, b := pts[i], pts[j]
		if a.Family != b.Family || a.Layout != b.Layout {
			return a.Family+a.Layout < b.Family+b.Layout
		}
		if a.M != b.M || a.N != b.N {
			return a.M < b.M || (a.M == b.M && a.N < b.N)
		}
		return a.K < b.K
	})
	b, err := json.MarshalIndent(pts, "", " ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, b, 0o644)
}
