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
		e, err := newEngine(nil, tg.Arch)
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
	e, err := newEngine(nil, 90)
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
	mk := func(name string, batch, tpo, split int) kernels.GEMV {
		return kernels.GEMV{Info: kernels.Info{Name: name},
			Config: kernels.GEMVConfig{MaxBatch: batch, ThreadsPerOutput: tpo, SplitK: split, Vector: 8}}
	}
	warps := mk("warps", 8, 128, 1)
	warp8 := mk("warp8", 8, 32, 1)
	warp1 := mk("warp1", 1, 32, 1)
	split := mk("split", 8, 32, 4)
	naive := mk("naive", 1, 1, 1)
	all := []kernels.GEMV{naive, split, warp1, warp8, warps}
	assert.Equal(t, "warp1", pick(append([]kernels.GEMV(nil), all...), 1, 1024).Name, "one vector: the single-vector warp kernel")
	assert.Equal(t, "warps", pick(append([]kernels.GEMV(nil), all...), 8, 1024).Name, "a batch: several warps per output, in one launch")
	assert.Equal(t, "warp8", pick([]kernels.GEMV{naive, split, warp8}, 4, 1024).Name)
	assert.Equal(t, "split", pick([]kernels.GEMV{naive, split}, 1, 1024).Name, "reference kernels last")
	xs := kernels.GEMV{Info: kernels.Info{Name: "xs"}, Config: kernels.GEMVConfig{MaxBatch: 1, ThreadsPerOutput: 32, SplitK: 1, Vector: 8, XShared: true}}
	assert.Equal(t, "xs", pick(append([]kernels.GEMV{xs}, all...), 1, 1024).Name, "one vector: x in shared memory, 16-byte loads")
	tsplit := kernels.GEMV{Info: kernels.Info{Name: "tsplit"}, Config: kernels.GEMVConfig{A: kernels.ColMajor, MaxBatch: 4, ThreadsPerOutput: 16, SplitK: 8, Vector: 8}}
	assert.Equal(t, "tsplit", pick([]kernels.GEMV{warps, tsplit}, 3, 1024).Name, "2 to 4 vectors of a transposed A: split-K lane groups")

	// x staged as fp32: batches of a row-major A take the rows-per-thread
	// kernel with the smallest batch that fits; a transposed A the split-K one.
	xf := func(name string, a kernels.Layout, batch, rows, split int) kernels.GEMV {
		return kernels.GEMV{Info: kernels.Info{Name: name}, Config: kernels.GEMVConfig{A: a, MaxBatch: batch, ThreadsPerOutput: 32,
			SplitK: split, Vector: 8, XShared: true, XF32: true, RowsPerThread: rows}}
	}
	r1, r2, r4, r8 := xf("r1", kernels.RowMajor, 1, 2, 1), xf("r2", kernels.RowMajor, 2, 2, 1), xf("r4", kernels.RowMajor, 4, 2, 1), xf("r8", kernels.RowMajor, 8, 4, 2)
	rows := []kernels.GEMV{r8, r4, r2, r1}
	for m, want := range map[int]string{2: "r2", 3: "r4", 4: "r4", 5: "r8", 8: "r8"} {
		assert.Equal(t, want, pick(append(append([]kernels.GEMV(nil), all...), rows...), m, 1024).Name, "m = %d", m)
	}
	assert.Equal(t, "xs", pick(append([]kernels.GEMV{r1, r8}, append(all, xs)...), 1, 1024).Name, "one vector: the measured x-in-shared kernel first")
	assert.Equal(t, "r1", pick(append([]kernels.GEMV{r1}, all...), 1, 1024).Name, "one vector: fp32 x before the kernels reading x through the cache")
	tx8, tx4 := xf("tx8", kernels.ColMajor, 8, 1, 8), xf("tx4", kernels.ColMajor, 4, 1, 8)
	assert.Equal(t, "tsplit", pick([]kernels.GEMV{tx4, tx8, warps, tsplit}, 3, 1024).Name, "2 to 4 vectors of a transposed A: split-K, x through the cache (measured)")
	assert.Equal(t, "tx4", pick([]kernels.GEMV{tx8, warps, tx4}, 3, 1024).Name, "then its fp32-x twin")
	txs := kernels.GEMV{Info: kernels.Info{Name: "txs"}, Config: kernels.GEMVConfig{A: kernels.ColMajor, MaxBatch: 1, ThreadsPerOutput: 32, SplitK: 1, Vector: 8, XShared: true}}
	for n, want := range map[int]string{1024: "txs", 4096: "tsplit", 8192: "tsplit", 11008: "txs", 16384: "txs"} {
		assert.Equal(t, want, pick([]kernels.GEMV{txs, tsplit}, 1, n).Name, "one vector of a transposed A, n = %d", n)
	}
	assert.Equal(t, "tx8", pick([]kernels.GEMV{tsplit, tx4, warps, tx8}, 7, 1024).Name)
	nr1 := xf("nr1", kernels.RowMajor, 8, 1, 8)
	assert.Equal(t, "warps", pick([]kernels.GEMV{nr1, warps}, 8, 1024).Name, "a row-major A: fp32 x leads only with several rows per thread")
}

