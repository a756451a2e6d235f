// Package gemv runs fp16 matrix-vector products on the GPU with kgen's
// generated kernels: y = alpha * op(A) * x + beta * y for up to a few
// right-hand vectors at once (batched decoding), fp32 accumulation, on CUDA
// cores or on tensor cores: for a row-major A with the weights as the MMA's
// 16-row operand and up to 8 vectors as its 8 columns (cuBLAS puts the
// vectors on the 16 rows, which wastes 15 of them for one vector); for a
// transposed A with the vectors on the 16 rows and the weights as the 8
// columns, paired along k in registers. Operands are gemm.Matrix views of device buffers holding
// halves (go/f16 moves them between Go and the device).
package gemv

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"sync/atomic"

	"github.com/kgen-gpu/kgen/go/cuda"
	"github.com/kgen-gpu/kgen/go/gemm"
	"github.com/kgen-gpu/kgen/go/internal/kernels"
)

// half is the byte size of an element.
const half = 2

// Instance describes one kernel the Engine can run.
type Instance struct {
	Name             string
	Arch             int
	Transposed       bool // A is stored K x N (op(A) = A^T)
	ThreadsPerOutput int
	OutputsPerBlock  int
	Vector           int
	XShared          bool
	XF32             bool // x staged in shared memory already converted to fp32
	RowsPerThread    int  // row-major A: rows of A each thread reads at the same k
	SplitK           int
	MaxBatch         int
	Threads          int
	// MMA marks the tensor-core kernel (the fields above from
	// ThreadsPerOutput to RowsPerThread are zero): Warps split k. Row-major
	// A: each warp with Tiles 16-row mma tiles and Unroll 32-wide k steps in
	// flight. Transposed A: each warp with 64 outputs (Tiles 1) and Unroll
	// 16-wide k steps in flight. Stages, above 0: A staged through shared
	// memory in that many stages (row-major A: 256 k of the block's rows;
	// transposed A: 64 rows of its 64 outputs), each warp taking its share
	// of a stage's k (Unroll is 0).
	MMA    bool
	Warps  int
	Tiles  int
	Unroll int
	Stages int
}

// Engine runs HGEMVs on one device.
type Engine struct {
	dev     *cuda.Device
	arch    int
	jit     bool
	kernels []kernels.GEMV

	// last is the most recent default choice: a model's layers call HGEMV
	// with the same shape again and again, and a small HGEMV's host time is
	// its cost (a pick scans every instance: 0.45 of the 5.2 us a call took
	// on the H100 machine).
	last atomic.Pointer[choice]
}

// choice is one default pick and the shape it was made for.
type choice struct {
	transposed bool
	m, n       int
	k          kernels.GEMV
}

// New picks the kernels built for dev's arch (see kernels.PickArch).
func New(dev *cuda.Device) (*Engine, error) {
	if dev == nil {
		return nil, errors.New("gemv: nil *cuda.Device")
	}
	return newEngine(dev, dev.Info().CC())
}

func newEngine(dev *cuda.Device, cc int) (*Engine, error) {
	arch, jit, err := kernels.PickArch(cc, kernels.Targets)
	if err != nil {
		return nil, err
	}
	e := &Engine{dev: dev, arch: arch, jit: jit, kernels: kernels.ForArch(kernels.GEMVs, arch)}
	if len(e.kernels) == 0 {
		return nil, fmt.Errorf("gemv: no fp16 GEMV kernels built for sm_%d", arch)
	}
	return e, nil
}

// Arch is the compute capability (times ten) of the kernels in use, and
// whether they run through the driver's PTX compiler.
func (e *Engine) Arch() (cc int, jit bool) { return e.arch, e.jit }

// Instances lists the kernels available on the device.
func (e *Engine) Instances() []Instance {
	if e == nil {
		return nil
	}
	return describe(e.kernels)
}

// BuiltInstances lists every GEMV kernel built into the binary, once per
// arch.
func BuiltInstances() []Instance { return describe(kernels.GEMVs) }

