package gf256test

import (
	"bytes"
	"math/rand/v2"
	"testing"

	"github.com/klauspost/reedsolomon"
	"github.com/stretchr/testify/require"

	"github.com/kgen-gpu/kgen/go/cuda"
	"github.com/kgen-gpu/kgen/go/gf256"
	"github.com/kgen-gpu/kgen/go/rs"
)

func randomShards(rng *rand.Rand, n, size int) [][]byte {
	out := make([][]byte, n)
	for i := range out {
		out[i] = make([]byte, size)
		for j := range out[i] {
			out[i][j] = byte(rng.IntN(256))
		}
	}
	return out
}

// TestHostPipelineMatchesKlauspost: a call large enough for the GPU share
// gives klauspost's parity, and the GPU served part of it.
func TestHostPipelineMatchesKlauspost(t *testing.T) {
	needGPU(t)
	rng := rand.New(rand.NewPCG(1, 2))
	for _, km := range [][2]int{{10, 4}, {17, 3}, {4, 2}} {
		k, m := km[0], km[1]
		enc, err := rs.New(k, m, rs.WithGPU(rs.GPURequired), rs.WithMinGPUBytes(1))
		require.NoError(t, err)
		ref, err := reedsolomon.New(k, m)
		require.NoError(t, err)
		for _, size := range []int{1, 4097, 3<<20 + 5} {
			shards := randomShards(rng, k+m, size)
			want := make([][]byte, k+m)
			for i := range want {
				want[i] = bytes.Clone(shards[i])
			}
			require.NoError(t, enc.Encode(shards))
			require.NoError(t, ref.Encode(want))
			for i := k; i < k+m; i++ {
				require.True(t, bytes.Equal(shards[i], want[i]), "(%d,%d) size %d: parity %d differs from klauspost", k, m, size, i-k)
			}
			if size >= 4097 {
				require.True(t, enc.LastBackends().GPU(), "(%d,%d) size %d: the GPU served nothing: %+v", k, m, size, enc.LastBackends())
			}
			// Reconstruct after losing m shards, the first data ones.
			for i := 0; i < m; i++ {
				shards[i] = nil
			}
			require.NoError(t, enc.Reconstruct(shards))
			for i := range shards {
				require.True(t, bytes.Equal(shards[i], want[i]), "(%d,%d) size %d: reconstructed shard %d differs", k, m, size, i)
			}
		}
		require.NoError(t, enc.Close())
	}
}

// TestDeviceResidentEncodeAndReconstruct: EncodeDevice equals the CPU's
// Encode, and ReconstructDevice rebuilds four lost data shards of 10+4, at
// misaligned offsets, with guard bytes intact.
func TestDeviceResidentEncodeAndReconstruct(t *testing.T) {
	needGPU(t)
	rng := rand.New(rand.NewPCG(5, 9))
	const k, m, size, off = 10, 4, 1<<20 + 3, 5
	enc, err := rs.New(k, m, rs.WithGPU(rs.GPURequired))
	require.NoError(t, err)
	defer enc.Close()
	cpu, err := rs.New(k, m, rs.WithGPU(rs.GPUOff))
	require.NoError(t, err)
	host := randomShards(rng, k+m, size)
	require.NoError(t, cpu.Encode(host))

	shards := make([]gf256.Shard, k+m)
	for i := range shards {
		img := bytes.Repeat([]byte{poison}, guard+off+size+guard)
		if i < k {
			copy(img[guard+off:], host[i])
		}
		buf, err := dev.Alloc(len(img))
		require.NoError(t, err)
		defer buf.Free()
		require.NoError(t, cuda.CopyFromHost(buf, img))
		shards[i] = gf256.Shard{Buf: buf, Off: guard + off}
	}
	check := func(what string, idx []int) {
		for _, i := range idx {
			got := make([]byte, guard+off+size+guard)
			require.NoError(t, cuda.CopyToHost(got, shards[i].Buf))
			require.True(t, bytes.Equal(got[guard+off:guard+off+size], host[i]), "%s: shard %d differs", what, i)
			for _, b := range append(got[:guard+off:guard+off], got[guard+off+size:]...) {
				require.Equal(t, byte(poison), b, "%s: shard %d: a guard byte was written", what, i)
			}
		}
	}
	require.NoError(t, enc.EncodeDevice(nil, shards, size))
	require.NoError(t, dev.Synchronize())
	check("EncodeDevice", []int{10, 11, 12, 13})

	present := make([]bool, k+m)
	for i := range present {
		present[i] = i >= 4
	}
	for i := 0; i < 4; i++ { // lose them for real
		require.NoError(t, cuda.CopyFromHost(shards[i].Buf, bytes.Repeat([]byte{poison}, guard+off+size+guard)))
	}
	require.NoError(t, enc.ReconstructDevice(nil, shards, present, size, true))
	require.NoError(t, dev.Synchronize())
	check("ReconstructDevice", []int{0, 1, 2, 3})
}
