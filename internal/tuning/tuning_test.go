package tuning

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// timed is a grid of the named instances whose times at each shape come
// from eff, each instance's efficiency (flops per ms) there.
func timed(instances []string, shapes [][3]int, eff func(inst int, s [3]int) float64) Grid {
	g := Grid{Family: "sgemm", Layout: "nn", Instances: instances}
	for _, s := range shapes {
		p := Point{M: s[0], N: s[1], K: s[2]}
		for i := range instances {
			ms := 0.0
			if e := eff(i, s); e > 0 {
				ms = float64(s[0]) * float64(s[1]) * float64(s[2]) / e
			}
			p.Ms = append(p.Ms, ms)
		}
		g.Points = append(g.Points, p)
	}
	return g
}

// cube is the 8 corners of {lo, hi}^3.
func cube(lo, hi int) [][3]int {
	var out [][3]int
	for _, m := range []int{lo, hi} {
		for _, n := range []int{lo, hi} {
			for _, k := range []int{lo, hi} {
				out = append(out, [3]int{m, n, k})
			}
		}
	}
	return out
}

func TestSelectExactPointsPickTheMeasuredFastest(t *testing.T) {
	shapes := append(cube(128, 8192), [3]int{4097, 4097, 4097}, [3]int{1000, 3000, 500}, [3]int{64, 64, 65536})
	rng := rand.New(rand.NewPCG(1, 2))
	insts := []string{"a", "b", "c", "d", "e"}
	// Random efficiencies: the winner changes from point to point, and the
	// neighbours' predictions would often pick another one.
	g := timed(insts, shapes, func(int, [3]int) float64 { return 1 + 99*rng.Float64() })
	for range 5 {
		rng.Shuffle(len(g.Points), func(i, j int) { g.Points[i], g.Points[j] = g.Points[j], g.Points[i] })
		for _, p := range g.Points {
			fastest, ms := "", 0.0
			for i, x := range p.Ms {
				if fastest == "" || x < ms {
					fastest, ms = insts[i], x
				}
			}
			got, ok := Select(&g, p.M, p.N, p.K)
			require.True(t, ok)
			assert.Equal(t, fastest, got, "%dx%dx%d", p.M, p.N, p.K)
		}
	}
}

// corners: "splitk" is fast on a small C with a long K, "big" on a large C,
// "flat" is mediocre everywhere; efficiencies per corner of {256, 4096}^3.
func corners() Grid {
	return timed([]string{"big", "flat", "splitk"}, cube(256, 4096), func(i int, s [3]int) float64 {
		largeC := s[0] == 4096 && s[1] == 4096
		smallCLongK := s[0] == 256 && s[1] == 256 && s[2] == 4096
		switch {
		case i == 0 && largeC:
			return 100
		case i == 0:
			return 10
		case i == 2 && smallCLongK:
			return 80
		case i == 2:
			return 5
		}
		return 30
	})
}

func TestSelectBetweenPoints(t *testing.T) {
	g := corners()
	for _, tc := range []struct {
		m, n, k int
		want    string
	}{
		{3000, 3500, 2000, "big"},  // near the large-C corners
		{4000, 4000, 300, "big"},   // the large C, short K corner
		{300, 280, 3000, "splitk"}, // near the small-C, long-K corner
		{256, 256, 2048, "splitk"}, // on the edge towards it
		{300, 3000, 300, "flat"},   // a corner neither fast kernel suits
		{3000, 300, 1000, "flat"},  // between two such corners
		{1024, 1024, 1024, "flat"}, // the centre: every corner weighs the same (see below)
	} {
		got, ok := Select(&g, tc.m, tc.n, tc.k)
		require.True(t, ok)
		assert.Equal(t, tc.want, got, "%dx%dx%d", tc.m, tc.n, tc.k)
	}
	// At the centre all 8 corners are equally distant, so each instance's
	// efficiency against its model is the geometric mean of its 8: the
	// predictions come to 24.8 flops per ms for big (its model, fitted to
	// 10 at six corners and 100 at two, carries a fixed time), 30 for flat
	// (whose model is exact), 10.8 for splitk.
}

