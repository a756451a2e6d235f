package rs_test

import (
	"bytes"
	"errors"
	"testing"

	"github.com/klauspost/reedsolomon"
	"github.com/stretchr/testify/require"

	"github.com/kgen-gpu/kgen/go/rs"
)

// sentinels are klauspost's error values a caller may test for.
var sentinels = []error{
	reedsolomon.ErrTooFewShards, reedsolomon.ErrShardNoData, reedsolomon.ErrShardSize,
	reedsolomon.ErrInvalidShardSize, reedsolomon.ErrInvShardNum, reedsolomon.ErrMaxShardNum,
	reedsolomon.ErrInvalidInput, reedsolomon.ErrShortData, reedsolomon.ErrReconstructRequired,
}

// sentinelOf is the klauspost sentinel err matches, nil if none.
func sentinelOf(err error) error {
	for _, s := range sentinels {
		if errors.Is(err, s) {
			return s
		}
	}
	return nil
}

// coder is what both libraries' encoders implement, so one function can
// drive either.
type coder interface {
	reedsolomon.Encoder
	reedsolomon.Extensions
}

// call runs one operation on either encoder.
type call func(enc coder, shards [][]byte) error

func shardsOf(lens ...int) [][]byte {
	s := make([][]byte, len(lens))
	for i, n := range lens {
		if n >= 0 { // -1 stands for nil
			s[i] = make([]byte, n)
		}
	}
	return s
}

