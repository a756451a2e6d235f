package gemv

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kgen-gpu/kgen/go/cuda"
	"github.com/kgen-gpu/kgen/go/gemm"
	"github.com/kgen-gpu/kgen/go/internal/kernels"
)

// These need no GPU: a nil device, and problems that fail before a launch.

func TestNilArguments(t *testing.T) {
	_, err := New(nil)
	assert.ErrorContains(t, err, "nil *cuda.Device")
	var e *Engine
	assert.ErrorContains(t, e.HGEMV(nil, 1, gemm.Matrix{}, gemm.Matrix{}, 0, gemm.Matrix{}), "nil *Engine")
	assert.Nil(t, e.Instances())
}

func TestInstancesAreTheArchsRows(t *testing.T) {
	for _, tg := range kernels.Targets {
		e, err := newEngine(nil, tg.Arch, 132)
		require.NoError(t, err)
		var want []Instance
		for _, in := range BuiltInstances() {
			if in.Arch == tg.Arch {
				want = append(want, in)
			}
		}
		require.NotEmpty(t, want)
		assert.Equal(t, want, e.Instances())
	}
}

func TestShapeErrors(t *testing.T) {
	e, err := newEngine(nil, 90, 132)
	require.NoError(t, err)
	a := gemm.Matrix{Rows: 0, Cols: 4}
	for name, tc := range map[string]struct {
		a, x, y gemm.Matrix
		msg     string
	}{
		"x columns":      {a, gemm.Matrix{Rows: 0, Cols: 3}, gemm.Matrix{Rows: 0, Cols: 0}, "x's columns must equal A's"},
		"y shape":        {a, gemm.Matrix{Rows: 0, Cols: 4}, gemm.Matrix{Rows: 0, Cols: 2}, "y is 0x2, want 0x0"},
		"x column-major": {a, gemm.Matrix{Rows: 0, Cols: 4, Order: gemm.ColMajor}, gemm.Matrix{}, "x and y must be row-major"},
		"negative":       {gemm.Matrix{Rows: -1, Cols: 4}, gemm.Matrix{}, gemm.Matrix{}, "negative shape"},
	} {
		t.Run(name, func(t *testing.T) {
			assert.ErrorContains(t, e.HGEMV(nil, 1, tc.a, tc.x, 0, tc.y), tc.msg)
		})
	}
	assert.ErrorContains(t, e.HGEMV(&cuda.Stream{}, 1, a, gemm.Matrix{Cols: 4}, 0, gemm.Matrix{}), "stream was destroyed")
	assert.ErrorContains(t, e.HGEMVWith("hgemv_nonesuch", nil, 1, a, gemm.Matrix{Cols: 4}, 0, gemm.Matrix{}), `no instance "hgemv_nonesuch"`)
	assert.NoError(t, e.HGEMV(nil, 1, a, gemm.Matrix{Cols: 4}, 0, gemm.Matrix{}), "an empty problem")
}

func TestPickRule(t *testing.T) {
	mk := func(name string, batch, outs, split, vec int, xs bool) kernels.GEMV {
		return kernels.GEMV{Info: kernels.Info{Name: name},
			Config: kernels.GEMVConfig{MaxBatch: batch, OutputsPerBlock: outs, SplitK: split, Vector: vec, XShared: xs}}
	}
	one := mk("one", 1, 8, 1, 8, false)
	eight := mk("eight", 8, 8, 1, 8, false)
	split := mk("split", 8, 8, 4, 8, false)
	narrow := mk("narrow", 8, 8, 1, 1, false)
	assert.Equal(t, "eight", pick([]kernels.GEMV{one, eight}, 4096, 4096, 8, 132).Name, "one launch for 8 vectors")
	assert.Equal(t, "split", pick([]kernels.GEMV{eight, split}, 256, 16384, 8, 132).Name, "few outputs, long K: split-K fills the GPU")
	assert.Equal(t, "eight", pick([]kernels.GEMV{split, eight}, 256, 512, 8, 132).Name, "slices of 128 are too short to split")
	assert.Equal(t, "eight", pick([]kernels.GEMV{narrow, eight}, 4096, 4096, 1, 132).Name, "the widest vector")
}
