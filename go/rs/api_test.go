package rs_test

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/klauspost/reedsolomon"
	"github.com/stretchr/testify/require"

	"github.com/kgen-gpu/kgen/go/rs"
)

// TestVerifyDetectsEveryBitFlip flips each bit of each shard in turn.
func TestVerifyDetectsEveryBitFlip(t *testing.T) {
	for _, mo := range matrixOptions {
		s := shape{4, 2}
		enc, orig := encoded(t, s, 15, mo.ours...)
		ok, err := enc.Verify(orig)
		require.NoError(t, err)
		require.True(t, ok)
		for i := range orig {
			for b := 0; b < len(orig[i])*8; b++ {
				orig[i][b/8] ^= 1 << (b % 8)
				ok, err := enc.Verify(orig)
				orig[i][b/8] ^= 1 << (b % 8)
				require.NoError(t, err)
				require.False(t, ok, "%s: flip of shard %d bit %d not detected", mo.name, i, b)
			}
		}
	}
}

func TestVerifyNoParity(t *testing.T) {
	enc, err := rs.New(3, 0)
	require.NoError(t, err)
	ok, err := enc.Verify(shardsOf(4, 4, 4))
	require.NoError(t, err)
	require.True(t, ok)
}

// TestUpdateEqualsEncode changes some data shards and compares Update's
// parity with a fresh Encode's and with klauspost's Update.
func TestUpdateEqualsEncode(t *testing.T) {
	for _, s := range []shape{{4, 2}, {10, 4}, {17, 3}} {
		t.Run(s.String(), func(t *testing.T) {
			enc, orig := encoded(t, s, 1000)
			fresh := randShards(newRNG(t), s.k, 1000)
			newData := make([][]byte, s.k)
			old := clone(orig)
			for i := 0; i < s.k; i += 3 {
				newData[i] = fresh[i]
			}
			for i := 1; i < s.k; i += 3 {
				old[i] = nil // unchanged shards need not be given
			}
			kpOld := clone(old)
			require.NoError(t, enc.Update(old, newData))
			require.NoError(t, klauspost(t, s).Update(kpOld, clone(newData)))

			want := clone(orig)
			for i, d := range newData {
				if d != nil {
					want[i] = d
				}
			}
			require.NoError(t, enc.Encode(want))
			require.Equal(t, want[s.k:], old[s.k:], "Update differs from Encode")
			require.Equal(t, kpOld[s.k:], old[s.k:], "Update differs from klauspost's")
			for i := 0; i < s.k; i += 3 {
				require.Equal(t, orig[i], old[i], "Update modified old data shard %d", i)
			}
		})
	}
}

// TestEncodeIdxEqualsEncode feeds the data shards one by one, in reverse.
func TestEncodeIdxEqualsEncode(t *testing.T) {
	s := shape{10, 4}
	enc, orig := encoded(t, s, 333)
	parity := make([][]byte, s.m)
	for i := range parity {
		parity[i] = make([]byte, 333)
	}
	for i := s.k - 1; i >= 0; i-- {
		require.NoError(t, enc.EncodeIdx(orig[i], i, parity))
	}
	require.Equal(t, orig[s.k:], parity)
}

// TestSplitJoinLikeKlauspost compares shard layout and round trip,
// including inputs with spare capacity, which both libraries use.
func TestSplitJoinLikeKlauspost(t *testing.T) {
	rng := newRNG(t)
	for _, s := range []shape{{1, 0}, {1, 1}, {4, 2}, {5, 3}, {17, 3}} {
		enc, err := rs.New(s.k, s.m)
		require.NoError(t, err)
		kp := klauspost(t, s)
		for _, n := range []int{1, 2, 3, 4, 5, 17, 100, 1001} {
			for _, spare := range []int{0, 1, 7, 1000, 100000} {
				t.Run(fmt.Sprintf("%v/n%d/cap+%d", s, n, spare), func(t *testing.T) {
					data := randShards(rng, 1, n+spare)[0]
					ourData := append([]byte{}, data...)[:n]
					kpData := append([]byte{}, data...)[:n]
					got, err := enc.Split(ourData)
					require.NoError(t, err)
					want, err := kp.Split(kpData)
					require.NoError(t, err)
					require.Equal(t, want, got)
					require.Equal(t, kpData[:cap(kpData)], ourData[:cap(ourData)], "spare capacity treated differently")

					require.NoError(t, enc.Encode(got))
					var buf bytes.Buffer
					require.NoError(t, enc.Join(&buf, got, n))
					require.Equal(t, data[:n], buf.Bytes())
				})
			}
		}
	}
}

func TestJoinPartial(t *testing.T) {
	enc, err := rs.New(3, 1)
	require.NoError(t, err)
	shards := [][]byte{[]byte("abc"), []byte("def"), nil, nil}
	var buf bytes.Buffer
	require.NoError(t, enc.Join(&buf, shards, 5), "the nil shard lies past outSize")
	require.Equal(t, "abcde", buf.String())
	buf.Reset()
	require.NoError(t, enc.Join(&buf, shards, 0))
	require.Empty(t, buf.Bytes())
}

// TestDecodeIdxLikeKlauspost decodes progressively, shards arriving one
// per call in two halves merged at the end, and compares with klauspost.
func TestDecodeIdxLikeKlauspost(t *testing.T) {
	s := shape{5, 3}
	enc, orig := encoded(t, s, 70)
	expect := []bool{true, false, true, true, false, true, true, true} // shards 1, 4 lost
	for _, c := range []coder{enc, klauspost(t, s).(coder)} {
		halves := [2][][]byte{}
		for h := range halves {
			halves[h] = make([][]byte, s.k+s.m)
			halves[h][1], halves[h][4] = make([]byte, 70), make([]byte, 70)
		}
		for i, e := range expect {
			if !e {
				continue
			}
			input := make([][]byte, s.k+s.m)
			input[i] = orig[i]
			require.NoError(t, c.DecodeIdx(halves[i%2], expect, input))
		}
		require.NoError(t, c.DecodeIdx(halves[0], nil, halves[1]))
		require.Equal(t, orig[1], halves[0][1], "%T", c)
		require.Equal(t, orig[4], halves[0][4], "%T", c)
	}
}

func TestExtensions(t *testing.T) {
	enc, err := rs.New(6, 3)
	require.NoError(t, err)
	var ext reedsolomon.Extensions = enc
	require.Equal(t, 6, ext.DataShards())
	require.Equal(t, 3, ext.ParityShards())
	require.Equal(t, 9, ext.TotalShards())
	require.Equal(t, 1, ext.ShardSizeMultiple())
	shards := ext.AllocAligned(100)
	require.Len(t, shards, 9)
	for _, s := range shards {
		require.Len(t, s, 100)
	}
	require.Len(t, ext.AllocAligned(-5)[0], 0)
}