func TestErrorsMatchKlauspost(t *testing.T) {
	encode := func(e coder, s [][]byte) error { return e.Encode(s) }
	verify := func(e coder, s [][]byte) error { _, err := e.Verify(s); return err }
	cases := []struct {
		name   string
		s      shape
		shards [][]byte
		op     call
	}{
		{"encode/zeroLength", shape{4, 2}, shardsOf(0, 0, 0, 0, 0, 0), encode},
		{"encode/allNil", shape{4, 2}, shardsOf(-1, -1, -1, -1, -1, -1), encode},
		{"encode/tooFew", shape{4, 2}, shardsOf(8, 8, 8, 8, 8), encode},
		{"encode/tooMany", shape{4, 2}, shardsOf(8, 8, 8, 8, 8, 8, 8), encode},
		{"encode/sizesDiffer", shape{4, 2}, shardsOf(8, 8, 9, 8, 8, 8), encode},
		{"encode/nilData", shape{4, 2}, shardsOf(8, -1, 8, 8, 8, 8), encode},
		{"encode/shortParity", shape{4, 2}, shardsOf(8, 8, 8, 8, 8, 0), encode},
		{"encode/noParityZero", shape{3, 0}, shardsOf(0, 0, 0), encode},
		{"verify/zeroLength", shape{4, 2}, shardsOf(0, 0, 0, 0, 0, 0), verify},
		{"verify/tooFew", shape{4, 2}, shardsOf(8, 8, 8), verify},
		{"verify/sizesDiffer", shape{4, 2}, shardsOf(8, 8, 8, 8, 8, 7), verify},
		{"reconstruct/tooFewPresent", shape{4, 2}, shardsOf(8, -1, -1, 8, 8, -1), func(e coder, s [][]byte) error { return e.Reconstruct(s) }},
		{"reconstruct/wrongCount", shape{4, 2}, shardsOf(8, 8, 8, 8, 8), func(e coder, s [][]byte) error { return e.Reconstruct(s) }},
		{"reconstruct/allMissing", shape{4, 2}, shardsOf(-1, 0, -1, -1, -1, -1), func(e coder, s [][]byte) error { return e.Reconstruct(s) }},
		{"reconstruct/sizesDiffer", shape{4, 2}, shardsOf(8, -1, 8, 5, 8, 8), func(e coder, s [][]byte) error { return e.Reconstruct(s) }},
		{"reconstructData/tooFewPresent", shape{4, 2}, shardsOf(-1, -1, -1, 8, 8, 8), func(e coder, s [][]byte) error { return e.ReconstructData(s) }},
		{"reconstructSome/requiredLength", shape{4, 2}, shardsOf(8, -1, 8, 8, 8, 8), func(e coder, s [][]byte) error { return e.ReconstructSome(s, make([]bool, 5)) }},
		{"reconstructSome/tooFewPresent", shape{4, 2}, shardsOf(8, -1, -1, -1, 8, 8), func(e coder, s [][]byte) error {
			return e.ReconstructSome(s, []bool{false, true, false, false})
		}},
		{"encodeIdx/parityCount", shape{4, 2}, shardsOf(8, 8, 8, 8), func(e coder, s [][]byte) error { return e.EncodeIdx(s[0], 0, s[1:]) }},
		{"encodeIdx/negativeIdx", shape{4, 2}, shardsOf(8, 8, 8), func(e coder, s [][]byte) error { return e.EncodeIdx(s[0], -1, s[1:3]) }},
		{"encodeIdx/idxTooBig", shape{4, 2}, shardsOf(8, 8, 8), func(e coder, s [][]byte) error { return e.EncodeIdx(s[0], 4, s[1:3]) }},
		{"encodeIdx/dataSize", shape{4, 2}, shardsOf(7, 8, 8), func(e coder, s [][]byte) error { return e.EncodeIdx(s[0], 1, s[1:3]) }},
		{"encodeIdx/paritySizes", shape{4, 2}, shardsOf(8, 8, 9), func(e coder, s [][]byte) error { return e.EncodeIdx(s[0], 1, s[1:3]) }},
		{"encodeIdx/parityEmpty", shape{4, 2}, shardsOf(8, 0, 0), func(e coder, s [][]byte) error { return e.EncodeIdx(s[0], 1, s[1:3]) }},
		{"update/wrongCount", shape{4, 2}, shardsOf(8, 8, 8, 8, 8), func(e coder, s [][]byte) error { return e.Update(s, shardsOf(8, -1, -1, -1)) }},
		{"update/newCount", shape{4, 2}, shardsOf(8, 8, 8, 8, 8, 8), func(e coder, s [][]byte) error { return e.Update(s, shardsOf(8, -1, -1)) }},
		{"update/noNewData", shape{4, 2}, shardsOf(8, 8, 8, 8, 8, 8), func(e coder, s [][]byte) error { return e.Update(s, shardsOf(-1, -1, -1, -1)) }},
		{"update/newSize", shape{4, 2}, shardsOf(8, 8, 8, 8, 8, 8), func(e coder, s [][]byte) error { return e.Update(s, shardsOf(8, 9, -1, -1)) }},
		{"update/oldMissing", shape{4, 2}, shardsOf(8, -1, 8, 8, 8, 8), func(e coder, s [][]byte) error { return e.Update(s, shardsOf(-1, 8, -1, -1)) }},
		{"update/parityMissing", shape{4, 2}, shardsOf(8, 8, 8, 8, 8, -1), func(e coder, s [][]byte) error { return e.Update(s, shardsOf(8, -1, -1, -1)) }},
		{"split/empty", shape{4, 2}, nil, func(e coder, s [][]byte) error { _, err := e.Split(nil); return err }},
		{"join/tooFew", shape{4, 2}, shardsOf(8, 8, 8), func(e coder, s [][]byte) error { return e.Join(&bytes.Buffer{}, s, 4) }},
		{"join/nilShard", shape{4, 2}, shardsOf(8, -1, 8, 8), func(e coder, s [][]byte) error { return e.Join(&bytes.Buffer{}, s, 20) }},
		{"join/short", shape{4, 2}, shardsOf(8, 8, 8, 8), func(e coder, s [][]byte) error { return e.Join(&bytes.Buffer{}, s, 33) }},
		{"decodeIdx/expectLength", shape{4, 2}, shardsOf(-1, -1, -1, -1, -1, -1), func(e coder, s [][]byte) error { return e.DecodeIdx(s, make([]bool, 5), s) }},
		{"decodeIdx/tooFewExpected", shape{4, 2}, shardsOf(-1, -1, -1, -1, -1, -1), func(e coder, s [][]byte) error {
			return e.DecodeIdx(make([][]byte, 6), []bool{true, true, false, true, false, false}, s)
		}},
		{"decodeIdx/unexpectedInput", shape{4, 2}, shardsOf(8, -1, -1, -1, -1, -1), func(e coder, s [][]byte) error {
			return e.DecodeIdx(make([][]byte, 6), []bool{false, true, true, true, true, false}, s)
		}},
		{"decodeIdx/dstForInput", shape{4, 2}, shardsOf(8, -1, -1, -1, -1, -1), func(e coder, s [][]byte) error {
			return e.DecodeIdx(shardsOf(-1, 8, -1, -1, -1, -1), []bool{true, true, true, true, false, false}, s)
		}},
		{"decodeIdx/dstSize", shape{4, 2}, shardsOf(8, -1, -1, -1, -1, -1), func(e coder, s [][]byte) error {
			return e.DecodeIdx(shardsOf(-1, -1, -1, -1, 7, -1), []bool{true, true, true, true, false, false}, s)
		}},
		{"decodeIdx/mergeLength", shape{4, 2}, shardsOf(8, 8), func(e coder, s [][]byte) error { return e.DecodeIdx(shardsOf(8), nil, s) }},
		{"decodeIdx/mergeNilDst", shape{4, 2}, shardsOf(8, 8), func(e coder, s [][]byte) error { return e.DecodeIdx(shardsOf(8, -1), nil, s) }},
		{"decodeIdx/mergeSize", shape{4, 2}, shardsOf(8, 8), func(e coder, s [][]byte) error { return e.DecodeIdx(shardsOf(8, 9), nil, s) }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ours, err := rs.New(c.s.k, c.s.m)
			require.NoError(t, err)
			kpErr := c.op(klauspost(t, c.s).(coder), clone(c.shards))
			ourErr := c.op(ours, clone(c.shards))
			want := sentinelOf(kpErr)
			require.NotNil(t, want, "klauspost returned %v, not one of its sentinels", kpErr)
			require.ErrorIs(t, ourErr, want, "klauspost: %v", kpErr)
		})
	}
}

