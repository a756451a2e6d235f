package main

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kgen-gpu/kgen/go/gemm"
	"github.com/kgen-gpu/kgen/internal/tuning"
)

func TestRunShapes(t *testing.T) {
	grid, between, err := runShapes("full", " 2122x282x224, 1097X155x890,2122x282x224", 8, 25)
	require.NoError(t, err)
	assert.Equal(t, []shape{{2122, 282, 224}, {1097, 155, 890}}, grid, "-tune-shapes alone, each once")
	assert.Empty(t, between)
	_, _, err = runShapes("full", "2122x282", 8, 25)
	assert.ErrorContains(t, err, `-tune-shapes: "2122x282" is not MxNxK`)
	_, _, err = runShapes("full", "0x5x5", 8, 25)
	assert.ErrorContains(t, err, "-tune-shapes")
	grid, between, err = runShapes("ragged", "", 0, 1)
	require.NoError(t, err)
	g, b, _ := tuneShapes("ragged", 0, 1)
	assert.Equal(t, g, grid, "without -tune-shapes, the grid's")
	assert.Equal(t, b, between)
}

func TestGridShapes(t *testing.T) {
	for _, name := range []string{"small", "full", "ragged"} {
		g, err := gridShapes(name)
		require.NoError(t, err)
		seen := map[shape]bool{}
		for _, s := range g {
			assert.False(t, seen[s], "%s repeats %s", name, s)
			seen[s] = true
			assert.True(t, s.M > 0 && s.N > 0 && s.K > 0)
		}
	}
	full, _ := gridShapes("full")
	for _, s := range []shape{{8192, 8192, 128}, {128, 8192, 8192}, {64, 64, 65536}, {4097, 4097, 4097}, {1000, 3000, 500}} {
		assert.Contains(t, full, s, "the issue's shapes are in the full grid")
	}
	// Shapes none of whose dimensions is a multiple of 4 (the f32 vector),
	// from which the selector learns each instance's cost of misalignment
	// (tuning.SelectAligned) near small, square, skinny and long-K shapes
	// alike.
	odd := 0
	for _, s := range full {
		if s.M%4 != 0 && s.N%4 != 0 && s.K%4 != 0 {
			odd++
		}
	}
	assert.GreaterOrEqual(t, odd, 13, "1023^3, 4097^3 and session 34's 11")
	// The ragged grid and the shapes between it: aligned for f32 and f16,
	// not whole 64-wide tiles in M or N, and on no other grid, so that a
	// run of it joins a full tune's (-tune-add).
	ragged, _ := gridShapes("ragged")
	for _, s := range append(slices.Clone(ragged), tuneBetween["ragged"]...) {
		assert.True(t, s.M%8 == 0 && s.N%8 == 0 && s.K%8 == 0, "%s is aligned", s)
		assert.True(t, s.M%64 != 0 && s.N%64 != 0, "%s is not whole tiles", s)
		assert.NotContains(t, full, s)
	}
	assert.Len(t, tuneBetween["ragged"], len(ragged))
	_, err := gridShapes("huge")
	assert.ErrorContains(t, err, `unknown grid "huge"`)
}

func TestBetweenShapes(t *testing.T) {
	grid := []shape{{256, 256, 256}, {1024, 1024, 1024}, {4096, 4096, 4096}}
	mid := betweenShapes(grid, 0, 1, math.Inf(1))
	assert.Equal(t, []shape{{512, 512, 512}, {2048, 2048, 2048}}, mid, "geometric midpoints of neighbours, once each")

	full, _ := gridShapes("full")
	a := betweenShapes(full, 8, 7, tuneMaxFlops)
	b := betweenShapes(full, 8, 7, tuneMaxFlops)
	assert.Equal(t, a, b, "the same seed gives the same shapes")
	onGrid := map[shape]bool{}
	for _, s := range full {
		onGrid[s] = true
	}
	random := 0
	for _, s := range a {
		assert.False(t, onGrid[s], "%s is a grid shape", s)
		if s.flops() > tuneMaxFlops {
			continue // a midpoint may be large; random shapes may not
		}
		if s.M >= 128 && s.M <= 8192 && s.N >= 128 && s.N <= 8192 && s.K >= 128 && s.K <= 8192 {
			random++
		}
	}
	assert.GreaterOrEqual(t, random, 8, "eight random shapes within the square range")
	assert.NotEqual(t, a, betweenShapes(full, 8, 8, tuneMaxFlops), "another seed, other shapes")
}

