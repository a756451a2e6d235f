package rs_test

import (
	"fmt"
	"math/bits"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kgen-gpu/kgen/go/rs"
)

// encoded returns an encoder and a freshly encoded shard set.
func encoded(t *testing.T, s shape, n int, opts ...rs.Option) (*rs.Encoder, [][]byte) {
	t.Helper()
	enc, err := rs.New(s.k, s.m, opts...)
	require.NoError(t, err)
	shards := randShards(newRNG(t), s.k+s.m, n)
	require.NoError(t, enc.Encode(shards))
	return enc, shards
}

// lose drops the shards whose bit is set in mask, alternating nil and
// zero-length-with-capacity, the two ways klauspost marks a missing shard.
func lose(orig [][]byte, mask uint64) [][]byte {
	s := clone(orig)
	for i := range s {
		if mask&(1<<i) == 0 {
			continue
		}
		if i%2 == 0 {
			s[i] = nil
		} else {
			s[i] = s[i][:0]
			clear(s[i][:cap(s[i])]) // reused memory must not leak into the result
		}
	}
	return s
}

// TestReconstructEveryLossPattern loses every subset of at most m shards
// for small shapes; all three reconstruct calls must restore what they
// promise and leave the rest alone.
func TestReconstructEveryLossPattern(t *testing.T) {
	for _, s := range []shape{{4, 2}, {5, 3}, {1, 3}, {3, 1}} {
		for _, mo := range matrixOptions {
			t.Run(fmt.Sprintf("%s/%v", mo.name, s), func(t *testing.T) {
				enc, orig := encoded(t, s, 37, mo.ours...)
				for mask := uint64(0); mask < 1<<(s.k+s.m); mask++ {
					if bits.OnesCount64(mask) <= s.m {
						checkReconstruct(t, enc, s, orig, mask)
					}
				}
			})
		}
	}
}

// TestReconstructRandomLoss samples loss patterns for larger shapes.
func TestReconstructRandomLoss(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	for _, s := range []shape{{10, 4}, {17, 3}, {32, 8}, {200, 56}} {
		t.Run(s.String(), func(t *testing.T) {
			enc, orig := encoded(t, s, 129)
			for range 12 {
				var mask uint64
				if s.k+s.m <= 64 {
					for _, i := range rng.Perm(s.k + s.m)[:1+rng.IntN(s.m)] {
						mask |= 1 << i
					}
					checkReconstruct(t, enc, s, orig, mask)
					continue
				}
				checkReconstructWide(t, enc, s, orig, rng.Perm(s.k + s.m)[:1+rng.IntN(s.m)])
			}
		})
	}
}

func checkReconstruct(t *testing.T, enc *rs.Encoder, s shape, orig [][]byte, mask uint64) {
	t.Helper()
	got := lose(orig, mask)
	require.NoError(t, enc.Reconstruct(got), "mask %b", mask)
	require.Equal(t, orig, got, "Reconstruct, mask %b", mask)

	got = lose(orig, mask)
	require.NoError(t, enc.ReconstructData(got), "mask %b", mask)
	for i := range got {
		if i < s.k {
			require.Equal(t, orig[i], got[i], "ReconstructData shard %d, mask %b", i, mask)
		} else if mask&(1<<i) != 0 {
			require.Empty(t, got[i], "ReconstructData filled parity %d", i)
		}
	}

	// Ask for every other missing shard, both with k flags and with k+m.
	for _, n := range []int{s.k, s.k + s.m} {
		required := make([]bool, n)
		for i := range required {
			required[i] = mask&(1<<i) != 0 && i%2 == 0
		}
		got = lose(orig, mask)
		require.NoError(t, enc.ReconstructSome(got, required), "mask %b", mask)
		for i := range got {
			switch {
			case mask&(1<<i) == 0 || i < n && required[i]:
				require.Equal(t, orig[i], got[i], "ReconstructSome shard %d, mask %b", i, mask)
			default:
				require.Empty(t, got[i], "ReconstructSome filled unrequired shard %d", i)
			}
		}
	}
}

func checkReconstructWide(t *testing.T, enc *rs.Encoder, s shape, orig [][]byte, lost []int) {
	t.Helper()
	got := clone(orig)
	for _, i := range lost {
		got[i] = nil
	}
	require.NoError(t, enc.Reconstruct(got), "lost %v", lost)
	require.Equal(t, orig, got, "lost %v", lost)
}

func TestReconstructTooManyLost(t *testing.T) {
	enc, orig := encoded(t, shape{4, 2}, 16)
	require.ErrorIs(t, enc.Reconstruct(lose(orig, 0b000111)), rs.ErrTooFewShards)
}

func TestReconstructWithoutInversionCache(t *testing.T) {
	s := shape{6, 3}
	enc, orig := encoded(t, s, 64, rs.WithInversionCache(false))
	for range 2 { // twice: nothing must depend on state left by the first
		checkReconstruct(t, enc, s, orig, 0b100100100)
	}
}

// A shard lost as zero length with enough capacity is filled in place.
func TestReconstructReusesCapacity(t *testing.T) {
	enc, orig := encoded(t, shape{4, 2}, 32)
	got := clone(orig)
	buf := make([]byte, 0, 64)
	got[1] = buf
	require.NoError(t, enc.Reconstruct(got))
	require.Equal(t, orig[1], got[1])
	require.Equal(t, &buf[:1][0], &got[1][0])
}

// PAR1 is known to have unrecoverable patterns; we must fail cleanly on
// them (klauspost does too) rather than return wrong data.
func TestPAR1SingularIsAnError(t *testing.T) {
	s := shape{10, 4}
	enc, orig := encoded(t, s, 8, rs.WithPAR1Matrix())
	rng := rand.New(rand.NewPCG(3, 3))
	singular := 0
	for range 200 {
		var mask uint64
		for _, i := range rng.Perm(s.k + s.m)[:s.m] {
			mask |= 1 << i
		}
		got := lose(orig, mask)
		if err := enc.Reconstruct(got); err != nil {
			singular++
			continue
		}
		require.Equal(t, orig, got)
	}
	t.Logf("%d of 200 PAR1 loss patterns were singular", singular)
}