func describe(ks []kernels.GEMV) []Instance {
	out := make([]Instance, len(ks))
	for i, k := range ks {
		c := k.Config
		out[i] = Instance{Name: k.Name, Arch: k.Arch, Transposed: c.A == kernels.ColMajor, ThreadsPerOutput: c.ThreadsPerOutput,
			OutputsPerBlock: c.OutputsPerBlock, Vector: c.Vector, XShared: c.XShared, XF32: c.XF32, RowsPerThread: c.RowsPerThread,
			SplitK: c.SplitK, MaxBatch: c.MaxBatch, Threads: k.Threads, MMA: c.MMA, Warps: c.Warps, Tiles: c.Tiles, Unroll: c.Unroll,
			Stages: c.Stages}
	}
	return out
}

// HGEMV computes y = alpha * op(A) * x + beta * y on stream s (nil: the
// default stream) with the instance that suits the shape: op(A) is the
// N x K matrix a (row-major: each output's weights are contiguous, the
// layout of inference engines; column-major: A is stored K x N), x is M x K
// and y is M x N, both row-major (M right-hand vectors, 1 or more; batches
// larger than an instance takes run in several launches). With beta == 0, y
// is not read. It returns when the work is queued.
func (e *Engine) HGEMV(s *cuda.Stream, alpha float32, a, x gemm.Matrix, beta float32, y gemm.Matrix) error {
	return e.HGEMVWith("", s, alpha, a, x, beta, y)
}

// HGEMVWith is HGEMV with the instance named name ("" for the engine's
// choice).
func (e *Engine) HGEMVWith(name string, s *cuda.Stream, alpha float32, a, x gemm.Matrix, beta float32, y gemm.Matrix) error {
	if e == nil {
		return errors.New("gemv: nil *Engine")
	}
	if err := e.validate(s, a, x, y); err != nil {
		return err
	}
	n, k, m := a.Rows, a.Cols, x.Rows
	kern, err := e.choose(name, a.Order == gemm.ColMajor, m, n)
	if err != nil {
		return err
	}
	if n == 0 || m == 0 {
		return nil
	}
	batch := kern.Config.MaxBatch
	for i := 0; i < m; i += batch {
		rows := min(batch, m-i)
		xi, yi := x, y
		xi.Offset += i * x.LD()
		yi.Offset += i * y.LD()
		xi.Rows, yi.Rows = rows, rows
		p := kernels.GEMVParams{
			Device: e.dev.Ordinal(), M: rows, N: n, K: k, Alpha: alpha, Beta: beta,
			A: a.Addr(half), LDA: a.LD(), X: xi.Addr(half), LDX: x.LD(), Y: yi.Addr(half), LDY: y.LD(), Stream: s.Handle(),
		}
		if err := cuda.Check(kern.Name, kern.Launch(&p)); err != nil {
			return err
		}
	}
	return nil
}

// Pick names the instance HGEMV runs for m vectors, n outputs and A stored
// row-major (transposed false) or column-major: what users get without
// naming one.
func (e *Engine) Pick(transposed bool, m, n int) (string, error) {
	if e == nil {
		return "", errors.New("gemv: nil *Engine")
	}
	k, err := e.choose("", transposed, m, n)
	return k.Name, err
}