func TestBuildGridsAndScore(t *testing.T) {
	s1, s2, mid := shape{256, 256, 256}, shape{4096, 4096, 4096}, shape{1024, 1024, 1024}
	tm := timings{}
	nn := gridKey{"sgemm", "nn"}
	tm.add(nn, s1, "small", 0.0100)
	tm.add(nn, s1, "large", 0.0111)
	tm.add(nn, s2, "small", 3.0)
	tm.add(nn, s2, "large", 2.5)
	tm.add(nn, mid, "small", 0.5) // not a grid shape: scored, not in the table
	tm.add(nn, mid, "large", 0.4)
	tm.add(gridKey{"hgemmh", "nn"}, s1, "only", 0.001)
	tm.add(nn, s2, "absent", 9) // measured at s2 only: 0 at s1

	grids := buildGrids(tm, []string{"sgemm", "hgemmh"}, []shape{s1, s2})
	require.Equal(t, []tuning.Grid{
		{Family: "sgemm", Layout: "nn", Instances: []string{"absent", "large", "small"}, Points: []tuning.Point{
			{M: 256, N: 256, K: 256, Ms: []float64{0, 0.0111, 0.01}},
			{M: 4096, N: 4096, K: 4096, Ms: []float64{9, 2.5, 3}},
		}},
		{Family: "hgemmh", Layout: "nn", Instances: []string{"only"}, Points: []tuning.Point{{M: 256, N: 256, K: 256, Ms: []float64{0.001}}}},
	}, grids)
	delete(tm[nn][s2], "absent")

	vs := score(tm, tablePick(grids, 132, sgemmAlign), 0.05)
	require.Len(t, vs, 2)
	assert.Equal(t, gridKey{"hgemmh", "nn"}, vs[0].key)
	assert.Equal(t, 1.0, vs[1].worst, "the table picks the best at the midpoint too: fitted to both points, a fixed time and the rest per multiply-add, large's time there (0.049 ms) is below small's (0.056)")
	assert.Equal(t, 3, vs[1].shapes)

	// A rule that always picks "small" is 1.25x off at the midpoint, 1.2x at s2.
	vs = score(tm, func(gridKey, shape) string { return "small" }, 0.05)
	assert.InDelta(t, 1.25, vs[1].worst, 1e-12)
	assert.Equal(t, mid, vs[1].worstShape)
	assert.Equal(t, 2, vs[1].over)
	assert.True(t, math.IsInf(vs[0].worst, 1), "a pick that was not measured is infinitely bad")
	assert.Empty(t, score(tm, func(gridKey, shape) string { return "" }, 0.05), "no opinion, no verdict")
}

// TestLeaveOneOutPick: at each shape, the pick of the table without it.
// Three shapes where "small" is fastest at the two small ones, and gains
// less time from one to the other, and "large" at the largest: the table
// of all three picks the fastest at each; left out, the largest is
// predicted from the two small ones (small, 1.2x the fastest there), and a
// layout without a grid, or a grid of one point, gets no opinion.
func TestLeaveOneOutPick(t *testing.T) {
	a, b, c := shape{128, 128, 128}, shape{256, 256, 256}, shape{4096, 4096, 4096}
	tm := timings{}
	nn := gridKey{"sgemm", "nn"}
	for _, x := range []struct {
		s            shape
		small, large float64
	}{{a, 0.005, 0.008}, {b, 0.006, 0.012}, {c, 3.0, 2.5}} {
		tm.add(nn, x.s, "small", x.small)
		tm.add(nn, x.s, "large", x.large)
	}
	grids := buildGrids(tm, []string{"sgemm"}, []shape{a, b, c})
	in, out := tablePick(grids, 132, sgemmAlign), leaveOneOutPick(grids, 132, sgemmAlign)
	for _, s := range []shape{a, b, c} {
		assert.Equal(t, ranked(tm[nn][s])[0], in(nn, s), "%s: a table picks the fastest it measured", s)
	}
	assert.Equal(t, "small", out(nn, c), "4096^3 from the two small shapes alone")
	assert.Equal(t, "", out(gridKey{"sgemm", "tt"}, c), "no grid of the layout, no opinion")
	one := buildGrids(tm, []string{"sgemm"}, []shape{c})
	assert.Equal(t, "", leaveOneOutPick(one, 132, sgemmAlign)(nn, c), "nothing left to predict from")
	vs := score(only(tm, []shape{c}), out, 0.05)
	require.Len(t, vs, 1)
	assert.InDelta(t, 1.2, vs[0].worst, 1e-12, "small at 4096^3: 3.0 ms against 2.5")
	assert.Equal(t, c, vs[0].worstShape)
}

