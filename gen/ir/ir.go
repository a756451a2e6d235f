package ir

import (
	"fmt"
	"strings"
)

// Module is everything one spec file generates.
type Module struct {
	SpecPath  string // as given to the generator, relative to the repo root
	Targets   []Target
	Instances []Instance // sorted by Name
}

// Target is an architecture the kernels are built for, with its own flags.
type Target struct {
	Arch  Arch
	Flags []string // extra nvcc flags for this arch only
	PTX   bool     // also embed PTX, so newer GPUs can JIT-compile it
}

// Tile is a tile of the output (M x N) and of the reduction (K).
type Tile struct{ M, N, K int }

// Instance is one kernel: one configuration, one procedural name.
type Instance struct {
	Name   string // procedural name; C symbol, Go name, test and bench key
	Family string
	Op     Op

	AType, BType, CType, AccType DType
	ALayout, BLayout, CLayout    Layout

	Block  Tile // M, N, K of the block tile
	Warp   Tile // M, N of a warp's tile (K unused)
	Thread Tile // M, N of a thread's tile (K unused)

	Stages      int // shared-memory buffers in the main-loop pipeline
	VecGlobal   int // elements per global load
	VecShared   int // elements per shared-memory load
	MinBlocksSM int // blocks per multiprocessor asked of the register allocator
	Archs       []Arch
	Threads     int // threads per block
	SharedBytes int // static shared memory per block
	SpecLine    int // line of the tiling in the spec, for messages
}

// Symbol is the C launcher symbol of the instance built for arch.
func (in Instance) Symbol(a Arch) string {
	return "kgen_" + in.Name + "_" + Arches[a].Short
}

// GemmName builds the procedural name of a GEMM instance. Every field that
// changes the generated code is in it, so two instances never share a name
// unless they are the same kernel.
func GemmName(family string, in Instance) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s_%s%s", family, Layouts[in.ALayout].Letter, Layouts[in.BLayout].Letter)
	if in.CLayout != RowMajor {
		b.WriteString("_c" + Layouts[in.CLayout].Letter)
	}
	fmt.Fprintf(&b, "_%s", DTypes[in.AType].Name)
	if in.AccType != in.AType {
		fmt.Fprintf(&b, "acc%s", DTypes[in.AccType].Name)
	}
	fmt.Fprintf(&b, "_b%dx%dx%d_w%dx%d_t%dx%d_s%d",
		in.Block.M, in.Block.N, in.Block.K, in.Warp.M, in.Warp.N, in.Thread.M, in.Thread.N, in.Stages)
	if in.VecGlobal != 4 || in.VecShared != 4 {
		fmt.Fprintf(&b, "_v%d%d", in.VecGlobal, in.VecShared)
	}
	if in.MinBlocksSM > 1 {
		fmt.Fprintf(&b, "_o%d", in.MinBlocksSM)
	}
	return b.String()
}

// Target returns the module's target for a, and whether it has one.
func (m *Module) Target(a Arch) (Target, bool) {
	for _, t := range m.Targets {
		if t.Arch == a {
			return t, true
		}
	}
	return Target{}, false
}

// InstancesFor lists the instances built for a, in name order.
func (m *Module) InstancesFor(a Arch) []Instance {
	var out []Instance
	for _, in := range m.Instances {
		for _, ia := range in.Archs {
			if ia == a {
				out = append(out, in)
				break
			}
		}
	}
	return out
}
