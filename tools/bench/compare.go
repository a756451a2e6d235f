package main

import (
	"fmt"
	"io"
	"math"
)

// Change is one row of this run matched with the same row of an earlier one.
type Change struct {
	Row        Row
	OldMs      float64
	Speedup    float64 // old time / new time: below 1 is slower
	Regression bool
}

// noiseRule decides what counts as a regression: slower by more than K
// times the larger of the two rows' noise and by more than MinPct percent.
type noiseRule struct{ K, MinPct float64 }

// regressed reports whether newMs is a regression from oldMs under r.
func (r noiseRule) regressed(oldMs, oldNoise, newMs, newNoise float64) bool {
	slower := newMs - oldMs
	return slower > r.K*max(oldNoise, newNoise) && slower > r.MinPct/100*oldMs
}

// compareRows matches every row of cur to the row of old with the same key
// (family, op, kernel, shape, layout, method; the engine's rows by
// "engine"); rows without a match are left out, and the model rows (the
// copy floor), which are not timings, too.
func compareRows(old, cur []Row, rule noiseRule) []Change {
	prev := map[string]Row{}
	for _, r := range old {
		prev[r.key()] = r
	}
	var out []Change
	for _, r := range cur {
		p, ok := prev[r.key()]
		if !ok || r.Method == "model" || !(p.Ms > 0) || !(r.Ms > 0) {
			continue
		}
		out = append(out, Change{Row: r, OldMs: p.Ms, Speedup: p.Ms / r.Ms,
			Regression: rule.regressed(p.Ms, p.NoiseMs, r.Ms, r.NoiseMs)})
	}
	return out
}

// printChanges writes the comparison and returns how many regressions it
// flagged.
func printChanges(w io.Writer, cs []Change, rule noiseRule, unmatched int) int {
	fmt.Fprintf(w, "\nCompared with the earlier run (x = old time / new time; REGRESSION: slower by > %.3g x noise and > %.3g%%)\n", rule.K, rule.MinPct)
	fmt.Fprintf(w, "| family | op | shape | layout | kernel | method | old ms | new ms | noise ms | x | |\n|---|---|---|---|---|---|---|---|---|---|---|\n")
	n := 0
	for _, c := range cs {
		flag := ""
		if c.Regression {
			flag = "REGRESSION"
			n++
		}
		r := c.Row
		fmt.Fprintf(w, "| %s | %s | %s | %s | %s | %s | %.4f | %.4f | %.4f | %.3f | %s |\n", r.Family, r.Op, r.Shape, r.Layout, r.Kernel, r.Method,
			c.OldMs, r.Ms, r.NoiseMs, c.Speedup, flag)
	}
	fmt.Fprintf(w, "%d rows compared, %d regressions, %d rows of this run not compared (not in the earlier one, or model rows)\n", len(cs), n, unmatched)
	return n
}

// meanSpeedup is the geometric mean of the speedups, 0 for none.
func meanSpeedup(cs []Change) float64 {
	if len(cs) == 0 {
		return 0
	}
	s := 0.0
	for _, c := range cs {
		s += math.Log(c.Speedup)
	}
	return math.Exp(s / float64(len(cs)))
}
