package kernels

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestPickArch(t *testing.T) {
	targets := []Target{{Arch: 80}, {Arch: 86}, {Arch: 89}, {Arch: 90, PTX: true}}
	for _, tc := range []struct {
		cc, want int
		jit      bool
		err      string
	}{
		{cc: 90, want: 90},
		{cc: 86, want: 86},
		{cc: 87, want: 86}, // same major: sm_86 machine code runs on sm_87
		{cc: 80, want: 80},
		{cc: 100, want: 90, jit: true}, // newer major: PTX
		{cc: 120, want: 90, jit: true},
		{cc: 75, err: "the device is sm_75, kernels are built for sm_80, sm_86, sm_89, sm_90"},
	} {
		got, jit, err := PickArch(tc.cc, targets)
		if tc.err != "" {
			require.Error(t, err, "sm_%d", tc.cc)
			assert.True(t, errors.Is(err, ErrUnsupportedArch))
			assert.Contains(t, err.Error(), tc.err)
			continue
		}
		require.NoError(t, err, "sm_%d", tc.cc)
		assert.Equal(t, tc.want, got, "sm_%d", tc.cc)
		assert.Equal(t, tc.jit, jit, "sm_%d", tc.cc)
	}
	_, _, err := PickArch(100, []Target{{Arch: 80}, {Arch: 90}})
	assert.Error(t, err, "without PTX a newer major has no kernels")
}

func TestForArchAndNamed(t *testing.T) {
	table := []GF256{
		{Info: Info{Name: "x", Arch: 80}}, {Info: Info{Name: "x", Arch: 90}}, {Info: Info{Name: "y", Arch: 90}},
	}
	got := ForArch(table, 90)
	require.Len(t, got, 2)
	assert.Equal(t, "x", got[0].Name)
	assert.Equal(t, "y", got[1].Name)
	assert.Empty(t, ForArch(table, 86))
	e, ok := Named(got, "y")
	assert.True(t, ok)
	assert.Equal(t, 90, e.Arch)
	_, ok = Named(got, "z")
	assert.False(t, ok)
}

// TestTablesAreNotEmpty: every arch the spec targets has GEMM kernels, and
// the GF(2^8) family has some too (a regenerated table that lost a family
// fails here, not in a GPU test that would skip).
func TestTablesAreNotEmpty(t *testing.T) {
	for _, tg := range Targets {
		assert.NotEmpty(t, ForArch(GEMMs, tg.Arch), "sm_%d GEMMs", tg.Arch)
		assert.NotEmpty(t, ForArch(GF256s, tg.Arch), "sm_%d GF256s", tg.Arch)
		assert.NotEmpty(t, ForArch(GEMVs, tg.Arch), "sm_%d GEMVs", tg.Arch)
		f16 := 0
		for _, g := range ForArch(GEMMs, tg.Arch) {
			if g.Tiling.Elem == ElemF16 && g.Tiling.MMA {
				f16++
			}
		}
		assert.NotZero(t, f16, "sm_%d fp16 GEMMs", tg.Arch)
	}
}
