// Package kernels is the table of generated kernel instances and their cgo
// launchers. kernels_gen.go is written by kgen from kernels/spec.yaml; this
// file holds the types it uses, one table type per op, and dispatch.go the
// arch choice every family shares. Only go/ packages use it: the public APIs
// are go/gemm and go/rs.
package kernels

import (
	"unsafe"

	"github.com/kgen-gpu/kgen/internal/tuning"
)

// Layout is a matrix operand's storage order relative to its logical shape.
type Layout int

const (
	RowMajor Layout = iota
	ColMajor
)

func (l Layout) String() string {
	if l == ColMajor {
		return "col"
	}
	return "row"
}

// Target is an arch the kernels are built for: its compute capability times
// ten, and whether PTX is embedded for GPUs newer than it.
type Target struct {
	Arch int
	PTX  bool
}

// Tile is an M x N x K tile.
type Tile struct{ M, N, K int }

// Info is what every instance has, whatever its op: it describes one
// instance built for one arch. SharedBytes is the instance's, the most a
// block uses on any arch it is built for: a GEMM with ClusterReduce stages
// its partial C tile on sm_90 and later, so its figure may exceed what its
// older archs' objects use.
type Info struct {
	Name        string // procedural name from the spec
	Family      string
	Arch        int // compute capability times ten
	Threads     int
	SharedBytes int
	// Reference marks an instance kept for comparison (the SGEMM ladder):
	// run by name only, never picked by a library nor tuned.
	Reference bool
}

// Base returns the Info of a table entry (every entry type embeds one).
func (i Info) Base() Info { return i }

// DType is an element type of the operands.
type DType int

const (
	ElemF32 DType = iota
	ElemF16
	ElemGF256
)

func (d DType) String() string {
	switch d {
	case ElemF32:
		return "f32"
	case ElemF16:
		return "f16"
	case ElemGF256:
		return "gf256"
	}
	return "unknown"
}

// GEMMTiling is a GEMM instance's own parameters.
type GEMMTiling struct {
	Elem           DType // of A, B and C
	Acc            DType // of the accumulators: ElemF32, or ElemF16 (an f16 family's spec choice)
	MMA            bool  // tensor cores (mma.sync): Thread unused
	A, B, C        Layout
	Block          Tile
	Warp, Thread   Tile // K unused
	Stages         int
	MinBlocksPerSM int
	SplitK         int // most blocks sharing one C tile's k range; > 1 needs a workspace unless ClusterReduce
	// ClusterReduce marks an f32 instance whose splits (SplitK > 1) sum in
	// a thread-block cluster through distributed shared memory, in the GEMM
	// kernel itself, with no workspace and no second kernel: in its objects
	// for sm_90 and later. Its objects for older archs split through the
	// workspace like any other (GEMMWorkspaceBytes tells them apart).
	ClusterReduce bool
	// SplitFill marks an f32 instance whose launches use 1 to SplitK
	// splits, the fewest whose launch, its reduction counted, finishes
	// first (kgen::fill_splits); its workspace (GEMMWorkspaceBytes) is
	// sized for GEMMSplits, the most it may use.
	SplitFill bool
	// LaneMap is how the f32 kernel places a warp's lanes on its thread
	// grid: "columns" or "row_pairs" (kgen::sgemm::lane_coords); empty for
	// rows, the default.
	LaneMap string
	// FMAOrder is the order in which the f32 kernel's source writes a k
	// step's multiply-adds: "rows_zigzag" or "quads_zigzag"
	// (kgen::sgemm::multiply_tile); empty for rows, the default.
	FMAOrder string
	// Sync is how the f32 kernel's cp.async ring synchronises: "mbarrier"
	// (a pair of mbarriers per slot, kgen::sgemm::mainloop_async; only
	// layouts with a k-contiguous operand have it); empty for one barrier a
	// k tile, the default.
	Sync string
	// TailSplit marks an f32 instance whose launches, on sm_90 and later,
	// split the tiles of the last, partly filled wave in k among the blocks
	// of thread-block clusters where that finishes sooner (kgen::tail_plan):
	// no workspace.
	TailSplit bool
	// StreamK marks an f32 instance whose launches run the tiles of a
	// one-wave problem, or of its last wave, by stream-K (each resident
	// block an equal share of their k tiles, kgen::sgemm::launch_stream)
	// where they fill at most 7/8 of the GPU, on problems of whole tiles and
	// k tiles: a workspace of partial tiles (GEMMWorkspaceBytes) there.
	StreamK bool
	// Pack marks an f32 instance that first transposes its k-contiguous
	// operands (A row-major, B column-major) into the workspace and then
	// runs the kernel of A column-major and B row-major on the copies
	// (kgen::sgemm::launch_packed): a workspace of the packed operands
	// (GEMMWorkspaceBytes) at every shape.
	Pack bool
	// Ladder is the seed article's step of a ladder instance ("naive" ...
	// "vectorized", kernels/include/kgen/sgemm_ladder.cuh); empty for kgen's
	// own template. A ladder instance has no warp tile and no stages.
	Ladder string
}

