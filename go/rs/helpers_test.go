package rs_test

import (
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"testing"

	"github.com/klauspost/reedsolomon"
	"github.com/stretchr/testify/require"
)

// shape is one (k, m) configuration under test.
type shape struct{ k, m int }

func (s shape) String() string { return fmt.Sprintf("k%d_m%d", s.k, s.m) }

// randShards returns k+m shards of n bytes, data random, parity poisoned
// with random bytes too so a product that skips a byte shows up.
func randShards(rng *rand.Rand, total, n int) [][]byte {
	s := make([][]byte, total)
	for i := range s {
		s[i] = make([]byte, n)
		for j := range s[i] {
			s[i][j] = byte(rng.Uint32())
		}
	}
	return s
}

func clone(shards [][]byte) [][]byte {
	c := make([][]byte, len(shards))
	for i, s := range shards {
		if s != nil {
			c[i] = append([]byte{}, s...)
		}
	}
	return c
}

func newRNG(t testing.TB) *rand.Rand {
	t.Helper()
	h := fnv.New64a()
	h.Write([]byte(t.Name()))
	return rand.New(rand.NewPCG(h.Sum64(), 0x5eed))
}

// klauspost returns the reference encoder with the same shape and options.
func klauspost(t testing.TB, s shape, opts ...reedsolomon.Option) reedsolomon.Encoder {
	t.Helper()
	enc, err := reedsolomon.New(s.k, s.m, opts...)
	require.NoError(t, err)
	return enc
}