// TestSelectOutsideTheGridTakesTheNearestPoints: beyond the grid's range
// the efficiency is the edge's. (The models still scale with the shape:
// splitk's, fitted to its efficiency jumping 16x at one corner, carries a
// fixed time that decides 1x1x65536, 4000 times fewer flops than the
// smallest point, for flat.)
func TestSelectOutsideTheGridTakesTheNearestPoints(t *testing.T) {
	g := corners()
	for _, tc := range []struct {
		m, n, k int
		want    string
	}{
		{64, 64, 65536, "splitk"}, {16, 16, 1 << 20, "splitk"}, {1, 1, 65536, "flat"}, {0, -3, 65536, "flat"},
		{65536, 65536, 65536, "big"}, {1 << 20, 1 << 20, 1, "big"},
		{1, 1, 1, "flat"}, {0, 0, 0, "flat"}, {7, 35, 1, "flat"},
	} {
		got, ok := Select(&g, tc.m, tc.n, tc.k)
		require.True(t, ok)
		assert.Equal(t, tc.want, got, "%dx%dx%d", tc.m, tc.n, tc.k)
	}
}

func TestSelectPredictsByFlops(t *testing.T) {
	// One instance twice as efficient everywhere wins everywhere, also
	// where the other is the only one measured nearby... which it is not
	// here: both are measured at every point.
	g := timed([]string{"slow", "fast"}, cube(128, 2048), func(i int, s [3]int) float64 {
		return float64(1+i) * float64(s[0]+s[2]) // efficiency varying with the shape
	})
	rng := rand.New(rand.NewPCG(3, 4))
	for range 200 {
		m, n, k := rng.IntN(5000), rng.IntN(5000), rng.IntN(5000)
		got, ok := Select(&g, m, n, k)
		require.True(t, ok)
		assert.Equal(t, "fast", got, "%dx%dx%d", m, n, k)
	}
}

// TestPredictGivesTheTimeOfItsPick: at a grid shape the measured time; with
// an efficiency that does not change with the shape, flops over it
// anywhere (names without a tile, on one multiprocessor: the timing model
// fits the flops); misaligned, that time times the measured misalignment
// cost; and with no instance measured at every neighbour, the nearest
// point's fastest at its efficiency.
func TestPredictGivesTheTimeOfItsPick(t *testing.T) {
	g := timed([]string{"slow", "fast"}, cube(128, 2048), func(i int, s [3]int) float64 { return float64(10 * (1 + i)) })
	g.Points[3].Ms[1] *= 0.5 // one point where fast is faster still
	p := g.Points[3]
	name, ms, ok := Predict(&g, p.M, p.N, p.K, 1)
	require.True(t, ok)
	assert.Equal(t, "fast", name)
	assert.Equal(t, p.Ms[1], ms, "the measured time at a grid shape")

	g = timed([]string{"slow", "fast"}, cube(128, 2048), func(i int, s [3]int) float64 { return float64(10 * (1 + i)) })
	for _, s := range [][3]int{{300, 700, 1500}, {1, 1, 1}, {5000, 64, 99999}} {
		name, ms, ok := Predict(&g, s[0], s[1], s[2], 1)
		require.True(t, ok)
		assert.Equal(t, "fast", name)
		assert.InEpsilon(t, float64(s[0])*float64(s[1])*float64(s[2])/20, ms, 1e-12, "%v", s)
	}

	// Unaligned points three times slower than their aligned twins.
	h := timed([]string{"only"}, append(cube(128, 2048), [3]int{1023, 1023, 1023}), func(_ int, s [3]int) float64 {
		if s[0]%8 != 0 {
			return 10
		}
		return 30
	})
	_, ms, _ = Predict(&h, 999, 999, 999, 8)
	assert.InEpsilon(t, 999.0*999*999/10, ms, 1e-9, "misaligned: the measured cost")

	// Nothing measured at all the neighbours: the nearest point's fastest.
	n := Grid{Instances: []string{"x", "y"}, Points: []Point{
		{M: 256, N: 256, K: 256, Ms: []float64{2, 0}},
		{M: 1024, N: 1024, K: 1024, Ms: []float64{0, 64}},
	}}
	name, ms, _ = Predict(&n, 512, 256, 256, 1)
	assert.Equal(t, "x", name)
	assert.InEpsilon(t, 4.0, ms, 1e-12, "twice the flops of 256^3 at its efficiency")

	for _, empty := range []*Grid{nil, {}} {
		_, _, ok := Predict(empty, 5, 5, 5, 1)
		assert.False(t, ok)
	}
}

