package spec

import (
	"slices"

	"github.com/kgen-gpu/kgen/gen/ir"
)

// The f16 tensor-core GEMM: mma.sync m16n8k16 (kgen::hgemm), fed by
// cp.async multistage pipelines through swizzled shared memory.

// MMASharedBytes is the dynamic shared memory of the f16 kernel: Stages
// copies of the A and B block tiles, in halves.
func (t Tiling) MMASharedBytes() int {
	return t.Stages * (t.Block.M*t.Block.K + t.Block.K*t.Block.N) * 2
}

func checkMMATiling(c *collector, what string, t Tiling, archs []ir.Arch, acc ir.DType) {
	errorf := func(format string, args ...any) { c.errorf(t.Line, what+": "+format, args...) }
	for _, d := range []struct {
		name string
		v    int
	}{{"block M", t.Block.M}, {"block N", t.Block.N}, {"block K", t.Block.K}, {"warp M", t.Warp.M}, {"warp N", t.Warp.N}} {
		if d.v <= 0 || d.v > maxTile {
			errorf("%s (%d) must be between 1 and %d", d.name, d.v, maxTile)
			return
		}
	}
	multiple := func(a int, an string, b int, bn string) bool {
		if a%b != 0 {
			errorf("%s (%d) must be a multiple of %s (%d)", an, a, bn, b)
			return false
		}
		return true
	}
	ok := multiple(t.Block.M, "block M", t.Warp.M, "warp M")
	ok = multiple(t.Block.N, "block N", t.Warp.N, "warp N") && ok
	ok = multiple(t.Warp.M, "warp M", 16, "the mma M") && ok
	ok = multiple(t.Warp.N, "warp N", 16, "two mma N, one ldmatrix.x4 of B,") && ok
	ok = multiple(t.Block.K, "block K", 32, "two mma K steps") && ok
	if t.Stages < 3 || t.Stages > 8 {
		errorf("stages (%d) must be 3 to 8 (cp.async multistage pipeline)", t.Stages)
		ok = false
	}
	if t.MinBlocksSM < 1 {
		errorf("min_blocks_per_sm (%d) must be at least 1", t.MinBlocksSM)
		ok = false
	}
	if t.SplitK < 1 || t.SplitK > maxSplitK {
		errorf("split_k (%d) must be between 1 and %d", t.SplitK, maxSplitK)
		ok = false
	}
	if !ok {
		return
	}
	threads := t.Threads()
	perArch(archs, func(a ir.ArchInfo) int { return a.MaxThreads }, func(a ir.ArchInfo) bool { return threads > a.MaxThreads },
		func(max int, on string) {
			errorf("%d threads per block exceed the limit of %d on %s; use fewer warps per block", threads, max, on)
		})
	smem := t.MMASharedBytes()
	perArch(archs, func(a ir.ArchInfo) int { return a.MaxSmemPerBlock }, func(a ir.ArchInfo) bool { return smem > a.MaxSmemPerBlock },
		func(max int, on string) {
			errorf("%d bytes of shared memory (stages x block tiles) exceed the %d a block can have on %s; fewer stages or a smaller tile", smem, max, on)
		})
	// Accumulators: warp tile / 32 lanes per thread, fp32 one register
	// each, fp16 two to a register; plus fragments.
	regs := t.Warp.M * t.Warp.N / 32
	if acc == ir.F16 {
		regs /= 2
	}
	if regs > 160 {
		errorf("a %dx%d warp tile needs %d %s accumulator registers per thread, over 160 of the 255: would spill; shrink the warp tile", t.Warp.M, t.Warp.N, regs, acc)
	}
}

var (
	gemvThreadsPerOutput = []int{1, 2, 4, 8, 16, 32, 64, 128, 256}
	gemvVectors          = []int{1, 2, 4, 8}
	gemvBatches          = []int{1, 2, 4, 8}
	gemvRowsPerThread    = []int{1, 2, 4, 8}
)

// The gemv template's x tile when x is staged in fp32 (kXTileBytesF32 in
// kernels/include/kgen/hgemv.cuh), the shared memory a block may use
// without opting in (kSmemLimit), and the accumulators per thread that
// 128 registers hold next to the loads in flight.
const (
	gemvXTileBytesF32 = 32 * 1024
	gemvSmemLimit     = 48 * 1024
	gemvMaxRowAcc     = 32
)

