package gemmtest

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kgen-gpu/kgen/go/cuda"
	"github.com/kgen-gpu/kgen/go/gemm"
)

// shapes are the (unit, odd, square, skinny with a long K, large)
// and a few tiles each way with edge tiles and a partial last k tile, the
// edge tiles moved inside by odd rows and columns (257x383x77) and by
// multiples of 4, where 16-byte copies stay aligned (516x260x84: packed,
// every tile takes them, and tn's 128x128x16 tiles by columns run the
// kernel with the moves alone, kgen::sgemm::kEdgesMoved), and C shorter
// than most tiles one way and longer the other, with 20 whole k tiles
// (45x299x333, 299x45x333: in every layout every tile past M, or N, runs
// kgen::sgemm::kEdgesShort, whose copies leave out the rows past the
// matrix, k-contiguous or, on the element path, m/n-contiguous: their rows
// of shared memory keep stale values, which must reach no element of C).
var shapes = []struct{ M, N, K int }{
	{1, 1, 1}, {35, 79, 19}, {45, 299, 333}, {299, 45, 333}, {128, 128, 128}, {257, 383, 77}, {516, 260, 84},
	{1000, 1, 4097}, {1024, 1024, 1024}, {4096, 4096, 4096},
}

// scalings cover beta == 0 (C not read: it holds NaN) and a general case.
var scalings = []struct{ alpha, beta float32 }{{1, 0}, {-0.75, 1.5}}

var orders = []gemm.Order{gemm.RowMajor, gemm.ColMajor}

// crossCheck, when the cublas tag is built in, compares a result with cuBLAS.
var crossCheck func(t *testing.T, o operands, alpha, beta float32, got []float32, c gemm.Matrix)

// TestEveryInstanceAgainstCPU runs every instance built for this GPU on every
// shape and scaling, with packed operands; small shapes also run with padded
// strides and an offset that breaks 16-byte alignment, and 128^3 also with
// one operand's rows unaligned at a time.
func TestEveryInstanceAgainstCPU(t *testing.T) {
	needGPU(t)
	tested := map[string]bool{}
	for _, sh := range shapes {
		if testing.Short() && sh.M*sh.N*sh.K > 1<<30 {
			continue
		}
		p := getProblem(sh.M, sh.N, sh.K)
		for _, ao := range orders {
			for _, bo := range orders {
				layouts := [][3]storage{{{order: ao}, {order: bo}, {order: gemm.RowMajor}}}
				if sh.M*sh.N*sh.K <= 1<<30 {
					layouts = append(layouts, [3]storage{{order: ao, pad: 5, offset: 1}, {order: bo, pad: 3, offset: 3}, {order: gemm.RowMajor, pad: 2, offset: 1}})
				}
				if sh.M%128 == 0 && sh.N%128 == 0 && sh.M*sh.N*sh.K <= 1<<21 {
					// Whole tiles with one operand's rows unaligned: a
					// k-contiguous operand's keep the fast path (4-byte
					// copies), an m/n-contiguous one's take the element path.
					layouts = append(layouts,
						[3]storage{{order: ao, pad: 1}, {order: bo, pad: 4, offset: 4}, {order: gemm.RowMajor}},
						[3]storage{{order: ao, pad: 4}, {order: bo, pad: 1, offset: 2}, {order: gemm.RowMajor}})
				}
				for _, st := range layouts {
					o := place(t, p, st[0], st[1], st[2])
					for _, in := range gemm.Of(gemm.F32, eng.Instances()) {
						if in.A != ao || in.B != bo {
							continue
						}
						tested[in.Name] = true
						for _, sc := range scalings {
							name := fmt.Sprintf("%dx%dx%d/%s/A=%s,B=%s,C=%s/alpha=%g,beta=%g", sh.M, sh.N, sh.K, in.Name, st[0], st[1], st[2], sc.alpha, sc.beta)
							t.Run(name, func(t *testing.T) {
								c := o.freshC(t, sc.beta)
								require.NoError(t, eng.SGEMMWith(in.Name, nil, sc.alpha, o.a, o.b, sc.beta, c))
								got := download(t, c)
								rel := checkResult(t, o, sc.alpha, sc.beta, c, got)
								t.Logf("relative error %.3g", rel)
								if crossCheck != nil {
									crossCheck(t, o, sc.alpha, sc.beta, got, c)
								}
							})
						}
					}
				}
			}
		}
	}
	requireCovered(t, tested, tableInstances(t))
}

