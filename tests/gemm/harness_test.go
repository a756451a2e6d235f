package gemmtest

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kgen-gpu/kgen/go/cpuref"
	"github.com/kgen-gpu/kgen/go/cuda"
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
	if eng != nil {
		_ = eng.Close() // the split-K workspaces; the device closes next anyway
	}
	if dev != nil {
		dev.Close()
	}
	os.Exit(code)
}

// needGPU skips the test, saying why, when there is no GPU, and fails it
// when there is none but KGEN_REQUIRE_GPU=1, or when the GPU is unusable.
func needGPU(t *testing.T) {
	t.Helper()
	gputest.NeedDevice(t, devErr, cuda.ErrNoDevice)
}

// tableInstances are the rows of the generated instance table for the arch
// the engine runs, taken from the table itself rather than from the engine:
// what every per-instance test must cover.
func tableInstances(t *testing.T) []gemm.Instance {
	t.Helper()
	arch, _ := eng.Arch()
	var out []gemm.Instance
	for _, in := range gemm.Of(gemm.F32, gemm.BuiltInstances()) {
		if in.Arch == arch {
			out = append(out, in)
		}
	}
	require.NotEmpty(t, out, "the generated table has no instance for sm_%d", arch)
	return out
}

// requireCovered fails t unless the instances in tested are exactly those of
// want, so that a test that ran no instance, or not all of them, fails.
func requireCovered(t *testing.T, tested map[string]bool, want []gemm.Instance) {
	t.Helper()
	require.NotEmpty(t, tested, "no instance was tested")
	var missing []string
	for _, in := range want {
		if !tested[in.Name] {
			missing = append(missing, in.Name)
		}
	}
	require.Empty(t, missing, "instances of the generated table that were not tested")
	require.Len(t, tested, len(want), "instances tested %v; the table has %d", tested, len(want))
}

// problem is one shape's random inputs and their float64 reference.
type problem struct {
	M, N, K  int
	A, B, C0 []float32 // logical, row-major, packed
	AB       []float64 // A * B, row-major
	rowA     []float64 // norms of A's rows and B's columns, for error bounds
	colB     []float64
}

var (
	problemsMu sync.Mutex
	problems   = map[[3]int]*problem{}
)

// getProblem makes (once per shape) random inputs in [-1, 1), never zeros,
// and their product in float64.
func getProblem(m, n, k int) *problem {
	problemsMu.Lock()
	defer problemsMu.Unlock()
	key := [3]int{m, n, k}
	if p, ok := problems[key]; ok {
		return p
	}
	rng := rand.New(rand.NewPCG(uint64(m*1_000_003+n), uint64(k)))
	fill := func(n int) []float32 {
		s := make([]float32, n)
		for i := range s {
			s[i] = float32(rng.Float64()*2 - 1)
		}
		return s
	}
	p := &problem{M: m, N: n, K: k, A: fill(m * k), B: fill(k * n), C0: fill(m * n)}
	a := cpuref.Matrix{Rows: m, Cols: k, Stride: max(k, 1), Data: p.A}
	b := cpuref.Matrix{Rows: k, Cols: n, Stride: max(n, 1), Data: p.B}
	p.AB = cpuref.MatMul(a, b)
	p.rowA, p.colB = cpuref.RowNorms(a), cpuref.ColNorms(b)
	problems[key] = p
	return p
}

// storage is how an operand is laid out in device memory.
type storage struct {
	order  gemm.Order
	pad    int // extra elements per stored row or column
	offset int // elements before element (0, 0)
}

func (s storage) String() string {
	return fmt.Sprintf("%s+%d@%d", map[gemm.Order]string{gemm.RowMajor: "row", gemm.ColMajor: "col"}[s.order], s.pad, s.offset)
}

// nanBits is the poison every output buffer is filled with.
var nanBits = math.Float32bits(float32(math.NaN()))

// hostImage lays a logical row-major rows x cols matrix out as st says, in a
// host slice that is the whole device buffer; elements outside the matrix
// hold the poison, so writes out of bounds are caught.
func hostImage(vals []float32, rows, cols int, st storage) ([]float32, gemm.Matrix) {
	m := gemm.Matrix{Rows: rows, Cols: cols, Order: st.order, Offset: st.offset}
	inner, outer := cols, rows
	if st.order == gemm.ColMajor {
		inner, outer = rows, cols
	}
	m.Stride = max(inner, 1) + st.pad
	size := st.offset + outer*m.Stride + 7 // guard band after the last element
	img := make([]float32, size)
	for i := range img {
		img[i] = math.Float32frombits(nanBits)
	}
	for i := 0; i < rows; i++ {
		for j := 0; j < cols; j++ {
			img[index(m, i, j)] = vals[i*cols+j]
		}
	}
	return img, m
}

