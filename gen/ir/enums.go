package ir

import "fmt"

// DType is an element type that the spec can name.
type DType int

const (
	F32 DType = iota
	F16
	GF256 // GF(2^8) with the reducing polynomial 0x11d
)

// DTypeInfo is the one table row of a DType.
type DTypeInfo struct {
	Name    string // spelling in the spec and in instance names
	CUDA    string // CUDA C++ element type
	CHeader string // plain-C element type, for the header cgo reads
	Go      string // Go element type
	GoConst string // kernels.DType constant in the Go bindings
	Bytes   int
}

// DTypes is the table of every DType; a test checks that every value has a row.
var DTypes = map[DType]DTypeInfo{
	F32:   {Name: "f32", CUDA: "float", CHeader: "float", Go: "float32", GoConst: "ElemF32", Bytes: 4},
	F16:   {Name: "f16", CUDA: "__half", CHeader: "uint16_t", Go: "uint16", GoConst: "ElemF16", Bytes: 2},
	GF256: {Name: "gf256", CUDA: "uint8_t", CHeader: "uint8_t", Go: "uint8", GoConst: "ElemGF256", Bytes: 1},
}

// AllDTypes lists the DTypes in declaration order.
var AllDTypes = []DType{F32, F16, GF256}

func (d DType) String() string { return DTypes[d].Name }

// Layout is the storage order of a matrix operand, relative to its logical
// shape: A is M x K, B is K x N, C is M x N.
type Layout int

const (
	RowMajor Layout = iota
	ColMajor
)

// LayoutInfo is the one table row of a Layout.
type LayoutInfo struct {
	Name   string // "row" or "col" in the spec
	Letter string // "n" (row-major, as stored) or "t" (column-major) in names
	CUDA   string // kgen::Order enumerator in the CUDA sources
	Go     string // kernels.Layout constant in the Go bindings
}

// Layouts is the table of every Layout.
var Layouts = map[Layout]LayoutInfo{
	RowMajor: {Name: "row", Letter: "n", CUDA: "kgen::Order::Row", Go: "RowMajor"},
	ColMajor: {Name: "col", Letter: "t", CUDA: "kgen::Order::Col", Go: "ColMajor"},
}

// AllLayouts lists the Layouts in declaration order.
var AllLayouts = []Layout{RowMajor, ColMajor}

func (l Layout) String() string { return Layouts[l].Name }

// Op is the kind of operation a kernel family computes.
type Op int

const (
	GEMM        Op = iota // C = alpha * A * B + beta * C
	GEMV                  // y = alpha * x * A + beta * y
	GF256MatMul           // GF(2^8) matrix product, for Reed-Solomon coding
)

// OpInfo is the one table row of an Op.
type OpInfo struct {
	Name     string // spelling in the spec
	Go       string // kernels.Op constant in the Go bindings
	GoTable  string // the generated table of its instances in go/internal/kernels
	GoEntry  string // that table's element type
	GoParams string // its launchers' parameter struct
	Doc      string // what it computes, for comments
}

// Ops is the table of every Op.
var Ops = map[Op]OpInfo{
	GEMM: {Name: "gemm", Go: "OpGEMM", GoTable: "GEMMs", GoEntry: "GEMM", GoParams: "GEMMParams",
		Doc: "C = alpha * A * B + beta * C"},
	GEMV: {Name: "gemv", Go: "OpGEMV", GoTable: "GEMVs", GoEntry: "GEMV", GoParams: "GEMVParams",
		Doc: "y = alpha * op(A) * x + beta * y"},
	GF256MatMul: {Name: "gf256_matmul", Go: "OpGF256MatMul", GoTable: "GF256s", GoEntry: "GF256", GoParams: "GF256Params",
		Doc: "out[r] = XOR over j of coeffs[r][j] * in[j] in GF(2^8), byte by byte; with host_arrays, coeffs, in and out are in host memory (at most KGEN_GF256_INLINE_SHARDS shards, inputs and outputs together)"},
}

// AllOps lists the Ops in declaration order.
var AllOps = []Op{GEMM, GEMV, GF256MatMul}

func (o Op) String() string { return Ops[o].Name }

// Arch is a CUDA target architecture.
type Arch int

const (
	SM80 Arch = iota // A100
	SM86             // RTX 30xx, A40
	SM89             // RTX 40xx, L4, L40
	SM90             // H100, H200
)

// ArchInfo is the one table row of an Arch: its spellings and the per-block
// and per-multiprocessor limits that validation checks tiles against.
type ArchInfo struct {
	Name             string // "sm_80" in the spec
	Short            string // "sm80", the suffix of launcher symbols
	CC               int    // compute capability times ten
	MaxThreads       int    // threads per block
	MaxThreadsPerSM  int    // resident threads per multiprocessor
	StaticSmem       int    // bytes of static shared memory per block
	MaxSmemPerBlock  int    // bytes per block with the dynamic opt-in
	RegsPerSM        int    // 32-bit registers per multiprocessor
	MaxRegsPerThread int
	FP32Lanes        int // FP32 lanes per multiprocessor, for peak figures
}

// Arches is the table of every Arch.
var Arches = map[Arch]ArchInfo{
	SM80: {Name: "sm_80", Short: "sm80", CC: 80, MaxThreads: 1024, MaxThreadsPerSM: 2048, StaticSmem: 48 << 10, MaxSmemPerBlock: 163 << 10, RegsPerSM: 65536, MaxRegsPerThread: 255, FP32Lanes: 64},
	SM86: {Name: "sm_86", Short: "sm86", CC: 86, MaxThreads: 1024, MaxThreadsPerSM: 1536, StaticSmem: 48 << 10, MaxSmemPerBlock: 99 << 10, RegsPerSM: 65536, MaxRegsPerThread: 255, FP32Lanes: 128},
	SM89: {Name: "sm_89", Short: "sm89", CC: 89, MaxThreads: 1024, MaxThreadsPerSM: 1536, StaticSmem: 48 << 10, MaxSmemPerBlock: 99 << 10, RegsPerSM: 65536, MaxRegsPerThread: 255, FP32Lanes: 128},
	SM90: {Name: "sm_90", Short: "sm90", CC: 90, MaxThreads: 1024, MaxThreadsPerSM: 2048, StaticSmem: 48 << 10, MaxSmemPerBlock: 227 << 10, RegsPerSM: 65536, MaxRegsPerThread: 255, FP32Lanes: 128},
}

// AllArches lists the Arches in ascending compute capability.
var AllArches = []Arch{SM80, SM86, SM89, SM90}

func (a Arch) String() string { return Arches[a].Name }

// lookup finds the value whose table name is name.
func lookup[T comparable](all []T, name string, nameOf func(T) string) (T, bool) {
	for _, v := range all {
		if nameOf(v) == name {
			return v, true
		}
	}
	var zero T
	return zero, false
}

// ParseDType, ParseLayout, ParseOp and ParseArch map spec spellings to values.
func ParseDType(s string) (DType, bool)   { return lookup(AllDTypes, s, DType.String) }
func ParseLayout(s string) (Layout, bool) { return lookup(AllLayouts, s, Layout.String) }
func ParseOp(s string) (Op, bool)         { return lookup(AllOps, s, Op.String) }
func ParseArch(s string) (Arch, bool)     { return lookup(AllArches, s, Arch.String) }

// Names lists the spec spellings of all, for error messages.
func Names[T fmt.Stringer](all []T) []string {
	out := make([]string, len(all))
	for i, v := range all {
		out[i] = v.String()
	}
	return out
}
