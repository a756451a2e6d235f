package rs

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// slowMul is carry-less multiplication reduced by 0x11d, bit by bit: an
// implementation sharing nothing with the tables it checks.
func slowMul(a, b byte) byte {
	var p int
	x, y := int(a), int(b)
	for y != 0 {
		if y&1 != 0 {
			p ^= x
		}
		x <<= 1
		if x&0x100 != 0 {
			x ^= gfPoly
		}
		y >>= 1
	}
	return byte(p)
}

func TestGFMulMatchesCarrylessProduct(t *testing.T) {
	for a := 0; a < 256; a++ {
		for b := 0; b < 256; b++ {
			if got, want := gfMul(byte(a), byte(b)), slowMul(byte(a), byte(b)); got != want {
				t.Fatalf("gfMul(%d, %d) = %d, want %d", a, b, got, want)
			}
		}
	}
}

func TestGFInvAndPow(t *testing.T) {
	for a := 1; a < 256; a++ {
		require.Equal(t, byte(1), gfMul(byte(a), gfInv(byte(a))), "a=%d", a)
		want := byte(1)
		for n := 0; n < 300; n++ {
			require.Equal(t, want, gfPow(byte(a), n), "%d^%d", a, n)
			want = slowMul(want, byte(a))
		}
	}
	require.Equal(t, byte(1), gfPow(0, 0))
	require.Equal(t, byte(0), gfPow(0, 3))
}

func TestInvertRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{1, 2, 5, 17, 64} {
		m := newMatrix(n, n)
		for {
			for i := range m {
				for j := range m[i] {
					m[i][j] = byte(rng.Uint32())
				}
			}
			if inv, err := m.invert(); err == nil {
				require.Equal(t, identity(n), m.mul(inv), "n=%d", n)
				require.Equal(t, identity(n), inv.mul(m), "n=%d", n)
				break
			}
		}
	}
}

func TestInvertSingular(t *testing.T) {
	m := matrix{{1, 2, 3}, {2, 4, 6}, {0, 0, 1}} // row 1 = 2 * row 0, in GF(2^8) too
	_, err := m.invert()
	require.ErrorIs(t, err, errSingular)
}

// Every k rows of the default and Cauchy matrices must be independent:
// that is what lets any k shards recover the data.
func TestCodingMatrixAnyKRowsInvertible(t *testing.T) {
	for _, kind := range []matrixKind{matrixVandermonde, matrixCauchy} {
		k, m := 4, 3
		c := defaultConfig()
		c.kind = kind
		mat, err := codingMatrix(k, m, &c)
		require.NoError(t, err)
		require.Equal(t, identity(k), mat[:k])
		for set := 0; set < 1<<(k+m); set++ {
			var rows matrix
			for i := 0; i < k+m; i++ {
				if set&(1<<i) != 0 {
					rows = append(rows, mat[i])
				}
			}
			if len(rows) == k {
				_, err := rows.invert()
				require.NoError(t, err, "kind %d rows %b", kind, set)
			}
		}
	}
}
