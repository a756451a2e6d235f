package main

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestJudgePickAgainstTheFastestTimed(t *testing.T) {
	timed := []candidate{{Name: "a", Ms: 1.2}, {Name: "b", Ms: 1.0}, {Name: "c", Ms: 1.5}}
	p, ok := judgePick("sgemm", "886x886x886", "tn", "a", timed)
	require.True(t, ok)
	assert.Equal(t, "b", p.Fastest)
	assert.InDelta(t, 1.2, p.EngineMs, 0)
	assert.InDelta(t, 1.0, p.FastestMs, 0)
	assert.InDelta(t, 1.2, p.Ratio, 1e-12)
	assert.Equal(t, 3, p.Timed)
	assert.Equal(t, "sgemm 886x886x886 tn dispatch: the engine's pick a ran 1.200x the fastest of 3 instances timed, b", pickLine(p))

	p, ok = judgePick("sgemm", "886x886x886", "tn", "b", timed)
	require.True(t, ok)
	assert.InDelta(t, 1.0, p.Ratio, 0)
	assert.Equal(t, "sgemm 886x886x886 tn dispatch: the engine's pick b is the fastest of 3 instances timed", pickLine(p))
	p, ok = judgePick("gf256", "10+4 65536B", "", "b", timed)
	require.True(t, ok)
	assert.Equal(t, "gf256 10+4 65536B dispatch: the engine's pick b is the fastest of 3 instances timed", pickLine(p), "no layout, no gap")

	// Nothing to judge: the pick not timed (-filter), or timed alone.
	_, ok = judgePick("sgemm", "s", "nn", "z", timed)
	assert.False(t, ok)
	_, ok = judgePick("sgemm", "s", "nn", "a", timed[:1])
	assert.False(t, ok)
	_, ok = judgePick("sgemm", "s", "nn", "a", nil)
	assert.False(t, ok)
}

func TestPickSummaryCountsTheTolerance(t *testing.T) {
	picks := []Pick{
		{Family: "sgemm", Shape: "s1", Layout: "nn", Ratio: 1},
		{Family: "sgemm", Shape: "s2", Layout: "tn", Ratio: 1 + tuneTolerance},
		{Family: "sgemm", Shape: "s3", Layout: "nt", Ratio: 1.2},
		{Family: "sgemm", Shape: "s4", Layout: "tt", Ratio: 1.1},
	}
	s := summarizePicks(picks)
	assert.Equal(t, 4, s.n)
	assert.Equal(t, 2, s.within, "at the tolerance counts as within")
	assert.Equal(t, "s3", s.worst.Shape)
	assert.InDelta(t, 1.0851, s.geoMean, 1e-4) // (1 x 1.05 x 1.2 x 1.1)^(1/4)
	assert.Equal(t, pickSummary{}, summarizePicks(nil))
}

func TestPrintPicksTableAndSummaryPerFamily(t *testing.T) {
	var buf bytes.Buffer
	printPicks(&buf, nil)
	assert.Empty(t, buf.String(), "no table without picks")
	printPicks(&buf, sampleReport().Picks)
	out := buf.String()
	assert.Contains(t, out, "| sgemm | 4096x4096x4096 | nn | a | 2.5000 | b | 2.0000 | 1.250 | 3 |")
	assert.Contains(t, out, "| gf256 | 10+4 65536B |  | c | 0.0040 | c | 0.0040 | 1.000 | 2 |")
	assert.Contains(t, out, "sgemm: the pick within 5% of the fastest at 0 of 1 problems; 1.250x by geometric mean; worst 1.250x at 4096x4096x4096 nn")
	assert.Contains(t, out, "gf256: the pick within 5% of the fastest at 1 of 1 problems; 1.000x by geometric mean; worst 1.000x at 10+4 65536B\n")
}

func TestPicksInTheJSON(t *testing.T) {
	data, err := json.Marshal(Report{Picks: []Pick{{Family: "gf256", Shape: "4+2 65536B", Engine: "c", Fastest: "c", Ratio: 1, Timed: 2}}})
	require.NoError(t, err)
	assert.Contains(t, string(data), `"Picks":[{"Family":"gf256","Shape":"4+2 65536B","Engine":"c"`, "no Layout for gf256")
	data, err = json.Marshal(Report{})
	require.NoError(t, err)
	assert.NotContains(t, string(data), "Picks", "omitted without picks")
}

// TestTunedPicksApart checks that the picks of the engine tuned at each
// problem (-engine-tune) are marked in the table, summed up apart from the
// table's picks of their family, and said to be the tuned engine's.
func TestTunedPicksApart(t *testing.T) {
	timed := []candidate{{Name: "a", Ms: 1.2}, {Name: "b", Ms: 1.0}}
	p, ok := judgePick("sgemm", "2122x282x224", "nt", "b", timed)
	require.True(t, ok)
	p.Tuned = true
	assert.Equal(t, "sgemm 2122x282x224 nt dispatch: the tuned engine's pick b is the fastest of 2 instances timed", pickLine(p))
	table, _ := judgePick("sgemm", "2122x282x224", "nt", "a", timed)
	var buf bytes.Buffer
	printPicks(&buf, []Pick{table, p})
	out := buf.String()
	assert.Contains(t, out, "| sgemm | 2122x282x224 | nt | a | 1.2000 | b | 1.0000 | 1.200 | 2 |")
	assert.Contains(t, out, "| sgemm | 2122x282x224 | nt | tuned: b | 1.0000 | b | 1.0000 | 1.000 | 2 |")
	assert.Contains(t, out, "sgemm: the pick within 5% of the fastest at 0 of 1 problems; 1.200x by geometric mean")
	assert.Contains(t, out, "sgemm: the tuned engine's pick within 5% of the fastest at 1 of 1 problems; 1.000x by geometric mean")
	data, err := json.Marshal(p)
	require.NoError(t, err)
	assert.Contains(t, string(data), `"Tuned":true`)
	data, err = json.Marshal(table)
	require.NoError(t, err)
	assert.NotContains(t, string(data), "Tuned", "omitted for the table's picks")
}