func (e *Engine) validate(s *cuda.Stream, a, x, y gemm.Matrix) error {
	switch {
	case s != nil && s.Handle() == nil:
		return errors.New("gemv: the stream was destroyed")
	case s != nil && s.Device() != e.dev:
		return errors.New("gemv: the stream belongs to another device")
	}
	for _, op := range []struct {
		name string
		m    gemm.Matrix
	}{{"A", a}, {"x", x}, {"y", y}} {
		if err := op.m.Validate(op.name, e.dev, half); err != nil {
			return fmt.Errorf("gemv: %w", err)
		}
	}
	switch {
	case x.Order != gemm.RowMajor || y.Order != gemm.RowMajor:
		return errors.New("gemv: x and y must be row-major (one vector per row)")
	case x.Cols != a.Cols:
		return fmt.Errorf("gemv: op(A) is %dx%d and x is %dx%d: x's columns must equal A's", a.Rows, a.Cols, x.Rows, x.Cols)
	case y.Rows != x.Rows || y.Cols != a.Rows:
		return fmt.Errorf("gemv: y is %dx%d, want %dx%d (one row per vector of x, one column per output)", y.Rows, y.Cols, x.Rows, a.Rows)
	case a.Rows > math.MaxInt32 || a.Cols > math.MaxInt32:
		return fmt.Errorf("gemv: A is %dx%d: over the kernels' 32-bit dimensions", a.Rows, a.Cols)
	case gemm.Overlap(y, a, half):
		return errors.New("gemv: y overlaps A in the same buffer")
	case gemm.Overlap(y, x, half):
		return errors.New("gemv: y overlaps x in the same buffer")
	}
	return nil
}

// choose finds the instance named name for A's layout, or picks one for m
// vectors (see pick).
func (e *Engine) choose(name string, transposed bool, m, n int) (kernels.GEMV, error) {
	layoutIs := func(c kernels.GEMV) bool { return (c.Config.A == kernels.ColMajor) == transposed }
	layout := func() string { return map[bool]string{false: "row-major", true: "column-major"}[transposed] }
	if name != "" {
		i := slices.IndexFunc(e.kernels, func(c kernels.GEMV) bool { return layoutIs(c) && c.Name == name })
		if i < 0 {
			return kernels.GEMV{}, fmt.Errorf("gemv: no instance %q for a %s A on sm_%d", name, layout(), e.arch)
		}
		return e.kernels[i], nil
	}
	if c := e.last.Load(); c != nil && c.transposed == transposed && c.m == m && c.n == n {
		return c.k, nil
	}
	if k, ok := pickFrom(e.kernels, layoutIs, m, n); ok {
		e.last.Store(&choice{transposed, m, n, k})
		return k, nil
	}
	return kernels.GEMV{}, fmt.Errorf("gemv: no kernel for a %s A on sm_%d", layout(), e.arch)
}

// pick is the engine's choice for m vectors: the fewest launches
// (MaxBatch >= m), then the first in the order the H100 bench of 2026-11-23
// measured (bench/results/h100-2026-11-23-hgemv.md), then the smallest
// MaxBatch (accumulators and x tile sized for m). For one vector a warp
// per output was fastest on most shapes in both layouts (the single-vector
// warp kernel most often); for batches, several warps per output (p128).
// Split-K, lane groups and the thread-per-output kernels come after. One
// GPU's ranking, not yet a per-shape table (bench -tune would make one);
// n (outputs) matters for one vector of a transposed A only.
func pick(cands []kernels.GEMV, m, n int) kernels.GEMV {
	k, _ := pickFrom(cands, nil, m, n)
	return k
}

// pickFrom is pick over the instances of all that keep accepts (nil: all
// of them), in one pass without
// allocating: HGEMV of small shapes takes a few microseconds on the GPU,
// and sorting the candidates on every call cost about as much on the host
// (5 us, measured), which back-to-back calls then waited for.
func pickFrom(all []kernels.GEMV, keep func(kernels.GEMV) bool, m, n int) (kernels.GEMV, bool) {
	type rank struct{ launches, order, batch int }
	less := func(a, b rank) bool {
		if a.launches != b.launches {
			return a.launches < b.launches
		}
		if a.order != b.order {
			return a.order < b.order
		}
		return a.batch < b.batch
	}
	best, bestRank, ok := kernels.GEMV{}, rank{}, false
	for _, c := range all {
		if keep != nil && !keep(c) {
			continue
		}
		r := rank{(m + c.Config.MaxBatch - 1) / c.Config.MaxBatch, measuredOrder(c.Config, m, n), c.Config.MaxBatch}
		if !ok || less(r, bestRank) {
			best, bestRank, ok = c, r, true
		}
	}
	return best, ok
}