// TestPickTensorCores checks the measured place of the tensor-core
// kernels of a row-major A: first with 2 to 8 vectors, the tiling by n;
// for one vector only at n <= 2048.
func TestPickTensorCores(t *testing.T) {
	tc := func(name string, warps, tiles int) kernels.GEMV {
		return kernels.GEMV{Info: kernels.Info{Name: name}, Config: kernels.GEMVConfig{A: kernels.RowMajor, MaxBatch: 8, SplitK: 1,
			MMA: true, Warps: warps, Tiles: tiles, Unroll: 4}}
	}
	w8t1, w16t1, w8t2, w4t2 := tc("w8t1", 8, 1), tc("w16t1", 16, 1), tc("w8t2", 8, 2), tc("w4t2", 4, 2)
	r8 := kernels.GEMV{Info: kernels.Info{Name: "r8"}, Config: kernels.GEMVConfig{A: kernels.RowMajor, MaxBatch: 8, ThreadsPerOutput: 32,
		SplitK: 2, Vector: 8, XShared: true, XF32: true, RowsPerThread: 4}}
	xs := kernels.GEMV{Info: kernels.Info{Name: "xs"}, Config: kernels.GEMVConfig{MaxBatch: 1, ThreadsPerOutput: 32, SplitK: 1, Vector: 8, XShared: true}}
	all := func() []kernels.GEMV { return []kernels.GEMV{xs, r8, w4t2, w8t2, w16t1, w8t1} }
	for _, tc := range []struct {
		m, n int
		want string
	}{
		{8, 4096, "w8t1"}, {2, 4096, "w8t1"}, {5, 1024, "w16t1"}, {8, 2048, "w16t1"}, {4, 8192, "w16t1"}, {8, 16384, "w16t1"}, {2, 11008, "w16t1"},
		{1, 1024, "w16t1"}, {1, 2048, "w16t1"}, {1, 4096, "xs"}, {1, 16384, "xs"},
	} {
		assert.Equal(t, tc.want, pick(all(), tc.m, tc.n).Name, "m = %d, n = %d", tc.m, tc.n)
	}
	assert.Equal(t, "w4t2", pick([]kernels.GEMV{r8, w4t2}, 8, 4096).Name, "any tensor-core tiling before the CUDA-core batch kernels")
	assert.Equal(t, "w8t1", pick([]kernels.GEMV{r8, w8t1}, 12, 4096).Name, "9 to 16 vectors: two launches of either, tensor cores first")
	assert.Less(t, mmaOrder(w8t1.Config, 8, 4096), mmaOrder(w4t2.Config, 8, 4096))
}

// TestPickStaged checks the measured place of the kernels that stage a
// row-major A through shared memory (Stages > 0): first from n = 4096, by
// vectors and n, except one vector past n = 8192 (the CUDA-core kernel);
// never up to n = 2048, where the built table's picks are the picks without
// them (and for a transposed A never below 1024: TestPickTensorCoresT).
func TestPickStaged(t *testing.T) {
	staged := func(name string, warps, tiles, stages int) kernels.GEMV {
		return kernels.GEMV{Info: kernels.Info{Name: name}, Config: kernels.GEMVConfig{A: kernels.RowMajor, MaxBatch: 8, SplitK: 1,
			MMA: true, Warps: warps, Tiles: tiles, Stages: stages}}
	}
	tc := func(name string, warps, tiles int) kernels.GEMV {
		return kernels.GEMV{Info: kernels.Info{Name: name}, Config: kernels.GEMVConfig{A: kernels.RowMajor, MaxBatch: 8, SplitK: 1,
			MMA: true, Warps: warps, Tiles: tiles, Unroll: 4}}
	}
	xs := kernels.GEMV{Info: kernels.Info{Name: "xs"}, Config: kernels.GEMVConfig{MaxBatch: 1, ThreadsPerOutput: 32, SplitK: 1, Vector: 8, XShared: true}}
	all := []kernels.GEMV{staged("w8t1s8", 8, 1, 8), staged("w8t2s4", 8, 2, 4), staged("w16t2s4", 16, 2, 4), xs,
		tc("w16t1", 16, 1), tc("w8t1", 8, 1)}
	for _, c := range []struct {
		m, n int
		want string
	}{
		{1, 1024, "w16t1"}, {8, 2048, "w16t1"},
		{1, 4096, "w8t1s8"}, {4, 4096, "w8t1s8"}, {5, 4096, "w16t2s4"}, {8, 4096, "w16t2s4"},
		{1, 8192, "w8t1s8"}, {2, 8192, "w8t2s4"}, {8, 16384, "w8t2s4"}, {12, 11008, "w8t2s4"},
		{1, 11008, "xs"}, {1, 16384, "xs"},
	} {
		assert.Equal(t, c.want, pick(all, c.m, c.n).Name, "m = %d, n = %d", c.m, c.n)
	}

	// The built table, every arch: up to n = 2048 the pick with the staged
	// kernels is the pick without them.
	unstaged := func(c kernels.GEMV) bool { return c.Config.Stages == 0 }
	for _, tg := range kernels.Targets {
		ks := kernels.ForArch(kernels.GEMVs, tg.Arch)
		for _, tr := range []bool{false, true} {
			layoutIs := func(c kernels.GEMV) bool { return (c.Config.A == kernels.ColMajor) == tr }
			ns := []int{1, 256, 1024, 1536, 2048}
			if tr {
				ns = ns[:2]
			}
			for m := 1; m <= 17; m++ {
				for _, n := range ns {
					with, ok := pickFrom(ks, layoutIs, m, n)
					require.True(t, ok)
					without, ok := pickFrom(ks, func(c kernels.GEMV) bool { return layoutIs(c) && unstaged(c) }, m, n)
					require.True(t, ok)
					assert.Equal(t, without.Name, with.Name, "sm_%d, transposed %v, m = %d, n = %d", tg.Arch, tr, m, n)
				}
			}
		}
	}
}

