package rs

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kgen-gpu/kgen/go/gf256"
)

// Without a GPU attached, the device methods say so; their argument checks
// come first either way. (The GPU runs of these are in tests/gf256.)
func TestDeviceMethodsWithoutGPU(t *testing.T) {
	e, err := New(4, 2, WithGPU(GPUOff))
	require.NoError(t, err)
	shards := make([]gf256.Shard, 6)
	assert.True(t, errors.Is(e.EncodeDevice(nil, shards, 8), ErrNoGPU))
	assert.True(t, errors.Is(e.EncodeDevice(nil, shards[:5], 8), ErrTooFewShards))
	assert.True(t, errors.Is(e.EncodeDevice(nil, shards, 0), ErrShardNoData))
	assert.True(t, errors.Is(e.EncodeDevice(nil, shards, -1), ErrShardSize))
	present := []bool{true, false, true, true, true, true}
	assert.True(t, errors.Is(e.ReconstructDevice(nil, shards, present, 8, false), ErrNoGPU))
	assert.True(t, errors.Is(e.ReconstructDevice(nil, shards, present[:5], 8, false), ErrInvalidInput))
	assert.True(t, errors.Is(e.ReconstructDevice(nil, shards, []bool{false, false, false, true, true, true}, 8, false), ErrTooFewShards))
	assert.NoError(t, e.ReconstructDevice(nil, shards, []bool{true, true, true, true, false, false}, 8, true), "nothing to rebuild")
}