func TestTuneItersAndEstimate(t *testing.T) {
	assert.Equal(t, 20, tuneIters(0.01, 20), "small shapes: the bench's count")
	assert.Equal(t, 7, tuneIters(21, 20), "8192^3 SGEMM at 21 ms: about 150 ms of runs")
	assert.Equal(t, 3, tuneIters(500, 20))
	assert.Equal(t, 3, tuneIters(0, 20))

	full, between, err := tuneShapes("full", 8, 1)
	require.NoError(t, err)
	shapes := append(full, between...)
	// The H100 build when the grid was sized: 7 sgemm tilings and 5 hgemm ones
	// in four layouts, hgemmh in two. About 230 s until session 34 added
	// the 11 shapes that are not aligned, 280 s since, 430 s since session
	// 52 added the ragged grid.
	count := map[string]int{"sgemm": 28, "hgemm": 20, "hgemmh": 2}
	secs := estimateSeconds(shapes, count, h100Model, 3, 20)
	assert.Less(t, secs, 8*60.0, "a full run of that build must fit in 8 minutes")
	assert.Greater(t, secs, 30.0, "the 8192 SGEMMs alone take this long: the model is not empty")
	t.Logf("full grid: %d shapes, about %.0f s on an H100", len(shapes), secs)
	small, _ := gridShapes("small")
	t.Logf("small grid: about %.0f s", estimateSeconds(append(small, betweenShapes(small, 2, 1, tuneMaxFlops)...), count, h100Model, 3, 20))

	// Every family of this build has a finite estimate, priced as the model
	// knows it or at its slowest rate (hgemmk was once missing: +Inf s).
	built := map[string]int{}
	for _, in := range gemm.BuiltInstances() {
		if in.Arch == 90 && !in.Reference {
			built[in.Family]++
		}
	}
	require.NotEmpty(t, built)
	for f, n := range built {
		secs := estimateSeconds(shapes, map[string]int{f: n}, h100Model, 3, 20)
		assert.False(t, math.IsInf(secs, 0) || math.IsNaN(secs) || secs <= 0, "%s: %v s", f, secs)
		t.Logf("%s alone, %d instances: about %.0f s", f, n, secs)
	}
	assert.Equal(t, h100Model.tflops["sgemm"], h100Model.rate("unknown"), "an unknown family at the slowest rate")
}

func TestTuneFamilyList(t *testing.T) {
	built := gemm.BuiltInstances()
	got, err := tuneFamilyList("sgemm, hgemm,sgemm", built)
	require.NoError(t, err)
	assert.Equal(t, []string{"sgemm", "hgemm"}, got)
	_, err = tuneFamilyList("sgemm,gf", built)
	assert.ErrorContains(t, err, `"gf" is not a GEMM family of this build`)
	all, err := tuneFamilyList(" ", built)
	require.NoError(t, err)
	for _, in := range built {
		assert.Equal(t, !in.Reference, slices.Contains(all, in.Family), "the default list and %s (%s)", in.Family, in.Name)
	}
	assert.Subset(t, all, []string{"sgemm", "hgemm", "hgemmk", "hgemmh"})
	var refs []string
	for _, in := range built {
		if in.Reference && !slices.Contains(refs, in.Family) {
			refs = append(refs, in.Family)
		}
	}
	require.NotEmpty(t, refs, "the spec's SGEMM ladder is a reference family")
	for _, f := range refs {
		_, err = tuneFamilyList("sgemm,"+f, built)
		assert.ErrorContains(t, err, fmt.Sprintf("%q is a reference family", f))
	}
}

