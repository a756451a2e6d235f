package gemm

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kgen-gpu/kgen/go/internal/kernels"
	"github.com/kgen-gpu/kgen/internal/tuning"
)

// namesOf lists the names of the engine's dt instances of one family and
// layout, read from the generated table, so the test follows spec changes.
func namesOf(e *Engine, dt DType, family string, a, b Order) []string {
	var out []string
	for _, in := range Of(dt, e.Instances()) {
		if in.Family == family && in.A == a && in.B == b {
			out = append(out, in.Name)
		}
	}
	return out
}

// requireTablePick checks that the table chose want for a GEMM of dt at
// m x n x k, and that what runs (choose) is what Pick says.
func requireTablePick(t *testing.T, e *Engine, dt DType, a, b Order, m, n, k int, want string) {
	t.Helper()
	c, err := e.Pick(dt, a, b, m, n, k)
	require.NoError(t, err)
	assert.Equal(t, Table, c.Source, "%dx%dx%d", m, n, k)
	assert.Equal(t, want, c.Name, "%dx%dx%d", m, n, k)
	kern, _, err := e.choose(dt, F32, "", a, b, m, n, k)
	require.NoError(t, err)
	assert.Equal(t, want, kern.Name, "what runs is what Pick says")
}

func TestPickUsesTheDevicesTable(t *testing.T) {
	e, err := newEngine(nil, 90)
	require.NoError(t, err)
	_, tuned := e.Tuned()
	require.False(t, tuned, "a nil device has no name, so no table")

	// Without a table: the heuristic, as before.
	before := map[[3]int]string{}
	shapes := [][3]int{{128, 128, 128}, {4096, 4096, 4096}, {8192, 8192, 128}, {1000, 3000, 500}, {7, 35, 1}}
	for _, s := range shapes {
		c, err := e.Pick(F32, RowMajor, ColMajor, s[0], s[1], s[2])
		require.NoError(t, err)
		assert.Equal(t, Heuristic, c.Source)
		assert.Equal(t, c.Heuristic, c.Name)
		kern, _, err := e.choose(F32, F32, "", RowMajor, ColMajor, s[0], s[1], s[2])
		require.NoError(t, err)
		assert.Equal(t, kern.Name, c.Name, "Pick reports what SGEMM runs")
		before[s] = c.Name
	}

	c0, err := e.Pick(F32, RowMajor, ColMajor, 1, 1, 1)
	require.NoError(t, err)
	family := c0.Heuristic[:len("sgemm")]
	nt := namesOf(e, F32, family, RowMajor, ColMajor)
	// The table's picks differ from the heuristic's wherever possible: the
	// last instance in table order that does not split K for small shapes,
	// the first for large. (Unsplit, as times made of flops over an
	// efficiency say nothing of a split's reduction, which the table's
	// timing model would fit to them.)
	var unsplit []string
	for _, name := range nt {
		if tuning.TilingOf(name).SplitK == 1 {
			unsplit = append(unsplit, name)
		}
	}
	require.GreaterOrEqual(t, len(unsplit), 2, "the test needs two unsplit sgemm nt instances")
	small, large := unsplit[len(unsplit)-1], unsplit[0]
	// Efficiencies (flops per ms): small wins at 256^3 and at 8192x8192x128,
	// large at 8192^3.
	ms := func(m, n, k int, eff float64) float64 { return float64(m) * float64(n) * float64(k) / eff }
	e.setTable(&tuning.Table{GPU: "Test GPU", Arch: 90, Grids: []tuning.Grid{
		{Family: family, Layout: "nt", Instances: []string{small, large}, Points: []tuning.Point{
			{M: 256, N: 256, K: 256, Ms: []float64{ms(256, 256, 256, 10), ms(256, 256, 256, 1)}},
			{M: 8192, N: 8192, K: 8192, Ms: []float64{ms(8192, 8192, 8192, 10), ms(8192, 8192, 8192, 100)}},
			{M: 8192, N: 8192, K: 128, Ms: []float64{ms(8192, 8192, 128, 50), ms(8192, 8192, 128, 10)}},
		}},
	}})
	for _, tc := range []struct {
		m, n, k int
		want    string
	}{
		{256, 256, 256, small}, {1, 1, 1, small}, {1000, 1000, 1000, small},
		{5000, 5000, 5000, large}, {65536, 65536, 65536, large},
		{8192, 8192, 100, small}, {8192, 8192, 300, small}, {8192, 8192, 4096, large},
		{8192, 8192, 1024, large}, // equally far from both 8192 points: large's 100 outweighs small's 50
	} {
		requireTablePick(t, e, F32, RowMajor, ColMajor, tc.m, tc.n, tc.k, tc.want)
	}
	// Layouts and element types without a grid keep the heuristic.
	for _, s := range shapes {
		c, err := e.Pick(F32, RowMajor, RowMajor, s[0], s[1], s[2])
		require.NoError(t, err)
		assert.Equal(t, Heuristic, c.Source, "nn has no grid")
		c, err = e.Pick(F16, RowMajor, ColMajor, s[0], s[1], s[2])
		require.NoError(t, err)
		assert.Equal(t, Heuristic, c.Source, "hgemm has no grid")
	}
	// A name the binary does not have (kgen rejects such tables) is ignored.
	e.tune.Grids[0].Instances = []string{"sgemm_nt_f32_nonesuch"}
	e.tune.Grids[0].Points = []tuning.Point{{M: 256, N: 256, K: 256, Ms: []float64{1}}}
	e.setTable(e.tune)
	for _, s := range shapes {
		c, err := e.Pick(F32, RowMajor, ColMajor, s[0], s[1], s[2])
		require.NoError(t, err)
		assert.Equal(t, Heuristic, c.Source)
		assert.Equal(t, before[s], c.Name)
	}
}

