package hgemvtest

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
	"github.com/kgen-gpu/kgen/go/gemv"
	"github.com/kgen-gpu/kgen/internal/compare"
	"github.com/kgen-gpu/kgen/internal/gputest"
)

var (
	dev    *cuda.Device
	eng    *gemv.Engine
	devErr error
)

func TestMain(m *testing.M) {
	dev, devErr = cuda.Open(0)
	if devErr == nil {
		eng, devErr = gemv.New(dev)
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

// sentinel fills everything around the operands; a kernel that writes
// outside y changes it.
var sentinel = f16.FromFloat32([]float32{-12345})[0]

// problem is one HGEMV with its float64 reference inputs (the fp16 values,
// widened).
type problem struct {
	n, k, m  int
	a, x, y0 []float64 // a: n x k (op(A)), x: m x k, y0: m x n
}

// halves draws fp16 values: mostly in [-1, 1], with some +-65504,
// subnormals and exact zeros.
func halves(rng *rand.Rand, count int) []float64 {
	out := make([]float64, count)
	for i := range out {
		switch r := rng.IntN(100); {
		case r == 0:
			out[i] = 65504 * float64(1-2*rng.IntN(2))
		case r == 1:
			out[i] = 0x1p-24 * float64(1+rng.IntN(1023)) // subnormal
		case r == 2:
			out[i] = 0
		default:
			out[i] = rng.Float64()*2 - 1
		}
		out[i] = float64(f16.ToFloat32(f16.FromFloat32([]float32{float32(out[i])}))[0])
	}
	return out
}

// layout places op(A) (n x k) in a buffer: row-major (lda >= k) or its
// transpose stored k x n (lda >= n), at an element offset, with padding.
type layout struct {
	transposed  bool
	offset, pad int
}

// image is a buffer's contents: vals at place(i), the sentinel elsewhere.
func image(vals []float64, total int, place func(i int) int) []float32 {
	img := make([]float32, total)
	for i := range img {
		img[i] = sentinel.Float32()
	}
	for i, v := range vals {
		img[place(i)] = float32(v)
	}
	return img
}

func upload(t *testing.T, img []float32) *cuda.Buffer {
	t.Helper()
	buf, err := dev.Alloc(2 * max(len(img), 1))
	require.NoError(t, err)
	t.Cleanup(func() { buf.Free() })
	require.NoError(t, f16.Upload(buf, 0, img))
	return buf
}

// placed is a problem laid out in device buffers, with y's buffer as
// uploaded (y0 inside, the sentinel around it).
type placed struct {
	a, x, y gemm.Matrix
	yImage  []float32
}

// place uploads the problem in layout l; with beta 0, y holds NaN, which
// must not be read.
func place(t *testing.T, p problem, l layout, beta float32) placed {
	t.Helper()
	rows, cols := p.n, p.k // op(A)
	a := gemm.Matrix{Rows: rows, Cols: cols, Offset: l.offset}
	inner, outer := cols, rows
	if l.transposed {
		a.Order = gemm.ColMajor
		inner, outer = rows, cols
	}
	a.Stride = max(inner, 1) + l.pad
	a.Buf = upload(t, image(p.a, l.offset+outer*a.Stride+5, func(i int) int {
		r, c := i/cols, i%cols
		if l.transposed {
			return l.offset + c*a.Stride + r
		}
		return l.offset + r*a.Stride + c
	}))
	ldx, ldy := p.k+l.pad, p.n+l.pad
	x := gemm.Matrix{Rows: p.m, Cols: p.k, Offset: l.offset, Stride: max(ldx, 1)}
	x.Buf = upload(t, image(p.x, l.offset+p.m*x.Stride+5, func(i int) int { return l.offset + (i/p.k)*x.Stride + i%p.k }))
	y := gemm.Matrix{Rows: p.m, Cols: p.n, Offset: l.offset, Stride: max(ldy, 1)}
	y0 := p.y0
	if beta == 0 {
		y0 = make([]float64, len(p.y0))
		for i := range y0 {
			y0[i] = math.NaN() // must not be read
		}
	}
	yImage := image(y0, l.offset+p.m*y.Stride+5, func(i int) int { return l.offset + (i/p.n)*y.Stride + i%p.n })
	y.Buf = upload(t, yImage)
	return placed{a: a, x: x, y: y, yImage: yImage}
}

// resetY uploads y's buffer again as place left it.
func (q placed) resetY(t *testing.T) {
	t.Helper()
	require.NoError(t, f16.Upload(q.y.Buf, 0, q.yImage))
}

// run places the problem, runs instance name with alpha and beta, and
// checks y against the reference and the sentinel around it.
func run(t *testing.T, name string, p problem, l layout, alpha, beta float32) {
	t.Helper()
	q := place(t, p, l, beta)
	require.NoError(t, eng.HGEMVWith(name, nil, alpha, q.a, q.x, beta, q.y))
	check(t, p, l, alpha, beta, q)
}

// check waits for the device and compares y with the float64 reference,
// and the sentinel around it with the sentinel.
func check(t *testing.T, p problem, l layout, alpha, beta float32, q placed) {
	t.Helper()
	require.NoError(t, dev.Synchronize())
	ySize := len(q.yImage)
	got := make([]float32, ySize)
	require.NoError(t, f16.Download(got, q.y.Buf, 0))

	inside := make([]bool, ySize)
	bad := 0
	for i := 0; i < p.m; i++ {
		for r := 0; r < p.n; r++ {
			at := l.offset + i*q.y.Stride + r
			inside[at] = true
			var dot, scale float64
			for c := 0; c < p.k; c++ {
				dot += p.a[r*p.k+c] * p.x[i*p.k+c]
				scale += math.Abs(p.a[r*p.k+c] * p.x[i*p.k+c])
			}
			ref := float64(alpha) * dot
			scale *= math.Abs(float64(alpha))
			if beta != 0 {
				ref += float64(beta) * p.y0[i*p.n+r]
				scale += math.Abs(float64(beta) * p.y0[i*p.n+r])
			}
			bound := compare.DotBound(compare.F16, p.k, scale, ref)
			want := ref
			if math.Abs(ref)-bound > 65520 { // rounds to infinity whatever the accumulation error
				want = math.Inf(int(math.Copysign(1, ref)))
			} else if math.Abs(ref)+bound >= 65520 {
				continue // at the overflow threshold: either answer is right
			}
			if !compare.Within(float64(got[at]), want, bound) {
				if bad < 5 {
					t.Errorf("y[%d][%d] = %v, want %v (bound %.3g)", i, r, got[at], want, bound)
				}
				bad++
			}
		}
	}
	for at, in := range inside {
		if !in && got[at] != sentinel.Float32() {
			t.Fatalf("element %d of y's buffer, outside y, was overwritten with %v", at, got[at])
		}
	}
	if bad > 0 {
		t.Fatalf("%d of %d outputs out of bounds", bad, p.m*p.n)
	}
}

// shapes: odd and degenerate ones (the element paths: k odd makes every
// row misaligned), then whole 256-k stages of the staged kernels with a k
// tail of one step and of 248 (k = 1544, 504; rows past n in the last
// block at n = 129), then a large one.
var shapes = []struct{ n, k int }{
	{1, 1}, {7, 7}, {1, 4097}, {4097, 1}, {35, 4095}, {64, 4097}, {33, 256}, {40, 1544}, {129, 504}, {4096, 4096},
}

// TestEveryInstance runs every instance on every shape, batch and layout
// it takes, and requires that all of them ran.
func TestEveryInstance(t *testing.T) {
	needGPU(t)
	rng := rand.New(rand.NewPCG(1, 2))
	tested := map[string]bool{}
	for _, sh := range shapes {
		if testing.Short() && sh.n*sh.k > 1<<16 {
			continue
		}
		for _, m := range []int{1, 3, 8} {
			p := problem{n: sh.n, k: sh.k, m: m, a: halves(rng, sh.n*sh.k), x: halves(rng, m*sh.k), y0: halves(rng, m*sh.n)}
			for _, in := range eng.Instances() {
				for _, l := range []layout{{transposed: in.Transposed}, {transposed: in.Transposed, offset: 1, pad: 3}} {
					for _, sc := range []struct{ alpha, beta float32 }{{1, 0}, {0.5, -1.5}} {
						name := fmt.Sprintf("%s/%dx%d/m=%d/off=%d/alpha=%g,beta=%g", in.Name, sh.n, sh.k, m, l.offset, sc.alpha, sc.beta)
						t.Run(name, func(t *testing.T) {
							run(t, in.Name, p, l, sc.alpha, sc.beta)
							tested[in.Name] = true
						})
					}
				}
			}
		}
	}
	cc, _ := eng.Arch()
	want := 0
	for _, in := range gemv.BuiltInstances() {
		if in.Arch == cc {
			want++
		}
	}
	if want == 0 || len(tested) != want {
		t.Fatalf("%d instances passed on sm_%d, the generated table has %d", len(tested), cc, want)
	}
}

// TestOverflowBecomesInfinity: outputs beyond fp16's range are +-Inf.
func TestOverflowBecomesInfinity(t *testing.T) {
	needGPU(t)
	const n, k = 5, 64
	p := problem{n: n, k: k, m: 1, a: make([]float64, n*k), x: make([]float64, k), y0: make([]float64, n)}
	for i := range p.a {
		p.a[i] = 65504 * float64(1-2*(i/k%2))
	}
	for i := range p.x {
		p.x[i] = 2
	}
	for _, in := range eng.Instances() {
		t.Run(in.Name, func(t *testing.T) { run(t, in.Name, p, layout{transposed: in.Transposed}, 1, 0) })
	}
}

// TestDefaultChoice runs the engine's own pick on the LLM shapes users have.
func TestDefaultChoice(t *testing.T) {
	needGPU(t)
	if testing.Short() {
		t.Skip("-short: large shapes")
	}
	rng := rand.New(rand.NewPCG(3, 4))
	for _, sh := range []struct{ n, k int }{{4096, 4096}, {11008, 4096}, {4096, 11008}} {
		for _, m := range []int{1, 2, 4, 8} {
			p := problem{n: sh.n, k: sh.k, m: m, a: halves(rng, sh.n*sh.k), x: halves(rng, m*sh.k), y0: halves(rng, m*sh.n)}
			for _, tr := range []bool{false, true} {
				run(t, "", p, layout{transposed: tr}, 1, 0)
			}
		}
	}
}

// TestChainedCallsSeeEarlierOutputs queues y = A x + y six times on one
// stream without waiting between the calls, for every instance: each call
// reads the y the call before it wrote. On sm_90 a kernel may start before
// the previous one finishes (programmatic dependent launch), so this fails
// if a kernel reads y before the earlier kernel is done with it. A and x
// hold -1, 0 and 1, so every sum is an integer that fp32 holds exactly, and
// the reference rounds y to fp16 after each call as the kernel does: the
// result must match exactly.
func TestChainedCallsSeeEarlierOutputs(t *testing.T) {
	needGPU(t)
	const n, k, calls = 1031, 2047, 6
	rng := rand.New(rand.NewPCG(5, 6))
	trit := func(count int) []float64 {
		v := make([]float64, count)
		for i := range v {
			v[i] = float64(rng.IntN(3) - 1)
		}
		return v
	}
	av, xv, y0 := trit(n*k), trit(k), trit(n)
	want := append([]float64(nil), y0...)
	for range calls {
		sums := make([]float32, n)
		for r := range n {
			dot := want[r]
			for c := range k {
				dot += av[r*k+c] * xv[c]
			}
			sums[r] = float32(dot)
		}
		for r, v := range f16.ToFloat32(f16.FromFloat32(sums)) {
			want[r] = float64(v)
		}
	}
	s, err := dev.NewStream()
	require.NoError(t, err)
	defer s.Destroy()
	for _, in := range eng.Instances() {
		t.Run(in.Name, func(t *testing.T) {
			a := gemm.Matrix{Rows: n, Cols: k, Stride: k}
			place := func(i int) int { return i }
			if in.Transposed {
				a.Order, a.Stride = gemm.ColMajor, n
				place = func(i int) int { return (i%k)*n + i/k }
			}
			a.Buf = upload(t, image(av, n*k, place))
			x := gemm.Matrix{Rows: 1, Cols: k, Stride: k, Buf: upload(t, image(xv, k, func(i int) int { return i }))}
			y := gemm.Matrix{Rows: 1, Cols: n, Stride: n, Buf: upload(t, image(y0, n, func(i int) int { return i }))}
			for range calls {
				require.NoError(t, eng.HGEMVWith(in.Name, s, 1, a, x, 1, y))
			}
			require.NoError(t, s.Synchronize())
			got := make([]float32, n)
			require.NoError(t, f16.Download(got, y.Buf, 0))
			for r := range n {
				if float64(got[r]) != want[r] {
					t.Fatalf("y[%d] = %v after %d chained calls, want %v", r, got[r], calls, want[r])
				}
			}
		})
	}
}

// TestWeightsWrittenByTheKernelBefore runs every instance on an A that the
// kernel just before it on the stream wrote: a GEMV of 8 vectors (the
// engine's pick) whose 8 x 4096 outputs are the instance's A, 8 outputs x
// 4096 k row-major or 4096 outputs x 8 k transposed, over A's buffer
// filled with NaN. On sm_90 the instance may start while that GEMV runs
// and asks L2 for its first bytes of A before it waits (kgen::warm_l2); a
// read of A before the wait would see NaN. Trits make every sum an integer
// that fp32 holds exactly, so the result must match the float64 reference
// rounded to fp16.
func TestWeightsWrittenByTheKernelBefore(t *testing.T) {
	needGPU(t)
	const vecs, long, kp, rounds = 8, 4096, 16, 3
	rng := rand.New(rand.NewPCG(7, 8))
	trit := func(count int) []float64 {
		v := make([]float64, count)
		for i := range v {
			v[i] = float64(rng.IntN(3) - 1)
		}
		return v
	}
	// The producer: y_p (vecs x long) = X_p (vecs x kp) A_p^T, A_p long x kp.
	ap, xp := trit(long*kp), trit(vecs*kp)
	yp := make([]float64, vecs*long) // yp[i*long+j]: vector i, output j
	for i := range vecs {
		for j := range long {
			for c := range kp {
				yp[i*long+j] += ap[j*kp+c] * xp[i*kp+c]
			}
		}
	}
	s, err := dev.NewStream()
	require.NoError(t, err)
	defer s.Destroy()
	pa := gemm.Matrix{Rows: long, Cols: kp, Stride: kp, Buf: upload(t, image(ap, long*kp, func(i int) int { return i }))}
	px := gemm.Matrix{Rows: vecs, Cols: kp, Stride: kp, Buf: upload(t, image(xp, vecs*kp, func(i int) int { return i }))}
	nan := make([]float32, vecs*long)
	for i := range nan {
		nan[i] = float32(math.NaN())
	}
	for _, in := range eng.Instances() {
		t.Run(in.Name, func(t *testing.T) {
			// The instance's A is the producer's y: vector i, output j is row i,
			// column j (row-major, 8 x long) or k = i, output j (transposed).
			a := gemm.Matrix{Rows: vecs, Cols: long, Stride: long, Buf: upload(t, nan)}
			n, k := vecs, long
			at := func(r, c int) float64 { return yp[r*long+c] }
			if in.Transposed {
				a.Rows, a.Cols, a.Order = long, vecs, gemm.ColMajor
				n, k = long, vecs
				at = func(r, c int) float64 { return yp[c*long+r] }
			}
			xv := trit(k)
			want := make([]float32, n)
			for r := range n {
				for c := range k {
					want[r] += float32(at(r, c) * xv[c]) // integers below 2^24: exact
				}
			}
			want = f16.ToFloat32(f16.FromFloat32(want))
			x := gemm.Matrix{Rows: 1, Cols: k, Stride: k, Buf: upload(t, image(xv, k, func(i int) int { return i }))}
			y := gemm.Matrix{Rows: 1, Cols: n, Stride: n, Buf: upload(t, make([]float32, n))}
			py := gemm.Matrix{Rows: vecs, Cols: long, Stride: long, Buf: a.Buf}
			for round := range rounds {
				require.NoError(t, f16.Upload(a.Buf, 0, nan))
				require.NoError(t, eng.HGEMV(s, 1, pa, px, 0, py))
				require.NoError(t, eng.HGEMVWith(in.Name, s, 1, a, x, 0, y))
				require.NoError(t, s.Synchronize())
				got := make([]float32, n)
				require.NoError(t, f16.Download(got, y.Buf, 0))
				for r := range n {
					if got[r] != want[r] {
						t.Fatalf("round %d: y[%d] = %v, want %v", round, r, got[r], want[r])
					}
				}
			}
		})
	}
}

// TestSplitKInGraphs captures every split-K instance into a CUDA graph on a
// stream that never ran it (so its scratch is made during the capture),
// replays the graph twice with y reset in between (each replay must find
// its tickets zero again), runs the instance eagerly on the same stream
// between the replays (its own scratch), and checks every result.
func TestSplitKInGraphs(t *testing.T) {
	needGPU(t)
	rng := rand.New(rand.NewPCG(9, 9))
	tested := 0
	for _, in := range eng.Instances() {
		if in.SplitK < 2 {
			continue
		}
		tested++
		t.Run(in.Name, func(t *testing.T) {
			s, err := dev.NewStream()
			require.NoError(t, err)
			defer s.Destroy()
			const n, k, m = 300, 1000, 3
			p := problem{n: n, k: k, m: m, a: halves(rng, n*k), x: halves(rng, m*k), y0: halves(rng, m*n)}
			l := layout{transposed: in.Transposed, offset: 1, pad: 3}
			const alpha, beta = 0.5, -1.5
			q := place(t, p, l, beta)
			g, err := s.Capture(func() error { return eng.HGEMVWith(in.Name, s, alpha, q.a, q.x, beta, q.y) })
			require.NoError(t, err, "capture")
			defer g.Destroy()
			for replay := range 2 {
				q.resetY(t)
				require.NoError(t, g.Launch(s))
				require.NoError(t, s.Synchronize())
				check(t, p, l, alpha, beta, q)
				if replay == 0 {
					q.resetY(t)
					require.NoError(t, eng.HGEMVWith(in.Name, s, alpha, q.a, q.x, beta, q.y))
					require.NoError(t, s.Synchronize())
					check(t, p, l, alpha, beta, q)
				}
			}
		})
	}
	if tested == 0 {
		t.Fatal("no split-K instance was built")
	}
}