// TestPickTensorCoresT checks the measured place of the tensor-core
// kernels of a transposed A: first for any number of vectors (for 1024 <= n
// <= 2048 the one whose blocks split k, else 16 warps up to n = 8192, then
// 8 warps of unroll 2), except the CUDA-core split for one vector at 1024 to
// 2048 outputs; and without allocating.
func TestPickTensorCoresT(t *testing.T) {
	tc := func(name string, warps, unroll int) kernels.GEMV {
		return kernels.GEMV{Info: kernels.Info{Name: name}, Config: kernels.GEMVConfig{A: kernels.ColMajor, MaxBatch: 8, SplitK: 1,
			MMA: true, Warps: warps, Tiles: 1, Unroll: unroll}}
	}
	w8u2, w16u2, w8u4 := tc("w8u2", 8, 2), tc("w16u2", 16, 2), tc("w8u4", 8, 4)
	w8u2k8 := tc("w8u2k8", 8, 2)
	w8u2k8.Config.SplitK = 8
	tx8 := kernels.GEMV{Info: kernels.Info{Name: "tx8"}, Config: kernels.GEMVConfig{A: kernels.ColMajor, MaxBatch: 8, ThreadsPerOutput: 16,
		OutputsPerBlock: 16, SplitK: 8, Vector: 8, XShared: true, XF32: true}}
	tsplit := kernels.GEMV{Info: kernels.Info{Name: "tsplit"}, Config: kernels.GEMVConfig{A: kernels.ColMajor, MaxBatch: 4, ThreadsPerOutput: 16,
		OutputsPerBlock: 16, SplitK: 8, Vector: 8}}
	xs := kernels.GEMV{Info: kernels.Info{Name: "xs"}, Config: kernels.GEMVConfig{A: kernels.ColMajor, MaxBatch: 1, ThreadsPerOutput: 32,
		SplitK: 1, Vector: 8, XShared: true}}
	all := []kernels.GEMV{xs, tsplit, tx8, w8u4, w8u2, w16u2, w8u2k8}
	for _, tc := range []struct {
		m, n int
		want string
	}{
		{8, 4096, "w16u2"}, {2, 4096, "w16u2"}, {3, 1023, "w16u2"}, {3, 1024, "w8u2k8"}, {8, 2048, "w8u2k8"}, {8, 8192, "w16u2"},
		{4, 8193, "w8u2"}, {8, 16384, "w8u2"},
		{1, 1023, "w16u2"}, {1, 1024, "w8u2k8"}, {1, 2048, "w8u2k8"}, {1, 2049, "w16u2"}, {1, 4096, "w16u2"}, {1, 11008, "w8u2"}, {1, 16384, "w8u2"},
	} {
		assert.Equal(t, tc.want, pick(all, tc.m, tc.n).Name, "m = %d, n = %d", tc.m, tc.n)
	}
	// One vector from 1024 to 2048 outputs: the 16-block split on CUDA
	// cores, ahead of the tensor cores; one launch per vector elsewhere.
	st := kernels.GEMV{Info: kernels.Info{Name: "st"}, Config: kernels.GEMVConfig{A: kernels.ColMajor, MaxBatch: 1, ThreadsPerOutput: 16,
		OutputsPerBlock: 16, SplitK: 16, Vector: 8}}
	withST := append([]kernels.GEMV{st}, all...)
	for _, tc := range []struct {
		m, n int
		want string
	}{{1, 1023, "w16u2"}, {1, 1024, "st"}, {1, 2048, "st"}, {1, 2049, "w16u2"}, {2, 1024, "w8u2k8"}, {2, 2048, "w8u2k8"}} {
		assert.Equal(t, tc.want, pick(withST, tc.m, tc.n).Name, "with the CUDA-core split: m = %d, n = %d", tc.m, tc.n)
	}
	// Staged through shared memory (16 warps, 4 stages), for any number of
	// vectors and ahead of the CUDA-core split: blocks splitting k 8 ways for
	// 1024 <= n <= 2048 (but one vector at 1024), 4 ways for 2048 < n <=
	// 4096, none from n = 8193; behind the unstaged kernels from 4097 to 8192
	// and below 1024.
	staged := func(name string, split int) kernels.GEMV {
		return kernels.GEMV{Info: kernels.Info{Name: name}, Config: kernels.GEMVConfig{A: kernels.ColMajor, MaxBatch: 8, SplitK: split,
			MMA: true, Warps: 16, Tiles: 1, Stages: 4}}
	}
	withTS := append([]kernels.GEMV{staged("ts", 1), staged("tsk4", 4), staged("tsk8", 8), st}, all...)
	for _, tc := range []struct {
		m, n int
		want string
	}{
		{1, 1024, "st"}, {2, 1024, "tsk8"}, {8, 1024, "tsk8"}, {1, 1025, "tsk8"}, {1, 2048, "tsk8"}, {8, 2048, "tsk8"},
		{2, 1023, "w16u2"}, {1, 1023, "w16u2"},
		{1, 2049, "tsk4"}, {8, 4096, "tsk4"}, {8, 4097, "w16u2"}, {1, 8192, "w16u2"},
		{1, 8193, "ts"}, {4, 11008, "ts"}, {8, 16384, "ts"}, {12, 4096, "tsk4"},
	} {
		assert.Equal(t, tc.want, pick(withTS, tc.m, tc.n).Name, "with the staged kernels: m = %d, n = %d", tc.m, tc.n)
	}
	assert.Equal(t, "w8u4", pick([]kernels.GEMV{tsplit, tx8, w8u4}, 4, 4096).Name, "any tensor-core tiling before the CUDA-core kernels")
	rowMajor := func(c kernels.GEMV) bool { return c.Config.A == kernels.RowMajor }
	_, ok := pickFrom(all, rowMajor, 8, 4096)
	assert.False(t, ok, "a layout filter keeps the transposed kernels out")
	colMajor := func(c kernels.GEMV) bool { return c.Config.A == kernels.ColMajor }
	allocs := testing.AllocsPerRun(100, func() { pickFrom(all, colMajor, 8, 4096) })
	assert.Zero(t, allocs, "pickFrom allocates")
}