func TestCheckBound(t *testing.T) {
	assert.InDelta(t, 8*16*0x1p-24, checkBound(gemm.F32, 256), 1e-15)
	assert.InDelta(t, 8*64*0x1p-11, checkBound(gemm.F16, 4096), 1e-15)
}

// TestSmokeTableGridPoints replays the first H100 run's sgemm nn table
// (2026-11-23, a version 1 table: each point's fastest, its time and the
// runner-up's ratio) in the version 2 model: at each point the fastest has
// its time and every other instance the runner-up's (the least any other
// took). tuning.Select must still pick the measured fastest at every grid
// point, as nearest-point selection did.
func TestSmokeTableGridPoints(t *testing.T) {
	const pre = "sgemm_nn_f32_"
	smoke := []struct {
		s            shape
		best         string
		ms, runnerUp float64
	}{
		{shape{256, 256, 256}, pre + "b64x64x8_w32x32_t4x8_s4_o4_k128", 0.009912, 1.282},
		{shape{1024, 1024, 1024}, pre + "b128x128x8_w32x64_t8x8_s4_o2_k4", 0.06188, 1.116},
		{shape{4096, 4096, 4096}, pre + "b128x256x16_w64x64_t8x16_s3", 2.804, 1.052},
		{shape{8192, 8192, 128}, pre + "b128x128x16_w32x64_t8x8_s3", 0.4045, 1.023},
		{shape{1000, 3000, 500}, pre + "b128x64x8_w64x32_t8x8_s4_o3", 0.1297, 1.009},
	}
	tm := timings{}
	var grid []shape
	for _, p := range smoke {
		grid = append(grid, p.s)
		for _, q := range smoke {
			ms := p.ms * p.runnerUp
			if q.best == p.best {
				ms = p.ms
			}
			tm.add(gridKey{"sgemm", "nn"}, p.s, q.best, ms)
		}
	}
	vs := score(tm, tablePick(buildGrids(tm, []string{"sgemm"}, grid), 132, sgemmAlign), tuneTolerance)
	require.Len(t, vs, 1)
	assert.Equal(t, 1.0, vs[0].worst, "worst at %s: picked %s, best %s", vs[0].worstShape, vs[0].pick, vs[0].best)
	assert.Equal(t, len(smoke), vs[0].shapes)
}

// sgemmAlign is the alignment quantum of fp32 GEMM families.
func sgemmAlign(string) int { return gemm.VectorElems(gemm.F32) }

func TestKeepOtherGrids(t *testing.T) {
	grid := func(family string, ms float64) tuning.Grid {
		return tuning.Grid{Family: family, Layout: "nn", Instances: []string{family + "_a"},
			Points: []tuning.Point{{M: 256, N: 256, K: 256, Ms: []float64{ms}}}}
	}
	table := func(gpu string, grids ...tuning.Grid) tuning.Table {
		return tuning.Table{GPU: gpu, Arch: 90, Driver: "13.0", NVCC: "nvcc 13.0.88", Date: "2026-11-24", Grids: grids}
	}
	path := filepath.Join(t.TempDir(), "gpu.yaml")

	fresh := table("G", grid("hgemmh", 2))
	kept, err := keepOtherGrids(path, &fresh, []string{"hgemmh"})
	require.NoError(t, err)
	assert.Empty(t, kept, "no table yet")
	assert.Equal(t, []tuning.Grid{grid("hgemmh", 2)}, fresh.Grids)

	require.NoError(t, os.WriteFile(path, tuning.Format(table("G", grid("sgemm", 1), grid("hgemmh", 9))), 0o644))
	fresh = table("G", grid("hgemmh", 2))
	kept, err = keepOtherGrids(path, &fresh, []string{"hgemmh"})
	require.NoError(t, err)
	assert.Equal(t, []string{"sgemm"}, kept)
	assert.Equal(t, []tuning.Grid{grid("sgemm", 1), grid("hgemmh", 2)}, fresh.Grids, "the unmeasured family kept, the measured one replaced")

	other := table("H", grid("hgemmh", 2))
	kept, err = keepOtherGrids(path, &other, []string{"hgemmh"})
	require.NoError(t, err)
	assert.Empty(t, kept, "another GPU's table is not merged")
	assert.Len(t, other.Grids, 1)

	require.NoError(t, os.WriteFile(path, []byte("version: 2\ngpu: [\n"), 0o644))
	_, err = keepOtherGrids(path, &fresh, []string{"hgemmh"})
	assert.ErrorContains(t, err, "does not parse")
}

