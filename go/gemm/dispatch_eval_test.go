package gemm

import (
	"errors"
	"fmt"
	"io/fs"
	"math"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kgen-gpu/kgen/internal/tuning"
)

// hgemmTimes are the H100's measured times of the fp32-accumulating fp16
// families, every time `bench -tune -tune-raw` measured, at the same 27
// grid shapes and 26 between them per layout: hgemm from session 15 (with
// its split-K tilings), hgemmk from session 14.
var hgemmTimes = []struct{ path, family string }{
	{"../../bench/results/h100-2026-11-24-session15-call4-tune-hgemm-raw.json.gz", "hgemm"},
	{"../../bench/results/h100-2026-11-24-session14-call8-tune-hgemm-raw.json.gz", "hgemmk"},
}

// dispatchScore is how a way of choosing did on a set of shapes: its worst
// ratio of the picked instance's time to the fastest of all families there,
// and the shapes over 5%.
type dispatchScore struct {
	worst   float64
	at      string
	over, n int
}

func (s *dispatchScore) add(ratio float64, at string) {
	s.n++
	if ratio > 1.05 {
		s.over++
	}
	if ratio > s.worst {
		s.worst, s.at = ratio, at
	}
}

// TestHGEMMTableBeatsTheRule replays HGEMM's dispatch on the H100's measured
// times through the engine's own choice (the rule alone, and with a table
// built here from the grid shapes as bench -tune builds it, which chooses
// across both families) and checks that the table never does worse than the
// rule alone, which is why the H100's table carries HGEMM grids. At the grid
// shapes the table picks the fastest of both families; between them the
// bound is a little above what it reaches, so a change to the rule or the
// selector that makes the worst pick worse fails here.
func TestHGEMMTableBeatsTheRule(t *testing.T) {
	var pts []tuning.RawPoint
	for _, f := range hgemmTimes {
		all, err := tuning.ReadRaw(f.path)
		if errors.Is(err, fs.ErrNotExist) {
			t.Skipf("%s: not in this checkout", f.path)
		}
		require.NoError(t, err)
		for _, p := range all {
			if p.Family == f.family {
				pts = append(pts, p)
			}
		}
	}

	// The table bench -tune writes from these times, and every family's
	// times at each shape.
	byGrid := map[string][]tuning.RawPoint{} // family/layout
	type shapeKey struct {
		layout  string
		m, n, k int
		grid    bool
	}
	times := map[shapeKey]map[string]float64{}
	for _, p := range pts {
		byGrid[p.Family+"/"+p.Layout] = append(byGrid[p.Family+"/"+p.Layout], p)
		k := shapeKey{p.Layout, p.M, p.N, p.K, p.Grid}
		if times[k] == nil {
			times[k] = map[string]float64{}
		}
		for name, ms := range p.Ms {
			times[k][name] = ms
		}
	}
	table := &tuning.Table{GPU: "NVIDIA H100 80GB HBM3", Arch: 90}
	for _, g := range byGrid {
		table.Grids = append(table.Grids, tuning.GridOf(g))
	}
	require.Len(t, table.Grids, 8, "hgemm and hgemmk in four layouts")

	// The engine's choice on the H100's 132 SMs without a table (the rule)
	// and with this one.
	ruleEngine, err := newEngine(nil, 90)
	require.NoError(t, err)
	tableEngine, err := newEngine(nil, 90)
	require.NoError(t, err)
	tableEngine.setTable(table)
	rule, tabled := map[string]*dispatchScore{}, map[string]*dispatchScore{}
	for k, ms := range times {
		best := math.Inf(1)
		for _, t := range ms {
			if t > 0 {
				best = min(best, t)
			}
		}
		a, b := RowMajor, RowMajor
		if k.layout[0] == 't' {
			a = ColMajor
		}
		if k.layout[1] == 't' {
			b = ColMajor
		}
		set := fmt.Sprintf("%s grid=%v", k.layout, k.grid)
		for _, s := range []struct {
			score map[string]*dispatchScore
			e     *Engine
		}{{rule, ruleEngine}, {tabled, tableEngine}} {
			kern, _, err := s.e.chooseFor(132, F16, F32, a, b, k.m, k.n, k.k)
			require.NoError(t, err)
			if s.score[set] == nil {
				s.score[set] = &dispatchScore{}
			}
			ratio := math.Inf(1)
			if t, ok := ms[kern.Name]; ok && t > 0 {
				ratio = t / best
			}
			s.score[set].add(ratio, fmt.Sprintf("%dx%dx%d %s", k.m, k.n, k.k, kern.Name))
		}
	}
	sets := make([]string, 0, len(rule))
	for set := range rule {
		sets = append(sets, set)
	}
	slices.Sort(sets)
	require.Len(t, sets, 8)
	// Between the grid shapes the table reaches 1.87-2.10x (9-12 shapes over
	// 5% per layout; 1.03-1.81x and 0-4 before hgemm's split-K tilings,
	// whose times the interpolation predicts less well, while they ran the
	// skinny shapes 2-41x faster); at them the fastest (times kept to four
	// digits).
	const maxBetween, maxGrid = 2.15, 1.001
	for _, set := range sets {
		r, tb := rule[set], tabled[set]
		t.Logf("%s: rule worst %.3fx at %s, %d of %d over 5%%; table worst %.3fx at %s, %d over", set, r.worst, r.at, r.over, r.n, tb.worst, tb.at, tb.over)
		assert.LessOrEqual(t, tb.worst, r.worst, "%s: the table's worst pick", set)
		assert.LessOrEqual(t, tb.over, r.over, "%s: the table's picks over 5%%", set)
		bound := maxBetween
		if set[len(set)-4:] == "true" {
			bound = maxGrid
		}
		assert.LessOrEqual(t, tb.worst, bound, "%s", set)
		if bound == maxGrid {
			assert.Zero(t, tb.over, "%s: picks over 5%% at grid shapes", set)
		}
	}
}
