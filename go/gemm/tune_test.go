package gemm

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kgen-gpu/kgen/go/cuda"
	"github.com/kgen-gpu/kgen/go/internal/kernels"
	"github.com/kgen-gpu/kgen/internal/tuning"
)

// TestTuneArguments checks what Tune refuses before it touches a device,
// and that an empty problem has nothing to time: it answers the usual
// choice and tunes nothing.
func TestTuneArguments(t *testing.T) {
	var nilEngine *Engine
	_, err := nilEngine.Tune(F32, nil, 1, Matrix{}, Matrix{}, 0, Matrix{}, TuneOptions{})
	assert.EqualError(t, err, "gemm: nil *Engine")

	e, err := newEngine(nil, 90)
	require.NoError(t, err)
	e.setTable(tuning.Find(kernels.Tunings, "NVIDIA H200", 90))
	a, b, c := Matrix{}, Matrix{Cols: 5}, Matrix{Cols: 5} // empty: no memory needed
	_, err = e.Tune(DType(7), nil, 1, a, b, 0, c, TuneOptions{})
	assert.ErrorContains(t, err, "unknown element type")
	_, err = e.Tune(F32, nil, 1, a, b, 0, c, TuneOptions{Candidates: -1})
	assert.EqualError(t, err, "gemm: Tune: negative candidates (-1) or rounds (0)")
	_, err = e.Tune(F32, nil, 1, a, b, 0, c, TuneOptions{Rounds: -2})
	assert.ErrorContains(t, err, "negative candidates (0) or rounds (-2)")
	_, err = e.Tune(F32, &cuda.Stream{}, 1, a, b, 0, c, TuneOptions{})
	assert.EqualError(t, err, "gemm: the stream was destroyed")
	_, err = e.Tune(F32, nil, 1, Matrix{Rows: 0, Cols: 4}, Matrix{Rows: 5, Cols: 0}, 0, Matrix{}, TuneOptions{})
	assert.EqualError(t, err, "gemm: A is 0x4 and B is 5x0: A's columns must equal B's rows")

	got, err := e.Tune(F32, nil, 1, a, b, 0, c, TuneOptions{})
	require.NoError(t, err)
	want, err := e.Pick(F32, RowMajor, RowMajor, 0, 5, 0)
	require.NoError(t, err)
	assert.Equal(t, Tuning{Choice: want}, got, "an empty problem: the usual choice, nothing timed")
	assert.Empty(t, e.tuned)
}

// TestTuneCandidates checks which instances Tune times: the table's
// fastest predictions in order, as many as asked, the table's pick first;
// every instance that can run the problem when asked for all or where the
// device has no table.
func TestTuneCandidates(t *testing.T) {
	e, err := newEngine(nil, 90)
	require.NoError(t, err)
	e.setTable(tuning.Find(kernels.Tunings, "NVIDIA H200", 90))
	require.NotNil(t, e.tune, "the H200's table")
	const sms = 132
	for _, l := range [][2]Order{{RowMajor, RowMajor}, {ColMajor, RowMajor}, {RowMajor, ColMajor}} {
		every := e.ranked[rankKey{F32, F32, l[0], l[1]}]
		for _, shape := range [][3]int{{2122, 282, 224}, {1024, 1024, 1024}, {7, 35, 4097}} {
			m, n, k := shape[0], shape[1], shape[2]
			_, usual, err := e.chooseFor(sms, F32, F32, l[0], l[1], m, n, k)
			require.NoError(t, err)
			require.Equal(t, Table, usual.Source)
			cands, err := e.tuneCandidates(sms, F32, l[0], l[1], m, n, k, TuneOptions{})
			require.NoError(t, err)
			require.Len(t, cands, DefaultTuneCandidates, "%v %v", l, shape)
			assert.Equal(t, usual.Name, cands[0].kern.Name, "%v %v: the table's pick first", l, shape)
			for i, c := range cands {
				assert.Contains(t, names(every), c.kern.Name, "%v %v: an instance of the layouts", l, shape)
				assert.Positive(t, c.predictedMs)
				if i > 0 {
					assert.LessOrEqual(t, cands[i-1].predictedMs, c.predictedMs, "%v %v: fastest first", l, shape)
				}
			}
			two, err := e.tuneCandidates(sms, F32, l[0], l[1], m, n, k, TuneOptions{Candidates: 2})
			require.NoError(t, err)
			require.Len(t, two, 2)
			for i := range two {
				assert.Equal(t, cands[i].kern.Name, two[i].kern.Name)
				assert.Equal(t, cands[i].predictedMs, two[i].predictedMs)
			}
			all, err := e.tuneCandidates(sms, F32, l[0], l[1], m, n, k, TuneOptions{All: true})
			require.NoError(t, err)
			require.Len(t, all, len(every))
			for i, c := range all {
				assert.Equal(t, every[i].Name, c.kern.Name, "ranking order")
				assert.Zero(t, c.predictedMs)
			}
		}
	}
	e.setTable(nil)
	cands, err := e.tuneCandidates(sms, F32, RowMajor, RowMajor, 2122, 282, 224, TuneOptions{})
	require.NoError(t, err)
	assert.Len(t, cands, len(e.ranked[rankKey{F32, F32, RowMajor, RowMajor}]), "no table: every instance")
	_, err = e.tuneCandidates(sms, F32, Order(5), RowMajor, 8, 8, 8, TuneOptions{})
	assert.ErrorContains(t, err, "gemm: no f32 kernel accumulating in f32")
}

// TestTunedChoiceTakesPrecedence checks that a choice Tune made is what
// Pick answers for that problem (Source Tuned) and for no other, and that
// swapping the table forgets it.
func TestTunedChoiceTakesPrecedence(t *testing.T) {
	e, err := newEngine(nil, 90)
	require.NoError(t, err)
	e.setTable(tuning.Find(kernels.Tunings, "NVIDIA H200", 90))
	before, err := e.Pick(F32, RowMajor, ColMajor, 2122, 282, 224)
	require.NoError(t, err)
	cands, err := e.tuneCandidates(132, F32, RowMajor, ColMajor, 2122, 282, 224, TuneOptions{})
	require.NoError(t, err)
	other := cands[len(cands)-1].kern
	require.NotEqual(t, before.Name, other.Name)
	// What Tune records once it has timed the candidates.
	e.tuned = map[pickKey]picked{{F32, F32, RowMajor, ColMajor, 2122, 282, 224}: {other, Choice{Name: other.Name, Source: Tuned, Heuristic: before.Heuristic}}}
	after, err := e.Pick(F32, RowMajor, ColMajor, 2122, 282, 224)
	require.NoError(t, err)
	assert.Equal(t, Choice{Name: other.Name, Source: Tuned, Heuristic: before.Heuristic}, after)
	assert.Equal(t, "tuned", after.Source.String())
	unchanged, err := e.Pick(F32, RowMajor, RowMajor, 2122, 282, 224)
	require.NoError(t, err)
	assert.Equal(t, Table, unchanged.Source, "another layout is not tuned")
	e.setTable(e.tune)
	again, err := e.Pick(F32, RowMajor, ColMajor, 2122, 282, 224)
	require.NoError(t, err)
	assert.Equal(t, before, again)
}

// names are the instances' names.
func names(ks []kernels.GEMM) []string {
	var out []string
	for _, k := range ks {
		out = append(out, k.Name)
	}
	return out
}
