package rs_test

import (
	"fmt"
	"testing"

	"github.com/klauspost/reedsolomon"
	"github.com/stretchr/testify/require"

	"github.com/kgen-gpu/kgen/go/rs"
)

// matrixOption pairs one of our matrix options with klauspost's.
type matrixOption struct {
	name string
	ours []rs.Option
	kp   []reedsolomon.Option
}

var matrixOptions = []matrixOption{
	{"default", nil, nil},
	{"cauchy", []rs.Option{rs.WithCauchyMatrix()}, []reedsolomon.Option{reedsolomon.WithCauchyMatrix()}},
}

var identityShapes = []shape{{1, 1}, {4, 2}, {10, 4}, {17, 3}, {32, 8}, {200, 56}}

// TestParityIdenticalToKlauspost is the drop-in promise: our parity bytes
// are klauspost's, for every shape and length, so either library can
// verify and repair shards the other wrote.
func TestParityIdenticalToKlauspost(t *testing.T) {
	lengths := []int{1, 3, 15, 4097}
	bigShapes := map[shape]bool{{4, 2}: true, {10, 4}: true, {17, 3}: true}
	for _, mo := range matrixOptions {
		for _, s := range identityShapes {
			ours, err := rs.New(s.k, s.m, mo.ours...)
			require.NoError(t, err)
			kp := klauspost(t, s, mo.kp...)
			ls := lengths
			if bigShapes[s] && !testing.Short() {
				ls = append(ls, 1<<20+3)
			}
			for _, n := range ls {
				t.Run(fmt.Sprintf("%s/%v/n%d", mo.name, s, n), func(t *testing.T) {
					checkSameParity(t, ours, kp, s, n)
				})
			}
		}
	}
}

// TestOtherMatricesIdenticalToKlauspost covers the remaining matrix options
// on fewer shapes: they share all code but the matrix builder.
func TestOtherMatricesIdenticalToKlauspost(t *testing.T) {
	custom := [][]byte{{1, 2, 3, 4, 5}, {7, 0, 9, 250, 1}, {3, 3, 3, 3, 3}}
	cases := []struct {
		matrixOption
		s shape
	}{
		{matrixOption{"par1", []rs.Option{rs.WithPAR1Matrix()}, []reedsolomon.Option{reedsolomon.WithPAR1Matrix()}}, shape{10, 4}},
		{matrixOption{"fastOneParity", []rs.Option{rs.WithFastOneParityMatrix()}, []reedsolomon.Option{reedsolomon.WithFastOneParityMatrix()}}, shape{7, 1}},
		{matrixOption{"fastOneParityIgnoredForM2", []rs.Option{rs.WithFastOneParityMatrix()}, []reedsolomon.Option{reedsolomon.WithFastOneParityMatrix()}}, shape{7, 2}},
		{matrixOption{"custom", []rs.Option{rs.WithCustomMatrix(custom)}, []reedsolomon.Option{reedsolomon.WithCustomMatrix(custom)}}, shape{5, 3}},
		{matrixOption{"customWider", []rs.Option{rs.WithCustomMatrix(custom)}, []reedsolomon.Option{reedsolomon.WithCustomMatrix(custom)}}, shape{4, 2}},
		{matrixOption{"customBeatsCauchy", []rs.Option{rs.WithCauchyMatrix(), rs.WithCustomMatrix(custom)}, []reedsolomon.Option{reedsolomon.WithCauchyMatrix(), reedsolomon.WithCustomMatrix(custom)}}, shape{5, 2}},
		{matrixOption{"lastMatrixOptionWins", []rs.Option{rs.WithCauchyMatrix(), rs.WithPAR1Matrix()}, []reedsolomon.Option{reedsolomon.WithCauchyMatrix(), reedsolomon.WithPAR1Matrix()}}, shape{6, 3}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ours, err := rs.New(c.s.k, c.s.m, c.ours...)
			require.NoError(t, err)
			kp := klauspost(t, c.s, c.kp...)
			for _, n := range []int{1, 63, 4097} {
				checkSameParity(t, ours, kp, c.s, n)
			}
		})
	}
}

func checkSameParity(t *testing.T, ours *rs.Encoder, kp reedsolomon.Encoder, s shape, n int) {
	t.Helper()
	rng := newRNG(t)
	want := randShards(rng, s.k+s.m, n)
	got := clone(want)
	require.NoError(t, kp.Encode(want))
	require.NoError(t, ours.Encode(got))
	for i := s.k; i < s.k+s.m; i++ {
		if string(got[i]) != string(want[i]) {
			t.Fatalf("%v n=%d: parity shard %d differs from klauspost's", s, n, i)
		}
	}
	ok, err := kp.Verify(got)
	require.NoError(t, err)
	require.True(t, ok, "klauspost rejects our parity")
}