// flip is the other storage order.
func flip(o gemm.Order) gemm.Order {
	if o == gemm.RowMajor {
		return gemm.ColMajor
	}
	return gemm.RowMajor
}

// TestEveryInstanceWithColumnMajorC runs every instance by name on a
// column-major C. The kernel computes the row-major C^T = B^T * A^T, so an
// instance taking A and B in orders (x, y) serves A in order flip(y) and B in
// order flip(x).
func TestEveryInstanceWithColumnMajorC(t *testing.T) {
	needGPU(t)
	p := getProblem(35, 79, 19)
	tested := map[string]bool{}
	for _, in := range gemm.Of(gemm.F32, eng.Instances()) {
		sa, sb := storage{order: flip(in.B), pad: 2, offset: 1}, storage{order: flip(in.A), pad: 1}
		t.Run(fmt.Sprintf("%s/A=%s,B=%s", in.Name, sa, sb), func(t *testing.T) {
			o := place(t, p, sa, sb, storage{order: gemm.ColMajor, pad: 3, offset: 2})
			c := o.freshC(t, 0.5)
			require.NoError(t, eng.SGEMMWith(in.Name, nil, 2, o.a, o.b, 0.5, c))
			checkResult(t, o, 2, 0.5, c, download(t, c))
		})
		tested[in.Name] = true
	}
	requireCovered(t, tested, tableInstances(t))
}

// TestColumnMajorC checks the API's column-major C, which it runs as the
// transposed row-major product, with the default choice of instance.
func TestColumnMajorC(t *testing.T) {
	needGPU(t)
	p := getProblem(35, 79, 19)
	for _, ao := range orders {
		for _, bo := range orders {
			o := place(t, p, storage{order: ao}, storage{order: bo}, storage{order: gemm.ColMajor, pad: 1})
			c := o.freshC(t, 0.5)
			require.NoError(t, eng.SGEMM(nil, 2, o.a, o.b, 0.5, c))
			checkResult(t, o, 2, 0.5, c, download(t, c))
		}
	}
}

// TestDegenerateShapes: K == 0 scales C by beta; M == 0 or N == 0 do nothing.
func TestDegenerateShapes(t *testing.T) {
	needGPU(t)
	p := getProblem(35, 79, 0)
	o := place(t, p, storage{order: gemm.RowMajor}, storage{order: gemm.RowMajor}, storage{order: gemm.RowMajor})
	tested := map[string]bool{}
	for _, in := range gemm.Of(gemm.F32, eng.Instances()) {
		if in.A != gemm.RowMajor || in.B != gemm.RowMajor {
			continue
		}
		c := o.freshC(t, 1.5)
		require.NoError(t, eng.SGEMMWith(in.Name, nil, 1, o.a, o.b, 1.5, c))
		checkResult(t, o, 1, 1.5, c, download(t, c))
		tested[in.Name] = true
	}
	var nn []gemm.Instance
	for _, in := range tableInstances(t) {
		if in.A == gemm.RowMajor && in.B == gemm.RowMajor {
			nn = append(nn, in)
		}
	}
	requireCovered(t, tested, nn)
	for _, sh := range []struct{ M, N, K int }{{0, 5, 7}, {5, 0, 7}, {0, 0, 0}} {
		p := getProblem(sh.M, sh.N, sh.K)
		o := place(t, p, storage{order: gemm.RowMajor}, storage{order: gemm.RowMajor}, storage{order: gemm.RowMajor})
		c := o.freshC(t, 1)
		require.NoError(t, eng.SGEMM(nil, 1, o.a, o.b, 1, c))
		checkResult(t, o, 1, 1, c, download(t, c)) // the guard band must stay poisoned
	}
}