func TestSelectSkipsInstancesMissingNearby(t *testing.T) {
	g := corners()
	// splitk fails its check at the corner it is fastest at: it must not
	// be picked near there, as a kernel wrong next door may be wrong here.
	for i, p := range g.Points {
		if p.M == 256 && p.N == 256 && p.K == 4096 {
			g.Points[i].Ms[2] = 0
		}
	}
	got, ok := Select(&g, 300, 280, 3000)
	require.True(t, ok)
	assert.NotEqual(t, "splitk", got)
	got, _ = Select(&g, 256, 256, 4096)
	assert.Equal(t, "flat", got, "the measured fastest of those measured")

	// No instance measured at all the neighbours: the nearest point's fastest.
	h := Grid{Instances: []string{"x", "y"}, Points: []Point{
		{M: 256, N: 256, K: 256, Ms: []float64{1, 0}},
		{M: 1024, N: 1024, K: 1024, Ms: []float64{0, 1}},
	}}
	got, _ = Select(&h, 300, 300, 300)
	assert.Equal(t, "x", got)
	got, _ = Select(&h, 900, 900, 900)
	assert.Equal(t, "y", got)

	// Points with nothing measured, or a row of the wrong length, are left out.
	h.Points = append(h.Points, Point{M: 512, N: 512, K: 512, Ms: []float64{0, 0}}, Point{M: 600, N: 600, K: 600, Ms: []float64{1}})
	got, _ = Select(&h, 512, 512, 512)
	assert.Equal(t, "x", got, "256 is nearer than 1024 in log2 once 512 and 600 are skipped")
	for _, empty := range []*Grid{nil, {}, {Instances: []string{"x"}, Points: []Point{{M: 1, N: 1, K: 1, Ms: []float64{0}}}}} {
		_, ok := Select(empty, 5, 5, 5)
		assert.False(t, ok)
	}
}

func TestPointBest(t *testing.T) {
	assert.Equal(t, 1, Point{Ms: []float64{2, 1, 0, 1}}.Best(), "the first of equal times; 0 is not measured")
	assert.Equal(t, -1, Point{Ms: []float64{0, 0}}.Best())
	assert.Equal(t, -1, Point{}.Best())
}

func TestDistanceIsSymmetricInLogSpace(t *testing.T) {
	p := Point{M: 1024, N: 1024, K: 1024}
	assert.InDelta(t, Distance(p, 512, 1024, 1024), Distance(p, 2048, 1024, 1024), 1e-12)
	assert.InDelta(t, 1.0, Distance(p, 2048, 1024, 1024), 1e-12)
	assert.InDelta(t, 0.0, Distance(p, 1024, 1024, 1024), 1e-12)
}

func TestFindAndGrid(t *testing.T) {
	tables := []Table{
		{GPU: "NVIDIA H100 80GB HBM3", Arch: 90, Grids: []Grid{{Family: "sgemm", Layout: "nn"}, {Family: "sgemm", Layout: "tt"}}},
		{GPU: "NVIDIA A100-SXM4-40GB", Arch: 80},
	}
	tb := Find(tables, "NVIDIA H100 80GB HBM3", 90)
	require.NotNil(t, tb)
	assert.Equal(t, "tt", tb.Grid("sgemm", "tt").Layout)
	assert.Nil(t, tb.Grid("sgemm", "nt"), "a layout that was not measured")
	assert.Nil(t, tb.Grid("hgemm", "nn"))
	assert.Nil(t, Find(tables, "NVIDIA H100 80GB HBM3", 80), "same GPU, other kernels")
	assert.Nil(t, Find(tables, "NVIDIA H100 PCIe", 90))
	assert.Nil(t, Find(nil, "x", 90))
	var none *Table
	assert.Nil(t, none.Grid("sgemm", "nn"))
}

func TestSlug(t *testing.T) {
	for in, want := range map[string]string{
		"NVIDIA H100 80GB HBM3":       "nvidia-h100-80gb-hbm3",
		"NVIDIA A100-SXM4-40GB":       "nvidia-a100-sxm4-40gb",
		"  NVIDIA  GeForce RTX 4090 ": "nvidia-geforce-rtx-4090",
		"NVIDIA H200":                 "nvidia-h200",
	} {
		assert.Equal(t, want, Slug(in), in)
	}
}

func TestLayout(t *testing.T) {
	assert.Equal(t, "nn", Layout(false, false))
	assert.Equal(t, "nt", Layout(false, true))
	assert.Equal(t, "tn", Layout(true, false))
	assert.Equal(t, "tt", Layout(true, true))
}