func checkGemvTiling(c *collector, what string, t GemvTiling, archs []ir.Arch, rowMajor, transposed bool) {
	errorf := func(format string, args ...any) { c.errorf(t.Line, what+": "+format, args...) }
	ok := true
	if !slices.Contains(gemvThreadsPerOutput, t.ThreadsPerOutput) {
		errorf("threads_per_output (%d) must be 1, a lane group of 2 to 16, a warp (32), or 64, 128 or 256", t.ThreadsPerOutput)
		ok = false
	}
	if !slices.Contains(gemvVectors, t.Vector) {
		errorf("vector (%d) must be 1, 2, 4 or 8 halves per load (8: 16 bytes)", t.Vector)
	}
	if !slices.Contains(gemvBatches, t.MaxBatch) {
		errorf("max_batch (%d) must be 1, 2, 4 or 8 right-hand vectors", t.MaxBatch)
	}
	if t.SplitK < 1 || t.SplitK > 64 {
		errorf("split_k (%d) must be between 1 and 64", t.SplitK)
	}
	checkGemvRows(errorf, t, rowMajor, transposed)
	if t.Threads < 32 || t.Threads%32 != 0 || t.Threads > maxTile {
		errorf("threads (%d) must be a positive multiple of 32 (whole warps)", t.Threads)
		return
	}
	if ok && t.OutputsPerBlock*t.ThreadsPerOutput != t.Threads {
		errorf("outputs_per_block (%d) x threads_per_output (%d) must be threads (%d): every thread works on one output", t.OutputsPerBlock, t.ThreadsPerOutput, t.Threads)
	}
	if o := t.OutputsPerBlock; transposed && o > 0 && o%32 != 0 && (o >= 32 || o&(o-1) != 0) {
		errorf("outputs_per_block (%d) must be a power of two below 32 or a multiple of 32 for layout t: a warp holds whole sets of output groups", o)
	}
	perArch(archs, func(a ir.ArchInfo) int { return a.MaxThreads }, func(a ir.ArchInfo) bool { return t.Threads > a.MaxThreads },
		func(max int, on string) {
			errorf("%d threads per block exceed the limit of %d on %s; use fewer", t.Threads, max, on)
		})
}

// checkGemvRows checks x_f32 and rows_per_thread: several rows per thread
// are layout n's way to reuse each fp32 x value (layout t already reuses it
// over vector outputs), and x in fp32 lives in shared memory.
func checkGemvRows(errorf func(string, ...any), t GemvTiling, rowMajor, transposed bool) {
	r := t.RowsPerThread
	switch {
	case !slices.Contains(gemvRowsPerThread, r):
		errorf("rows_per_thread (%d) must be 1, 2, 4 or 8", r)
	case r > 1 && transposed:
		errorf("rows_per_thread (%d) is a layout n choice (layout t reuses x over vector outputs already): put this tiling in a family with layouts [n]", r)
	case r > 1 && !t.XF32:
		errorf("rows_per_thread (%d) needs x_f32: true (the rows share x converted to fp32 in shared memory)", r)
	case slices.Contains(gemvBatches, t.MaxBatch) && r*t.MaxBatch > gemvMaxRowAcc:
		errorf("rows_per_thread (%d) x max_batch (%d) accumulators exceed %d: they would spill at 128 registers", r, t.MaxBatch, gemvMaxRowAcc)
	}
	if t.XF32 && !t.XShared {
		errorf("x_f32 stages x in shared memory: set x_in_shared: true")
	}
	if !t.XF32 || !rowMajor || t.MaxBatch < 1 {
		return
	}
	// Layout n's tile holds at least one step (threads_per_output x vector)
	// of k for every vector.
	if bytes := t.MaxBatch * 4 * max(gemvXTileBytesF32/(4*t.MaxBatch), t.ThreadsPerOutput*t.Vector); bytes > gemvSmemLimit {
		errorf("the fp32 x tile (%d bytes: max_batch x threads_per_output x vector floats) exceeds the %d bytes of shared memory a block has; fewer threads per output or a smaller vector", bytes, gemvSmemLimit)
	}
}

// The tensor-core gemv: warps split k; the warps' C fragments meet in static
// shared memory. Layout n (kgen/hgemv_mma.cuh): Tiles 16-row mma tiles per
// warp. Layout t (kgen/hgemv_mma_t.cuh): a warp owns 64 outputs (8 mma
// n-tiles of B), Tiles must be 1. Staged (Stages > 0): a block copies A and
// x into a ring of Stages shared-memory stages whose k16 steps the warps
// share, and the C fragments meet in the stages' memory; layout n
// (kgen/hgemv_mma_s.cuh) stages 16 Tiles rows of 256 k, layout t
// (kgen/hgemv_mma_ts.cuh) 64 rows of the block's 64 outputs.
var (
	gemvMMATiles       = []int{1, 2}
	gemvMMAStagedWarps = []int{4, 8, 16}
)

