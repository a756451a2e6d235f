package gemmtest

import (
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kgen-gpu/kgen/go/gemm"
)

// TestTune tunes problems of every layout of A, B and C, packed and with
// strides and offsets that break 16-byte alignment, with beta 0 and not, on
// an engine of its own, and checks that Tune leaves C's buffer as it was
// (Tune times into a scratch C), reports its candidates fastest first with
// its choice the fastest, makes that choice the engine's for the problem,
// and that the GEMM then run is right and writes nothing outside C.
func TestTune(t *testing.T) {
	needGPU(t)
	tuned, err := gemm.New(dev)
	require.NoError(t, err)
	t.Cleanup(func() { tuned.Close() })
	s, err := dev.NewStream()
	require.NoError(t, err)
	t.Cleanup(func() { s.Destroy() })
	row, col := gemm.RowMajor, gemm.ColMajor
	cases := []struct {
		m, n, k    int
		sa, sb, sc storage
		beta       float32
		opt        gemm.TuneOptions
	}{
		{35, 79, 19, storage{order: row}, storage{order: row}, storage{order: row}, 0, gemm.TuneOptions{}},
		{257, 383, 77, storage{order: col, pad: 1, offset: 1}, storage{order: row, pad: 3}, storage{order: col, pad: 3, offset: 2}, 0.5, gemm.TuneOptions{Candidates: 3, Rounds: 2}},
		{128, 128, 128, storage{order: col}, storage{order: col}, storage{order: row}, 1, gemm.TuneOptions{Rounds: 1}},
		{1, 7, 4097, storage{order: row}, storage{order: col, offset: 3}, storage{order: row, offset: 1}, 0, gemm.TuneOptions{Candidates: 2}},
		{516, 260, 84, storage{order: row}, storage{order: col}, storage{order: col}, 0, gemm.TuneOptions{All: true, Rounds: 1}},
	}
	for _, tc := range cases {
		t.Run(fmt.Sprintf("%dx%dx%d_%v_%v_%v", tc.m, tc.n, tc.k, tc.sa, tc.sb, tc.sc), func(t *testing.T) {
			const alpha = 1.5
			o := place(t, getProblem(tc.m, tc.n, tc.k), tc.sa, tc.sb, tc.sc)
			c := o.freshC(t, tc.beta)
			before := download(t, c)
			res, err := tuned.Tune(gemm.F32, s, alpha, o.a, o.b, tc.beta, c, tc.opt)
			require.NoError(t, err)
			require.NoError(t, s.Synchronize())
			after := download(t, c)
			for i := range before {
				if math.Float32bits(after[i]) != math.Float32bits(before[i]) {
					t.Fatalf("Tune wrote element %d of C's buffer: %v, was %v", i, after[i], before[i])
				}
			}

			// The kernel's problem: a column-major C runs as C^T = B^T A^T.
			a, b, m, n := tc.sa.order, tc.sb.order, tc.m, tc.n
			if tc.sc.order == col {
				a, b, m, n = 1-tc.sb.order, 1-tc.sa.order, tc.n, tc.m
			}
			var layout []gemm.Instance
			for _, in := range gemm.Of(gemm.F32, tuned.Instances()) {
				if in.A == a && in.B == b && !in.Reference {
					layout = append(layout, in)
				}
			}
			want := gemm.DefaultTuneCandidates
			switch {
			case tc.opt.All:
				want = len(layout)
			case tc.opt.Candidates > 0:
				want = tc.opt.Candidates
			}
			if _, ok := tuned.Tuned(); !ok {
				want = len(layout) // no table for this GPU: every instance
			}
			require.Len(t, res.Times, want)
			for i, x := range res.Times {
				assert.Positive(t, x.Ms, x.Name)
				assert.True(t, slices.ContainsFunc(layout, func(in gemm.Instance) bool { return in.Name == x.Name }),
					"%s: an instance of A %s and B %s", x.Name, a, b)
				if i > 0 {
					assert.LessOrEqual(t, res.Times[i-1].Ms, x.Ms, "fastest first")
				}
			}
			assert.Equal(t, gemm.Tuned, res.Choice.Source)
			assert.Equal(t, res.Times[0].Name, res.Choice.Name)
			picked, err := tuned.Pick(gemm.F32, a, b, m, n, tc.k)
			require.NoError(t, err)
			assert.Equal(t, res.Choice, picked, "the engine's choice for the problem from now on")

			require.NoError(t, tuned.SGEMM(s, alpha, o.a, o.b, tc.beta, c))
			require.NoError(t, s.Synchronize())
			checkResult(t, o, alpha, tc.beta, c, download(t, c))
		})
	}
	t.Run("capturing", func(t *testing.T) {
		o := place(t, getProblem(35, 79, 19), storage{order: row}, storage{order: row}, storage{order: row})
		c := o.freshC(t, 0)
		_, err := s.Capture(func() error {
			_, err := tuned.Tune(gemm.F32, s, 1, o.a, o.b, 0, c, gemm.TuneOptions{})
			return err
		})
		require.ErrorContains(t, err, "gemm: Tune: the stream is being captured into a graph")
		// The stream is usable again, and Tune on it works.
		_, err = tuned.Tune(gemm.F32, s, 1, o.a, o.b, 0, c, gemm.TuneOptions{Candidates: 1, Rounds: 1})
		require.NoError(t, err)
	})
}
