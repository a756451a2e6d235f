package main

import (
	"fmt"
	"io"
	"math"
	"strings"
)

// Change is one row of this run matched with the same row of an earlier one.
type Change struct {
	Row     Row
	OldMs   float64
	Speedup float64 // old time / new time: below 1 is slower
	// VsYardstick is Speedup with each time first divided by its run's
	// yardstick (Row.yardstick): how the row moved against a measurement of
	// the same GPU in the same run. 0 where either run has none.
	VsYardstick float64
	Regression  bool
}

// noiseRule decides what counts as a regression: slower by more than K
// times the larger of the two rows' noise and by more than MinPct percent.
type noiseRule struct{ K, MinPct float64 }

// regressed reports whether newMs is a regression from oldMs under r.
func (r noiseRule) regressed(oldMs, oldNoise, newMs, newNoise float64) bool {
	slower := newMs - oldMs
	return slower > r.K*max(oldNoise, newNoise) && slower > r.MinPct/100*oldMs
}

// refsByProblem indexes rows' references by the problem they were timed
// at (family, op, shape, layout, method), so that each row finds its own
// (yardstick) without a pass over every row.
type refsByProblem map[string][]Row

// problemKey is the key of r's problem in refsByProblem.
func (r Row) problemKey() string {
	return strings.Join([]string{r.Family, r.Op, r.Shape, r.Layout, r.Method}, "|")
}

// indexRefs is rows' references by problem.
func indexRefs(rows []Row) refsByProblem {
	refs := refsByProblem{}
	for _, q := range rows {
		if q.isRef() {
			refs[q.problemKey()] = append(refs[q.problemKey()], q)
		}
	}
	return refs
}

// yardstick is the time of what r is measured against in its own run that
// ran on the same GPU: the reference's (cuBLAS) at the same problem and
// method, or, where the family's reference runs on the CPU (GF(2^8)'s
// klauspost), the copy floor from the GPU's measured copy bandwidth. Its
// noise is the reference row's, found among refs (the run's references) by
// its time (0 for the floor, one measurement). ok is false for the
// references themselves and rows without one.
func (r Row) yardstick(refs refsByProblem) (ms, noise float64, ok bool) {
	if r.isRef() || !(r.Ms > 0) {
		return 0, 0, false
	}
	if r.Family == "gf256" {
		return r.VsFloor * r.Ms, 0, r.VsFloor > 0
	}
	if !(r.VsRef > 0) {
		return 0, 0, false
	}
	ms = r.VsRef * r.Ms
	for _, q := range refs[r.problemKey()] {
		if math.Abs(q.Ms-ms) <= 1e-9*ms {
			return ms, q.NoiseMs, true
		}
	}
	return ms, 0, true
}

// compareRows matches every row of cur to the row of old with the same key
// (family, op, kernel, shape, layout, method; the engine's rows by
// "engine"); rows without a match are left out, and the model rows (the
// copy floor), which are not timings, too.
//
// A row of kgen's is a regression when it is slower under rule, and, where
// both runs have its yardstick, slower under rule against it too: a row
// that slowed as much as cuBLAS did at the same problem measures the
// machine (another GPU of the name, its clocks, launch latency), not the
// kernel. A reference is never a regression: its Speedup says how the
// machine moved.
func compareRows(old, cur []Row, rule noiseRule) []Change {
	prev := map[string]Row{}
	for _, r := range old {
		prev[r.key()] = r
	}
	oldRefs, curRefs := indexRefs(old), indexRefs(cur)
	var out []Change
	for _, r := range cur {
		p, ok := prev[r.key()]
		if !ok || r.Method == "model" || !(p.Ms > 0) || !(r.Ms > 0) {
			continue
		}
		c := Change{Row: r, OldMs: p.Ms, Speedup: p.Ms / r.Ms}
		if !r.isRef() {
			c.Regression = rule.regressed(p.Ms, p.NoiseMs, r.Ms, r.NoiseMs)
			oy, on, ook := p.yardstick(oldRefs)
			ny, nn, nok := r.yardstick(curRefs)
			if ook && nok {
				// Each time over its yardstick, with the two noises
				// added relatively.
				oRel, nRel := p.Ms/oy, r.Ms/ny
				c.VsYardstick = oRel / nRel
				c.Regression = c.Regression && rule.regressed(oRel, oRel*(p.NoiseMs/p.Ms+on/oy), nRel, nRel*(r.NoiseMs/r.Ms+nn/ny))
			}
		}
		out = append(out, c)
	}
	return out
}

// printChanges writes the comparison and returns how many regressions it
// flagged.
func printChanges(w io.Writer, cs []Change, rule noiseRule, unmatched int) int {
	fmt.Fprintf(w, "\nCompared with the earlier run (x = old time / new time; x vs ref: the same, each time over its run's cuBLAS"+
		" at the problem, or the copy floor for GF(2^8); REGRESSION: a kgen row slower by > %.3g x noise and > %.3g%%, in both)\n", rule.K, rule.MinPct)
	fmt.Fprintf(w, "| family | op | shape | layout | kernel | method | old ms | new ms | noise ms | x | x vs ref | |\n|---|---|---|---|---|---|---|---|---|---|---|---|\n")
	n := 0
	for _, c := range cs {
		flag := ""
		if c.Regression {
			flag = "REGRESSION"
			n++
		}
		r := c.Row
		fmt.Fprintf(w, "| %s | %s | %s | %s | %s | %s | %.4f | %.4f | %.4f | %.3f | %s | %s |\n", r.Family, r.Op, r.Shape, r.Layout, r.Kernel, r.Method,
			c.OldMs, r.Ms, r.NoiseMs, c.Speedup, optional(c.VsYardstick, "%.3f"), flag)
	}
	refs, kgen := splitRefs(cs)
	fmt.Fprintf(w, "%d rows compared, %d regressions, %d rows of this run not compared (not in the earlier one, or model rows)\n", len(cs), n, unmatched)
	fmt.Fprintf(w, "geometric mean of x: kgen's %d rows %.3f, the references' %d rows %.3f (how the machine moved; never flagged)\n",
		len(kgen), meanSpeedup(kgen), len(refs), meanSpeedup(refs))
	return n
}

// splitRefs splits changes into the references' and kgen's.
func splitRefs(cs []Change) (refs, kgen []Change) {
	for _, c := range cs {
		if c.Row.isRef() {
			refs = append(refs, c)
		} else {
			kgen = append(kgen, c)
		}
	}
	return refs, kgen
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
