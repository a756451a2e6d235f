package main

import (
	"fmt"
	"io"
	"slices"
	"strings"
)

// ladderSteps are the seed article's SGEMM steps in ladder order, as the
// spec spells them (gen/ir.AllLadderSteps; a test keeps the two equal).
var ladderSteps = []string{"naive", "coalesced", "smem", "blocktile1d", "blocktile2d", "vectorized"}

// LadderLine is one line of the ladder table: a step, or kgen's best
// instance at the ladder's problem (Step "kgen best").
type LadderLine struct {
	Step, Kernel string
	Ms, TFLOPS   float64
	VsPrev       float64 // the previous line's time / this time; 0 on the first
	VsRef        float64 // cuBLAS's time / this time; 0 without a cuBLAS row
}

// ladderLines builds the ladder table of every problem whose rows include
// ladder steps (event timings only): the steps in ladder order, then the
// fastest of kgen's other instances there (the ablation's best), keyed by
// "family shape layout" in the order the problems appear.
func ladderLines(rows []Row) (keys []string, lines map[string][]LadderLine) {
	lines = map[string][]LadderLine{}
	key := func(r Row) string { return r.Family + " " + r.Shape + " " + r.Layout }
	step := func(r Row) int {
		if i := slices.Index(ladderSteps, r.Ladder); i >= 0 {
			return i
		}
		return len(ladderSteps) // a step this bench does not know: last, in row order
	}
	for _, r := range rows {
		if r.Ladder != "" && r.Method == "events" && !slices.Contains(keys, key(r)) {
			keys = append(keys, key(r))
		}
	}
	for _, k := range keys {
		var steps []Row
		var ref, best *Row
		for i, r := range rows {
			if key(r) != k || r.Method != "events" {
				continue
			}
			switch {
			case r.Ladder != "":
				steps = append(steps, r)
			case r.isRef():
				ref = &rows[i]
			case !strings.HasPrefix(r.Kernel, "engine") && (best == nil || r.Ms < best.Ms):
				best = &rows[i]
			}
		}
		slices.SortStableFunc(steps, func(a, b Row) int { return step(a) - step(b) })
		if best != nil {
			b := *best
			b.Ladder = "kgen best"
			steps = append(steps, b)
		}
		var out []LadderLine
		for i, r := range steps {
			l := LadderLine{Step: r.Ladder, Kernel: r.Kernel, Ms: r.Ms, TFLOPS: r.Rate}
			if i > 0 && r.Ms > 0 {
				l.VsPrev = steps[i-1].Ms / r.Ms
			}
			if ref != nil && r.Ms > 0 {
				l.VsRef = ref.Ms / r.Ms
			}
			out = append(out, l)
		}
		lines[k] = out
	}
	return keys, lines
}

// printLadder writes the ladder table of each problem that has one.
func printLadder(w io.Writer, rows []Row) {
	keys, lines := ladderLines(rows)
	for _, k := range keys {
		fmt.Fprintf(w, "\nLadder: the seed article's SGEMM steps on this GPU, %s (x previous = the previous step's time / this time)\n", k)
		fmt.Fprintf(w, "| step | instance | ms | TFLOPS | x previous | x cuBLAS |\n|---|---|---|---|---|---|\n")
		for _, l := range lines[k] {
			fmt.Fprintf(w, "| %s | %s | %.4f | %.2f | %s | %s |\n", l.Step, l.Kernel, l.Ms, l.TFLOPS, optional(l.VsPrev, "%.2f"), optional(l.VsRef, "%.3f"))
		}
	}
}