// GEMMParams are a GEMM launcher's arguments. A, B and C are device
// pointers on Device, Stream a cudaStream_t of that device (nil for its
// default stream).
type GEMMParams struct {
	Device      int
	M, N, K     int
	Alpha, Beta float32
	A, B, C     unsafe.Pointer
	LDA, LDB    int
	LDC         int
	// Workspace is device memory of WorkspaceBytes bytes for the packed
	// operands and the split-K partial sums, fp32 whatever the element type
	// (see GEMMWorkspaceBytes); nil and 0 when the instance needs none.
	Workspace      unsafe.Pointer
	WorkspaceBytes int
	Stream         unsafe.Pointer
}

// maxPartials bounds a split-K workspace, in float32s (64 MiB): the
// launcher's kMaxPartials.
const maxPartials = 1 << 24

// GEMMSplits is the number of blocks that share each C tile's k range for an
// m x n x k problem: SplitK, but no more than there are k tiles nor than
// maxPartials partial C's hold (the launcher's splits_for in
// kernels/include/kgen/common.cuh). With SplitFill it is the most a launch
// uses.
func GEMMSplits(t GEMMTiling, m, n, k int) int {
	if t.SplitK <= 1 || t.Block.K <= 0 {
		return 1
	}
	s := min(t.SplitK, (k+t.Block.K-1)/t.Block.K)
	if mn := m * n; mn > 0 {
		s = min(s, maxPartials/mn)
	}
	return max(1, s)
}

// clusterMinArch is the arch from which a ClusterReduce instance sums its
// splits in a cluster (kgen::sgemm::Config::kClusterReduce).
const clusterMinArch = 90

// GEMMWorkspaceBytes is the workspace instance g needs for an m x n x k
// problem: with Pack, each packed operand (packedBytes), then a partial
// m x n C of float32 per split when it splits K through memory; 0 when it
// does neither, and no split-K part when its splits sum in a cluster
// (ClusterReduce, built for sm_90 or later). It mirrors the launchers'
// workspace_bytes and packed_workspace_bytes, so it takes the instance,
// whose Arch decides.
func GEMMWorkspaceBytes(g GEMM, m, n, k int) int {
	if m <= 0 || n <= 0 {
		return 0
	}
	packed := 0
	if g.Tiling.Pack {
		if k <= 0 {
			return 0
		}
		if g.Tiling.A == RowMajor {
			packed += packedBytes(m, k)
		}
		if g.Tiling.B == ColMajor {
			packed += packedBytes(n, k)
		}
	}
	if g.Tiling.StreamK {
		return streamWorkspaceBytes(g.Tiling, m, n, k)
	}
	s := GEMMSplits(g.Tiling, m, n, k)
	if s <= 1 || (g.Tiling.ClusterReduce && g.Arch >= clusterMinArch) {
		return packed
	}
	return packed + s*m*n*4
}

// streamWorkspaceBytes is a stream-K instance's workspace for an m x n x k
// problem (kgen::stream_workspace_bytes): a partial tile of floats and a
// flag for each block of the largest grid it may stream over
// (tuning.StreamMaxBlocks), where the problem is whole tiles and k tiles
// (tuning.StreamIterations); else 0.
func streamWorkspaceBytes(t GEMMTiling, m, n, k int) int {
	b := t.Block
	slots := min(tuning.StreamIterations(m, n, k, b.M, b.N, b.K), tuning.StreamMaxBlocks)
	return slots*b.M*b.N*4 + (slots*4+15)/16*16
}