func TestNewErrorsMatchKlauspost(t *testing.T) {
	for _, s := range []shape{{0, 1}, {-1, 2}, {3, -1}, {0, 0}, {60000, 6000}, {1 << 62, 1 << 62}} {
		t.Run(s.String(), func(t *testing.T) {
			_, kpErr := reedsolomon.New(s.k, s.m)
			_, ourErr := rs.New(s.k, s.m)
			want := sentinelOf(kpErr)
			require.NotNil(t, want, "klauspost returned %v", kpErr)
			require.ErrorIs(t, ourErr, want)
		})
	}
}

// Between 257 and 65536 shards klauspost switches to Leopard GF(2^16);
// this package refuses with ErrMaxShardNum instead of silently writing a
// different code.
func TestNewMoreThan256Shards(t *testing.T) {
	for _, s := range []shape{{200, 57}, {257, 0}, {1, 256}, {300, 10}} {
		_, err := rs.New(s.k, s.m)
		require.ErrorIs(t, err, rs.ErrMaxShardNum, "%v", s)
		require.Contains(t, err.Error(), "256")
	}
	_, err := rs.New(200, 56)
	require.NoError(t, err)
}

func TestNewOptionErrors(t *testing.T) {
	_, err := rs.New(4, 2, rs.WithCustomMatrix([][]byte{{1, 2, 3, 4}}))
	require.ErrorIs(t, err, rs.ErrInvalidMatrix)
	_, err = rs.New(4, 2, rs.WithCustomMatrix([][]byte{{1, 2, 3, 4}, {1, 2, 3}}))
	require.ErrorIs(t, err, rs.ErrInvalidMatrix)
	_, err = rs.New(4, 2, rs.WithMinGPUBytes(-1))
	require.ErrorIs(t, err, rs.ErrInvalidOption)
	_, err = rs.New(4, 2, rs.WithCPURate(-3))
	require.ErrorIs(t, err, rs.ErrInvalidOption)
	_, err = rs.New(4, 2, rs.WithGPU(rs.GPUMode(7)))
	require.ErrorIs(t, err, rs.ErrInvalidOption)
}

func TestJoinNegativeSize(t *testing.T) {
	enc, err := rs.New(2, 1)
	require.NoError(t, err)
	require.ErrorIs(t, enc.Join(&bytes.Buffer{}, shardsOf(4, 4, 4), -1), rs.ErrInvalidInput)
}