func TestPickErrors(t *testing.T) {
	var nilEngine *Engine
	_, err := nilEngine.Pick(F32, RowMajor, RowMajor, 1, 1, 1)
	assert.Error(t, err)
	e, err := newEngine(nil, 90)
	require.NoError(t, err)
	_, err = e.Pick(F32, RowMajor, RowMajor, -1, 1, 1)
	assert.ErrorContains(t, err, "negative shape")
	_, err = e.Pick(DType(9), RowMajor, RowMajor, 1, 1, 1)
	assert.ErrorContains(t, err, "unknown element type DType(9)")
}

func TestSourceStrings(t *testing.T) {
	assert.Equal(t, "heuristic", Heuristic.String())
	assert.Equal(t, "table", Table.String())
	assert.Equal(t, "named", Named.String())
}

// TestReferenceInstancesRunByNameOnly: the ladder's reference instances are
// in the engine's list, but neither the heuristic nor a measured table that
// names one makes the engine pick it; a name does.
func TestReferenceInstancesRunByNameOnly(t *testing.T) {
	e, err := newEngine(nil, 90)
	require.NoError(t, err)
	var refs []Instance
	for _, in := range Of(F32, e.Instances()) {
		if in.Reference {
			refs = append(refs, in)
		}
	}
	require.NotEmpty(t, refs, "the spec's ladder family is built for sm_90")
	isRef := map[string]bool{}
	for _, in := range refs {
		isRef[in.Name] = true
		assert.NotEmpty(t, in.Ladder, "%s: a reference sgemm instance is a ladder step", in.Name)
	}
	shapes := [][3]int{{1, 1, 1}, {7, 35, 1}, {128, 128, 128}, {1024, 1024, 1024}, {4096, 4096, 4096}, {64, 64, 65536}, {8192, 8192, 128}}
	for _, s := range shapes {
		c, err := e.Pick(F32, RowMajor, RowMajor, s[0], s[1], s[2])
		require.NoError(t, err)
		assert.False(t, isRef[c.Name], "heuristic picked reference instance %s at %v", c.Name, s)
	}

	// A table in which a ladder step is fastest everywhere still does not
	// make the engine run it: the grid is the heuristic family's, and a
	// reference name in it is not a candidate.
	c0, err := e.Pick(F32, RowMajor, RowMajor, 1, 1, 1)
	require.NoError(t, err)
	ref := refs[0].Name
	e.setTable(&tuning.Table{GPU: "Test GPU", Arch: 90, Grids: []tuning.Grid{
		{Family: c0.Name[:len("sgemm")], Layout: "nn", Instances: []string{ref, c0.Name}, Points: []tuning.Point{
			{M: 256, N: 256, K: 256, Ms: []float64{0.001, 1}},
			{M: 8192, N: 8192, K: 8192, Ms: []float64{0.001, 1000}},
		}},
	}})
	for _, s := range shapes {
		c, err := e.Pick(F32, RowMajor, RowMajor, s[0], s[1], s[2])
		require.NoError(t, err)
		assert.False(t, isRef[c.Name], "table picked reference instance %s at %v", c.Name, s)
	}

	kern, c, err := e.choose(F32, F32, ref, RowMajor, RowMajor, 4096, 4096, 4096)
	require.NoError(t, err)
	assert.Equal(t, ref, kern.Name)
	assert.Equal(t, Named, c.Source)
}