func TestRawTimesRoundTrip(t *testing.T) {
	tm := timings{}
	s1, s2 := shape{256, 256, 256}, shape{1000, 3000, 500}
	tm.add(gridKey{"hgemmh", "nt"}, s1, "a", 0.0123456)
	tm.add(gridKey{"hgemmh", "nt"}, s2, "a", 0.5)
	path := filepath.Join(t.TempDir(), "raw.json")
	require.NoError(t, writeRaw(path, tm, []shape{s1}))
	pts, err := tuning.ReadRaw(path)
	require.NoError(t, err)
	require.Equal(t, []tuning.RawPoint{
		{Family: "hgemmh", Layout: "nt", M: 256, N: 256, K: 256, Grid: true, Ms: map[string]float64{"a": 0.0123456}},
		{Family: "hgemmh", Layout: "nt", M: 1000, N: 3000, K: 500, Ms: map[string]float64{"a": 0.5}},
	}, pts)
	g := tuning.GridOf(pts)
	assert.Equal(t, []tuning.Point{{M: 256, N: 256, K: 256, Ms: []float64{0.01235}}}, g.Points, "grid shapes only, four digits kept")
}

// TestMergeTimings: a run of new instances takes a previous run's times of
// the others, its own winning, and only where both runs measured the same
// shapes; instances no longer built, or measured in this run, and other
// families stay out.
func TestMergeTimings(t *testing.T) {
	s1, s2 := shape{256, 256, 256}, shape{181, 181, 181}
	nn := gridKey{"sgemm", "nn"}
	run := func() timings {
		tm := timings{}
		tm.add(nn, s1, "new", 0.5)
		tm.add(nn, s2, "new", 0.25)
		return tm
	}
	prev := []tuning.RawPoint{
		{Family: "sgemm", Layout: "nn", M: 256, N: 256, K: 256, Grid: true, Ms: map[string]float64{"old": 0.4, "new": 9, "gone": 0.1}},
		{Family: "sgemm", Layout: "nn", M: 181, N: 181, K: 181, Ms: map[string]float64{"old": 0.2}},
		{Family: "hgemm", Layout: "nn", M: 512, N: 512, K: 512, Grid: true, Ms: map[string]float64{"h": 0.1}},
	}
	built := map[string]bool{"old": true, "h": true}
	tm := run()
	n, err := mergeTimings(tm, prev, []string{"sgemm"}, built)
	require.NoError(t, err)
	assert.Equal(t, 2, n)
	assert.Equal(t, timings{nn: {s1: {"new": 0.5, "old": 0.4}, s2: {"new": 0.25, "old": 0.2}}}, tm)

	// "new" measured in this run, wrong at s2 (so absent there): the
	// previous run's time does not bring it back.
	tm = timings{}
	tm.add(nn, s1, "new", 0.5)
	tm.add(nn, s2, "other", 0.3)
	prev[1].Ms["new"] = 0.1
	_, err = mergeTimings(tm, prev, []string{"sgemm"}, built)
	require.NoError(t, err)
	assert.NotContains(t, tm[nn][s2], "new")
	delete(prev[1].Ms, "new")

	_, err = mergeTimings(run(), prev[:1], []string{"sgemm"}, built)
	assert.ErrorContains(t, err, "sgemm nn 181x181x181 is not in the previous run")
	other := append(slices.Clone(prev), tuning.RawPoint{Family: "sgemm", Layout: "nn", M: 7, N: 7, K: 7, Ms: map[string]float64{"old": 1}})
	_, err = mergeTimings(run(), other, []string{"sgemm"}, built)
	assert.ErrorContains(t, err, "sgemm nn 7x7x7 is not measured in this run")
}