// splitKInstances are the built instances that split K; the test skips
// when there are none.
func splitKInstances(t *testing.T) []gemm.Instance {
	t.Helper()
	var split []gemm.Instance
	for _, in := range tableInstances(t) {
		if in.SplitK > 1 {
			split = append(split, in)
		}
	}
	if len(split) == 0 {
		t.Skip("no split-K instance in the spec")
	}
	return split
}

// TestSplitK runs the split-K instances on shapes where K is much larger than
// M and N (their use), with an odd K whose last k tile is partial, a K of a
// few k tiles (fewer than the splits asked for), and misaligned operands; the
// workspace grows between problems and is released by Close in between.
func TestSplitK(t *testing.T) {
	needGPU(t)
	tested := map[string]bool{}
	split := splitKInstances(t)
	// 768x768, 1024x1024 and 1031x1021 reach the size from which the
	// reduction reads float4s (kgen/common.cuh's kQuadReduce<F32>: 2^19
	// elements of fp32 C, reduce_quads_f32), with N a multiple of 4 and not.
	for _, sh := range []struct{ M, N, K int }{{7, 5, 23}, {64, 64, 16384}, {33, 17, 4099}, {129, 200, 20001}, {768, 768, 64}, {1024, 1024, 64}, {1031, 1021, 64}} {
		p := getProblem(sh.M, sh.N, sh.K)
		for _, in := range split {
			for _, st := range [][3]storage{
				{{order: in.A}, {order: in.B}, {order: gemm.RowMajor}},
				{{order: in.A, pad: 5, offset: 1}, {order: in.B, pad: 3, offset: 3}, {order: gemm.RowMajor, pad: 2, offset: 1}},
			} {
				o := place(t, p, st[0], st[1], st[2])
				for _, sc := range scalings {
					t.Run(fmt.Sprintf("%dx%dx%d/%s/C=%s/beta=%g", sh.M, sh.N, sh.K, in.Name, st[2], sc.beta), func(t *testing.T) {
						c := o.freshC(t, sc.beta)
						require.NoError(t, eng.SGEMMWith(in.Name, nil, sc.alpha, o.a, o.b, sc.beta, c))
						checkResult(t, o, sc.alpha, sc.beta, c, download(t, c))
					})
				}
				tested[in.Name] = true
			}
		}
		require.NoError(t, eng.Close(), "freeing the workspaces between problems")
	}
	requireCovered(t, tested, split)

	// The heuristic's own choice for a single tall-K tile and for a
	// skinny M (both split-K shapes on a GPU of many SMs) gives the same
	// results.
	for _, sh := range []struct{ M, N, K int }{{64, 64, 65536}, {128, 2048, 8192}} {
		p := getProblem(sh.M, sh.N, sh.K)
		o := place(t, p, storage{order: gemm.RowMajor}, storage{order: gemm.ColMajor}, storage{order: gemm.RowMajor})
		c := o.freshC(t, 1.5)
		require.NoError(t, eng.SGEMM(nil, -0.75, o.a, o.b, 1.5, c))
		checkResult(t, o, -0.75, 1.5, c, download(t, c))
	}
}

