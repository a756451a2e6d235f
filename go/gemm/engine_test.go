package gemm

import (
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kgen-gpu/kgen/go/cuda"
	"github.com/kgen-gpu/kgen/go/internal/kernels"
)

func TestPickTiling(t *testing.T) {
	big := kernels.GEMM{Info: kernels.Info{Name: "big"}, Tiling: kernels.GEMMTiling{Block: kernels.Tile{M: 128, N: 128, K: 8}}}
	small := kernels.GEMM{Info: kernels.Info{Name: "small"}, Tiling: kernels.GEMMTiling{Block: kernels.Tile{M: 64, N: 64, K: 8}}}
	cands := []kernels.GEMM{big, small}
	assert.Equal(t, "big", pickTiling(cands, 4096, 4096, 4096, 132).Name, "1024 blocks fill 132 SMs")
	assert.Equal(t, "small", pickTiling(cands, 1024, 1024, 1024, 132).Name, "64 big blocks leave SMs idle; 256 small ones do not")
	assert.Equal(t, "big", pickTiling(cands, 1280, 1280, 1280, 132).Name, "100 big blocks reach 3/4 of 132 SMs")
	assert.Equal(t, "small", pickTiling(cands, 100, 100, 100, 132).Name, "neither fills the GPU: the most blocks wins")
	assert.Equal(t, "big", pickTiling(cands, 1, 1, 1, 132).Name, "a tie keeps the ranking order")
}

func TestPickTilingSplitK(t *testing.T) {
	tile := func(name string, bm, bn, splits, threads int) kernels.GEMM {
		return kernels.GEMM{Info: kernels.Info{Name: name, Threads: threads},
			Tiling: kernels.GEMMTiling{Block: kernels.Tile{M: bm, N: bn, K: 8}, SplitK: splits}}
	}
	plain := tile("plain", 128, 64, 1, 128)
	k4 := tile("k4", 128, 128, 4, 256)
	k128 := tile("k128", 64, 64, 128, 128)
	cands := []kernels.GEMM{plain, k4, k128}
	assert.Equal(t, "k4", pickTiling(cands, 128, 8192, 8192, 132).Name,
		"128 plain blocks are under 2 per SM and K is long: 64 blocks x 4 splits fill the SMs with less to reduce than 256 x 16")
	assert.Equal(t, "k128", pickTiling(cands, 64, 64, 65536, 132).Name, "one tile: 128 splits run the most blocks")
	assert.Equal(t, "plain", pickTiling(cands, 8192, 8192, 128, 132).Name, "enough blocks without splitting")
	assert.Equal(t, "k4", pickTiling(cands, 1024, 1024, 1024, 132).Name,
		"128 plain blocks of 4 warps are under 6 warps per SM: 4 splits of 256 k each; 16 splits of 64 k are too shallow")
	assert.Equal(t, "plain", pickTiling(cands, 512, 512, 512, 132).Name, "under 6 warps per SM, but splits would keep under 256 of K")
	assert.Equal(t, "plain", pickTiling([]kernels.GEMM{tile("plain", 128, 64, 1, 256), k4, k128}, 1024, 1024, 1024, 132).Name,
		"128 blocks of 8 warps: neither K long nor the SMs thin")
	assert.Equal(t, "k4", pickTiling(cands, 1, 1, 24, 132).Name, "3 k tiles cap both at 3 splits: ranking order")
	assert.Equal(t, "k128", pickTiling([]kernels.GEMM{k128}, 4096, 4096, 4096, 132).Name, "a lone split-K candidate (a named instance) is taken")
	fill := tile("fill", 128, 128, 32, 256)
	fill.Tiling.SplitFill = true
	withFill := []kernels.GEMM{plain, k4, k128, fill}
	assert.Equal(t, "k128", pickTiling(withFill, 64, 64, 65536, 132).Name,
		"one tile: too few for the splits that fill the GPU")
	assert.Equal(t, "fill", pickTiling(withFill, 256, 256, 4096, 132).Name,
		"4 tiles, 8 plain blocks: the splits that fill the GPU")
	assert.Equal(t, "fill", pickTiling(withFill, 1024, 1024, 1024, 132).Name, "128 plain blocks are under 2 per SM")
	assert.Equal(t, "plain", pickTiling(withFill, 4096, 4096, 4096, 132).Name, "2048 plain blocks fill the SMs")
	assert.Equal(t, "fill", pickTiling([]kernels.GEMM{fill}, 4096, 4096, 4096, 132).Name,
		"a lone fill candidate (a named instance) is taken")
	// 2048^3: 256 tiles of 128x128 on 132 SMs holding 2 each put 2 on the
	// busiest SM unsplit (2 x (256 + 4) = 520 k tiles' worth) and 4 in 2
	// splits (4 x (128 + 4) = 528, and 3.5 to reduce): the fill launch
	// would not split.
	// 1024^3: 64 tiles, 1 x (128 + 4) x 6/5 = 158.4 unsplit, 2 x (32 + 4)
	// = 72 in 4 splits, the least.
	square := tile("square", 128, 128, 1, 256)
	assert.Equal(t, "square", pickTiling([]kernels.GEMM{square, fill}, 2048, 2048, 2048, 132).Name,
		"256 plain blocks are under 2 per SM, but the fill launch would run them unsplit")
	assert.Equal(t, "fill", pickTiling([]kernels.GEMM{square, fill}, 1024, 1024, 1024, 132).Name,
		"64 tiles: the fill launch splits them 4 ways")
	// 1000x3000x500: 192 tiles of 63 k tiles, 2 x (63 + 4) = 134 unsplit,
	// 3.2 x (32 + 4) = 115.2 and 2.6 to reduce in 2 splits, the least: the
	// 2 splits summed in a cluster do the same without the workspace.
	cluster := tile("cluster", 128, 128, 2, 256)
	cluster.Tiling.ClusterReduce = true
	other := tile("other", 128, 64, 2, 256)
	other.Tiling.ClusterReduce = true
	withCluster := []kernels.GEMM{square, other, fill, cluster}
	assert.Equal(t, "cluster", pickTiling(withCluster, 1000, 3000, 500, 132).Name,
		"the fill launch would split 2 ways: its tile's 2 splits summed in a cluster")
	assert.Equal(t, "fill", pickTiling([]kernels.GEMM{square, other, fill}, 1000, 3000, 500, 132).Name,
		"no cluster twin of the fill tile: the fill instance")
	assert.Equal(t, "fill", pickTiling(withCluster, 1024, 1024, 1024, 132).Name,
		"the fill launch splits 4 ways: the fill instance")
	// 1023^3: the same 64 tiles, with edges, counted at one block per SM:
	// 1 x (64 + 4) x 6/5 = 81.6 unsplit, 1 x (32 + 4) = 36 and 1.5 to
	// reduce in 2 splits, 2 x (22 + 4) = 52 in 3.
	assert.Equal(t, "cluster", pickTiling(withCluster, 1023, 1023, 1023, 132).Name,
		"tiles past C's edges: one fill block per SM, so 2 splits, summed in a cluster")
	assert.Equal(t, "cluster", pickTiling(withCluster, 1023, 1024, 1024, 132).Name,
		"M alone past a tile's edge counts so too")
}