// A tune in layouts (tools/device/gpu-tune-parts.sh): a run of one layout
// takes the grids of the layouts before it whole, when they have its shapes.
func TestMergeTimingsOfOtherLayouts(t *testing.T) {
	s1, s2 := shape{256, 256, 256}, shape{181, 181, 181}
	nn, nt := gridKey{"sgemm", "nn"}, gridKey{"sgemm", "nt"}
	run := func() timings {
		tm := timings{}
		tm.add(nt, s1, "nt_a", 0.5)
		tm.add(nt, s2, "nt_a", 0.25)
		return tm
	}
	prev := []tuning.RawPoint{
		{Family: "sgemm", Layout: "nn", M: 256, N: 256, K: 256, Grid: true, Ms: map[string]float64{"nn_a": 0.4, "nn_b": 0.3}},
		{Family: "sgemm", Layout: "nn", M: 181, N: 181, K: 181, Ms: map[string]float64{"nn_a": 0.2, "nn_b": 0.1}},
	}
	built := map[string]bool{"nn_a": true, "nn_b": true}
	tm := run()
	n, err := mergeTimings(tm, prev, []string{"sgemm"}, built)
	require.NoError(t, err)
	assert.Equal(t, 4, n)
	assert.Equal(t, timings{
		nt: {s1: {"nt_a": 0.5}, s2: {"nt_a": 0.25}},
		nn: {s1: {"nn_a": 0.4, "nn_b": 0.3}, s2: {"nn_a": 0.2, "nn_b": 0.1}},
	}, tm)

	_, err = mergeTimings(run(), prev[:1], []string{"sgemm"}, built)
	assert.ErrorContains(t, err, "sgemm nn 181x181x181 is not in the previous run")
	other := append(slices.Clone(prev), tuning.RawPoint{Family: "sgemm", Layout: "nn", M: 7, N: 7, K: 7, Ms: map[string]float64{"nn_a": 1}})
	_, err = mergeTimings(run(), other, []string{"sgemm"}, built)
	assert.ErrorContains(t, err, "sgemm nn 7x7x7 is not measured in this run")
}

func TestAddTimings(t *testing.T) {
	nn, nt := gridKey{"sgemm", "nn"}, gridKey{"sgemm", "nt"}
	full, between, ragged := shape{256, 256, 256}, shape{181, 181, 181}, shape{1000, 1000, 1000}
	prev := []tuning.RawPoint{
		{Family: "sgemm", Layout: "nn", M: 256, N: 256, K: 256, Grid: true, Ms: map[string]float64{"a": 0.4, "b": 0.3}},
		{Family: "sgemm", Layout: "nn", M: 181, N: 181, K: 181, Ms: map[string]float64{"a": 0.2, "b": 0.1}},
		{Family: "sgemm", Layout: "nt", M: 256, N: 256, K: 256, Grid: true, Ms: map[string]float64{"c": 0.5}},
		{Family: "hgemm", Layout: "nn", M: 512, N: 512, K: 512, Grid: true, Ms: map[string]float64{"h": 0.1}},
	}
	tm := timings{}
	tm.add(nn, ragged, "a", 2)
	tm.add(nn, ragged, "b", 3)
	grid, off, err := addTimings(tm, prev, []string{"sgemm"})
	require.NoError(t, err)
	assert.Equal(t, []shape{full}, grid, "the previous run's grid shapes, to join this run's")
	assert.Equal(t, []shape{between}, off)
	assert.Equal(t, timings{
		nn: {ragged: {"a": 2, "b": 3}, full: {"a": 0.4, "b": 0.3}, between: {"a": 0.2, "b": 0.1}},
		nt: {full: {"c": 0.5}}, // a layout this run did not measure comes whole
	}, tm, "the other family's times stay out")

	// A second part of the run (other layouts, -filter) adds to the first
	// part's file, whose grid has this run's shapes in the layouts it
	// measured: the table's grid holds each once.
	assert.Equal(t, []shape{full, ragged}, joined([]shape{full, ragged}, []shape{ragged}))

	// The same shape in both runs.
	tm = timings{}
	tm.add(nn, full, "a", 2)
	tm.add(nn, full, "b", 3)
	_, _, err = addTimings(tm, prev, []string{"sgemm"})
	assert.ErrorContains(t, err, "sgemm nn 256x256x256 is measured in both runs")

	// An instance only one run measured would lack times at the other's
	// shapes.
	tm = timings{}
	tm.add(nn, ragged, "a", 2)
	tm.add(nn, ragged, "new", 3)
	_, _, err = addTimings(tm, prev, []string{"sgemm"})
	assert.ErrorContains(t, err, "sgemm nn: instances measured in one run only: b (the previous run), new (this run)")
}

