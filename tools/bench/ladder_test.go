package main

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kgen-gpu/kgen/gen/ir"
	"github.com/kgen-gpu/kgen/go/gemm"
)

func TestLadderStepsAreTheSpecs(t *testing.T) {
	assert.Equal(t, ir.Names(ir.AllLadderSteps), ladderSteps)
	// Every reference SGEMM instance is a step the table can place.
	for _, in := range gemm.Of(gemm.F32, gemm.BuiltInstances()) {
		if in.Reference {
			assert.Contains(t, ladderSteps, in.Ladder, in.Name)
		}
	}
}

// TestLadderTable feeds ladderLines the rows of one ladder problem, out of
// step order and among rows it must ignore: another shape, graph timings,
// the engine's row; the table must put the steps in ladder order, end at
// kgen's fastest instance and divide times correctly.
func TestLadderTable(t *testing.T) {
	const sh = "4096x4096x4096"
	ev := func(kernel, step string, ms float64) Row {
		return Row{Family: "sgemm", Kernel: kernel, Shape: sh, Layout: "nn", Method: "events", Ms: ms, Rate: 137.4 / ms, Ladder: step}
	}
	rows := []Row{
		ev("cublas_sgemm_nn", "", 2),
		ev("engine(sgemm_a)", "", 1.5), // faster than any instance row: must not be the best
		ev("ladder_smem", "smem", 40),
		ev("ladder_naive", "naive", 400),
		ev("sgemm_a", "", 2.5),
		ev("sgemm_b", "", 2.2),
		ev("ladder_coalesced", "coalesced", 100),
		{Family: "sgemm", Kernel: "ladder_naive", Shape: sh, Layout: "nn", Method: "graph", Ms: 1, Ladder: "naive"},
		{Family: "sgemm", Kernel: "sgemm_c", Shape: "1024x1024x1024", Layout: "nn", Method: "events", Ms: 0.1},
	}
	keys, lines := ladderLines(rows)
	require.Equal(t, []string{"sgemm " + sh + " nn"}, keys)
	got := lines[keys[0]]
	require.Len(t, got, 4)
	want := []struct {
		step, kernel   string
		vsPrev, vsCuda float64
	}{
		{"naive", "ladder_naive", 0, 2.0 / 400},
		{"coalesced", "ladder_coalesced", 4, 2.0 / 100},
		{"smem", "ladder_smem", 2.5, 2.0 / 40},
		{"kgen best", "sgemm_b", 40 / 2.2, 2 / 2.2},
	}
	for i, w := range want {
		assert.Equal(t, w.step, got[i].Step, "line %d", i)
		assert.Equal(t, w.kernel, got[i].Kernel, "line %d", i)
		assert.InDelta(t, w.vsPrev, got[i].VsPrev, 1e-12, "line %d", i)
		assert.InDelta(t, w.vsCuda, got[i].VsRef, 1e-12, "line %d", i)
	}
	var buf bytes.Buffer
	printLadder(&buf, rows)
	assert.Contains(t, buf.String(), "Ladder: the seed article's SGEMM steps on this GPU, sgemm 4096x4096x4096 nn")
	assert.Contains(t, buf.String(), "| coalesced | ladder_coalesced | 100.0000 | 1.37 | 4.00 | 0.020 |")
	assert.Contains(t, buf.String(), "| kgen best | sgemm_b | 2.2000 | 62.45 | 18.18 | 0.909 |")

	keys, _ = ladderLines(rows[4:6])
	assert.Empty(t, keys, "no ladder rows: no table")
}