// measuredOrder is a configuration's place in that ranking (lower is
// faster) for m vectors. The template's own H100 harness adds two leaders:
// for one vector, a warp per output with x staged in shared memory and
// 16-byte loads (100% of the copy floor at 16384^2); for 2 to 4 vectors of
// a transposed A, 16-lane groups with split-K.
//
// The H100 bench of 2026-11-23 (bench/results/h100-2026-11-23-final.md,
// N, K >= 4096) refined it:
//   - a row-major A with 2 to 8 vectors: the x_f32 kernels with several rows
//     per thread (they convert x once per block and share it over rows);
//   - a transposed A with 2 to 4 vectors: the 16-lane split-K kernel reading
//     x through the cache was as fast as or up to 5% faster than its x_f32
//     twin, which comes next; with 5 to 8, the x_f32 one (one launch);
//   - one vector of a transposed A: the split-K kernel for n = 4096..8192
//     outputs (0.62-0.83x of the copy floor against 0.44-0.76x), the
//     x-in-shared warp kernel from 11008 on (0.81-0.97x).
//
// The tensor-core kernels (MMA) are ranked TENTATIVELY, before any GPU
// measurement, from their design: first for a row-major A with 2 to 8
// vectors (a batch costs them no more issue than one vector, where the
// CUDA-core kernels were issue-bound at 0.42-0.80x of the copy floor), and
// for one vector only at n <= 2048 (latency: one DRAM round trip), behind
// the measured single-vector kernels elsewhere. To be re-ranked from the
// H100 bench.
func measuredOrder(c kernels.GEMVConfig, m, n int) int {
	if c.MMA {
		return mmaOrder(c, m, n)
	}
	if m == 1 && n >= 1024 && n <= 2048 && oneVectorSplitT(c) {
		return -3 // ahead of the tensor-core kernels: see oneVectorSplitT
	}
	warp := c.ThreadsPerOutput == 32 && c.SplitK == 1
	warps := c.ThreadsPerOutput >= 64 && c.SplitK == 1
	tsplit := c.A == kernels.ColMajor && c.ThreadsPerOutput == 16 && c.SplitK > 1
	switch {
	case m >= 2 && c.XF32 && c.A == kernels.RowMajor && c.RowsPerThread > 1:
		return 0
	case m >= 2 && m <= 4 && tsplit && !c.XF32:
		return 0
	case m >= 2 && m <= 4 && c.XF32 && c.A == kernels.ColMajor && c.SplitK > 1:
		return 1
	case m >= 2 && c.XF32 && c.A == kernels.ColMajor && c.SplitK > 1:
		return 0
	case m == 1 && n >= 4096 && n <= 8192 && tsplit && !c.XF32:
		return 0
	case m == 1 && warp && c.XShared && c.Vector == 8 && c.MaxBatch == 1:
		if c.XF32 {
			return 2 // fewer instructions, but one vector is not issue-bound: measured just behind
		}
		return 1
	case m == 1 && warp && !c.XShared:
		if c.MaxBatch > 1 {
			return 4 // the single-vector kernel first
		}
		return 3
	case warps && !c.XShared:
		return 5
	case warp && !c.XShared:
		return 6
	case c.SplitK > 1 && c.ThreadsPerOutput >= 32:
		return 7
	}
	return 8
}

// oneVectorSplitT reports the CUDA-core kernel for one vector of a
// transposed A whose 16-lane groups split k over 16 blocks (hgemvst). The
// H100 bench of 2026-11-24 (bench/results/h100-2026-11-24-session9.md, one
// vector, events) put it ahead of the tensor-core kernels for n = 1024 to
// 2048 outputs: 4.29 against 5.06 us at 1024^2, 6.76 against 7.81 at 1024
// x 4096, 6.28 against 6.69 at 2048^2, 14.74 against 15.54 at 2048 x 8192;
// 4% behind at 1536^2 (6.02 against 5.77), behind from n = 4096 on. Above
// 1024 outputs the staged kernel splitting k 8 ways now leads it
// (mmaOrderStagedT; session 11: 5.7 against 6.2 us at 2048^2).
func oneVectorSplitT(c kernels.GEMVConfig) bool {
	return c.A == kernels.ColMajor && c.ThreadsPerOutput == 16 && c.SplitK >= 16 && c.MaxBatch == 1 && !c.XShared
}

