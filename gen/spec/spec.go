package spec

import "github.com/kgen-gpu/kgen/gen/ir"

// Version is the only schema version this package reads.
const Version = 1

// Spec is a decoded kernel spec. Lines are 1-based lines of Path, kept so
// that later stages can still point at the spec in their messages.
type Spec struct {
	Path     string // as given to Parse; becomes ir.Module.SpecPath
	Version  int
	Targets  []Target
	Families []Family
}

// Target is one architecture the kernels are built for.
type Target struct {
	Arch  ir.Arch
	Flags []string // extra nvcc flags for this arch only
	PTX   bool     // also embed PTX so newer GPUs can JIT it
	Line  int

	flagLines []int // line of each flag, where decoded
}

// Family is a set of kernels that share an op, types and archs. A gemm
// family expands into one instance per layout pair and tiling; a
// gf256_matmul family into one per GF256 tiling.
type Family struct {
	Name    string
	Op      ir.Op
	Types   Types
	Layouts []LayoutPair // gemm only
	CLayout ir.Layout    // gemm only
	Archs   []ir.Arch
	Tilings []Tiling      // gemm
	Gemv    []GemvTiling  // gemv
	GF256   []GF256Tiling // gf256_matmul
	// Reference marks the family's instances as kept for comparison (the
	// SGEMM ladder): callable by name, never picked by the engine nor tuned.
	Reference bool
	Line      int // line of the family's first key

	pos familyPos
}

// familyPos is what decoding learnt about a family beyond its values: where
// keys and list items were, and which fields failed, so that validation
// neither points at line 0 nor repeats a decoding error in other words.
// A Family built by hand has the zero familyPos and is checked in full.
type familyPos struct {
	name, types              int   // lines of the keys
	layouts, cLayout         int   // lines of the keys, where present
	layout, arch             []int // line of each item of Layouts and Archs
	nameBad, opBad, typesBad bool  // name, op (or c_layout) or types did not decode
}

// Types are the element types of the operands, the output and the accumulator.
type Types struct{ A, B, C, Acc ir.DType }

// LayoutPair is the storage order of A and B, spelt "nt" etc. in the spec.
type LayoutPair struct{ A, B ir.Layout }

func (p LayoutPair) String() string { return ir.Layouts[p.A].Letter + ir.Layouts[p.B].Letter }

// KContiguous reports whether an operand stores k contiguously: A
// row-major or B column-major (what a pack tiling packs).
func (p LayoutPair) KContiguous() bool { return p.A == ir.RowMajor || p.B == ir.ColMajor }

// Tiling is one tile configuration of a family. Warp and Thread use M and N
// only.
type Tiling struct {
	Block, Warp, Thread ir.Tile
	Stages              int
	VecGlobal           int            // elements per global load
	VecShared           int            // elements per shared-memory load
	MinBlocksSM         int            // __launch_bounds__ minimum blocks per SM
	SplitK              int            // most blocks sharing one C tile's k range
	SplitReduce         ir.SplitReduce // key split_reduce: how the splits are summed (f32 only)
	SplitCount          ir.SplitCount  // key split_count: fixed, or as many as fill the GPU (f32 only)
	MMA                 bool           // an f16 tensor-core tiling: Thread and Vec* unused
	LaneMap             ir.LaneMap     // key lanes: a warp's lanes on its thread grid (f32 only)
	FMAOrder            ir.FMAOrder    // key fma: order of a k step's multiply-adds (f32 only)
	Sync                ir.Sync        // key sync: how the cp.async ring synchronises (f32 only)
	Tail                ir.Tail        // key tail: how a launch runs its last, partly filled wave (f32 only)
	Pack                bool           // key pack: k-contiguous operands transposed first (f32 only)
	// Ladder is the seed article's step of a ladder tiling (key ladder):
	// Block and, from blocktile1d on, Thread only; LadderNone otherwise.
	Ladder ir.LadderStep
	Line   int // line of the tiling's first key

	bad         bool // a field did not decode; its rule checks would only echo that
	threadGiven bool // a ladder tiling had the key thread
}

// GemvTiling is one configuration of a gemv family: the seed article's
// ladder, from one thread per output to several warps per output.
type GemvTiling struct {
	ThreadsPerOutput int  // 1, a group of 2..16 lanes, a warp (32) or several warps (64..256)
	OutputsPerBlock  int  // outputs one block computes
	Vector           int  // halves per load: 1, 2, 4 or 8 (16 bytes)
	XShared          bool // stage x in shared memory (else read it through the cache)
	XF32             bool // stage x converted to fp32 once per block (needs XShared)
	RowsPerThread    int  // layout n: rows of A a thread reads at the same k (1, 2, 4 or 8)
	SplitK           int  // blocks sharing one output's K, combined in the same kernel
	Threads          int  // threads per block
	MaxBatch         int  // right-hand vectors M the instance handles: 1, 2, 4 or 8
	// MMA marks a tensor-core tiling (key mma: true; kgen/hgemv_mma.cuh):
	// Warps, Tiles, Unroll or Stages, MaxBatch and (layout t) SplitK only,
	// Threads is 32 Warps.
	MMA    bool
	Warps  int // warps per block, splitting k between them
	Tiles  int // 16-row mma tiles per warp, sharing each x fragment
	Unroll int // 32-wide k steps whose loads are in flight together; 0 with Stages
	// Stages, above 0, stages A through shared memory in a cp.async ring of
	// that many stages, the MMAs reading them with ldmatrix: layout n
	// (kgen/hgemv_mma_s.cuh) stages of 256 k, layout t
	// (kgen/hgemv_mma_ts.cuh) stages of 64 rows of the block's 64 outputs.
	// Exactly one of Unroll and Stages is given.
	Stages int
	Line   int

	bad         bool
	stagesGiven bool // the tiling had the key stages (stages: 0 is an error, not unroll's default)
}

// GF256Tiling is one configuration of a gf256_matmul family.
type GF256Tiling struct {
	Strategy       ir.GF256Strategy
	BytesPerThread int // bytes a thread handles per step: 4, 8 or 16
	Threads        int // threads per block
	RowsPerBlock   int // output rows one block makes from one read of the inputs
	Stages         int // 0: inputs load into registers; else batches in a cp.async ring in shared memory
	Line           int // line of the tiling's first key

	bad bool // a field did not decode
}

// line returns l, or fallback where l is unknown (a hand-built Spec).
func line(l, fallback int) int {
	if l > 0 {
		return l
	}
	return fallback
}

// at returns lines[i], or fallback where there is none.
func at(lines []int, i, fallback int) int {
	if i < len(lines) {
		return line(lines[i], fallback)
	}
	return fallback
}
