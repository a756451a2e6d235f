package hgemmtest

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kgen-gpu/kgen/go/cuda"
	"github.com/kgen-gpu/kgen/go/f16"
	"github.com/kgen-gpu/kgen/go/gemm"
	"github.com/kgen-gpu/kgen/internal/compare"
	"github.com/kgen-gpu/kgen/internal/gputest"
)

var (
	dev    *cuda.Device
	eng    *gemm.Engine
	devErr error
)

func TestMain(m *testing.M) {
	dev, devErr = cuda.Open(0)
	if devErr == nil {
		eng, devErr = gemm.New(dev)
	}
	code := m.Run()
	if dev != nil {
		dev.Close()
	}
	os.Exit(code)
}

func needGPU(t *testing.T) {
	t.Helper()
	gputest.NeedDevice(t, devErr, cuda.ErrNoDevice)
}

var sentinel = f16.FromFloat32([]float32{-4321})[0].Float32()

func halves(rng *rand.Rand, n int) []float64 {
	out := make([]float64, n)
	vals := make([]float32, n)
	for i := range vals {
		vals[i] = float32(rng.Float64()*2 - 1)
	}
	for i, v := range f16.ToFloat32(f16.FromFloat32(vals)) {
		out[i] = float64(v)
	}
	return out
}

// place uploads a rows x cols matrix in order with padding and an offset,
// sentinel everywhere else.
func place(t *testing.T, vals []float64, rows, cols int, order gemm.Order, offset, pad int) gemm.Matrix {
	t.Helper()
	m, _ := placed(t, vals, rows, cols, order, offset, pad)
	return m
}

// placed is place, also returning the buffer's host image (to restore it).
func placed(t *testing.T, vals []float64, rows, cols int, order gemm.Order, offset, pad int) (gemm.Matrix, []float32) {
	t.Helper()
	m := gemm.Matrix{Rows: rows, Cols: cols, Order: order, Offset: offset}
	inner, outer := cols, rows
	if order == gemm.ColMajor {
		inner, outer = rows, cols
	}
	m.Stride = max(inner, 1) + pad
	img := make([]float32, offset+outer*m.Stride+9)
	for i := range img {
		img[i] = sentinel
	}
	for i := 0; i < rows; i++ {
		for j := 0; j < cols; j++ {
			img[at(m, i, j)] = float32(vals[i*cols+j])
		}
	}
	buf, err := dev.Alloc(2 * len(img))
	require.NoError(t, err)
	t.Cleanup(func() { buf.Free() })
	require.NoError(t, f16.Upload(buf, 0, img))
	m.Buf = buf
	return m, img
}

func at(m gemm.Matrix, i, j int) int {
	if m.Order == gemm.ColMajor {
		return m.Offset + j*m.Stride + i
	}
	return m.Offset + i*m.Stride + j
}

type shape struct{ m, n, k int }

var shapes = []shape{{1, 1, 1}, {35, 79, 19}, {128, 128, 128}, {1000, 1, 4097}, {1, 1000, 33}, {257, 129, 63}, {1024, 1024, 1024}}

// storage is where an operand lies in its buffer: elements before it, and
// past each row (or column) of it.
type storage struct{ offset, pad int }

// scaling is a product's alpha and beta.
type scaling struct{ alpha, beta float32 }

var (
	storages = []storage{{0, 0}, {1, 3}} // packed, and misaligned with padded strides
	scalings = []scaling{{1, 0}, {-0.75, 1.5}}
)

// problem is one product's operands on the host: A (m x k), B (k x n) and
// the C (m x n) that beta scales.
type problem struct {
	shape
	a, b, c0 []float64
}

func newProblem(rng *rand.Rand, sh shape) problem {
	return problem{sh, halves(rng, sh.m*sh.k), halves(rng, sh.k*sh.n), halves(rng, sh.m*sh.n)}
}

// gemmFunc is one way to run C = alpha * A * B + beta * C.
type gemmFunc func(alpha float32, a, b gemm.Matrix, beta float32, c gemm.Matrix) error