// mmaOrder places a tensor-core instance, as the H100 bench measured them
// (2026-11-23, bench/results/h100-2026-11-23-session3.md): -2 for the tiling
// that led at n, -1 for the other tilings (ahead of every CUDA-core batch
// kernel, which they beat by up to 2x at 8 vectors), 4 (after the measured
// single-vector kernels, 1-3% faster there) for one vector at n > 2048. The
// tiling by n: 8 warps of one tile for 2048 < n < 8192 (n = 4096: 256 blocks
// of 8 warps, one wave at two per SM; 16 warps took 4% longer), else 16
// warps of one tile (at most 128 blocks up to 2048, where more warps split k
// finer for latency; 3-5% ahead of 8 warps from 8192 to 16384). Two tiles
// per warp never led (1-7% behind). From n = 4096 the kernels that stage A
// through shared memory lead (mmaOrderStaged).
func mmaOrder(c kernels.GEMVConfig, m, n int) int {
	if c.A != kernels.RowMajor {
		return mmaOrderT(c, m, n)
	}
	if c.Stages > 0 {
		return mmaOrderStaged(c, m, n)
	}
	if m < 2 && n > 2048 {
		return 4
	}
	want := kernels.GEMVConfig{Warps: 16, Tiles: 1}
	if n > 2048 && n < 8192 {
		want = kernels.GEMVConfig{Warps: 8, Tiles: 1}
	}
	if c.Warps == want.Warps && c.Tiles == want.Tiles {
		return -2
	}
	return -1
}

// mmaOrderStaged places a kernel that stages A through shared memory
// (Stages > 0, kgen/hgemv_mma_s.cuh): -3, ahead of every other kernel, for
// the tiling that led at (m, n), else 5 (behind the unstaged tensor-core
// kernels and the one-vector CUDA-core kernel). Session 10's H100 harness
// (bench/results/h100-2026-11-24-session10.md; n = 1024 to 16384, 1 to 8
// vectors, weights rotated past L2) measured them ahead of the unstaged
// kernels from n = 4096 (0.95-0.99x of a read of the weights against
// 0.90-0.95x at 8 vectors) and behind up to n = 2048 (5.2-5.7 us at 2048^2
// against 5.0 for 16 unstaged warps). The tilings that led: one vector, or
// up to 4 below n = 8192, 8 warps of one tile in 8 stages (two blocks of 97
// KiB per SM); 5 to 8 vectors below 8192, 16 warps of two tiles in 4
// stages; from 8192 with 2 vectors or more, 8 warps of two tiles in 4
// stages (half the copies of x per byte of A). One vector from n = 8192 up
// stays with the CUDA-core kernel (1-3% ahead at 11008 and 14336 outputs).
func mmaOrderStaged(c kernels.GEMVConfig, m, n int) int {
	if n <= 2048 || (m < 2 && n > 8192) {
		return 5
	}
	want := kernels.GEMVConfig{Warps: 8, Tiles: 2, Stages: 4}
	switch {
	case n < 8192 && m > 4:
		want = kernels.GEMVConfig{Warps: 16, Tiles: 2, Stages: 4}
	case n < 8192 || m < 2:
		want = kernels.GEMVConfig{Warps: 8, Tiles: 1, Stages: 8}
	}
	if c.Warps == want.Warps && c.Tiles == want.Tiles && c.Stages == want.Stages {
		return -3
	}
	return 5
}