const (
	gemvMMAMaxUnroll = 8
	// The staged kernel's limits (static_asserts of kgen::hgemv_mma_s::Config)
	// and a stage's layout: 16 Tiles rows of A of 256 halves (512 bytes),
	// then 8 vectors of x of 512 bytes, each padded to 528.
	gemvMMAMinStages      = 2
	gemvMMAMaxStages      = 8
	gemvMMAMaxStagedTiles = 4
	gemvMMAStageRowBytes  = 512
	gemvMMAStageXRowBytes = gemvMMAStageRowBytes + 16
	gemvMMAMaxStagedBytes = 227 << 10 // the template's limit, sm_90's
	// Layout t (kgen::hgemv_mma_ts::Config): a stage is 64 rows of A of the
	// block's 64 outputs (128 bytes), then 8 vectors of 64 k padded to 144.
	gemvMMATStageRows      = 64
	gemvMMATStageRowBytes  = 128
	gemvMMATStageXRowBytes = 144
)

// GemvMMASharedBytes is the shared memory of a tensor-core gemv block
// reading A in layout a: per warp, a 16 x 8 fp32 C tile per tile (layout n)
// or 8 vectors x 64 outputs of fp32 (layout t), static; staged (Stages > 0),
// the ring of stages, dynamic, which the reduction reuses: layout n, 16
// Tiles rows of 256 k and 8 vectors of x; layout t (kgen/hgemv_mma_ts.cuh),
// 64 rows (k) of the block's 64 outputs and 8 vectors of 64 k, padded to 144
// bytes.
func (t GemvTiling) GemvMMASharedBytes(a ir.Layout) int {
	switch {
	case t.Stages > 0 && a == ir.ColMajor:
		return t.Stages * (gemvMMATStageRows*gemvMMATStageRowBytes + 8*gemvMMATStageXRowBytes)
	case t.Stages > 0:
		return t.Stages * (16*t.Tiles*gemvMMAStageRowBytes + 8*gemvMMAStageXRowBytes)
	case a == ir.ColMajor:
		return t.Warps * 8 * 64 * 4
	}
	return t.Warps * t.Tiles * 16 * 8 * 4
}

func checkGemvMMATiling(c *collector, what string, t GemvTiling, archs []ir.Arch, rowMajor, transposed bool) {
	errorf := func(format string, args ...any) { c.errorf(t.Line, what+": "+format, args...) }
	if t.Stages != 0 || t.stagesGiven {
		checkGemvMMAStaged(c, what, t, archs, rowMajor, transposed)
		return
	}
	ok := true
	if transposed && t.Tiles != 1 {
		errorf("tiles (%d) must be 1 in a family with layout t: a warp there owns 64 outputs (8 mma n-tiles); give layout n its own family for more tiles", t.Tiles)
		ok = false
	}
	if t.Warps < 1 || t.Warps > 32 {
		errorf("warps (%d) must be between 1 and 32", t.Warps)
		ok = false
	}
	if !slices.Contains(gemvMMATiles, t.Tiles) {
		errorf("tiles (%d) must be 1 or 2 16-row mma tiles per warp", t.Tiles)
		ok = false
	}
	if t.Unroll < 1 || t.Unroll > gemvMMAMaxUnroll {
		errorf("unroll (%d) must be between 1 and %d steps of 32 k in flight", t.Unroll, gemvMMAMaxUnroll)
	}
	if !slices.Contains(gemvBatches, t.MaxBatch) {
		errorf("max_batch (%d) must be 1, 2, 4 or 8 right-hand vectors (the mma's 8 columns)", t.MaxBatch)
	}
	switch {
	case t.SplitK < 1 || t.SplitK > 64:
		errorf("split_k (%d) must be between 1 and 64 blocks per column strip", t.SplitK)
	case t.SplitK > 1 && rowMajor:
		errorf("split_k (%d) is a layout t choice (kgen/hgemv_mma_t.cuh): give layout n its own family, whose blocks split k between their warps", t.SplitK)
	}
	checkMMAArchs(errorf, archs)
	if !ok {
		return
	}
	perArch(archs, func(a ir.ArchInfo) int { return a.MaxThreads }, func(a ir.ArchInfo) bool { return t.Threads > a.MaxThreads },
		func(max int, on string) {
			errorf("%d threads per block (32 x warps) exceed the limit of %d on %s; use fewer warps", t.Threads, max, on)
		})
	if smem := t.GemvMMASharedBytes(ir.RowMajor); rowMajor && smem > gemvSmemLimit {
		errorf("the reduction buffer (%d bytes: warps x tiles x 512) exceeds the %d bytes of shared memory a block has; fewer warps or tiles", smem, gemvSmemLimit)
	}
	if smem := t.GemvMMASharedBytes(ir.ColMajor); transposed && smem > gemvSmemLimit {
		errorf("the layout t reduction buffer (%d bytes: warps x 2048) exceeds the %d bytes of shared memory a block has; at most %d warps", smem, gemvSmemLimit, gemvSmemLimit/2048)
	}
}