// TestMergeThenAddTimings: changed instances measured again at some shapes
// of a table (session 62): -tune-merge brings the other instances' times
// at those shapes, then -tune-add the table's other shapes, every instance
// at each.
func TestMergeThenAddTimings(t *testing.T) {
	nn := gridKey{"sgemm", "nn"}
	short, long := shape{100, 4000, 1000}, shape{1000, 1000, 1000}
	tm := timings{}
	tm.add(nn, short, "changed", 0.3)
	atShort := []tuning.RawPoint{{Family: "sgemm", Layout: "nn", M: 100, N: 4000, K: 1000, Grid: true,
		Ms: map[string]float64{"changed": 0.5, "same": 0.4}}}
	n, err := mergeTimings(tm, atShort, []string{"sgemm"}, map[string]bool{"same": true})
	require.NoError(t, err)
	assert.Equal(t, 1, n)
	others := []tuning.RawPoint{{Family: "sgemm", Layout: "nn", M: 1000, N: 1000, K: 1000, Grid: true,
		Ms: map[string]float64{"changed": 2, "same": 3}}}
	grid, _, err := addTimings(tm, others, []string{"sgemm"})
	require.NoError(t, err)
	assert.Equal(t, []shape{long}, grid)
	assert.Equal(t, timings{nn: {short: {"changed": 0.3, "same": 0.4}, long: {"changed": 2, "same": 3}}}, tm,
		"this run's time of the changed instance, the merged one of the other")
}

// TestFullGridIsTheH200Tables: the full grid (with the ragged one, and the
// shapes between them of seed 25) is what the H200's committed table
// measured, so that a tune of new instances merges with it (-tune-merge
// needs the same shapes).
func TestFullGridIsTheH200Tables(t *testing.T) {
	pts, err := tuning.ReadRaw("../../bench/results/h200-2026-11-30-session52-call1-tune-sgemm-added-raw.json.gz")
	require.NoError(t, err)
	grid, between, err := tuneShapes("full", 8, 25)
	require.NoError(t, err)
	want := map[bool][]string{}
	for _, s := range grid {
		want[true] = append(want[true], s.String())
	}
	for _, s := range between {
		want[false] = append(want[false], s.String())
	}
	for _, l := range []string{"nn", "nt", "tn", "tt"} {
		got := map[bool][]string{}
		for _, p := range pts {
			if p.Family == "sgemm" && p.Layout == l {
				got[p.Grid] = append(got[p.Grid], shape{p.M, p.N, p.K}.String())
			}
		}
		assert.ElementsMatch(t, want[true], got[true], "%s: grid shapes", l)
		assert.ElementsMatch(t, want[false], got[false], "%s: shapes between", l)
	}
	assert.Len(t, grid, 48)
	assert.Len(t, between, 41)
}

func TestTuneShapesIncludeRagged(t *testing.T) {
	full, _ := gridShapes("full")
	ragged, _ := gridShapes("ragged")
	grid, between, err := tuneShapes("full", 8, 25)
	require.NoError(t, err)
	assert.Equal(t, append(slices.Clone(full), ragged...), grid, "the full grid's own shapes, then the ragged grid's")
	assert.Subset(t, between, tuneBetween["ragged"])
	assert.Subset(t, between, betweenShapes(full, 8, 25, tuneMaxFlops), "midpoints and random shapes of the full grid's own")
	onGrid := map[shape]bool{}
	for _, s := range grid {
		onGrid[s] = true
	}
	for _, s := range between {
		assert.False(t, onGrid[s], "%s is on the grid", s)
	}
	grid, between, err = tuneShapes("ragged", 0, 1)
	require.NoError(t, err)
	assert.Equal(t, ragged, grid)
	assert.Equal(t, tuneBetween["ragged"], between, "fixed shapes between, none random")
	_, _, err = tuneShapes("huge", 8, 1)
	assert.ErrorContains(t, err, `unknown grid "huge"`)
}
