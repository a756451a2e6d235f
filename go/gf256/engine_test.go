package gf256

import (
	"errors"
	"fmt"
	"sort"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kgen-gpu/kgen/go/cuda"
	"github.com/kgen-gpu/kgen/go/internal/kernels"
)

// These need no GPU: every case fails before anything reaches CUDA.

func TestNilArguments(t *testing.T) {
	_, err := New(nil)
	assert.ErrorContains(t, err, "nil *cuda.Device")
	var e *Engine
	assert.ErrorContains(t, e.MatMul(nil, nil, nil, nil, 0, false), "nil *Engine")
	assert.ErrorContains(t, e.Close(), "nil *Engine")
	_, err = e.Pick(4)
	assert.ErrorContains(t, err, "nil *Engine")
	assert.Nil(t, e.Instances())
}

func TestShapeErrors(t *testing.T) {
	e := &Engine{}
	one := []Shard{{}}
	for name, tc := range map[string]struct {
		coeffs  []byte
		in, out []Shard
		n       int
		msg     string
		shape   bool // wraps ErrShape
	}{
		"negative length":    {nil, nil, nil, -1, "shard length -1", true},
		"too many inputs":    {nil, make([]Shard, MaxShards+1), nil, 1, "257 inputs", true},
		"too many outputs":   {nil, one, make([]Shard, MaxShards+1), 1, "257 outputs", true},
		"outputs from none":  {nil, nil, one, 1, "1 outputs from no inputs", true},
		"coefficients short": {[]byte{1}, []Shard{{}, {}}, one, 1, "1 coefficients for 1 outputs x 2 inputs (want 2)", true},
		"coefficients long":  {[]byte{1, 2, 3}, one, one, 1, "3 coefficients", true},
		"nil input buffer":   {[]byte{1}, one, one, 1, "input shard 0: nil buffer", false},
		"freed input buffer": {[]byte{1, 1}, []Shard{{Buf: &cuda.Buffer{}}, {Buf: &cuda.Buffer{}}}, one, 1, "input shard 0: the buffer was freed", false},
		"destroyed stream":   {nil, nil, nil, 0, "stream was destroyed", false},
	} {
		t.Run(name, func(t *testing.T) {
			var s *cuda.Stream
			if name == "destroyed stream" {
				s = &cuda.Stream{}
			}
			err := e.validate(s, tc.coeffs, tc.in, tc.out, tc.n)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.msg)
			assert.Equal(t, tc.shape, errors.Is(err, ErrShape), "%v wraps ErrShape", err)
		})
	}
}

func TestOverlaps(t *testing.T) {
	b, c := &cuda.Buffer{}, &cuda.Buffer{}
	assert.True(t, overlaps(Shard{b, 0}, Shard{b, 9}, 10))
	assert.False(t, overlaps(Shard{b, 0}, Shard{b, 10}, 10))
	assert.False(t, overlaps(Shard{b, 0}, Shard{c, 0}, 10))
	assert.False(t, overlaps(Shard{b, 0}, Shard{b, 0}, 0), "empty shards share no byte")
}

func gfKernel(s kernels.GF256Strategy, bytes, threads, rows int) kernels.GF256 {
	k := kernels.GF256{Config: kernels.GF256Config{Strategy: s, BytesPerThread: bytes, RowsPerBlock: rows}}
	k.Name, k.Threads = fmt.Sprintf("%v_v%d_t%d_r%d", s, bytes, threads, rows), threads
	return k
}

func gfRing(s kernels.GF256Strategy, bytes, threads, rows, stages int) kernels.GF256 {
	k := gfKernel(s, bytes, threads, rows)
	k.Config.Stages = stages
	k.Name += fmt.Sprintf("_s%d", stages)
	return k
}

func TestRankPrefersFastStrategies(t *testing.T) {
	k := gfKernel
	assert.Less(t, rank(k(kernels.GFNibble, 16, 256, 8)), rank(k(kernels.GFXorShift, 16, 512, 4)), "measured fastest on the H100")
	assert.Less(t, rank(k(kernels.GFXorShift, 16, 256, 4)), rank(k(kernels.GFXorShift, 4, 256, 4)))
	assert.Less(t, rank(k(kernels.GFNibble, 16, 512, 4)), rank(k(kernels.GFNibble, 16, 256, 4)), "512 threads measured best")
	assert.Less(t, rank(gfRing(kernels.GFNibble, 16, 512, 4, 3)), rank(k(kernels.GFNibble, 16, 512, 4)), "the input ring measured faster")
	assert.Equal(t, rank(gfRing(kernels.GFNibble, 16, 512, 4, 3))/4, rank(k(kernels.GFNibble, 16, 256, 8))/4,
		"a ring and the register pipeline compete on rows per block")
	assert.Less(t, rank(k(kernels.GFTable, 4, 256, 1)), rank(k(kernels.GFNaiveLogExp, 4, 256, 16)), "reference kernels come last")
}

func TestPickFitsRowsPerBlock(t *testing.T) {
	ks := []kernels.GF256{
		gfKernel(kernels.GFNibble, 16, 256, 8), gfKernel(kernels.GFNibble, 16, 512, 4),
		gfKernel(kernels.GFNibble, 16, 256, 4), gfKernel(kernels.GFNibble, 16, 512, 8),
		gfKernel(kernels.GFNibble, 8, 256, 2), gfKernel(kernels.GFXorShift, 16, 512, 1),
	}
	sort.SliceStable(ks, func(i, j int) bool { return rank(ks[i]) < rank(ks[j]) })
	for rows, want := range map[int]string{
		1: "nibble_v16_t512_r4", 3: "nibble_v16_t512_r4", 4: "nibble_v16_t512_r4", 5: "nibble_v16_t512_r8",
		8: "nibble_v16_t512_r8", 9: "nibble_v16_t512_r8", 200: "nibble_v16_t512_r8",
	} {
		assert.Equal(t, want, pick(ks, rows).Name, "%d rows", rows)
	}
	// With a 4-row ring among them, it takes the products of up to 4 rows.
	withRing := append([]kernels.GF256{gfRing(kernels.GFNibble, 16, 512, 4, 3)}, ks...)
	sort.SliceStable(withRing, func(i, j int) bool { return rank(withRing[i]) < rank(withRing[j]) })
	for rows, want := range map[int]string{2: "nibble_v16_t512_r4_s3", 4: "nibble_v16_t512_r4_s3", 8: "nibble_v16_t512_r8"} {
		assert.Equal(t, want, pick(withRing, rows).Name, "%d rows", rows)
	}
	// Pick answers what choose runs, and refuses an empty product.
	e := &Engine{kernels: ks}
	for _, rows := range []int{1, 4, 8} {
		got, err := e.Pick(rows)
		assert.NoError(t, err)
		assert.Equal(t, pick(ks, rows).Name, got, "%d rows", rows)
	}
	_, err := e.Pick(0)
	assert.ErrorContains(t, err, "0 output rows")
	// Narrower or slower kernels never win on rows alone.
	assert.Equal(t, "xorshift_v16_t512_r1", pick(ks[len(ks)-1:], 1).Name)
}

func TestStagingLayout(t *testing.T) {
	// Three inputs and two outputs: 5 pointers, then 6 coefficients.
	sl := &slot{}
	assert.Equal(t, 8*5+6, sl.size(3, 2))
	assert.LessOrEqual(t, sl.size(MaxShards, MaxShards), slotBytes)
}