// runChecked places p's A, B and C in the orders ao, bo and co with storage
// st (C poisoned with NaN when beta is 0: it must not be read), runs f and
// checks C against the float64 product within model's bound, and the
// sentinel around it.
func runChecked(t *testing.T, p problem, ao, bo, co gemm.Order, st storage, sc scaling, model compare.DType, f gemmFunc) {
	t.Helper()
	A := place(t, p.a, p.m, p.k, ao, st.offset, st.pad)
	B := place(t, p.b, p.k, p.n, bo, st.offset, st.pad)
	cv := p.c0
	if sc.beta == 0 {
		cv = make([]float64, len(p.c0))
		for i := range cv {
			cv[i] = math.NaN()
		}
	}
	C := place(t, cv, p.m, p.n, co, st.offset, st.pad)
	require.NoError(t, f(sc.alpha, A, B, sc.beta, C))
	require.NoError(t, dev.Synchronize())
	check(t, model, p.m, p.n, p.k, p.a, p.b, p.c0, sc.alpha, sc.beta, C)
}

// named runs the instance called name.
func named(name string) gemmFunc {
	return func(alpha float32, a, b gemm.Matrix, beta float32, c gemm.Matrix) error {
		return eng.HGEMMWith(name, nil, alpha, a, b, beta, c)
	}
}

// TestEveryInstanceAgainstFloat64 runs every fp16 instance on every shape in
// its layout, packed and misaligned, with beta 0 (C poisoned with NaN) and
// beta != 0, and requires that all of them ran.
func TestEveryInstanceAgainstFloat64(t *testing.T) {
	needGPU(t)
	rng := rand.New(rand.NewPCG(9, 9))
	tested := map[string]bool{}
	for _, sh := range shapes {
		if testing.Short() && sh.m*sh.n*sh.k > 1<<22 {
			continue
		}
		p := newProblem(rng, sh)
		for _, in := range gemm.Of(gemm.F16, eng.Instances()) {
			for _, st := range storages {
				for _, sc := range scalings {
					name := fmt.Sprintf("%dx%dx%d/%s/off=%d/alpha=%g,beta=%g", sh.m, sh.n, sh.k, in.Name, st.offset, sc.alpha, sc.beta)
					t.Run(name, func(t *testing.T) {
						runChecked(t, p, in.A, in.B, gemm.RowMajor, st, sc, accuracy(in), named(in.Name))
						tested[in.Name] = true
					})
				}
			}
		}
	}
	cc, _ := eng.Arch()
	want := 0
	for _, in := range gemm.Of(gemm.F16, gemm.BuiltInstances()) {
		if in.Arch == cc {
			want++
		}
	}
	if want == 0 || len(tested) != want {
		t.Fatalf("%d fp16 instances passed on sm_%d, the generated table has %d", len(tested), cc, want)
	}
}

// accuracy is the error model of an instance's results: fp16 outputs with
// fp32 or fp16 accumulation.
func accuracy(in gemm.Instance) compare.DType {
	if in.Acc == gemm.F16 {
		return compare.F16Acc16
	}
	return compare.F16
}

// check compares the m x n C (of either order) with the float64 product
// alpha * a * b + beta * c0 within dt's bound, and requires every element of
// C's buffer outside C to hold the sentinel still.
func check(t *testing.T, dt compare.DType, m, n, k int, a, b, c0 []float64, alpha, beta float32, C gemm.Matrix) {
	t.Helper()
	outer := m
	if C.Order == gemm.ColMajor {
		outer = n
	}
	size := C.Offset + outer*C.Stride + 9
	got := make([]float32, size)
	require.NoError(t, f16.Download(got, C.Buf, 0))
	inside := make([]bool, size)
	bad := 0
	for i := 0; i < m; i++ {
		for j := 0; j < n; j++ {
			var dot, scale float64
			for l := 0; l < k; l++ {
				dot += a[i*k+l] * b[l*n+j]
				scale += math.Abs(a[i*k+l] * b[l*n+j])
			}
			ref := float64(alpha) * dot
			scale *= math.Abs(float64(alpha))
			if beta != 0 {
				ref += float64(beta) * c0[i*n+j]
				scale += math.Abs(float64(beta) * c0[i*n+j])
			}
			p := at(C, i, j)
			inside[p] = true
			if bound := compare.DotBound(dt, k, scale, ref); !compare.Within(float64(got[p]), ref, bound) {
				if bad < 5 {
					t.Errorf("C[%d,%d] = %v, want %v (bound %.3g)", i, j, got[p], ref, bound)
				}
				bad++
			}
		}
	}
	for p, in := range inside {
		if !in && got[p] != sentinel {
			t.Fatalf("element %d of C's buffer, outside C, was overwritten with %v", p, got[p])
		}
	}
	if bad > 0 {
		t.Fatalf("%d of %d elements out of bounds", bad, m*n)
	}
}