// mmaOrderStagedT places a kernel that stages a transposed A through shared
// memory (Stages > 0, kgen/hgemv_mma_ts.cuh): -4, ahead of every other
// kernel (oneVectorSplitT's included), for the tiling that led at n, else 5.
// Session 10's H100 harness (bench/results/h100-2026-11-24-session10.md)
// put 16 warps in 4 stages ahead from n = 8193 (33.9 against 35.9 us at
// 11008 x 4096 and 41.1 against 42.3 at 14336 x 4096, one vector; 8
// vectors alike; 1% ahead at 16384^2) and behind hgemvtct up to 8192 (59
// against 48 us at 8192^2). Session 11's harness (bench/results/h100-2026-
// 11-24-session11.md), with every kernel asking L2 for its first bytes
// before it waits, added its blocks splitting k: 4 ways for 2048 < n <=
// 4096 (14.1 against 15.0 us at 4096^2, 32.8 against 34.6 at 4096 x 11008),
// 8 ways for 1024 <= n <= 2048 (5.7 against 5.8 at 2048^2 for one vector,
// 5.9 against 6.3 for 8; with the ticket of session 11's call 15, 4.1
// against 4.3-4.8 at 1024^2 for 2 to 8 vectors), except one vector at n =
// 1024, where the CUDA-core split leads (4.0 against 4.1). From 4097 to
// 8192 hgemvtct stays first (2 ways were level with it at 8192^2).
func mmaOrderStagedT(c kernels.GEMVConfig, m, n int) int {
	if c.Warps != 16 || c.Stages != 4 {
		return 5
	}
	split := 0 // no staged kernel leads
	switch {
	case n > 8192:
		split = 1
	case n > 2048 && n <= 4096:
		split = 4
	case n >= 1024 && n <= 2048 && (m > 1 || n > 1024):
		split = 8
	}
	if c.SplitK == split {
		return -4
	}
	return 5
}

// mmaOrderT places a tensor-core instance for a transposed A
// (kgen/hgemv_mma_t.cuh): -2 for the tiling that led at n, -1 for the others,
// ahead of every CUDA-core kernel for any number of vectors. The H100 bench
// (2026-11-23, bench/results/h100-2026-11-23-session3.md) measured it
// ahead at every shape it ran (n = 4096, 11008, 14336; 1 to 8 vectors):
// 0.67-0.92x of the copy floor against 0.42-0.88x, and the old kernels'
// time grew with the vectors, its does not. By n: 16 warps of unroll 2 up
// to 8192 outputs (a block owns 64 outputs, so 64 blocks at n = 4096: more
// warps split k finer; 5-20% ahead of 8 warps there), else 8 warps of
// unroll 2 (172+ blocks; 10-12% ahead of 16 warps at n = 11008 and 14336).
// For 1024 <= n <= 2048, a tiling whose blocks also split k (SplitK > 1):
// there a block per 64 outputs leaves most SMs idle (32 blocks at n =
// 2048). The H100 bench of 2026-11-24 (bench/results/h100-2026-11-24-
// session6.md) at 2048^2: 8 warps split 8 ways 6.91 us for one vector and
// 7.35 for 8, against 7.81 and 8.21 for 16 warps alone; below 1024 the
// split was level with them or behind (8 vectors at 256^2: 4.48 us against
// 4.10 for 8 warps alone), and at 4096^2 behind (16.52 against 15.16).
// Session 9 (bench/results/h100-2026-11-24-session9.md) added n = 1024: 2%
// ahead at 1024^2 and 1.6x at 1024 x 4096 (7.82 against 12.52 us, 2
// vectors).
func mmaOrderT(c kernels.GEMVConfig, m, n int) int {
	if c.Stages > 0 {
		return mmaOrderStagedT(c, m, n)
	}
	if n >= 1024 && n <= 2048 {
		if c.SplitK > 1 {
			return -2
		}
		return -1
	}
	want := kernels.GEMVConfig{Warps: 16, Unroll: 2}
	if n > 8192 {
		want = kernels.GEMVConfig{Warps: 8, Unroll: 2}
	}
	if c.SplitK == 1 && c.Warps == want.Warps && c.Unroll == want.Unroll {
		return -2
	}
	return -1
}