// TestSelectAlignedChargesMisalignment: "vec" is twice as fast as "any" on
// aligned shapes but three times slower where a dimension is not a
// multiple of 4 (its element-wise path), as the grid's odd points show.
// Between aligned points an aligned shape takes "vec"; an odd one takes
// "any", which Select, blind to alignment, misses.
func TestSelectAlignedChargesMisalignment(t *testing.T) {
	g := Grid{Family: "sgemm", Layout: "nn", Instances: []string{"any", "vec"}}
	for _, n := range []int{512, 1024, 2048, 4096} {
		f := float64(n) * float64(n) * float64(n) / 1e9
		g.Points = append(g.Points, Point{M: n, N: n, K: n, Ms: []float64{2 * f, f}})
	}
	for _, n := range []int{1023, 4097} {
		f := float64(n) * float64(n) * float64(n) / 1e9
		g.Points = append(g.Points, Point{M: n, N: n, K: n, Ms: []float64{2 * f, 6 * f}})
	}
	for _, tc := range []struct {
		m, n, k int
		want    string
	}{
		{1536, 1536, 1536, "vec"}, {3000, 2000, 1000, "vec"}, {1535, 1536, 1536, "any"}, {1777, 1777, 1777, "any"},
		{1023, 1023, 1023, "any"}, {1024, 1024, 1024, "vec"},
	} {
		got, ok := SelectAligned(&g, tc.m, tc.n, tc.k, 4)
		require.True(t, ok)
		assert.Equal(t, tc.want, got, "%dx%dx%d", tc.m, tc.n, tc.k)
	}
	got, _ := Select(&g, 1777, 1777, 1777)
	assert.Equal(t, "vec", got, "Select interpolates across the classes")
	got, _ = SelectAligned(&g, 1777, 1777, 1777, 1)
	assert.Equal(t, "vec", got, "align 1 is Select")
}

// TestSelectAlignedChargesPackingItsEdgeKernel: a packing instance copies
// its operands into aligned rows, so the caller's alignment is nothing to
// it, and it runs its edge kernel wherever the shape is not whole tiles,
// aligned or not. Its times at the unaligned points are its edge kernel's:
// they are charged at every shape that is not whole tiles, and at none that
// is.
func TestSelectAlignedChargesPackingItsEdgeKernel(t *testing.T) {
	const plain, packing = "sgemm_nn_f32_b128x128x16", "sgemm_nn_f32_b128x128x16_pk"
	g := Grid{Family: "sgemm", Layout: "nn", Instances: []string{plain, packing}}
	for _, n := range []int{512, 1024, 2048, 4096} { // whole tiles: packing 10% faster
		f := float64(n) * float64(n) * float64(n) / 1e9
		g.Points = append(g.Points, Point{M: n, N: n, K: n, Ms: []float64{1.1 * f, f}})
	}
	for _, n := range []int{1023, 4097} { // its edge kernel: 30% slower than there
		f := float64(n) * float64(n) * float64(n) / 1e9
		g.Points = append(g.Points, Point{M: n, N: n, K: n, Ms: []float64{1.2 * f, 1.3 * f}})
	}
	for _, tc := range []struct {
		m, n, k int
		want    string
	}{
		{1536, 1536, 1536, packing}, // whole tiles
		{1536, 1536, 1001, packing}, // whole tiles, K unaligned: packing aligns it
		{3000, 2000, 1000, plain},   // aligned, not whole tiles
		{1777, 1777, 1777, plain},
		{1024, 1024, 1024, packing}, {1023, 1023, 1023, plain}, // grid points
	} {
		got, ok := SelectAligned(&g, tc.m, tc.n, tc.k, 4)
		require.True(t, ok)
		assert.Equal(t, tc.want, got, "%dx%dx%d", tc.m, tc.n, tc.k)
	}
	_, ms, _ := Predict(&g, 1536, 1536, 1001, 4)
	// The model counts whole k tiles (1001 is 62.6 of 16): within 2% of the
	// flops at the whole tiles' speed, where the edge kernel's 30% would be
	// charged on top.
	assert.InEpsilon(t, 1536.0*1536*1001/1e9, ms, 0.02, "not charged where the tiles are whole")
}

func TestRound4(t *testing.T) {
	assert.Equal(t, 0.01235, round4(0.0123456))
	assert.Equal(t, 21.05, round4(21.0478))
	assert.Equal(t, 1235.0, round4(1234.5))
	assert.Equal(t, 0.0, round4(0))
}