// TestTailSplit runs the instances that split their last wave's tiles in
// clusters (TailSplit) where that wave holds one tile past whole waves of
// two blocks an SM (2 x SMs + 1 tiles: a first grid of whole tiles, then the
// last one split 8 ways; on a GPU holding one block an SM, one past two
// whole waves), where every tile is in it (SMs + 1 tiles, which at two
// blocks an SM stay whole), both with K of 16 k tiles (8 splits of 2;
// behind whole tiles, a tile of 8 or fewer never splits), and at the tile
// counts whose tail,
// the whole problem, kgen::tail_plan splits 8, 6, 5 and 7 ways on a GPU
// of 132 multiprocessors at two blocks an SM (an H100, an H200: 9, 16 and
// 20 tiles of 32 k tiles, one round of clusters each alone on its SM; 31
// of 256, one round sharing them); whole tiles and tiles past M and N with
// a partial last k tile and misaligned rows. TestEveryInstanceAgainstCPU
// runs 2 splits with no first grid (1024^3) and 8 (1000 x 1 x 4097).
func TestTailSplit(t *testing.T) {
	needGPU(t)
	var tails []gemm.Instance
	for _, in := range tableInstances(t) {
		if in.TailSplit {
			tails = append(tails, in)
		}
	}
	if len(tails) == 0 {
		t.Skip("no instance splits its tail in the spec")
	}
	sms := dev.Info().Multiprocessors
	require.Positive(t, sms)
	tested := map[string]bool{}
	for _, tc := range []struct{ tiles, k int }{{2*sms + 1, 256}, {sms + 1, 256}, {9, 512}, {16, 512}, {20, 512}, {31, 4096}} {
		for _, sh := range []struct{ M, N, K int }{{128, 128 * tc.tiles, tc.k}, {125, 128*tc.tiles - 3, tc.k - 3}} {
			p := getProblem(sh.M, sh.N, sh.K)
			for _, in := range tails {
				st := [3]storage{{order: in.A}, {order: in.B}, {order: gemm.RowMajor}}
				if sh.M%128 != 0 {
					st = [3]storage{{order: in.A, pad: 5, offset: 1}, {order: in.B, pad: 3, offset: 3}, {order: gemm.RowMajor, pad: 2, offset: 1}}
				}
				o := place(t, p, st[0], st[1], st[2])
				for _, sc := range scalings {
					t.Run(fmt.Sprintf("%dx%dx%d/%s/beta=%g", sh.M, sh.N, sh.K, in.Name, sc.beta), func(t *testing.T) {
						c := o.freshC(t, sc.beta)
						require.NoError(t, eng.SGEMMWith(in.Name, nil, sc.alpha, o.a, o.b, sc.beta, c))
						checkResult(t, o, sc.alpha, sc.beta, c, download(t, c))
					})
				}
				tested[in.Name] = true
			}
		}
	}
	requireCovered(t, tested, tails)
}

// TestStreamK runs the stream-K instances (StreamK) where their launches
// stream: one tile of 3 k tiles (3 blocks, the owner adding 2 partials),
// 6 tiles of 10 (60 blocks of one k tile each, 9 partials a tile), 40 of
// 17 (the shares crossing tiles), and 7 tiles past two whole waves of two
// blocks an SM (4 x SMs + 7 tiles: the whole ones first, then the 7 by
// stream-K; at one block an SM, past four), with rows padded to 16-byte
// multiples; and where they launch whole: the same shapes with misaligned
// rows, and tiles past M and N with a partial k tile. TestWorkspaceInGraphs
// replays them in a CUDA graph (the flags cleared for each launch).
func TestStreamK(t *testing.T) {
	needGPU(t)
	var streams []gemm.Instance
	for _, in := range tableInstances(t) {
		if in.StreamK {
			streams = append(streams, in)
		}
	}
	if len(streams) == 0 {
		t.Skip("no stream-K instance in the spec")
	}
	sms := dev.Info().Multiprocessors
	require.Positive(t, sms)
	misaligned := func(o gemm.Order, pad int) storage { return storage{order: o, pad: pad, offset: 1} }
	tested := map[string]bool{}
	for _, sh := range []struct{ M, N, K int }{{128, 128, 48}, {256, 384, 160}, {1024, 640, 272}, {128, 128 * (4*sms + 7), 256}, {125, 379, 253}} {
		p := getProblem(sh.M, sh.N, sh.K)
		for _, in := range streams {
			layouts := [][3]storage{
				{aligned(in.A), aligned(in.B), aligned(gemm.RowMajor)},
				{misaligned(in.A, 5), misaligned(in.B, 3), misaligned(gemm.RowMajor, 2)},
			}
			for _, st := range layouts {
				o := place(t, p, st[0], st[1], st[2])
				for _, sc := range scalings {
					t.Run(fmt.Sprintf("%dx%dx%d/%s/%s,%s/beta=%g", sh.M, sh.N, sh.K, in.Name, st[0], st[1], sc.beta), func(t *testing.T) {
						c := o.freshC(t, sc.beta)
						require.NoError(t, eng.SGEMMWith(in.Name, nil, sc.alpha, o.a, o.b, sc.beta, c))
						checkResult(t, o, sc.alpha, sc.beta, c, download(t, c))
					})
				}
			}
			tested[in.Name] = true
		}
	}
	requireCovered(t, tested, streams)
}

