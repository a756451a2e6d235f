package rs_test

import (
	"errors"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kgen-gpu/kgen/go/rs"
)

// refGPU is a fake device: the reference product on the CPU. It records
// how many bytes per shard it was given, so tests can see the split.
type refGPU struct {
	calls, bytes atomic.Int64
	closed       atomic.Bool
}

func (g *refGPU) MatMul(coeffs []byte, rows, k int, in, out [][]byte, accumulate bool) error {
	g.calls.Add(1)
	g.bytes.Add(int64(len(in[0])))
	if len(in[0])%64 != 0 {
		return errors.New("refGPU: range not a multiple of 64 bytes")
	}
	rs.MatMulRef(coeffs, rows, k, in, out, accumulate)
	return nil
}

func (g *refGPU) Close() error { g.closed.Store(true); return nil }

// brokenGPU scribbles over its outputs and then fails, the worst a real
// device can do; or panics, as buggy glue might.
type brokenGPU struct{ panics bool }

var errDevice = errors.New("fake device lost")

func (g brokenGPU) MatMul(coeffs []byte, rows, k int, in, out [][]byte, accumulate bool) error {
	for _, o := range out[:rows] {
		for i := range o {
			o[i] = 0xa5
		}
	}
	if g.panics {
		panic("fake glue bug")
	}
	return errDevice
}

// splitOpts sends every product of 64 KiB or more through the split, with
// the GPU twice the CPU's speed so both get a share.
func splitOpts(g rs.MatMuler) []rs.Option {
	return []rs.Option{rs.WithGPUBackend(g, 2e9), rs.WithCPURate(1e9), rs.WithMinGPUBytes(64 << 10)}
}

func TestSplitEncodeMatchesKlauspost(t *testing.T) {
	s := shape{10, 4}
	for _, n := range []int{64 << 10, 100003} { // aligned, and a ragged CPU tail
		g := &refGPU{}
		enc, err := rs.New(s.k, s.m, splitOpts(g)...)
		require.NoError(t, err)
		on, why := enc.UsesGPU()
		require.True(t, on)
		require.NoError(t, why)
		checkSameParity(t, enc, klauspost(t, s), s, n)

		b := enc.LastBackends()
		require.True(t, b.GPU() && b.CPU(), "%+v", b)
		require.NoError(t, b.GPUErr)
		require.Equal(t, int64(s.k*n), b.CPUBytes+b.GPUBytes)
		require.Equal(t, int64(s.k)*g.bytes.Load(), b.GPUBytes)
		require.Equal(t, rs.GPUShare(n, 2e9, 1e9), int(g.bytes.Load()))
		require.Positive(t, b.GPUTime, "the GPU side's time of a split product")
		require.Positive(t, b.CPUTime, "the CPU side's time of a split product")
	}
}

// Every operation goes through the split; each must still be right.
func TestSplitAllOperations(t *testing.T) {
	s := shape{6, 3}
	n := 50000
	g := &refGPU{}
	enc, err := rs.New(s.k, s.m, append(splitOpts(g), rs.WithMinGPUBytes(0))...)
	require.NoError(t, err)
	cpuOnly, orig := encoded(t, s, n)
	checkOps(t, enc, cpuOnly, s, orig)
	require.Positive(t, g.calls.Load())
	require.True(t, enc.LastBackends().GPU())
}

// A failing device must not change any result: its range is redone on the
// CPU, including for the accumulating operations (Update, EncodeIdx).
func TestSplitGPUFailureFallsBack(t *testing.T) {
	s := shape{6, 3}
	n := 50000
	for _, g := range []brokenGPU{{}, {panics: true}} {
		enc, err := rs.New(s.k, s.m, append(splitOpts(g), rs.WithMinGPUBytes(0))...)
		require.NoError(t, err)
		cpuOnly, orig := encoded(t, s, n)
		checkOps(t, enc, cpuOnly, s, orig)
		b := enc.LastBackends()
		require.False(t, b.GPU())
		require.Error(t, b.GPUErr)
		if !g.panics {
			require.ErrorIs(t, b.GPUErr, errDevice)
		}
		require.Positive(t, b.CPUBytes)
	}
}

// checkOps runs Encode, Verify, Reconstruct, Update and EncodeIdx on enc
// and compares with the CPU-only encoder want.
func checkOps(t *testing.T, enc, want *rs.Encoder, s shape, orig [][]byte) {
	t.Helper()
	got := clone(orig)
	for i := s.k; i < len(got); i++ {
		clear(got[i])
	}
	require.NoError(t, enc.Encode(got))
	require.Equal(t, orig, got, "Encode")
	ok, err := enc.Verify(got)
	require.NoError(t, err)
	require.True(t, ok, "Verify")

	lost := lose(orig, 0b100010001) // data 0, 4 and parity 8
	require.NoError(t, enc.Reconstruct(lost))
	require.Equal(t, orig, lost, "Reconstruct")

	newData := make([][]byte, s.k)
	newData[2] = randShards(newRNG(t), 1, len(orig[0]))[0]
	viaUpdate, viaWant := clone(orig), clone(orig)
	require.NoError(t, enc.Update(viaUpdate, newData))
	require.NoError(t, want.Update(viaWant, newData))
	require.Equal(t, viaWant, viaUpdate, "Update")

	parity := make([][]byte, s.m)
	for i := range parity {
		parity[i] = make([]byte, len(orig[0]))
	}
	for i := range s.k {
		require.NoError(t, enc.EncodeIdx(orig[i], i, parity))
	}
	require.Equal(t, orig[s.k:], parity, "EncodeIdx")
}