var orders = []gemm.Order{gemm.RowMajor, gemm.ColMajor}

// TestEngineChoice runs HGEMM with the engine's own choice of instance, the
// call users make, accumulating in fp32 (HGEMM) and in fp16 (GEMMAcc), for
// every order of A, B and C (a column-major C runs as C^T = B^T * A^T),
// packed and misaligned, with beta 0 (C poisoned with NaN) and beta != 0,
// on odd shapes and on degenerate ones: K == 0 scales C by beta, M == 0 or
// N == 0 leave every element alone.
func TestEngineChoice(t *testing.T) {
	needGPU(t)
	rng := rand.New(rand.NewPCG(10, 10))
	engines := []struct {
		acc   gemm.DType
		model compare.DType
		run   gemmFunc
	}{
		{gemm.F32, compare.F16, func(alpha float32, a, b gemm.Matrix, beta float32, c gemm.Matrix) error {
			return eng.HGEMM(nil, alpha, a, b, beta, c)
		}},
		{gemm.F16, compare.F16Acc16, func(alpha float32, a, b gemm.Matrix, beta float32, c gemm.Matrix) error {
			return eng.GEMMAcc(gemm.F16, gemm.F16, nil, alpha, a, b, beta, c)
		}},
	}
	for _, sh := range []shape{{1, 1, 1}, {7, 35, 4097}, {35, 79, 19}, {257, 129, 63}, {300, 2000, 40}, {6, 5, 0}, {0, 5, 7}, {5, 0, 7}} {
		p := newProblem(rng, sh)
		for _, e := range engines {
			for _, o := range orderTriples() {
				for _, st := range storages {
					for _, sc := range scalings {
						name := fmt.Sprintf("%dx%dx%d/acc=%s/A=%s,B=%s,C=%s/off=%d/alpha=%g,beta=%g",
							sh.m, sh.n, sh.k, e.acc, o[0], o[1], o[2], st.offset, sc.alpha, sc.beta)
						t.Run(name, func(t *testing.T) {
							runChecked(t, p, o[0], o[1], o[2], st, sc, e.model, e.run)
						})
					}
				}
			}
		}
	}
}

// orderTriples is every combination of the orders of A, B and C.
func orderTriples() [][3]gemm.Order {
	var out [][3]gemm.Order
	for _, a := range orders {
		for _, b := range orders {
			for _, c := range orders {
				out = append(out, [3]gemm.Order{a, b, c})
			}
		}
	}
	return out
}

// TestEveryInstanceWithColumnMajorC runs every fp16 instance by name on a
// column-major C. The kernel computes the row-major C^T = B^T * A^T, so an
// instance taking A and B in orders (x, y) serves A in order flip(y) and B
// in order flip(x), and the engine runs the name as given.
func TestEveryInstanceWithColumnMajorC(t *testing.T) {
	needGPU(t)
	p := newProblem(rand.New(rand.NewPCG(11, 11)), shape{35, 79, 19})
	flip := func(o gemm.Order) gemm.Order {
		if o == gemm.RowMajor {
			return gemm.ColMajor
		}
		return gemm.RowMajor
	}
	for _, in := range gemm.Of(gemm.F16, eng.Instances()) {
		t.Run(in.Name, func(t *testing.T) {
			runChecked(t, p, flip(in.B), flip(in.A), gemm.ColMajor, storages[1], scaling{2, 0.5}, accuracy(in), named(in.Name))
		})
	}
}