// TestWorkspaceBytesOfFillSplits: an instance whose launches choose their
// split count to fill the GPU holds the workspace of the most it may use,
// and the spec's such instances say so in their names.
func TestWorkspaceBytesOfFillSplits(t *testing.T) {
	tl := kernels.GEMMTiling{Block: kernels.Tile{M: 128, N: 128, K: 16}, SplitK: 16, SplitFill: true}
	g := kernels.GEMM{Info: kernels.Info{Arch: 90}, Tiling: tl}
	assert.Equal(t, 16*724*724*4, kernels.GEMMWorkspaceBytes(g, 724, 724, 8192), "16 partial C's, whatever a launch takes")
	assert.Equal(t, 3*35*7*4, kernels.GEMMWorkspaceBytes(g, 35, 7, 40), "3 k tiles: 3 splits at most")
	n := 0
	for _, k := range kernels.GEMMs {
		if k.Tiling.SplitFill {
			n++
			assert.Greater(t, k.Tiling.SplitK, 1, k.Name)
			assert.False(t, k.Tiling.ClusterReduce, k.Name)
			assert.Contains(t, k.Name, fmt.Sprintf("_k%df", k.Tiling.SplitK), k.Name)
		}
	}
	assert.NotZero(t, n, "the spec has instances whose splits fill the GPU")
}

// TestRankPrefers128x128ForKContiguousOperands: the 128x128 tile by
// columns in rows_zigzag leads in every layout (an mbarrier instance ranks
// as its tiling); behind it 128x256 leads the plain 128x128 tile by columns
// but with B column-major, where the two swap.
func TestRankPrefers128x128ForKContiguousOperands(t *testing.T) {
	zigzag := "sgemm_nn_f32" + ranking[0]
	wide := "sgemm_nn_f32" + ranking[1]
	square := "sgemm_nn_f32" + ranking[2]
	for _, b := range []Order{RowMajor, ColMajor} {
		assert.Equal(t, 0, rank(zigzag, RowMajor, b), "B %s", b)
		assert.Equal(t, 0, rank(zigzag+mbarrierSuffix, RowMajor, b), "B %s", b)
	}
	assert.Less(t, rank(wide, RowMajor, RowMajor), rank(square, RowMajor, RowMajor))
	assert.Less(t, rank(square, RowMajor, ColMajor), rank(wide, RowMajor, ColMajor))
	assert.Equal(t, len(ranking), rank("sgemm_nn_f32_b1x1x1_w1x1_t1x1_s2", RowMajor, RowMajor))
}