// index is the position of element (i, j) of m in its buffer.
func index(m gemm.Matrix, i, j int) int {
	if m.Order == gemm.ColMajor {
		return m.Offset + j*m.Stride + i
	}
	return m.Offset + i*m.Stride + j
}

// upload copies a host image into a new device buffer of its size.
func upload(t *testing.T, img []float32) *cuda.Buffer {
	t.Helper()
	buf, err := dev.Alloc(len(img) * 4)
	require.NoError(t, err)
	t.Cleanup(func() { buf.Free() })
	require.NoError(t, cuda.CopyFromHost(buf, img))
	return buf
}

// operands are a problem's inputs placed on the device in given storages.
type operands struct {
	p         *problem
	a, b      gemm.Matrix
	cImg      []float32 // C's host image: C0 inside, poison around
	cTemplate gemm.Matrix
}

func place(t *testing.T, p *problem, sa, sb, sc storage) operands {
	t.Helper()
	aImg, a := hostImage(p.A, p.M, p.K, sa)
	bImg, b := hostImage(p.B, p.K, p.N, sb)
	a.Buf, b.Buf = upload(t, aImg), upload(t, bImg)
	cImg, c := hostImage(p.C0, p.M, p.N, sc)
	return operands{p: p, a: a, b: b, cImg: cImg, cTemplate: c}
}

// freshC uploads C for one run: C0 inside the matrix when beta reads it, the
// poison everywhere when beta is zero (the kernel must then not read C).
func (o operands) freshC(t *testing.T, beta float32) gemm.Matrix {
	t.Helper()
	img := o.cImg
	if beta == 0 {
		img = make([]float32, len(o.cImg))
		for i := range img {
			img[i] = math.Float32frombits(nanBits)
		}
	}
	c := o.cTemplate
	c.Buf = upload(t, img)
	return c
}

// download reads C's whole buffer back.
func download(t *testing.T, c gemm.Matrix) []float32 {
	t.Helper()
	out := make([]float32, c.Buf.Bytes()/4)
	require.NoError(t, dev.Synchronize())
	require.NoError(t, cuda.CopyToHost(out, c.Buf))
	return out
}

// checkResult compares C's buffer with alpha * AB + beta * C0 element by
// element, and checks that every element outside C still holds the poison.
// It returns the normwise relative error.
func checkResult(t *testing.T, o operands, alpha, beta float32, c gemm.Matrix, got []float32) float64 {
	t.Helper()
	p := o.p
	inside := make([]bool, len(got))
	var errSq, refSq float64
	bad := 0
	for i := 0; i < p.M; i++ {
		for j := 0; j < p.N; j++ {
			at := index(c, i, j)
			inside[at] = true
			c0 := float64(p.C0[i*p.N+j])
			ref := float64(alpha)*p.AB[i*p.N+j] + float64(beta)*c0
			bound := compare.DotBound(compare.F32, p.K, math.Abs(float64(alpha))*p.rowA[i]*p.colB[j]+math.Abs(float64(beta)*c0), ref)
			g := float64(got[at])
			e := math.Abs(g - ref)
			errSq += e * e
			refSq += ref * ref
			if !compare.Within(g, ref, bound) {
				if bad < 5 {
					t.Errorf("C[%d,%d] = %v, want %v (error %.3g > bound %.3g)", i, j, g, ref, e, bound)
				}
				bad++
			}
		}
	}
	for at, in := range inside {
		if !in && math.Float32bits(got[at]) != nanBits {
			t.Errorf("element %d of C's buffer, outside the %dx%d matrix, was overwritten with %v", at, p.M, p.N, got[at])
			break
		}
	}
	if bad > 0 {
		t.Errorf("%d of %d elements out of bounds", bad, p.M*p.N)
	}
	if refSq == 0 {
		return math.Sqrt(errSq)
	}
	return math.Sqrt(errSq / refSq)
}