// TestTableChoosesAcrossFamilies: where the table has grids for several
// families the engine picks from (HGEMM: hgemm and hgemmk on sm_90), the
// instance predicted fastest over all of them runs, whichever family the
// rule would have picked from; a table without a grid for the rule's family
// leaves the rule's choice.
func TestTableChoosesAcrossFamilies(t *testing.T) {
	e, err := newEngine(nil, 90)
	require.NoError(t, err)
	h := namesOf(e, F16, "hgemm", RowMajor, RowMajor)
	k := namesOf(e, F16, "hgemmk", RowMajor, RowMajor)
	require.NotEmpty(t, h)
	require.NotEmpty(t, k)
	rule, err := e.Pick(F16, RowMajor, RowMajor, 4096, 4096, 4096)
	require.NoError(t, err)
	require.Contains(t, k, rule.Name, "the rule picks block K 64 at 4096^3 on sm_90")

	ms := func(m, n, k int, eff float64) float64 { return float64(m) * float64(n) * float64(k) / eff }
	// hgemm's h[0] is faster than hgemmk's k[0] at 256^3, slower at 8192^3.
	grid := func(family, name string, effSmall, effLarge float64) tuning.Grid {
		return tuning.Grid{Family: family, Layout: "nn", Instances: []string{name}, Points: []tuning.Point{
			{M: 256, N: 256, K: 256, Ms: []float64{ms(256, 256, 256, effSmall)}},
			{M: 8192, N: 8192, K: 8192, Ms: []float64{ms(8192, 8192, 8192, effLarge)}},
		}}
	}
	e.setTable(&tuning.Table{GPU: "Test GPU", Arch: 90, Grids: []tuning.Grid{
		grid("hgemm", h[0], 20, 10),
		grid("hgemmk", k[0], 10, 20),
	}})
	for _, tc := range []struct {
		m, n, k int
		want    string
	}{
		{256, 256, 256, h[0]}, {300, 200, 250, h[0]}, {8192, 8192, 8192, k[0]}, {6000, 7000, 9000, k[0]}, {4096, 4096, 4096, k[0]},
	} {
		requireTablePick(t, e, F16, RowMajor, RowMajor, tc.m, tc.n, tc.k, tc.want)
	}

	// Only hgemm measured: at 4096^3, where the rule picks from hgemmk, the
	// rule's choice stands; the fp16-accumulating engine is not affected.
	e.tune.Grids = e.tune.Grids[:1]
	e.setTable(e.tune)
	c, err := e.Pick(F16, RowMajor, RowMajor, 4096, 4096, 4096)
	require.NoError(t, err)
	assert.Equal(t, Heuristic, c.Source)
	assert.Equal(t, rule.Name, c.Name)
	c, err = e.PickAcc(F16, F16, RowMajor, RowMajor, 256, 256, 256)
	require.NoError(t, err)
	assert.Equal(t, Heuristic, c.Source, "hgemmh has no grid here")
}