// TestRankFillTilesByLayout: of the two fill tilings, rows_zigzag leads
// but in nt, where quads_zigzag does; both rank together.
func TestRankFillTilesByLayout(t *testing.T) {
	zigzag := "sgemm_nt_f32_b128x128x16_w32x64_t8x8_s3_k32f_lc_fz" + mbarrierSuffix
	quads := "sgemm_nt_f32_b128x128x16_w32x64_t8x8_s3_k32f_lc_fq" + mbarrierSuffix
	for _, l := range []struct{ a, b Order }{{RowMajor, RowMajor}, {ColMajor, RowMajor}, {ColMajor, ColMajor}} {
		assert.Equal(t, rank(zigzag, l.a, l.b)+1, rank(quads, l.a, l.b), "A %s, B %s", l.a, l.b)
	}
	assert.Equal(t, rank(quads, RowMajor, ColMajor)+1, rank(zigzag, RowMajor, ColMajor), "nt")
	assert.Equal(t, rank(zigzag, RowMajor, RowMajor), rank(quads, RowMajor, ColMajor), "nt: the same two places")
}

// TestWorkspaceBytesOfStreamK: a stream-K instance holds a partial tile and
// a flag for each block of the largest grid it may stream over (512 blocks,
// or its tiles' k tiles where fewer), on problems of whole tiles and k
// tiles only (kgen::stream_workspace_bytes); the spec's such instances are
// named _ts.
func TestWorkspaceBytesOfStreamK(t *testing.T) {
	g := kernels.GEMM{Info: kernels.Info{Arch: 90}, Tiling: kernels.GEMMTiling{Block: kernels.Tile{M: 128, N: 128, K: 16}, SplitK: 1, StreamK: true}}
	assert.Equal(t, 512*128*128*4+2048, kernels.GEMMWorkspaceBytes(g, 2048, 2048, 2048), "512 blocks at most")
	assert.Equal(t, 3*128*128*4+16, kernels.GEMMWorkspaceBytes(g, 128, 128, 48), "one tile of 3 k tiles: 3 blocks, 12 bytes of flags to 16")
	assert.Equal(t, 0, kernels.GEMMWorkspaceBytes(g, 2047, 2048, 2048), "M not whole tiles: launched whole")
	assert.Equal(t, 0, kernels.GEMMWorkspaceBytes(g, 2048, 2048, 2040), "K not whole k tiles")
	assert.Equal(t, 0, kernels.GEMMWorkspaceBytes(g, 2048, 2048, 0))
	n := 0
	for _, k := range kernels.GEMMs {
		if k.Tiling.StreamK {
			n++
			assert.Equal(t, 1, k.Tiling.SplitK, k.Name)
			assert.True(t, strings.HasSuffix(k.Name, "_ts"), k.Name)
		}
	}
	assert.NotZero(t, n, "the spec has stream-K instances")
}

func TestWorkspaceBytes(t *testing.T) {
	g := kernels.GEMM{Info: kernels.Info{Arch: 90}, Tiling: kernels.GEMMTiling{Block: kernels.Tile{M: 64, N: 64, K: 8}, SplitK: 128}}
	assert.Equal(t, 128*64*64*4, kernels.GEMMWorkspaceBytes(g, 64, 64, 65536))
	assert.Equal(t, 3*5*7*4, kernels.GEMMWorkspaceBytes(g, 5, 7, 17), "17 deep is 3 k tiles: 3 splits")
	assert.Equal(t, 0, kernels.GEMMWorkspaceBytes(g, 5, 7, 8), "one k tile: no split")
	assert.Equal(t, 0, kernels.GEMMWorkspaceBytes(g, 0, 7, 1000))
	assert.Equal(t, 16*1024*1024*4, kernels.GEMMWorkspaceBytes(g, 1024, 1024, 65536), "64 MiB of partials at most: 16 splits")
	assert.Equal(t, 0, kernels.GEMMWorkspaceBytes(g, 4096, 4096, 65536), "a C of 64 MiB is not split")
	g.Tiling.SplitK = 1
	assert.Equal(t, 0, kernels.GEMMWorkspaceBytes(g, 64, 64, 65536))
}