func TestSmallCallsStayOnCPU(t *testing.T) {
	g := &refGPU{}
	enc, err := rs.New(4, 2, rs.WithGPUBackend(g, 1e12), rs.WithCPURate(1e9)) // default threshold 4 MiB
	require.NoError(t, err)
	shards := randShards(newRNG(t), 6, 4096)
	require.NoError(t, enc.Encode(shards))
	require.Zero(t, g.calls.Load())
	require.Equal(t, rs.Backends{CPUBytes: 4 * 4096}, enc.LastBackends())
}

func TestGPUShare(t *testing.T) {
	for _, n := range []int{0, 1, 63, 64, 65, 1000, 1 << 20, 1<<20 + 3} {
		for _, ratio := range []float64{0.001, 0.5, 1, 3, 1e6} {
			g := rs.GPUShare(n, ratio, 1)
			require.Zero(t, g%64, "n=%d ratio=%v", n, ratio)
			require.True(t, g >= 0 && g <= n, "n=%d ratio=%v: %d", n, ratio, g)
		}
	}
	require.Equal(t, 1<<19, rs.GPUShare(1<<20, 1, 1))
}

func TestGPUConstructorHook(t *testing.T) {
	g := &refGPU{}
	var gotK, gotM int
	defer rs.SetGPUConstructor(func(k, m int) (rs.MatMuler, float64, error) {
		gotK, gotM = k, m
		return g, 5e9, nil
	})()
	enc, err := rs.New(8, 3, rs.WithMinGPUBytes(0))
	require.NoError(t, err)
	require.Equal(t, []int{8, 3}, []int{gotK, gotM})
	on, _ := enc.UsesGPU()
	require.True(t, on)
	require.NoError(t, enc.Encode(randShards(newRNG(t), 11, 1<<16)))
	require.True(t, enc.LastBackends().GPU(), "%+v", enc.LastBackends())

	require.NoError(t, enc.Close())
	require.True(t, g.closed.Load())
	on, _ = enc.UsesGPU()
	require.False(t, on)
	require.NoError(t, enc.Encode(randShards(newRNG(t), 11, 1<<16)), "usable on the CPU after Close")
	require.False(t, enc.LastBackends().GPU())

	off, err := rs.New(8, 3, rs.WithGPU(rs.GPUOff))
	require.NoError(t, err)
	on, _ = off.UsesGPU()
	require.False(t, on)
}

func TestGPUUnavailable(t *testing.T) {
	defer rs.SetGPUConstructor(nil)()
	enc, err := rs.New(4, 2)
	require.NoError(t, err)
	on, why := enc.UsesGPU()
	require.False(t, on)
	require.NoError(t, why, "no backend registered is not an error in auto mode")
	_, err = rs.New(4, 2, rs.WithGPU(rs.GPURequired))
	require.ErrorIs(t, err, rs.ErrNoGPU)

	rs.SetGPUConstructor(func(int, int) (rs.MatMuler, float64, error) { return nil, 0, errDevice })
	enc, err = rs.New(4, 2)
	require.NoError(t, err)
	on, why = enc.UsesGPU()
	require.False(t, on)
	require.ErrorIs(t, why, errDevice)
	_, err = rs.New(4, 2, rs.WithGPU(rs.GPURequired))
	require.ErrorIs(t, err, rs.ErrNoGPU)
	require.ErrorIs(t, err, errDevice)

	_, err = rs.New(4, 2, rs.WithGPUBackend(&refGPU{}, -1), rs.WithGPU(rs.GPURequired))
	require.ErrorIs(t, err, rs.ErrNoGPU, "a backend with no usable rate is refused")
}

// Without WithCPURate, New measures the CPU when a GPU is attached; the
// split must then still be valid.
func TestMeasuredCPURate(t *testing.T) {
	g := &refGPU{}
	s := shape{4, 2}
	enc, err := rs.New(s.k, s.m, rs.WithGPUBackend(g, 1e15), rs.WithMinGPUBytes(0))
	require.NoError(t, err)
	checkSameParity(t, enc, klauspost(t, s), s, 1<<16)
	require.True(t, enc.LastBackends().GPU(), "a GPU 1e15 B/s fast gets a share")
}

// TestSplitLearnsTheRates: after a split product the Encoder sizes the
// next one by the rates its two parts ran at, not by the priors.
func TestSplitLearnsTheRates(t *testing.T) {
	s, n := shape{10, 4}, 1<<20
	g := &refGPU{}
	enc, err := rs.New(s.k, s.m, splitOpts(g)...)
	require.NoError(t, err)
	rs.CountEverySample(enc)
	checkSameParity(t, enc, klauspost(t, s), s, n)
	require.Equal(t, int64(rs.GPUShare(n, 2e9, 1e9)), g.bytes.Load(), "the first split follows the priors")
	gpu, cpu := rs.SeenRates(enc)
	require.Positive(t, gpu)
	require.Positive(t, cpu)

	before := g.bytes.Load()
	checkSameParity(t, enc, klauspost(t, s), s, n)
	require.Equal(t, int64(rs.GPUShare(n, gpu, cpu)), g.bytes.Load()-before, "the second follows the rates seen")
}
