package ir

import "github.com/kgen-gpu/kgen/internal/tuning"

// Module is everything one spec file generates.
type Module struct {
	SpecPath  string // as given to the generator, relative to the repo root
	Targets   []Target
	Instances []Instance // sorted by Name
	// Tunings are the measured dispatch tables (kernels/tuning/*.yaml),
	// already checked against Instances, in file name order.
	Tunings []tuning.Table
}

// Target is an architecture the kernels are built for, with its own flags.
type Target struct {
	Arch  Arch
	Flags []string // extra nvcc flags for this arch only
	PTX   bool     // also embed PTX, so newer GPUs can JIT-compile it
}

// Tile is a tile of the output (M x N) and of the reduction (K).
type Tile struct{ M, N, K int }

// Types are the element types of a kernel's operands, output and accumulator.
type Types struct{ A, B, C, Acc DType }

// Instance is one kernel: one configuration, one procedural name. The fields
// every kernel has are here; what only its op has is in Params.
type Instance struct {
	Name        string // procedural name; C symbol, Go name, test and bench key
	Family      string
	Op          Op
	Types       Types
	Archs       []Arch
	Threads     int // threads per block
	SharedBytes int // static shared memory per block
	SpecLine    int // line of the tiling in the spec, for messages
	// Reference marks an instance kept for comparison (the SGEMM ladder,
	// the ablation): callable by name, never chosen by the engine itself
	// nor tuned. It is the family's reference flag.
	Reference bool
	Params    Params // the op's own parameters; its Op() is Op
}

// Params are the parameters of one op's kernels: *GemmParams or
// *GF256Params. Each type builds its part of the procedural name.
type Params interface {
	Op() Op
	// NameTail is the part of the instance name after the family, built
	// from every field that changes the generated code.
	NameTail(t Types) string
}

// Gemm returns in's GEMM parameters, or nil when in is not a GEMM.
func (in Instance) Gemm() *GemmParams {
	p, _ := in.Params.(*GemmParams)
	return p
}

// GF256 returns in's GF(2^8) parameters, or nil when in is another op.
func (in Instance) GF256() *GF256Params {
	p, _ := in.Params.(*GF256Params)
	return p
}

// Symbol is the C launcher symbol of the instance built for arch.
func (in Instance) Symbol(a Arch) string {
	return "kgen_" + in.Name + "_" + Arches[a].Short
}

// Launch is the instance's launcher parameter list: what its op computes
// on, in C, between the device ordinal (first) and the stream (last).
func (in Instance) Launch() []Param { return Signature(in.Op, in.Types) }

// InstanceName builds the procedural name of a kernel of family f.
func InstanceName(family string, t Types, p Params) string {
	return family + "_" + p.NameTail(t)
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