// aligned stores a matrix in order o with 4 floats of padding a row and no
// offset: where its stored rows are a multiple of 4 floats long, every row
// starts on 16 bytes, as stream-K's copies need.
func aligned(o gemm.Order) storage { return storage{order: o, pad: 4} }

// TestWorkspaceInGraphs captures every instance that needs a workspace
// (split-K, packing, stream-K: its flags cleared for each launch) into a
// CUDA graph on a stream that never ran it, so the launch takes the graph's
// own workspace,
// replays the graph twice with C reset in between, runs the instance
// eagerly on the same stream between the replays (the stream's workspace),
// and checks every result and the poison around C.
func TestWorkspaceInGraphs(t *testing.T) {
	needGPU(t)
	tested := map[string]bool{}
	split := splitKInstances(t)
	for _, in := range tableInstances(t) {
		if (in.Pack && in.SplitK == 1) || in.StreamK {
			split = append(split, in)
		}
	}
	odd := getProblem(33, 70, 4099)
	// Stream-K takes a workspace on whole tiles and k tiles with rows of
	// 16-byte multiples only: 6 tiles of 10 k tiles (60 blocks).
	whole := getProblem(256, 384, 160)
	const alpha, beta = -0.75, 1.5
	for _, in := range split {
		t.Run(in.Name, func(t *testing.T) {
			s, err := dev.NewStream()
			require.NoError(t, err)
			defer s.Destroy()
			st := [3]storage{{order: in.A, pad: 5, offset: 1}, {order: in.B, pad: 3, offset: 3}, {order: gemm.RowMajor, pad: 2, offset: 1}}
			p := odd
			if in.StreamK {
				st = [3]storage{aligned(in.A), aligned(in.B), aligned(gemm.RowMajor)}
				p = whole
			}
			o := place(t, p, st[0], st[1], st[2])
			c := o.freshC(t, beta)
			reset := func() { require.NoError(t, cuda.CopyFromHost(c.Buf, o.cImg)) }
			g, err := s.Capture(func() error { return eng.SGEMMWith(in.Name, s, alpha, o.a, o.b, beta, c) })
			require.NoError(t, err, "capture")
			defer g.Destroy()
			for replay := range 2 {
				reset()
				require.NoError(t, g.Launch(s))
				require.NoError(t, s.Synchronize())
				checkResult(t, o, alpha, beta, c, download(t, c))
				if replay == 0 {
					reset()
					require.NoError(t, eng.SGEMMWith(in.Name, s, alpha, o.a, o.b, beta, c))
					require.NoError(t, s.Synchronize())
					checkResult(t, o, alpha, beta, c, download(t, c))
				}
			}
			tested[in.Name] = true
		})
	}
	requireCovered(t, tested, split)
}