// packedBytes is the workspace of one packed k x mn operand: rows of mn
// float32s rounded up to 32 (128 bytes), the whole rounded up to 256 bytes
// (kgen::sgemm::packed_bytes).
func packedBytes(mn, k int) int {
	ld := (mn + 31) / 32 * 32
	return (ld*k*4 + 255) / 256 * 256
}

// GEMM is a GEMM instance: its description and its launcher, which returns
// a status from kernels/runtime/kgen_status.h.
type GEMM struct {
	Info
	Tiling GEMMTiling
	Launch func(*GEMMParams) int
}

// GEMVConfig is a GEMV instance's own parameters.
type GEMVConfig struct {
	A                Layout // RowMajor: A is N x K; ColMajor: its transpose
	ThreadsPerOutput int
	OutputsPerBlock  int
	Vector           int
	XShared          bool
	XF32             bool // x staged as fp32 (with XShared)
	RowsPerThread    int  // row-major A: rows of A each thread reads at the same k
	SplitK           int
	MaxBatch         int
	// MMA marks the tensor-core kernel: Warps split k. Row-major A: each
	// warp with Tiles 16-row mma tiles and Unroll 32-wide k steps in flight;
	// transposed A: each warp with 64 outputs (Tiles 1) and Unroll 16-wide k
	// steps in flight.
	MMA    bool
	Warps  int
	Tiles  int
	Unroll int
	// Stages, above 0, marks the tensor-core kernels staging A through
	// shared memory in a cp.async ring of Stages stages, each warp taking
	// its share of a stage's k (Unroll is 0 there): row-major A
	// (kgen/hgemv_mma_s.cuh), 16 Tiles rows of 256 k a stage; transposed A
	// (kgen/hgemv_mma_ts.cuh), 64 rows of the block's 64 outputs a stage.
	Stages int
}

// GEMVParams are a GEMV launcher's arguments: y = alpha * op(A) * x + beta
// * y for M right-hand vectors (rows of x and y), op(A) N x K. A, X and Y are
// device pointers on Device.
type GEMVParams struct {
	Device      int
	M, N, K     int
	Alpha, Beta float32
	A, X, Y     unsafe.Pointer
	LDA, LDX    int
	LDY         int
	Stream      unsafe.Pointer
}

// GEMV is a GEMV instance.
type GEMV struct {
	Info
	Config GEMVConfig
	Launch func(*GEMVParams) int
}

// GF256Strategy is how a GF(2^8) kernel multiplies bytes by coefficients.
type GF256Strategy int

const (
	GFTable       GF256Strategy = iota // 256-entry product tables in shared memory
	GFNibble                           // 16-entry nibble tables, byte permutes
	GFXorShift                         // XOR-only multiplication on packed words
	GFNaiveLogExp                      // reference: one byte per thread, log/exp
	GFTiledLogExp                      // reference: log/exp tables in shared memory
)

var strategyNames = [...]string{"table", "nibble", "xorshift", "naive", "tiled"}

func (s GF256Strategy) String() string {
	if s < 0 || int(s) >= len(strategyNames) {
		return "unknown"
	}
	return strategyNames[s]
}

// GF256Config is a GF(2^8) instance's own parameters.
type GF256Config struct {
	Strategy       GF256Strategy
	BytesPerThread int
	RowsPerBlock   int
	Stages         int // 0: inputs in registers; else a ring of input batches in shared memory
}

// GF256Params are a GF(2^8) launcher's arguments: out[r] = XOR over j of
// Coeffs[r*K+j] * in[j] for r < Rows, over Len bytes of each shard. In and
// Out point at arrays of K and Rows device pointers on Device, and Coeffs at
// Rows x K bytes: in device memory, or with HostArrays in host memory (Go
// memory is fine: the launcher copies them into the launch before it
// returns) for at most GF256InlineShards shards (see GF256FitsInline).
type GF256Params struct {
	Device     int
	Coeffs     unsafe.Pointer
	Rows, K    int
	In, Out    unsafe.Pointer
	Len        int64
	Accumulate int // 1: XOR into out
	HostArrays int // 1: Coeffs, In and Out are host memory
	Stream     unsafe.Pointer
}

// GF256 is a GF(2^8) matrix-product instance.
type GF256 struct {
	Info
	Config GF256Config
	Launch func(*GF256Params) int
}