// TestWorkspaceBytesOfPacking: a packing instance needs its k-contiguous
// operands' transposes (rows of a multiple of 32 floats, each operand a
// multiple of 256 bytes) before any split-K partials; the tn kernel it runs
// needs nothing else.
func TestWorkspaceBytesOfPacking(t *testing.T) {
	tl := kernels.GEMMTiling{A: kernels.RowMajor, B: kernels.RowMajor, Block: kernels.Tile{M: 128, N: 128, K: 16}, SplitK: 1, Pack: true}
	g := kernels.GEMM{Info: kernels.Info{Arch: 90}, Tiling: tl}
	assert.Equal(t, 4096*4096*4, kernels.GEMMWorkspaceBytes(g, 4096, 8192, 4096), "nn: A alone")
	assert.Equal(t, 1792, kernels.GEMMWorkspaceBytes(g, 35, 7, 7), "A^T: 7 rows of 64 floats (35 rounded up to 32s), 1792 bytes, a multiple of 256")
	g.Tiling.B = kernels.ColMajor
	assert.Equal(t, 4096*4096*4+8192*4096*4, kernels.GEMMWorkspaceBytes(g, 4096, 8192, 4096), "nt: A and B")
	assert.Equal(t, 1792+1024, kernels.GEMMWorkspaceBytes(g, 35, 7, 7), "nt: 1792 bytes for A^T, 7 rows of 32 floats (896 bytes) rounded up to 1024 for B^T")
	g.Tiling.A = kernels.ColMajor
	assert.Equal(t, 256, kernels.GEMMWorkspaceBytes(g, 35, 1, 1), "tt: B^T alone, one row of 32 floats (128 bytes) rounded up to 256")
	assert.Equal(t, 0, kernels.GEMMWorkspaceBytes(g, 35, 7, 0), "K = 0: nothing to pack")
	assert.Equal(t, 0, kernels.GEMMWorkspaceBytes(g, 0, 7, 7), "an empty C: nothing runs")
	g.Tiling.SplitK, g.Tiling.A = 4, kernels.RowMajor
	assert.Equal(t, 128*4096*4+8192*4096*4+4*128*8192*4, kernels.GEMMWorkspaceBytes(g, 128, 8192, 4096), "nt, 4 splits: A^T and B^T, then 4 partial C's")
	n := 0
	for _, k := range kernels.GEMMs {
		if k.Tiling.Pack {
			n++
			assert.True(t, strings.HasSuffix(k.Name, "_pk"), k.Name)
			assert.False(t, k.Tiling.A == kernels.ColMajor && k.Tiling.B == kernels.RowMajor, "%s: layout tn has nothing to pack", k.Name)
		}
	}
	assert.NotZero(t, n, "the spec has packing instances")
}

// TestWorkspaceBytesOfClusterSplits: splits summed in a thread-block
// cluster need no workspace in the objects for sm_90; the same instance's
// objects for older archs split through the workspace.
func TestWorkspaceBytesOfClusterSplits(t *testing.T) {
	tl := kernels.GEMMTiling{Block: kernels.Tile{M: 128, N: 128, K: 16}, SplitK: 2, ClusterReduce: true}
	for _, arch := range []int{90, 100} {
		assert.Equal(t, 0, kernels.GEMMWorkspaceBytes(kernels.GEMM{Info: kernels.Info{Arch: arch}, Tiling: tl}, 1024, 1024, 1024), "sm_%d", arch)
	}
	for _, arch := range []int{80, 86, 89} {
		assert.Equal(t, 2*1024*1024*4, kernels.GEMMWorkspaceBytes(kernels.GEMM{Info: kernels.Info{Arch: arch}, Tiling: tl}, 1024, 1024, 1024), "sm_%d", arch)
	}
	assert.Equal(t, 0, kernels.GEMMWorkspaceBytes(kernels.GEMM{Info: kernels.Info{Arch: 80}, Tiling: tl}, 1024, 1024, 16), "one k tile: no split")
	n := 0
	for _, k := range kernels.GEMMs {
		if !k.Tiling.ClusterReduce {
			continue
		}
		n++
		assert.Greater(t, k.Tiling.SplitK, 1, k.Name)
		assert.Contains(t, k.Name, fmt.Sprintf("_k%dc", k.Tiling.SplitK), k.Name)
		want := 0
		if k.Arch < 90 {
			want = 2048 * 2048 * 4 * kernels.GEMMSplits(k.Tiling, 2048, 2048, 2048)
		}
		assert.Equal(t, want, kernels.GEMMWorkspaceBytes(k, 2048, 2048, 2048), "%s on sm_%d", k.Name, k.Arch)
	}
	assert.NotZero(t, n, "the spec has instances whose splits sum in a cluster")
}

