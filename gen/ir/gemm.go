package ir

import (
	"fmt"
	"strings"
)

// GemmParams are the parameters of a GEMM kernel on CUDA cores: operand
// layouts and the block, warp and thread tiles.
type GemmParams struct {
	ALayout, BLayout, CLayout Layout

	Block  Tile // M, N, K of the block tile
	Warp   Tile // M, N of a warp's tile (K unused)
	Thread Tile // M, N of a thread's tile (K unused)

	Stages      int         // shared-memory buffers in the main-loop pipeline
	VecGlobal   int         // elements per global load (CUDA cores only)
	VecShared   int         // elements per shared-memory load (CUDA cores only)
	MinBlocksSM int         // blocks per multiprocessor asked of the register allocator
	SplitK      int         // most blocks sharing one C tile's k range
	SplitReduce SplitReduce // how the splits of a C tile are summed (CUDA cores only)
	SplitCount  SplitCount  // how many of SplitK blocks a launch uses (CUDA cores only)
	MMA         bool        // tensor cores (mma.sync m16n8k16): no thread tile, no vectors
	LaneMap     LaneMap     // lanes on the warp's thread grid (CUDA cores only)
	FMAOrder    FMAOrder    // order of a k step's FFMAs over the thread tile (CUDA cores only)
	Sync        Sync        // how the cp.async ring's copies and reads meet (CUDA cores only)
	Tail        Tail        // how a launch runs its last, partly filled wave of tiles (CUDA cores only)
	// Pack: the k-contiguous operands (A row-major, B column-major) are
	// transposed into the workspace first and the kernel of A column-major
	// and B row-major multiplies the copies (kgen::sgemm::launch_packed;
	// CUDA cores only, never layout tn, which has nothing to pack).
	Pack bool
	// Ladder is the seed article's step that a reference instance
	// implements (sgemm_ladder.cuh); LadderNone for kgen's template. A
	// ladder kernel has a block tile and, from BlockTile1D on, a thread
	// tile; no warp tile, stages, vectors or split-K.
	Ladder LadderStep
}

// Op is GEMM.
func (*GemmParams) Op() Op { return GEMM }

// NameTail is e.g. "nn_f32_b128x128x8_w32x64_t8x8_s4_o2_k4",
// "nn_f32_b128x128x16_w32x64_t8x8_s3_k2c_lc",
// "nn_f32_b128x128x16_w32x64_t8x8_s3_k16f_lc_fz",
// "nn_f32_b128x128x16_w32x64_t8x8_s3_lc_fz_mb",
// "nn_f32_b128x128x16_w32x64_t8x8_s3_lc_fz_mb_tc" or
// "nn_f32_b128x128x16_w32x64_t8x8_s3_lc_fz_pk" (CUDA cores),
// "nn_f16accf32_b128x128x32_w64x64_s3" (tensor cores) or
// "nn_f32_blocktile2d_b128x128x8_t8x8" (a ladder step): layouts, dtype, tiles
// and every non-default choice, so two instances never share a name unless
// they are the same kernel.
func (p *GemmParams) NameTail(t Types) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s%s", Layouts[p.ALayout].Letter, Layouts[p.BLayout].Letter)
	if p.CLayout != RowMajor {
		b.WriteString("_c" + Layouts[p.CLayout].Letter)
	}
	fmt.Fprintf(&b, "_%s", DTypes[t.A].Name)
	if p.Ladder != LadderNone {
		fmt.Fprintf(&b, "_%s_b%dx%dx%d", p.Ladder, p.Block.M, p.Block.N, p.Block.K)
		if p.Ladder >= LadderBlockTile1D {
			fmt.Fprintf(&b, "_t%dx%d", p.Thread.M, p.Thread.N)
		}
		return b.String()
	}
	if t.Acc != t.A {
		fmt.Fprintf(&b, "acc%s", DTypes[t.Acc].Name)
	}
	fmt.Fprintf(&b, "_b%dx%dx%d_w%dx%d", p.Block.M, p.Block.N, p.Block.K, p.Warp.M, p.Warp.N)
	if !p.MMA {
		fmt.Fprintf(&b, "_t%dx%d", p.Thread.M, p.Thread.N)
	}
	fmt.Fprintf(&b, "_s%d", p.Stages)
	if !p.MMA && (p.VecGlobal != 4 || p.VecShared != 4) {
		fmt.Fprintf(&b, "_v%d%d", p.VecGlobal, p.VecShared)
	}
	if p.MinBlocksSM > 1 {
		fmt.Fprintf(&b, "_o%d", p.MinBlocksSM)
	}
	if p.SplitK > 1 {
		fmt.Fprintf(&b, "_k%d%s%s", p.SplitK, SplitReduces[p.SplitReduce].Suffix, SplitCounts[p.SplitCount].Suffix)
	}
	b.WriteString(LaneMaps[p.LaneMap].Suffix)
	b.WriteString(FMAOrders[p.FMAOrder].Suffix)
	b.WriteString(Syncs[p.Sync].Suffix)
	b.WriteString(Tails[p.Tail].Suffix)
	if p.Pack {
		b.WriteString(PackSuffix)
	}
	return b.String()
}