// checkMMAArchs refuses archs without mma.sync m16n8k16 (and cp.async and
// ldmatrix, which the staged kernel also uses).
func checkMMAArchs(errorf func(string, ...any), archs []ir.Arch) {
	perArch(archs, func(a ir.ArchInfo) int { return a.CC }, func(a ir.ArchInfo) bool { return a.CC < 80 },
		func(_ int, on string) {
			errorf("mma.sync m16n8k16 with fp32 accumulation needs sm_80 or later; %s lacks it", on)
		})
}

// checkGemvMMAStaged checks a tiling with stages: layout n
// (kgen/hgemv_mma_s.cuh) with split_k 1, or layout t (kgen/hgemv_mma_ts.cuh)
// with tiles 1, in a family of one layout (the two are different kernels);
// its ring of stages is dynamic shared memory, refused where an arch of the
// family cannot give a block that much (sm_86 and sm_89: 99 KiB), as the f16
// gemm's stages are.
func checkGemvMMAStaged(c *collector, what string, t GemvTiling, archs []ir.Arch, rowMajor, transposed bool) {
	errorf := func(format string, args ...any) { c.errorf(t.Line, what+": "+format, args...) }
	ok := true
	if rowMajor && transposed {
		errorf("stages (%d) needs a family of one layout: layout n stages whole rows of A (kgen/hgemv_mma_s.cuh), layout t column strips (kgen/hgemv_mma_ts.cuh)", t.Stages)
		ok = false
	}
	if t.Stages < gemvMMAMinStages || t.Stages > gemvMMAMaxStages {
		errorf("stages (%d) must be %d to %d stages in the shared-memory ring", t.Stages, gemvMMAMinStages, gemvMMAMaxStages)
		ok = false
	}
	if !slices.Contains(gemvMMAStagedWarps, t.Warps) {
		errorf("warps (%d) must be 4, 8 or 16 with stages: each warp takes an equal share of a stage's k16 steps", t.Warps)
		ok = false
	}
	switch {
	case transposed && t.Tiles != 1:
		errorf("tiles (%d) must be 1 in a family with layout t: a block there owns 64 outputs", t.Tiles)
		ok = false
	case t.Tiles < 1 || t.Tiles > gemvMMAMaxStagedTiles:
		errorf("tiles (%d) must be 1 to %d 16-row mma tiles per block with stages", t.Tiles, gemvMMAMaxStagedTiles)
		ok = false
	}
	if !slices.Contains(gemvBatches, t.MaxBatch) {
		errorf("max_batch (%d) must be 1, 2, 4 or 8 right-hand vectors (the mma's 8 columns)", t.MaxBatch)
	}
	switch {
	case t.SplitK < 1 || t.SplitK > 64:
		errorf("split_k (%d) must be between 1 and 64 blocks per column strip", t.SplitK)
	case t.SplitK > 1 && !transposed:
		errorf("split_k (%d) is a layout t choice (kgen/hgemv_mma_ts.cuh); a layout n staged tiling's blocks split k between their warps", t.SplitK)
	}
	checkMMAArchs(errorf, archs)
	if !ok {
		return
	}
	layout, ring := ir.RowMajor, "stages x (16 x tiles rows x 512 + 8 vectors x 528)"
	if transposed {
		layout, ring = ir.ColMajor, "stages x (64 rows x 128 + 8 vectors x 144)"
	}
	smem := t.GemvMMASharedBytes(layout)
	if smem > gemvMMAMaxStagedBytes {
		errorf("%d bytes of shared memory (%s) exceed the %d (227 KiB) a block can have on any arch; fewer stages or tiles",
			smem, ring, gemvMMAMaxStagedBytes)
		return
	}
	perArch(archs, func(a ir.ArchInfo) int { return a.MaxSmemPerBlock }, func(a ir.ArchInfo) bool { return smem > a.MaxSmemPerBlock },
		func(max int, on string) {
			errorf("%d bytes of shared memory (%s) exceed the %d a block can have on %s; fewer stages or tiles, or a family without %s",
				smem, ring, max, on, on)
		})
}