func TestRankingNamesRealTilings(t *testing.T) {
	for _, suffix := range ranking {
		found := false
		for _, k := range kernels.GEMMs {
			found = found || strings.HasSuffix(k.Name, suffix)
		}
		assert.True(t, found, "ranking lists %q, which no generated instance has", suffix)
	}
}

func TestMatrixChecks(t *testing.T) {
	freed := &cuda.Buffer{} // a Buffer with no memory behind it
	for _, tc := range []struct {
		m   Matrix
		err string
	}{
		{Matrix{Rows: -1, Cols: 2}, "negative shape -1x2"},
		{Matrix{Rows: 2, Cols: 3, Stride: 2}, "stride 2 is shorter than a stored row of 3 elements"},
		{Matrix{Rows: 2, Cols: 3, Stride: 1, Order: ColMajor}, "stride 1 is shorter than a stored column of 2 elements"},
		{Matrix{Rows: 2, Cols: 3, Stride: -4}, "negative stride"},
		{Matrix{Rows: 2, Cols: 3, Offset: -1}, "negative offset"},
		{Matrix{Rows: 2, Cols: 3, Order: Order(7)}, "unknown order"},
		{Matrix{Rows: 2, Cols: 3}, "nil or freed buffer for a 2x3 matrix"},
		{Matrix{Rows: 2, Cols: 3, Buf: freed}, "nil or freed buffer"},
		{Matrix{Rows: 1 << 31, Cols: 1}, "shape 2147483648x1 exceeds the kernels' 32-bit dimensions"},
	} {
		err := tc.m.check("A", nil, 4)
		if assert.Error(t, err, "%+v", tc.m) {
			assert.Contains(t, err.Error(), "gemm: A: "+tc.err)
		}
	}
	// Empty matrices need no memory.
	assert.NoError(t, Matrix{Rows: 0, Cols: 5}.check("B", nil, 4))
	assert.NoError(t, Matrix{Rows: 5, Cols: 0, Stride: 9}.check("B", nil, 4))
}

func TestMatrixGeometry(t *testing.T) {
	m := Matrix{Rows: 3, Cols: 5, Offset: 2}
	assert.Equal(t, 5, m.LD())
	assert.Equal(t, 15, m.span())
	tr := m.T()
	assert.Equal(t, Matrix{Rows: 5, Cols: 3, Offset: 2, Order: ColMajor}, tr)
	assert.Equal(t, 5, tr.LD(), "the transpose views the same memory")
	assert.Equal(t, m, tr.T())
	padded := Matrix{Rows: 3, Cols: 5, Stride: 8, Order: ColMajor}
	assert.Equal(t, 4*8+3, padded.span())
}

func TestNilReceiversReturnErrors(t *testing.T) {
	_, err := New(nil)
	assert.Error(t, err)
	var e *Engine
	assert.Error(t, e.SGEMM(nil, 1, Matrix{}, Matrix{}, 0, Matrix{}))
	assert.Error(t, e.SGEMMWith("x", nil, 1, Matrix{}, Matrix{}, 0, Matrix{}))
}

// flip is the other storage order.
func flip(o Order) Order { return 1 - o }

