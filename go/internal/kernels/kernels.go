// Package kernels is the table of generated kernel instances and their cgo
// launchers. kernels_gen.go is written by kgen from kernels/spec.yaml; this
// file holds the types it uses. Only go/ packages use it: the public API is
// go/gemm.
package kernels

import "unsafe"

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

// Info describes one instance built for one arch.
type Info struct {
	Name           string // procedural name from the spec
	Arch           int    // compute capability times ten
	A, B, C        Layout
	Block          Tile
	Warp, Thread   Tile // K unused
	Stages         int
	Threads        int
	SharedBytes    int
	MinBlocksPerSM int
}

// SGEMMParams are a launcher's arguments. A, B and C are device pointers,
// Stream a cudaStream_t (nil for the default stream).
type SGEMMParams struct {
	M, N, K     int
	Alpha, Beta float32
	A, B, C     unsafe.Pointer
	LDA, LDB    int
	LDC         int
	Stream      unsafe.Pointer
}

// SGEMM is an fp32 GEMM instance: its description and its launcher, which
// returns a status from kernels/runtime/kgen_status.h.
type SGEMM struct {
	Info
	Launch func(*SGEMMParams) int
}