// PackSuffix ends the name of an instance that packs its k-contiguous
// operands (GemmParams.Pack).
const PackSuffix = "_pk"

// LaneMap is how an sgemm kernel places a warp's lanes on its thread grid
// (32 / lanes-along-N rows along M, lanes along N): kgen::sgemm::lane_coords.
// It sets which 16-byte fragments the quarter-warps of each shared-memory
// read fetch together, and so how the reads are issued.
type LaneMap int

const (
	LanesByRow     LaneMap = iota // consecutive lanes along N, then the next row (the default)
	LanesByColumn                 // consecutive lanes along M, then the next column
	LanesByRowPair                // lane pairs along M, pairs along N, then the next two rows
)

// Choice is the one table row of an sgemm tiling's named choice (a lane
// map, an FFMA order, a split reduction): its spelling in the spec and the
// suffix it adds to instance names ("" for the default, so existing names
// never change).
type Choice struct {
	Name   string
	Suffix string
}

// LaneMaps is the table of every lane map.
var LaneMaps = map[LaneMap]Choice{
	LanesByRow:     {Name: "rows", Suffix: ""},
	LanesByColumn:  {Name: "columns", Suffix: "_lc"},
	LanesByRowPair: {Name: "row_pairs", Suffix: "_lp"},
}

// AllLaneMaps lists the lane maps in declaration order.
var AllLaneMaps = []LaneMap{LanesByRow, LanesByColumn, LanesByRowPair}

func (m LaneMap) String() string { return LaneMaps[m].Name }

// ParseLaneMap maps a spec spelling to a lane map.
func ParseLaneMap(s string) (LaneMap, bool) { return lookup(AllLaneMaps, s, LaneMap.String) }

// FMAOrder is the order in which an sgemm kernel's source writes a k step's
// multiply-adds over its thread tile (kgen::sgemm::multiply_tile). The
// results are the same; ptxas schedules and allocates registers from that
// order, and on an H100 the choice moves a tile by up to 9%
// (bench/results/h100-2026-11-24-session13.md).
type FMAOrder int

const (
	FMAByRow        FMAOrder = iota // row by row, each left to right (the default)
	FMAByRowZigzag                  // row by row, odd rows right to left
	FMAByQuadZigzag                 // 4x4 quadrants row by row, each row by row with odd rows right to left
)

// FMAOrders is the table of every FFMA order.
var FMAOrders = map[FMAOrder]Choice{
	FMAByRow:        {Name: "rows", Suffix: ""},
	FMAByRowZigzag:  {Name: "rows_zigzag", Suffix: "_fz"},
	FMAByQuadZigzag: {Name: "quads_zigzag", Suffix: "_fq"},
}

// AllFMAOrders lists the FFMA orders in declaration order.
var AllFMAOrders = []FMAOrder{FMAByRow, FMAByRowZigzag, FMAByQuadZigzag}

func (o FMAOrder) String() string { return FMAOrders[o].Name }

// ParseFMAOrder maps a spec spelling to an FFMA order.
func ParseFMAOrder(s string) (FMAOrder, bool) { return lookup(AllFMAOrders, s, FMAOrder.String) }

// SplitReduce is how an sgemm kernel sums the partial C tiles of the blocks
// that split one C tile's k range (split_k > 1).
type SplitReduce int

const (
	// SplitInWorkspace: each split writes its partial tile to a
	// caller-owned workspace and a second kernel sums them (the default).
	SplitInWorkspace SplitReduce = iota
	// SplitInCluster: the splits of a C tile run as one thread-block
	// cluster and sum through distributed shared memory in the GEMM kernel
	// itself (Config's CLUSTER, kgen::cluster_sum_tile), with no workspace,
	// in objects for ClusterMinCC and later; older archs' objects of the
	// same instance split through the workspace.
	SplitInCluster
)

// ClusterMinCC is the compute capability (times ten) from which a
// SplitInCluster instance sums in a cluster: thread-block clusters and
// distributed shared memory are sm_90's (Config::kClusterReduce).
const ClusterMinCC = 90