// TestSGEMMWithRunsTheNamedInstance checks, for every layout of A, B and C
// and every instance, that SGEMMWith accepts exactly the instances whose
// layouts fit the problem the kernel runs: A and B themselves for a
// row-major C, B^T and A^T for a column-major one. The problems are empty
// (M == K == 0), so they need no memory, and everything but the launch runs
// without a GPU.
func TestSGEMMWithRunsTheNamedInstance(t *testing.T) {
	e, err := newEngine(nil, 90)
	require.NoError(t, err)
	// The ladder's steps are built for nn only, so they have no twin in
	// the other layouts; the other f32 tilings come in all four.
	var all, ladder []Instance
	for _, in := range Of(F32, e.Instances()) {
		if in.Ladder != "" {
			ladder = append(ladder, in)
		} else {
			all = append(all, in)
		}
	}
	require.NotEmpty(t, all)
	require.NotEmpty(t, ladder)
	inLayout := func(a, b Order) int {
		n := 0
		for _, in := range all {
			if in.A == a && in.B == b {
				n++
			}
		}
		return n
	}
	packing := 0
	for _, in := range all {
		if in.Pack && in.A == RowMajor && in.B == RowMajor {
			packing++
		}
	}
	require.NotZero(t, packing, "the spec has packing tilings")
	for _, l := range [][2]Order{{RowMajor, RowMajor}, {RowMajor, ColMajor}, {ColMajor, ColMajor}} {
		require.Equal(t, inLayout(ColMajor, RowMajor)+packing, inLayout(l[0], l[1]), "tilings in A %s, B %s: tn's and the packing ones", l[0], l[1])
	}
	for _, ao := range []Order{RowMajor, ColMajor} {
		for _, bo := range []Order{RowMajor, ColMajor} {
			for _, co := range []Order{RowMajor, ColMajor} {
				a := Matrix{Rows: 0, Cols: 0, Order: ao}
				b := Matrix{Rows: 0, Cols: 5, Order: bo}
				c := Matrix{Rows: 0, Cols: 5, Order: co}
				needA, needB := ao, bo
				if co == ColMajor {
					needA, needB = flip(bo), flip(ao)
				}
				for _, in := range ladder {
					err := e.SGEMMWith(in.Name, nil, 1, a, b, 0, c)
					if (needA == RowMajor && needB == RowMajor) || (ao == RowMajor && bo == RowMajor && co == RowMajor) {
						assert.NoError(t, err, "A %s, B %s, C %s: %s", ao, bo, co, in.Name)
					} else {
						assert.ErrorContains(t, err, "gemm: instance "+in.Name+" takes A row-major and B row-major", "A %s, B %s, C %s", ao, bo, co)
					}
				}
				ran := 0
				for _, in := range all {
					err := e.SGEMMWith(in.Name, nil, 1, a, b, 0, c)
					// The name of the caller's own layouts runs as its twin.
					if (in.A == needA && in.B == needB) || (in.A == ao && in.B == bo) {
						assert.NoError(t, err, "A %s, B %s, C %s: %s", ao, bo, co, in.Name)
						ran++
						continue
					}
					if assert.Error(t, err, "A %s, B %s, C %s: %s takes A %s and B %s", ao, bo, co, in.Name, in.A, in.B) {
						assert.Contains(t, err.Error(), "gemm: instance "+in.Name+" takes A "+in.A.String()+" and B "+in.B.String())
						if in.Pack && needA == ColMajor && needB == RowMajor {
							assert.Contains(t, err.Error(), "no k-contiguous operand to pack, so no packing instance takes them; "+
								strings.TrimSuffix(strings.Replace(in.Name, "_"+layoutLetters(in.A, in.B)+"_", "_tn_", 1), "_pk")+" is the kernel it would run")
						} else {
							assert.Contains(t, err.Error(), "has the same tiling and takes A "+needA.String()+" and B "+needB.String())
						}
						if co == ColMajor {
							assert.Contains(t, err.Error(), "C is column-major, so the kernel computes the row-major C^T = B^T * A^T, "+
								"whose operands are B^T ("+needA.String()+") and A^T ("+needB.String()+")")
						}
					}
				}
				// Accepted: the instances of the caller's layouts and of the
				// swapped problem's. Every tiling has all four layouts but
				// the packing ones, which have no tn (nothing to pack).
				want := inLayout(ao, bo)
				if needA != ao || needB != bo {
					want += inLayout(needA, needB)
				}
				assert.Equal(t, want, ran, "A %s, B %s, C %s", ao, bo, co)
			}
		}
	}
}

func TestSGEMMWithErrors(t *testing.T) {
	e, err := newEngine(nil, 90)
	require.NoError(t, err)
	a, b, c := Matrix{}, Matrix{Cols: 5}, Matrix{Cols: 5} // empty: no memory needed
	err = e.SGEMMWith("sgemm_nn_f32_nonesuch", nil, 1, a, b, 0, c)
	require.Error(t, err)
	assert.Equal(t, `gemm: no f32 instance "sgemm_nn_f32_nonesuch" on sm_90`, err.Error())
	assert.ErrorContains(t, e.SGEMMWith("", nil, 1, a, b, 0, c), "needs an instance name")
	assert.ErrorContains(t, e.SGEMM(&cuda.Stream{}, 1, a, b, 0, c), "gemm: the stream was destroyed")
	assert.NoError(t, e.SGEMM(nil, 1, a, b, 0, c), "an empty problem with the default choice")
}

func TestInstancesAreTheArchsRowsOfTheTable(t *testing.T) {
	built := BuiltInstances()
	require.Len(t, built, len(kernels.GEMMs))
	for _, tgt := range kernels.Targets {
		e, err := newEngine(nil, tgt.Arch)
		require.NoError(t, err)
		var want []Instance
		for _, in := range built {
			if in.Arch == tgt.Arch {
				want = append(want, in)
			}
		}
		require.NotEmpty(t, want, "sm_%d", tgt.Arch)
		assert.Equal(t, want, e.Instances(), "sm_%d", tgt.Arch)
	}
	var nilEngine *Engine
	assert.Empty(t, nilEngine.Instances())
}

