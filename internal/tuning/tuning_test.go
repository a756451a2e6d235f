package tuning

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// square is a grid of square shapes, each point named after its size.
func square(sizes ...int) []Point {
	var ps []Point
	for _, s := range sizes {
		ps = append(ps, Point{M: s, N: s, K: s, Best: fmt.Sprint(s)})
	}
	return ps
}

func name(m, n, k int) string { return Point{M: m, N: n, K: k}.shape() }

func (p Point) shape() string {
	return string(rune('a'+lgInt(p.M))) + string(rune('a'+lgInt(p.N))) + string(rune('a'+lgInt(p.K)))
}

func lgInt(x int) int { return int(lg(x) + 0.5) }

func TestSelectExactPointsPickThemselves(t *testing.T) {
	grid := append(square(128, 256, 1024, 4096, 8192),
		Point{M: 8192, N: 8192, K: 128, Best: "skinny-k"}, Point{M: 128, N: 8192, K: 8192, Best: "skinny-m"},
		Point{M: 4097, N: 4097, K: 4097, Best: "odd"}, Point{M: 1000, N: 3000, K: 500, Best: "rect"})
	// Shuffled: the answer must not depend on the order of the points.
	rng := rand.New(rand.NewPCG(1, 2))
	for range 5 {
		rng.Shuffle(len(grid), func(i, j int) { grid[i], grid[j] = grid[j], grid[i] })
		for _, p := range grid {
			got, ok := Select(grid, p.M, p.N, p.K)
			require.True(t, ok)
			assert.Equal(t, p, got, "%dx%dx%d", p.M, p.N, p.K)
		}
	}
}

func TestSelectBetweenPoints(t *testing.T) {
	grid := square(256, 1024, 4096)
	for _, tc := range []struct{ m, n, k, want int }{
		{400, 400, 400, 256},     // log2 400 = 8.64: nearer 8 than 10
		{600, 600, 600, 1024},    // 9.23
		{3000, 3000, 3000, 4096}, // 11.55
		{2048, 2048, 2048, 4096}, // the exact midpoint of 1024 and 4096: the point that bounds it
		{512, 512, 512, 1024},    // midpoint of 256 and 1024: the bounding one again
		{1024, 1024, 100, 256},   // K pulls towards the small point: (0,0,1.4)+(2,2,...) distances
		{4096, 4096, 300, 1024},  // d(1024)^2 = 4+4+ (10-8.2)^2 = 11.3; d(4096)^2 = 0+0+3.8^2 = 14.4
	} {
		got, ok := Select(grid, tc.m, tc.n, tc.k)
		require.True(t, ok)
		assert.Equal(t, tc.want, got.M, "%dx%dx%d", tc.m, tc.n, tc.k)
	}
}

func TestSelectOutsideTheGridTakesTheEdge(t *testing.T) {
	grid := square(128, 1024, 8192)
	for _, tc := range []struct{ m, n, k, want int }{
		{1, 1, 1, 128}, {0, 0, 0, 128}, {7, 35, 1, 128}, {-3, 5, 0, 128},
		{65536, 65536, 65536, 8192}, {1 << 30, 1, 1 << 30, 8192}, // 17^2+13^2+17^2 beats 1024's 20^2+10^2+20^2
	} {
		got, ok := Select(grid, tc.m, tc.n, tc.k)
		require.True(t, ok)
		assert.Equal(t, tc.want, got.M, "%dx%dx%d", tc.m, tc.n, tc.k)
	}
}

func TestSelectTieGoesToTheBoundingPoint(t *testing.T) {
	// 2048 is as far (in log2) from 1024 as from 4096 in M; the points
	// differ only there, so the tie is exact.
	lo := Point{M: 1024, N: 512, K: 512, Best: "lo"}
	hi := Point{M: 4096, N: 512, K: 512, Best: "hi"}
	for _, grid := range [][]Point{{lo, hi}, {hi, lo}} {
		got, _ := Select(grid, 2048, 512, 512)
		assert.Equal(t, "hi", got.Best)
	}
	// Neither bounds 2048 x 600: the smaller shape wins, whatever the order.
	for _, grid := range [][]Point{{lo, hi}, {hi, lo}} {
		got, _ := Select(grid, 2048, 600, 512)
		assert.Equal(t, "lo", got.Best)
	}
}

func TestSelectEmptyGrid(t *testing.T) {
	_, ok := Select(nil, 5, 5, 5)
	assert.False(t, ok)
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
