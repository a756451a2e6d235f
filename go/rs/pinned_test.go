package rs

import (
	"errors"
	"math"
	"math/rand/v2"
	"sync/atomic"
	"testing"
	"unsafe"

	"github.com/klauspost/reedsolomon"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kgen-gpu/kgen/go/cuda"
)

// fakePin records mem as pinned memory of a buffer of its own (no GPU
// needed: the registry only compares addresses) until the test ends.
func fakePin(t *testing.T, mem []byte) *cuda.HostBuffer {
	t.Helper()
	buf := &cuda.HostBuffer{}
	start := uintptr(unsafe.Pointer(unsafe.SliceData(mem)))
	pinned.mu.Lock()
	pinned.spans = append(pinned.spans, pinnedSpan{start: start, end: start + uintptr(len(mem)), buf: buf})
	for i := len(pinned.spans) - 1; i > 0 && pinned.spans[i].start < pinned.spans[i-1].start; i-- {
		pinned.spans[i], pinned.spans[i-1] = pinned.spans[i-1], pinned.spans[i]
	}
	pinned.mu.Unlock()
	t.Cleanup(func() { pinned.remove(buf) })
	return buf
}

func TestPinnedSetFindsWholeRangesOnly(t *testing.T) {
	big := make([]byte, 3000)
	a, b := big[0:1000], big[2000:2500] // two spans with a gap between
	bufA, bufB := fakePin(t, a), fakePin(t, b)
	for name, tc := range map[string]struct {
		s   []byte
		buf *cuda.HostBuffer
		off int
	}{
		"start of a":      {big[0:10], bufA, 0},
		"inside a":        {big[10:20], bufA, 10},
		"end of a":        {big[990:1000], bufA, 990},
		"one byte of b":   {big[2499:2500], bufB, 499},
		"past a's end":    {big[990:1001], nil, 0},
		"in the gap":      {big[1500:1600], nil, 0},
		"gap into b":      {big[1999:2010], nil, 0},
		"past b":          {big[2500:2600], nil, 0},
		"empty":           {big[5:5], nil, 0},
		"other memory":    {make([]byte, 10), nil, 0},
		"across a to gap": {big[500:1500], nil, 0},
	} {
		t.Run(name, func(t *testing.T) {
			buf, off, ok := pinned.at(tc.s)
			assert.Equal(t, tc.buf != nil, ok)
			if ok {
				assert.Same(t, tc.buf, buf)
				assert.Equal(t, tc.off, off)
			}
		})
	}
	pinned.remove(bufA)
	_, _, ok := pinned.at(big[10:20])
	assert.False(t, ok, "a freed buffer's memory is not pinned any more")
}

func TestAllocPinnedShapes(t *testing.T) {
	for _, c := range []struct{ shards, each int }{{14, 1000}, {3, 1}, {1, 0}, {0, 5}, {-1, -1}, {2, 4097}} {
		p, err := AllocPinned(c.shards, c.each)
		require.NoError(t, err)
		require.Len(t, p.Shards, max(c.shards, 0))
		for i, s := range p.Shards {
			assert.Len(t, s, max(c.each, 0), "shard %d", i)
			assert.Equal(t, len(s), cap(s), "shard %d cannot grow into the next", i)
			if len(s) > 0 {
				assert.Zero(t, uintptr(unsafe.Pointer(unsafe.SliceData(s)))%64, "shard %d is 64-byte aligned", i)
				s[0], s[len(s)-1] = 1, 2 // writable end to end
			}
		}
		require.NoError(t, p.Free())
		assert.Nil(t, p.Shards)
	}
	var p *PinnedShards
	assert.Error(t, p.Free())
}

// directGPU is a fake direct backend: the reference product, with the
// throughput the registry grants to shards it holds.
type directGPU struct {
	calls atomic.Int64
}

func (g *directGPU) MatMul(coeffs []byte, rows, k int, in, out [][]byte, accumulate bool) error {
	g.calls.Add(1)
	if len(in[0])%64 != 0 {
		return errors.New("directGPU: range not a multiple of 64 bytes")
	}
	MatMulRef(coeffs, rows, k, in, out, accumulate)
	return nil
}

func (g *directGPU) directRate(in, out [][]byte) (float64, bool) {
	if allPinned(in) && allPinned(out) {
		return 4e9, true
	}
	return 0, false
}

func TestThresholdsFollowTheKindOfMemory(t *testing.T) {
	const k, m, n = 10, 4, 1 << 20 // 10 MiB of data: below the pinned default
	rng := rand.New(rand.NewPCG(7, 7))
	mem := make([]byte, (k+m)*n)
	for i := range mem {
		mem[i] = byte(rng.Uint32())
	}
	shards := make([][]byte, k+m)
	for i := range shards {
		shards[i] = mem[i*n : (i+1)*n : (i+1)*n]
	}
	ref, err := reedsolomon.New(k, m)
	require.NoError(t, err)
	want := make([][]byte, k+m)
	for i := range want {
		want[i] = append([]byte{}, shards[i]...)
	}
	require.NoError(t, ref.Encode(want))

	for name, tc := range map[string]struct {
		pin  bool
		opts []Option
		gpu  bool
	}{
		"ordinary memory stays on the CPU":   {false, nil, false},
		"pinned below the default threshold": {true, nil, false},
		"pinned above its threshold splits":  {true, []Option{WithMinGPUBytes(1 << 20), WithMinGPUBytesStaged(math.MaxInt)}, true},
		"ordinary, the same thresholds":      {false, []Option{WithMinGPUBytes(1 << 20), WithMinGPUBytesStaged(math.MaxInt)}, false},
		"WithMinGPUBytes splits both":        {false, []Option{WithMinGPUBytes(0)}, true},
		"WithMinGPUBytesStaged alone":        {false, []Option{WithMinGPUBytesStaged(1 << 20)}, true},
		"pinned below WithMinGPUBytes":       {true, []Option{WithMinGPUBytes(100 << 20)}, false},
		"staged threshold after the other":   {false, []Option{WithMinGPUBytes(0), WithMinGPUBytesStaged(100 << 20)}, false},
	} {
		t.Run(name, func(t *testing.T) {
			if tc.pin {
				fakePin(t, mem)
			}
			g := &directGPU{}
			enc, err := New(k, m, append([]Option{withGPUBackend(g, 2e9), WithCPURate(1e9)}, tc.opts...)...)
			require.NoError(t, err)
			for r := k; r < k+m; r++ {
				for i := range shards[r] {
					shards[r][i] = byte(rng.Uint32()) // poison
				}
			}
			require.NoError(t, enc.Encode(shards))
			assert.Equal(t, want, shards)
			assert.Equal(t, tc.gpu, g.calls.Load() > 0)
			assert.Equal(t, tc.gpu, enc.LastBackends().GPU())
		})
	}
	_, err = New(k, m, WithMinGPUBytesStaged(-1))
	assert.ErrorIs(t, err, ErrInvalidOption)
}