func TestColumnMajorCRunsTheTwinOfTheCallersName(t *testing.T) {
	e, err := newEngine(nil, 90)
	require.NoError(t, err)
	for _, in := range Of(F32, e.Instances()) {
		if in.A != RowMajor || in.B != RowMajor {
			continue
		}
		twin := e.twin(in.Name, RowMajor, RowMajor, ColMajor, ColMajor)
		assert.Equal(t, strings.Replace(in.Name, "sgemm_nn_", "sgemm_tt_", 1), twin)
		assert.Equal(t, in.Name, e.twin(in.Name, RowMajor, RowMajor, RowMajor, RowMajor), "no swap, no twin")
	}
}

// TestSpecFlattensTheTiling checks Spec against the tiling of the table
// entry it was read from, field by field, for every built instance.
func TestSpecFlattensTheTiling(t *testing.T) {
	ins := BuiltInstances()
	require.Len(t, ins, len(kernels.GEMMs))
	for i, in := range ins {
		k := kernels.GEMMs[i]
		spec := map[string]string{}
		for _, p := range in.Spec {
			_, dup := spec[p.Name]
			require.False(t, dup, "%s: parameter %s twice", in.Name, p.Name)
			spec[p.Name] = p.Value
		}
		assert.Equal(t, fmt.Sprint(k.Tiling.Block.K), spec["Block.K"], in.Name)
		assert.Equal(t, fmt.Sprint(k.Tiling.Warp.N), spec["Warp.N"], in.Name)
		assert.Equal(t, fmt.Sprint(k.Tiling.Stages), spec["Stages"], in.Name)
		assert.Equal(t, fmt.Sprint(k.Tiling.MinBlocksPerSM), spec["MinBlocksPerSM"], in.Name)
		assert.Equal(t, k.Tiling.A.String(), spec["A"], in.Name)
		assert.Equal(t, fmt.Sprint(k.Tiling.MMA), spec["MMA"], in.Name)
	}
}

// TestHGEMMRanking: the fp16 tilings in the measured order, then the fill
// rule: the one-block-per-SM tiles from n = 2048, 64x64 at 1024.
func TestHGEMMRanking(t *testing.T) {
	tile := func(bm, bn, stages int) kernels.GEMM {
		name := fmt.Sprintf("hgemm_nt_f16accf32_b%dx%dx32_w%dx%d_s%d", bm, bn, min(bm, 64), min(bn, 64), stages)
		if bm == 64 {
			name = "hgemm_nt_f16accf32_b64x64x32_w32x32_s3"
		}
		return kernels.GEMM{Info: kernels.Info{Name: name, Threads: 256},
			Tiling: kernels.GEMMTiling{Block: kernels.Tile{M: bm, N: bn, K: 32}, Stages: stages}}
	}
	// The generated table's order (by name), which put 128x128 first.
	cands := []kernels.GEMM{tile(128, 128, 4), tile(128, 256, 3), tile(128, 256, 4), tile(256, 128, 4), tile(64, 64, 3)}
	sort.SliceStable(cands, func(i, j int) bool {
		return rank(cands[i].Name, RowMajor, ColMajor) < rank(cands[j].Name, RowMajor, ColMajor)
	})
	assert.Equal(t, "hgemm_nt_f16accf32_b256x128x32_w64x64_s4", cands[0].Name)
	assert.Equal(t, "hgemm_nt_f16accf32_b256x128x32_w64x64_s4", pickTiling(cands, 4096, 4096, 4096, 132).Name)
	assert.Equal(t, "hgemm_nt_f16accf32_b256x128x32_w64x64_s4", pickTiling(cands, 2048, 2048, 2048, 132).Name)
	assert.Equal(t, "hgemm_nt_f16accf32_b64x64x32_w32x32_s3", pickTiling(cands, 1024, 1024, 1024, 132).Name)
}