// TestPickNamesTheChoice checks Pick against the pick rule for each layout.
func TestPickNamesTheChoice(t *testing.T) {
	e, err := newEngine(nil, 90)
	require.NoError(t, err)
	for _, tr := range []bool{false, true} {
		for _, m := range []int{1, 4, 8} {
			got, err := e.Pick(tr, m, 1024)
			require.NoError(t, err)
			want, err := e.choose("", tr, m, 1024)
			require.NoError(t, err)
			assert.Equal(t, want.Name, got)
		}
	}
	_, err = (*Engine)(nil).Pick(false, 1, 1)
	assert.Error(t, err)
}

// TestRememberedChoiceFollowsTheShape calls choose with shapes that repeat
// and change, as a model's layers do: each answer must be the pick for its
// own shape, never the remembered one of another.
func TestRememberedChoiceFollowsTheShape(t *testing.T) {
	e, err := newEngine(nil, 90)
	require.NoError(t, err)
	type shape struct {
		transposed bool
		m, n       int
	}
	shapes := []shape{{false, 1, 4096}, {false, 1, 4096}, {true, 1, 4096}, {false, 8, 4096}, {false, 1, 11008},
		{false, 1, 4096}, {true, 2, 512}, {true, 2, 512}, {false, 1, 256}}
	for _, sh := range shapes {
		layoutIs := func(c kernels.GEMV) bool { return (c.Config.A == kernels.ColMajor) == sh.transposed }
		want, ok := pickFrom(e.kernels, layoutIs, sh.m, sh.n)
		require.True(t, ok)
		got, err := e.choose("", sh.transposed, sh.m, sh.n)
		require.NoError(t, err)
		assert.Equal(t, want.Name, got.Name, "%+v", sh)
	}
	allocs := testing.AllocsPerRun(100, func() { e.choose("", false, 1, 4096) })
	assert.Zero(t, allocs, "a repeated shape allocates")
}