// splitInstances are the fp16 instances whose blocks split k.
func splitInstances(t *testing.T) []gemm.Instance {
	t.Helper()
	var out []gemm.Instance
	for _, in := range gemm.Of(gemm.F16, eng.Instances()) {
		if in.SplitK > 1 {
			out = append(out, in)
		}
	}
	require.NotEmpty(t, out, "the spec builds split-K fp16 instances")
	return out
}

// splits is how many blocks share a C tile's k range for k: at most the
// instance's SplitK, one per k tile.
func splits(in gemm.Instance, k int) int {
	return max(1, min(in.SplitK, (k+in.Block[2]-1)/in.Block[2]))
}

// TestSplitK runs every split-K instance on shapes whose K is long next to
// M and N (their use), with a K whose last k tile is partial and one of a
// single k tile, packed and misaligned, with beta 0 (C poisoned with NaN)
// and beta != 0, and requires that each ran with its k range split.
func TestSplitK(t *testing.T) {
	needGPU(t)
	rng := rand.New(rand.NewPCG(12, 12))
	split := splitInstances(t)
	multi := map[string]bool{}
	// 1024x1024 and 1031x1021 reach the size from which the reduction
	// reads float4s (kgen/common.cuh's kQuadReduce<F16>: 2^20 elements),
	// with N a multiple of 4 and not; -short keeps them (K is short) and
	// leaves out long K.
	for _, sh := range []shape{{7, 5, 23}, {33, 17, 4099}, {129, 70, 4099}, {64, 64, 16384}, {1024, 1024, 64}, {1031, 1021, 64}} {
		if testing.Short() && sh.m*sh.n*sh.k > 1<<22 && sh.k > 64 {
			continue
		}
		p := newProblem(rng, sh)
		for _, in := range split {
			for _, st := range storages {
				for _, sc := range scalings {
					name := fmt.Sprintf("%dx%dx%d/%s/off=%d/alpha=%g,beta=%g", sh.m, sh.n, sh.k, in.Name, st.offset, sc.alpha, sc.beta)
					t.Run(name, func(t *testing.T) {
						runChecked(t, p, in.A, in.B, gemm.RowMajor, st, sc, accuracy(in), named(in.Name))
						if splits(in, sh.k) > 1 {
							multi[in.Name] = true
						}
					})
				}
			}
		}
	}
	for _, in := range split {
		require.True(t, multi[in.Name], "%s never ran with its k range split", in.Name)
	}
}

// TestSplitKInGraphs captures every split-K instance into a CUDA graph on a
// stream that never ran it, so the launch takes the graph's own workspace,
// replays the graph twice with C restored in between, runs the instance
// eagerly on the same stream between the replays (the stream's workspace),
// and checks every result and the sentinel around C.
func TestSplitKInGraphs(t *testing.T) {
	needGPU(t)
	p := newProblem(rand.New(rand.NewPCG(13, 13)), shape{33, 70, 4099})
	const alpha, beta = -0.75, 1.5
	for _, in := range splitInstances(t) {
		t.Run(in.Name, func(t *testing.T) {
			s, err := dev.NewStream()
			require.NoError(t, err)
			defer s.Destroy()
			a := place(t, p.a, p.m, p.k, in.A, 1, 5)
			b := place(t, p.b, p.k, p.n, in.B, 3, 3)
			c, img := placed(t, p.c0, p.m, p.n, gemm.RowMajor, 1, 2)
			reset := func() { require.NoError(t, f16.Upload(c.Buf, 0, img)) }
			g, err := s.Capture(func() error { return eng.HGEMMWith(in.Name, s, alpha, a, b, beta, c) })
			require.NoError(t, err, "capture")
			defer g.Destroy()
			for replay := range 2 {
				reset()
				require.NoError(t, g.Launch(s))
				require.NoError(t, s.Synchronize())
				check(t, accuracy(in), p.m, p.n, p.k, p.a, p.b, p.c0, alpha, beta, c)
				if replay == 0 {
					reset()
					require.NoError(t, eng.HGEMMWith(in.Name, s, alpha, a, b, beta, c))
					require.NoError(t, s.Synchronize())
					check(t, accuracy(in), p.m, p.n, p.k, p.a, p.b, p.c0, alpha, beta, c)
				}
			}
		})
	}
}
