package main

import (
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
)

// Pick is the engine's choice at one problem where the instances it
// chooses from were timed by name too (-instances): how far its dispatch
// is from the fastest of them there. Issue 9 asks for the pick within
// tuneTolerance of the fastest at every shape, the grid's and those
// between them; at a user's own shapes this is that check.
type Pick struct {
	Family, Shape string
	Layout        string  `json:",omitempty"` // GEMM and HGEMV; none for gf256
	Engine        string  // the instance the engine chose
	EngineMs      float64 // that instance's time by name at the problem
	Fastest       string  // the fastest instance timed
	FastestMs     float64
	Ratio         float64 // EngineMs / FastestMs: 1 where the engine chose the fastest
	Timed         int     // instances timed, the engine's among them
	// Tuned: the pick of an engine that ran gemm.Engine.Tune at the
	// problem first (-engine-tune), not the table's.
	Tuned bool `json:",omitempty"`
}

// judgePick compares the engine's choice with the fastest of timed, the
// instances timed by name at one problem that the engine chooses from. Both
// times are of instance rows, measured alike, so that the ratio is the
// dispatch's and not the noise between an engine row and an instance row.
// False where the choice was not timed (-filter left it out) or it was the
// only instance timed.
func judgePick(family, shape, layout, engine string, timed []candidate) (Pick, bool) {
	if len(timed) < 2 {
		return Pick{}, false
	}
	p := Pick{Family: family, Shape: shape, Layout: layout, Engine: engine, Timed: len(timed)}
	found := false
	for _, c := range timed {
		if c.Name == engine {
			p.EngineMs, found = c.Ms, true
		}
		if p.Fastest == "" || c.Ms < p.FastestMs {
			p.Fastest, p.FastestMs = c.Name, c.Ms
		}
	}
	if !found || !(p.FastestMs > 0) {
		return Pick{}, false
	}
	p.Ratio = p.EngineMs / p.FastestMs
	return p, true
}

// problem names a pick's problem: family, shape and layout, where it has one.
func (p Pick) problem() string {
	return strings.Join(slices.DeleteFunc([]string{p.Family, p.Shape, p.Layout}, func(s string) bool { return s == "" }), " ")
}

// whose is whose pick p is, for its lines.
func (p Pick) whose() string {
	if p.Tuned {
		return "the tuned engine's"
	}
	return "the engine's"
}

// pickLine is the line the bench prints after a problem's rows. It names
// the pick: a problem may have several (HGEMM's, accumulating in fp32 and
// in fp16, each against its own instances; the tuned engine's).
func pickLine(p Pick) string {
	if p.Engine == p.Fastest {
		return fmt.Sprintf("%s dispatch: %s pick %s is the fastest of %d instances timed", p.problem(), p.whose(), p.Engine, p.Timed)
	}
	return fmt.Sprintf("%s dispatch: %s pick %s ran %.3fx the fastest of %d instances timed, %s",
		p.problem(), p.whose(), p.Engine, p.Ratio, p.Timed, p.Fastest)
}

// pickSummary is how the engine's picks did over a run: problems judged,
// those within tuneTolerance of the fastest, the geometric mean of the
// ratios and the worst.
type pickSummary struct {
	n, within int
	geoMean   float64
	worst     Pick
}

func summarizePicks(picks []Pick) pickSummary {
	var s pickSummary
	logs := 0.0
	for _, p := range picks {
		s.n++
		logs += math.Log(p.Ratio)
		if p.Ratio <= 1+tuneTolerance {
			s.within++
		}
		if s.n == 1 || p.Ratio > s.worst.Ratio {
			s.worst = p
		}
	}
	if s.n > 0 {
		s.geoMean = math.Exp(logs / float64(s.n))
	}
	return s
}

// printPicks writes the dispatch table, a family at a time: each problem's
// pick against the fastest instance timed, then the summary.
func printPicks(w io.Writer, picks []Pick) {
	if len(picks) == 0 {
		return
	}
	fmt.Fprintf(w, "\nDispatch: the engine's pick against the fastest instance timed at each problem (x = pick's time / fastest's)\n")
	fmt.Fprintf(w, "| family | shape | layout | engine's pick | ms | fastest | ms | x | instances |\n|---|---|---|---|---|---|---|---|---|\n")
	// A summary per family, and one of its tuned engine's picks.
	type group struct {
		family string
		tuned  bool
	}
	byGroup := map[group][]Pick{}
	var order []group
	for _, p := range picks {
		g := group{p.Family, p.Tuned}
		if byGroup[g] == nil {
			order = append(order, g)
		}
		byGroup[g] = append(byGroup[g], p)
		pick := p.Engine
		if p.Tuned {
			pick = "tuned: " + pick
		}
		fmt.Fprintf(w, "| %s | %s | %s | %s | %.4f | %s | %.4f | %.3f | %d |\n", p.Family, p.Shape, p.Layout, pick, p.EngineMs, p.Fastest, p.FastestMs, p.Ratio, p.Timed)
	}
	for _, g := range order {
		s := summarizePicks(byGroup[g])
		what := g.family + ": the pick"
		if g.tuned {
			what = g.family + ": the tuned engine's pick"
		}
		fmt.Fprintf(w, "%s within %.0f%% of the fastest at %d of %d problems; %.3fx by geometric mean; worst %.3fx at %s\n",
			what, 100*tuneTolerance, s.within, s.n, s.geoMean, s.worst.Ratio, strings.TrimPrefix(s.worst.problem(), g.family+" "))
	}
}