// MaxClusterSplits is the most splits a SplitInCluster tiling may have: a
// portable cluster holds 8 blocks (kgen::kMaxClusterSplits).
const MaxClusterSplits = 8

// SplitReduces is the table of every split reduction. The cluster suffix
// goes right after the split count ("_k2c"), since the choice is the
// split's.
var SplitReduces = map[SplitReduce]Choice{
	SplitInWorkspace: {Name: "workspace", Suffix: ""},
	SplitInCluster:   {Name: "cluster", Suffix: "c"},
}

// AllSplitReduces lists the split reductions in declaration order.
var AllSplitReduces = []SplitReduce{SplitInWorkspace, SplitInCluster}

func (r SplitReduce) String() string { return SplitReduces[r].Name }

// ParseSplitReduce maps a spec spelling to a split reduction.
func ParseSplitReduce(s string) (SplitReduce, bool) {
	return lookup(AllSplitReduces, s, SplitReduce.String)
}

// SplitCount is how many blocks share each C tile's k range at a launch of
// an sgemm instance with split_k > 1.
type SplitCount int

const (
	// SplitsFixed: split_k blocks (fewer only where there are fewer k
	// tiles or the workspace bound holds fewer partial C's; the default).
	SplitsFixed SplitCount = iota
	// SplitsFill: 1 to that many, the fewest whose launch, its reduction
	// counted, finishes first (kgen::fill_splits; internal/tuning's
	// FillSplits is its copy for the timing model). The workspace is sized
	// for the most.
	SplitsFill
)

// SplitCounts is the table of every split count. The fill suffix goes
// right after the split count ("_k16f"), as the cluster one does.
var SplitCounts = map[SplitCount]Choice{
	SplitsFixed: {Name: "fixed", Suffix: ""},
	SplitsFill:  {Name: "fill", Suffix: "f"},
}

// AllSplitCounts lists the split counts in declaration order.
var AllSplitCounts = []SplitCount{SplitsFixed, SplitsFill}

func (c SplitCount) String() string { return SplitCounts[c].Name }

// ParseSplitCount maps a spec spelling to a split count.
func ParseSplitCount(s string) (SplitCount, bool) {
	return lookup(AllSplitCounts, s, SplitCount.String)
}

// FillSplits reports whether p's launches choose their split count to fill
// the GPU (the template's FILL argument).
func (p *GemmParams) FillSplits() bool { return p.SplitCount == SplitsFill && p.SplitK > 1 }

// ClusterReduce reports whether p's splits sum in a thread-block cluster on
// archs of ClusterMinCC and later: a cluster reduction of more than one
// split (the template's CLUSTER argument).
func (p *GemmParams) ClusterReduce() bool { return p.SplitReduce == SplitInCluster && p.SplitK > 1 }

// Sync is how an sgemm kernel's cp.async ring (stages 3 to 5) tells a warp
// that a tile's copies have landed and that a slot may be refilled.
type Sync int

const (
	// SyncBarrier: one __syncthreads a k tile, after each thread waits for
	// its own copies (the default).
	SyncBarrier Sync = iota
	// SyncMbarrier: a pair of mbarriers per slot, one completed by the
	// copies, one by the reads; a thread refills a slot after its
	// multiply-adds of the next tile, so the warps of a block drift up to a
	// tile apart (Config's RING). Lowered for the layouts with a
	// k-contiguous operand only (spec.LayoutPair.KContiguous), where it won
	// on an H100; tn keeps the barrier.
	SyncMbarrier
)

// Syncs is the table of every ring synchronisation.
var Syncs = map[Sync]Choice{
	SyncBarrier:  {Name: "barrier", Suffix: ""},
	SyncMbarrier: {Name: "mbarrier", Suffix: "_mb"},
}

// AllSyncs lists the ring synchronisations in declaration order.
var AllSyncs = []Sync{SyncBarrier, SyncMbarrier}

func (y Sync) String() string { return Syncs[y].Name }

// ParseSync maps a spec spelling to a ring synchronisation.
func ParseSync(s string) (Sync, bool) { return lookup(AllSyncs, s, Sync.String) }

// Mbarriers reports whether p's cp.async ring synchronises through
// mbarriers (the template's RING argument).
func (p *GemmParams) Mbarriers() bool { return p.Sync == SyncMbarrier && p.Stages >= 3 }

