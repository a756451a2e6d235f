package hgemmtest

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kgen-gpu/kgen/go/gemm"
	"github.com/kgen-gpu/kgen/internal/compare"
)

// TestTune runs HGEMM on an engine of its own after Engine.Tune at the
// problem, for every order of A, B and C, packed and misaligned, with beta
// != 0 (so that C read after Tune would show any write of Tune's to it):
// Tune must choose the fastest candidate it timed, make it the engine's
// choice, and the HGEMM then run must be right, the sentinel around C
// intact. (tests/gemm's TestTune checks C's buffer bit for bit after Tune.)
func TestTune(t *testing.T) {
	needGPU(t)
	tuned, err := gemm.New(dev)
	require.NoError(t, err)
	t.Cleanup(func() { tuned.Close() })
	rng := rand.New(rand.NewPCG(11, 11))
	for _, sh := range []shape{{35, 79, 19}, {257, 129, 63}} {
		p := newProblem(rng, sh)
		for _, o := range orderTriples() {
			for _, st := range storages {
				t.Run(fmt.Sprintf("%dx%dx%d/A=%s,B=%s,C=%s/off=%d", sh.m, sh.n, sh.k, o[0], o[1], o[2], st.offset), func(t *testing.T) {
					runChecked(t, p, o[0], o[1], o[2], st, scalings[1], compare.F16, func(alpha float32, a, b gemm.Matrix, beta float32, c gemm.Matrix) error {
						res, err := tuned.Tune(gemm.F16, nil, alpha, a, b, beta, c, gemm.TuneOptions{Candidates: 3, Rounds: 1})
						if err != nil {
							return err
						}
						if res.Choice.Source != gemm.Tuned || len(res.Times) == 0 || res.Times[0].Name != res.Choice.Name {
							return fmt.Errorf("Tune chose %+v from %+v", res.Choice, res.Times)
						}
						return tuned.HGEMM(nil, alpha, a, b, beta, c)
					})
				})
			}
		}
	}
}