// TestFP16AccumulationOnlyWhenAsked checks, on every arch, that the
// instances accumulating in fp16 (hgemmh) are candidates only for GEMMAcc
// with acc F16, so SGEMM and HGEMM keep their promise of fp32 accumulation
// whatever the ranking or table; that such instances exist for every layout
// of fp16 operands, so GEMMAcc serves any storage order; that their names
// say so (f16 without "acc", as tests/hgemm's reader of names did); and
// that they run by name too.
func TestFP16AccumulationOnlyWhenAsked(t *testing.T) {
	for _, tgt := range kernels.Targets {
		e, err := newEngine(nil, tgt.Arch)
		require.NoError(t, err)
		acc16 := 0
		for _, in := range e.Instances() {
			named16 := in.Elem == F16 && strings.Contains(in.Name, "_f16_")
			assert.Equal(t, named16, in.Acc == F16, "sm_%d %s: Acc %s", tgt.Arch, in.Name, in.Acc)
			if in.Acc != F16 {
				continue
			}
			acc16++
			a, b, c := Matrix{Order: in.A}, Matrix{Cols: 5, Order: in.B}, Matrix{Cols: 5}
			assert.NoError(t, e.HGEMMWith(in.Name, nil, 1, a, b, 0, c), "sm_%d %s by name", tgt.Arch, in.Name)
		}
		require.NotZero(t, acc16, "sm_%d: no fp16-accumulating instance", tgt.Arch)
		for key, cands := range e.ranked {
			require.NotEmpty(t, cands)
			for _, kern := range cands {
				assert.Equal(t, key.acc, dtypeOf(kern.Tiling.Acc), "sm_%d %v: %s is a candidate", tgt.Arch, key, kern.Name)
			}
		}
		for _, a := range []Order{RowMajor, ColMajor} {
			for _, b := range []Order{RowMajor, ColMajor} {
				for _, n := range []int{1, 64, 128, 1000, 1024, 4096, 16384} {
					for _, k := range []int{1, 128, 4096, 65536} {
						for _, dt := range []DType{F32, F16} {
							c, err := e.Pick(dt, a, b, n, n, k)
							require.NoError(t, err)
							assert.NotContains(t, c.Name, "hgemmh", "sm_%d %s%s %dx%dx%d", tgt.Arch, a, b, n, n, k)
						}
						c, err := e.PickAcc(F16, F16, a, b, n, n, k)
						require.NoError(t, err, "sm_%d: GEMMAcc needs an fp16-accumulating instance for every layout", tgt.Arch)
						assert.True(t, strings.HasPrefix(c.Name, "hgemmh_"), "sm_%d %s%s %dx%dx%d: %s", tgt.Arch, a, b, n, n, k, c.Name)
					}
				}
			}
		}
	}
}

// TestGEMMAccArguments: fp16 accumulation is for fp16 operands only, and the
// types must be known ones; the errors say which.
func TestGEMMAccArguments(t *testing.T) {
	e, err := newEngine(nil, 90)
	require.NoError(t, err)
	var m Matrix
	assert.ErrorContains(t, e.GEMMAcc(F32, F16, nil, 1, m, m, 0, m), "an f32 GEMM accumulates in f32 only, not f16")
	assert.ErrorContains(t, e.GEMMAcc(F16, DType(7), nil, 1, m, m, 0, m), "unknown accumulator type DType(7)")
	assert.ErrorContains(t, e.GEMMAcc(DType(7), F32, nil, 1, m, m, 0, m), "unknown element type DType(7)")
	_, err = e.PickAcc(F32, F16, RowMajor, RowMajor, 8, 8, 8)
	assert.ErrorContains(t, err, "an f32 GEMM accumulates in f32 only")
	_, err = (*Engine)(nil).PickAcc(F16, F16, RowMajor, RowMajor, 8, 8, 8)
	assert.ErrorContains(t, err, "nil *Engine")
	c, err := e.PickAcc(F16, F16, RowMajor, RowMajor, 4096, 4096, 4096)
	require.NoError(t, err)
	assert.Equal(t, "hgemmh_nn_f16_b256x128x32_w128x64_s4_o2", c.Name, "the fastest fp16-accumulating tile at 4096 on an H100 (ranking)")
	assert.Equal(t, Heuristic, c.Source)
	// On 132 SMs (an H100; this engine has no device) the fill rule reaches
	// the small tile's 128 blocks at 1024 and keeps the large one at 2048.
	acc16 := e.ranked[rankKey{F16, F16, RowMajor, ColMajor}]
	assert.Equal(t, "hgemmh_nt_f16_b128x64x64_w64x32_s4", pickTiling(acc16, 1024, 1024, 1024, 132).Name)
	assert.Equal(t, "hgemmh_nt_f16_b256x128x32_w128x64_s4_o2", pickTiling(acc16, 2048, 2048, 2048, 132).Name)
	// An empty problem validates and runs nothing (no device here).
	assert.NoError(t, e.GEMMAcc(F16, F16, nil, 1, Matrix{Order: RowMajor}, Matrix{Cols: 5}, 0, Matrix{Cols: 5}))
}

// layoutLetters spells A's and B's orders as an instance name does: n for
// row-major, t for column-major.
func layoutLetters(a, b Order) string {
	l := map[Order]string{RowMajor: "n", ColMajor: "t"}
	return l[a] + l[b]
}