// F32RowPads are the pads, in floats, of the rows of the f32 CUDA-core
// kernel's shared-memory tiles of A and B for operands of layouts a and b
// (kgen::sgemm::Config's kPadA, kPadB): 4, against the bank conflicts of a
// k-contiguous operand's transposing copies, except that the cp.async
// pipeline (3 to 5 stages) of the 256x128x16 and 128x256x16 tiles of 8x16
// threads and of the 128x128x16 tile of 8x8 threads in quads_zigzag order
// leaves a column-major A's rows unpadded, and in tn (B row-major) B's too.
func F32RowPads(block, thread Tile, stages int, order FMAOrder, a, b Layout) (padA, padB int) {
	unpadded := stages >= 3 && block.K == 16 && a == ColMajor &&
		((block.M == 256 && block.N == 128 && thread.M == 8 && thread.N == 16) ||
			(block.M == 128 && block.N == 256 && thread.M == 8 && thread.N == 16) ||
			(block.M == 128 && block.N == 128 && thread.M == 8 && thread.N == 8 && order == FMAByQuadZigzag))
	padA, padB = 4, 4
	if unpadded {
		padA = 0
		if b == RowMajor {
			padB = 0
		}
	}
	return padA, padB
}

// F32RingBytes is the shared memory of the f32 CUDA-core kernel's main
// loop with rows padded by padA and padB floats (F32RowPads): stages
// copies of the A and B block tiles, and with mbarriers two 8-byte
// mbarriers per stage; static with 2 stages (through registers), dynamic
// with 3 to 5 (cp.async).
func F32RingBytes(block Tile, stages, padA, padB int, mbarriers bool) int {
	bytes := stages * block.K * ((block.M + padA) + (block.N + padB)) * 4
	if mbarriers {
		bytes += 2 * stages * 8
	}
	return bytes
}

// KernelLayouts are the layouts of A and B that p's kernel reads: p's own,
// or for a packing instance those of the copies it multiplies (A
// column-major, B row-major).
func (p *GemmParams) KernelLayouts() (a, b Layout) {
	if p.Pack {
		return ColMajor, RowMajor
	}
	return p.ALayout, p.BLayout
}

// RingBytes is F32RingBytes of p's kernel (kgen::sgemm::Config's kStages x
// (kStageA + kStageB) floats and kRingBarrierBytes), with the pads of its
// KernelLayouts.
func (p *GemmParams) RingBytes() int {
	a, b := p.KernelLayouts()
	padA, padB := F32RowPads(p.Block, p.Thread, p.Stages, p.FMAOrder, a, b)
	return F32RingBytes(p.Block, p.Stages, padA, padB, p.Mbarriers())
}

// Tail is how an sgemm instance's launch runs the last, partly filled wave
// of its C tiles, where the GPU holds more blocks at once than that wave has
// (kgen::tail_plan).
type Tail int

const (
	// TailWhole: one block a tile, as the others (the default).
	TailWhole Tail = iota
	// TailCluster: on sm_90 and later, each of those tiles split in k among
	// the blocks of a thread-block cluster, summed through distributed
	// shared memory, in a second grid, where kgen::tail_plan finds that it
	// finishes sooner (Config's TAIL). Stages 3 to 5 and no split_k.
	TailCluster
	// TailStream: the tiles of a one-wave problem, or of the last wave,
	// by stream-K, each resident block an equal share of their k tiles,
	// the partial tiles summed through the workspace
	// (kgen::sgemm::launch_stream), where they fill at most 7/8 of the
	// GPU; on problems of whole tiles and k tiles. Stages 3 to 5, no
	// split_k, no pack.
	TailStream
)

// Tails is the table of every tail.
var Tails = map[Tail]Choice{
	TailWhole:   {Name: "whole", Suffix: ""},
	TailCluster: {Name: "cluster", Suffix: "_tc"},
	TailStream:  {Name: "stream", Suffix: "_ts"},
}

// AllTails lists the tails in declaration order.
var AllTails = []Tail{TailWhole, TailCluster, TailStream}

func (t Tail) String() string { return Tails[t].Name }

// ParseTail maps a spec spelling to a tail.
func ParseTail(s string) (Tail, bool) { return lookup(AllTails, s, Tail.String) }

// TailSplit reports whether p's launches split the last wave's tiles in
// clusters on sm_90 and later (the template's TAIL argument).
func (p *GemmParams) TailSplit() bool { return p.Tail == TailCluster && p.Stages >= 3 && p.SplitK <= 1 }

// StreamK reports whether p's launches run a one-wave problem's tiles, or
// the last wave's, by stream-K (the template's TAIL argument
// kgen::sgemm::kTailStream).
func (p *GemmParams) StreamK() bool { return p.Tail == TailStream && p.Stages >= 3 && p.SplitK <= 1 }

// TailArg reports whether the template takes a TAIL argument: TailSplit or
// StreamK.
func (p *GemmParams) TailArg() bool { return p.TailSplit() || p.StreamK() }
