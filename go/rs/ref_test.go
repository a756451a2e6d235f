package rs_test

import (
	"fmt"
	"testing"

	"github.com/klauspost/reedsolomon"
	"github.com/stretchr/testify/require"

	"github.com/kgen-gpu/kgen/go/rs"
)

func randCoeffs(t *testing.T, rows, k int) []byte {
	return randShards(newRNG(t), 1, rows*k)[0]
}

func rowsOf(coeffs []byte, rows, k int) [][]byte {
	m := make([][]byte, rows)
	for r := range m {
		m[r] = coeffs[r*k : (r+1)*k]
	}
	return m
}

// TestMatMulRefMatchesKlauspost runs random coefficient matrices through
// klauspost as custom parity matrices: two independent implementations of
// the same product must agree exactly.
func TestMatMulRefMatchesKlauspost(t *testing.T) {
	for _, c := range []struct{ rows, k, n int }{{1, 1, 1}, {3, 5, 17}, {4, 10, 4097}, {8, 32, 1000}, {56, 200, 65}} {
		t.Run(fmt.Sprintf("%dx%d/n%d", c.rows, c.k, c.n), func(t *testing.T) {
			coeffs := randCoeffs(t, c.rows, c.k)
			shards := randShards(newRNG(t), c.k+c.rows, c.n)
			kp, err := reedsolomon.New(c.k, c.rows, reedsolomon.WithCustomMatrix(rowsOf(coeffs, c.rows, c.k)))
			require.NoError(t, err)
			want := clone(shards)
			require.NoError(t, kp.Encode(want))
			got := clone(shards) // outputs poisoned with random bytes
			rs.MatMulRef(coeffs, c.rows, c.k, got[:c.k], got[c.k:], false)
			require.Equal(t, want, got)

			// Accumulating onto the result cancels it (x ^ x = 0).
			rs.MatMulRef(coeffs, c.rows, c.k, got[:c.k], got[c.k:], true)
			for _, o := range got[c.k:] {
				require.Equal(t, make([]byte, c.n), o)
			}
		})
	}
}

// TestCPUBackendMatchesRef covers the CPU backend's blocking for shapes
// klauspost cannot take whole (more than 256 inputs plus outputs) and its
// accumulate path.
func TestCPUBackendMatchesRef(t *testing.T) {
	cpu := rs.CPUBackend()
	for _, c := range []struct{ rows, k, n int }{{2, 3, 5}, {56, 200, 100}, {200, 200, 70}, {3, 300, 64}, {300, 2, 10}, {0, 4, 8}, {4, 0, 8}} {
		for _, acc := range []bool{false, true} {
			t.Run(fmt.Sprintf("%dx%d/n%d/acc%v", c.rows, c.k, c.n, acc), func(t *testing.T) {
				coeffs := randCoeffs(t, c.rows, c.k)
				shards := randShards(newRNG(t), c.k+c.rows, c.n)
				want := clone(shards)
				rs.MatMulRef(coeffs, c.rows, c.k, want[:c.k], want[c.k:], acc)
				got := clone(shards)
				require.NoError(t, cpu.MatMul(coeffs, c.rows, c.k, got[:c.k], got[c.k:], acc))
				require.Equal(t, want, got)
			})
		}
	}
}

func TestCPUBackendRejectsBadShapes(t *testing.T) {
	cpu := rs.CPUBackend()
	s := shardsOf(8, 8, 8)
	require.Error(t, cpu.MatMul([]byte{1}, 1, 2, s[:2], s[2:], false), "short coefficients")
	require.Error(t, cpu.MatMul([]byte{1, 2}, 1, 2, s[:1], s[2:], false), "too few inputs")
	require.Error(t, cpu.MatMul([]byte{1, 2}, 1, 2, s[:2], nil, false), "too few outputs")
	require.Error(t, cpu.MatMul([]byte{1, 2}, 1, 2, shardsOf(8, 7), s[2:], false), "ragged")
	require.Error(t, cpu.MatMul(nil, -1, 2, s[:2], s[2:], false), "negative rows")
}