// An instance whose edge kernel is slow (rows) and one whose edge tiles
// move inside C at no cost (moved), the first 10% faster at whole tiles:
// with MinEdgePoints aligned shapes ragged for their tile measured, the
// ragged shapes between take the moved one, and the whole ones the first.
func TestSelectAlignedChargesTheEdgeKernelMeasured(t *testing.T) {
	const rows, moved = "sgemm_tn_f32_b128x128x16_fz", "sgemm_tn_f32_b128x128x16_fq"
	cube := func(n int) float64 { return float64(n) * float64(n) * float64(n) / 1e9 }
	g := Grid{Family: "sgemm", Layout: "tn", Instances: []string{rows, moved}}
	for _, n := range []int{512, 1024, 2048, 4096, 8192} { // whole tiles
		g.Points = append(g.Points, Point{M: n, N: n, K: n, Ms: []float64{cube(n), 1.1 * cube(n)}})
	}
	ragged := []int{1000, 3000, 6000} // rows 20% slower than at whole tiles
	for _, n := range ragged[:MinEdgePoints-1] {
		g.Points = append(g.Points, Point{M: n, N: n, K: n, Ms: []float64{1.2 * cube(n), 1.1 * cube(n)}})
	}
	// Fewer: the old rule, which predicts 2000^3 from 2048^3 and the
	// ragged points near it.
	got, ok := SelectAligned(&g, 2000, 2000, 2000, 4)
	require.True(t, ok)
	assert.Equal(t, rows, got, "%d ragged shapes: too few to measure an edge kernel", MinEdgePoints-1)

	n := ragged[MinEdgePoints-1]
	g.Points = append(g.Points, Point{M: n, N: n, K: n, Ms: []float64{1.2 * cube(n), 1.1 * cube(n)}})
	for _, tc := range []struct {
		m, n, k int
		want    string
	}{
		{2000, 2000, 2000, moved}, {5000, 4000, 1000, moved}, {2000, 4096, 4096, moved}, // ragged
		{1536, 1536, 1536, rows}, {6144, 6144, 1000, rows}, // whole tiles
		{100, 100, 100, rows},                               // smaller than a tile: not ragged
		{4096, 4096, 4096, rows}, {3000, 3000, 3000, moved}, // grid points
	} {
		got, ok := SelectAligned(&g, tc.m, tc.n, tc.k, 4)
		require.True(t, ok)
		assert.Equal(t, tc.want, got, "%dx%dx%d", tc.m, tc.n, tc.k)
	}
	// At a whole-tile shape among ragged points, the first's time is its
	// whole-tile speed: the ragged points are not its neighbours.
	_, ms, _ := Predict(&g, 3072, 3072, 3072, 4)
	assert.InEpsilon(t, cube(3072), ms, 0.02)
	_, ms, _ = Predict(&g, 2000, 2000, 2000, 4)
	assert.InEpsilon(t, 1.1*cube(2000), ms, 0.03, "the moved instance's, not charged")
}

// TestRankingLeadsWithThePick checks Ranking against Predict on the H200's
// session 56 times (a table of every shape measured): at grid shapes it is
// the measured times in order, between them its first is Predict's pick
// and time, every entry an instance of the grid, fastest first.
func TestRankingLeadsWithThePick(t *testing.T) {
	raw := loadRaw(t, sessionFiftySix)
	for _, l := range []string{"nn", "tn"} {
		g := GridOf(layoutPoints(raw, l, true))
		g.SMs = h100SMs
		pr := NewPredictor(&g, 4)
		q := g.Points[0]
		r := pr.Ranking(q.M, q.N, q.K)
		require.Len(t, r, len(g.Instances), "a grid shape measures every instance")
		assert.Equal(t, g.Instances[q.Best()], r[0].Name)
		for _, shape := range [][3]int{{1000, 1000, 1000}, {2122, 282, 224}, {303, 3007, 308}, {7, 35, 4097}} {
			name, ms, ok := pr.Predict(shape[0], shape[1], shape[2])
			require.True(t, ok)
			r := pr.Ranking(shape[0], shape[1], shape[2])
			require.NotEmpty(t, r, "%s %v", l, shape)
			assert.Equal(t, Prediction{name, ms}, r[0], "%s %v", l, shape)
			for i, x := range r {
				assert.Contains(t, g.Instances, x.Name)
				assert.Positive(t, x.Ms)
				if i > 0 {
					assert.LessOrEqual(t, r[i-1].Ms, x.Ms, "%s %v: fastest first", l, shape)
				}
			}
		}
	}
	assert.Empty(t, NewPredictor(nil, 4).Ranking(64, 64, 64))
}
