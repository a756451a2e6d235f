package tuning

import (
	"errors"
	"fmt"
	"io/fs"
	"math"
	"strings"
	"testing"
)

// rawTimes is the SGEMM tune of the H100's third session of 2026-11-23 with
// every time it measured (`bench -tune -tune-raw`): 27 grid shapes and 26
// between them per layout, 7 instances each.
const rawTimes = "../../bench/results/h100-2026-11-23-session3-tune-sgemm-raw.json.gz"

// loadRaw reads path, skipping the test where the checkout lacks it.
func loadRaw(t *testing.T, path string) []RawPoint {
	t.Helper()
	pts, err := ReadRaw(path)
	if errors.Is(err, fs.ErrNotExist) {
		t.Skipf("%s: not in this checkout", path)
	}
	if err != nil {
		t.Fatal(err)
	}
	return pts
}

// tally is how a selector did on a set of shapes: its worst ratio of the
// picked instance's time to the fastest's (tools/bench's score: +Inf for a
// pick not measured there), the shapes over 5%, and the shapes whose two
// fastest instances are within 3% of each other, where the measurement's
// noise decides as much as the kernels do.
type tally struct {
	worst     float64
	at        string
	over, n   int
	coinToss  int
	overNoisy int // of over, the shapes that are also coin tosses
}

func (a *tally) add(p RawPoint, pick string) {
	best, second := math.Inf(1), math.Inf(1)
	for _, ms := range p.Ms {
		if ms < best {
			best, second = ms, best
		} else if ms < second {
			second = ms
		}
	}
	ratio := math.Inf(1)
	if ms, ok := p.Ms[pick]; ok {
		ratio = ms / best
	}
	a.n++
	noisy := second/best < 1.03
	if noisy {
		a.coinToss++
	}
	if ratio > 1.05 {
		a.over++
		if noisy {
			a.overNoisy++
		}
	}
	if a.n == 1 || ratio > a.worst {
		a.worst, a.at = ratio, fmt.Sprintf("%dx%dx%d", p.M, p.N, p.K)
	}
}

func (a tally) String() string {
	return fmt.Sprintf("%.3fx at %-14s %2d of %d over 5%%", a.worst, a.at, a.over, a.n)
}

// evalLayout scores SelectAligned (align 4, the f32 kernels' vector) on one
// layout's points: at the grid shapes, at the shapes between them, and at
// each grid shape predicted from a grid without it (leave-one-out), which
// the between shapes cannot show: whether the model only fits the 26 shapes
// it was tuned against.
func evalLayout(pts []RawPoint) (grid, between, loo tally) {
	g := GridOf(pts)
	for _, p := range pts {
		name, _ := SelectAligned(&g, p.M, p.N, p.K, 4)
		if p.Grid {
			grid.add(p, name)
		} else {
			between.add(p, name)
		}
	}
	for i, p := range pts {
		if !p.Grid {
			continue
		}
		rest := append(append([]RawPoint{}, pts[:i]...), pts[i+1:]...)
		h := GridOf(rest)
		name, _ := SelectAligned(&h, p.M, p.N, p.K, 4)
		loo.add(p, name)
	}
	return grid, between, loo
}

// TestSelectOnMeasuredTimes replays the H100's SGEMM tune offline: the
// table bench -tune builds from its grid shapes, scored against every time
// it measured. Issue 9 asks for picks within 5% of the fastest everywhere.
func TestSelectOnMeasuredTimes(t *testing.T) {
	byLayout := map[string][]RawPoint{}
	for _, p := range loadRaw(t, rawTimes) {
		if p.Family == "sgemm" {
			byLayout[p.Layout] = append(byLayout[p.Layout], p)
		}
	}
	// The bounds SelectAligned meets on these times, a little above what it
	// reaches (between: 1.207x nn, 1.196x nt, 1.546x tn, 1.515x tt;
	// leave-one-out: 1.599, 1.548, 1.635, 1.567), so that a change that
	// makes the worst pick worse fails here. Issue 9's 1.05 is not met.
	const maxGrid, maxBetween, maxLOO = 1.0, 1.55, 1.64
	var report strings.Builder
	for _, l := range []string{"nn", "nt", "tn", "tt"} {
		pts := byLayout[l]
		if len(pts) == 0 {
			t.Fatalf("%s: no sgemm %s times", rawTimes, l)
		}
		grid, between, loo := evalLayout(pts)
		fmt.Fprintf(&report, "%s grid    %v\n%s between %v (%d coin tosses, %d of them over)\n%s loo     %v (%d coin tosses, %d of them over)\n",
			l, grid, l, between, between.coinToss, between.overNoisy, l, loo, loo.coinToss, loo.overNoisy)
		if grid.worst > maxGrid {
			t.Errorf("%s: grid shapes: worst pick %v, above %.2f", l, grid, maxGrid)
		}
		if between.worst > maxBetween {
			t.Errorf("%s: between shapes: worst pick %v, above %.2f", l, between, maxBetween)
		}
		if loo.worst > maxLOO {
			t.Errorf("%s: leave-one-out: worst pick %v, above %.2f", l, loo, maxLOO)
		}
	}
	t.Logf("SelectAligned on %s:\n%s", rawTimes, report.String())
}