// TestChoicesAreMemoized: choose's memo answers what chooseFor computes for
// every element type, accumulator, layout and shape (asked twice, so the
// second pass reads the memo), never holds more than maxPicks choices, and
// forgets them when the table changes.
func TestChoicesAreMemoized(t *testing.T) {
	e, err := newEngine(nil, 90)
	require.NoError(t, err)
	e.setTable(tuning.Find(kernels.Tunings, "NVIDIA H100 80GB HBM3", 90))
	require.NotNil(t, e.tune, "the H100's table is compiled in")
	rng := rand.New(rand.NewPCG(5, 6))
	type problem struct {
		dt, acc DType
		a, b    Order
		m, n, k int
	}
	var probs []problem
	for range 300 {
		dt, acc := F32, F32
		switch rng.IntN(3) {
		case 1:
			dt = F16
		case 2:
			dt, acc = F16, F16
		}
		probs = append(probs, problem{dt, acc, Order(rng.IntN(2)), Order(rng.IntN(2)), 1 + rng.IntN(9000), 1 + rng.IntN(9000), 1 + rng.IntN(9000)})
	}
	for pass := range 2 {
		for _, p := range probs {
			want, wantC, err := e.chooseFor(e.dev.Info().Multiprocessors, p.dt, p.acc, p.a, p.b, p.m, p.n, p.k)
			require.NoError(t, err)
			got, gotC, err := e.choose(p.dt, p.acc, "", p.a, p.b, p.m, p.n, p.k)
			require.NoError(t, err)
			require.Equal(t, want.Name, got.Name, "pass %d, %+v", pass, p)
			require.Equal(t, wantC, gotC, "pass %d, %+v", pass, p)
		}
	}
	assert.Len(t, e.picks, len(probs))

	for i := range maxPicks + 10 {
		_, _, err := e.choose(F32, F32, "", RowMajor, RowMajor, 1+i, 64, 64)
		require.NoError(t, err)
	}
	assert.LessOrEqual(t, len(e.picks), maxPicks)

	// A new table: choices made under the old one are gone.
	p := probs[0]
	e.setTable(nil)
	assert.Empty(t, e.picks)
	_, c, err := e.choose(p.dt, p.acc, "", p.a, p.b, p.m, p.n, p.k)
	require.NoError(t, err)
	assert.Equal(t, Heuristic, c.Source)
}

// TestTilingOfReadsTheKernels: the table's timing model reads each
// instance's tiling from its name (tuning.TilingOf, which cannot import the
// kernel table): the block tile it reads is the kernel's, and the splits it
// counts are the launcher's.
func TestTilingOfReadsTheKernels(t *testing.T) {
	shapes := [][3]int{{1, 1, 1}, {0, 0, 64}, {128, 128, 4096}, {181, 181, 181}, {4096, 4096, 100}, {2048, 4096, 8192}, {64, 64, 65536}, {5000, 5000, 5000}}
	for _, k := range kernels.GEMMs {
		tl := tuning.TilingOf(k.Name)
		assert.Equal(t, k.Tiling.Block, kernels.Tile{M: tl.BM, N: tl.BN, K: tl.BK}, k.Name)
		assert.Equal(t, k.Tiling.SplitFill, tl.Fill, k.Name)
		for _, s := range shapes {
			assert.Equal(t, kernels.GEMMSplits(k.Tiling, s[0], s[1], s[2]), tl.Splits(s[0], s[1], s[2]), "%s %v", k.Name, s)
		}
	}
}

// TunedFamilies names the families of the device's table, once each in
// the table's order, and none without a table.
func TestTunedFamilies(t *testing.T) {
	e, err := newEngine(nil, 90)
	require.NoError(t, err)
	assert.Empty(t, e.TunedFamilies())
	var nilEngine *Engine
	assert.Empty(t, nilEngine.TunedFamilies())

	e.setTable(&tuning.Table{GPU: "test GPU", Arch: 90, Date: "2026-11-28", Grids: []tuning.Grid{
		{Family: "hgemm", Layout: "nn"}, {Family: "sgemm", Layout: "nn"}, {Family: "hgemm", Layout: "tt"},
	}})
	assert.Equal(t, []string{"hgemm", "sgemm"}, e.TunedFamilies())
	date, ok := e.Tuned()
	assert.True(t, ok)
	assert.Equal(t, "2026-11-28", date)
}
