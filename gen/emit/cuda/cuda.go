// Package cuda emits one CUDA source per kernel instance. Each source
// instantiates its op's template from kernels/include/kgen and defines the
// instance's extern "C" launcher; the arch suffix of its symbol comes from
// -DKGEN_ARCH, which the build passes once per target arch.
//
// The launcher is the same for every op: it binds the device, then calls
// the op's launch<Config> with the parameters of ir.Signature. What differs
// per op is only the Config line and the description, in configs below.
package cuda

import (
	"fmt"
	"path"
	"strings"
	"text/template"

	"github.com/kgen-gpu/kgen/gen/emit"
	"github.com/kgen-gpu/kgen/gen/ir"
)

// Dir is where the generated CUDA sources go, relative to the repo root.
const Dir = "kernels/generated"

// SourcePath is the path of in's CUDA source.
func SourcePath(in ir.Instance) string { return path.Join(Dir, in.Name+".cu") }

var funcs = map[string]any{
	"layout":     func(l ir.Layout) string { return ir.Layouts[l].Name },
	"cudaOrder":  func(l ir.Layout) string { return ir.Layouts[l].CUDA },
	"strategy":   func(s ir.GF256Strategy) string { return ir.GF256Strategies[s].CUDA },
	"transposed": func(l ir.Layout) bool { return l == ir.ColMajor },
	"f16":        func(d ir.DType) bool { return d == ir.F16 },
	"ladderStep": func(s ir.LadderStep) string { return ir.LadderSteps[s].CUDA },
	// kernelA and kernelB are the layouts a GEMM instance's kernel reads
	// (ir.GemmParams.KernelLayouts: a packing instance's copies).
	"kernelA": func(p *ir.GemmParams) ir.Layout { a, _ := p.KernelLayouts(); return a },
	"kernelB": func(p *ir.GemmParams) ir.Layout { _, b := p.KernelLayouts(); return b },
}

// opConfig is what one op adds to the common source: the template header
// it instantiates, its namespace, the Config it defines and, where not
// launch<Config>, the launch function that the launcher calls. Its
// templates see the instance as .In and its parameters as .P.
type opConfig struct {
	header, namespace        string
	describe, config, launch *template.Template
}

// configs' templates: .In is the instance, .P its op's parameters.
var configs = map[ir.Op]opConfig{
	ir.GEMM: {
		header: "kgen/sgemm.cuh", namespace: "kgen::sgemm",
		describe: emit.Template("gemm.describe", `fp32 GEMM on CUDA cores, A {{layout .P.ALayout}}-major, B {{layout .P.BLayout}}-major, C row-major;
// {{if .P.Pack}}the k-contiguous operands transposed into the workspace first, then the kernel of A {{layout (kernelA .P)}}-major and B {{layout (kernelB .P)}}-major;
// {{end}}block {{.P.Block.M}}x{{.P.Block.N}}x{{.P.Block.K}}, warp {{.P.Warp.M}}x{{.P.Warp.N}}, thread {{.P.Thread.M}}x{{.P.Thread.N}}, {{.P.Stages}} stages ({{if gt .P.Stages 2}}cp.async{{else}}through registers{{end}}), split-K {{if .P.FillSplits}}up to {{end}}{{.P.SplitK}}{{if .P.ClusterReduce}} (summed in a thread-block cluster on sm_90){{end}}{{if .P.FillSplits}} (as many as fill the GPU){{end}},{{if .P.Mbarriers}} the ring synchronised by mbarriers,{{end}}{{if .P.TailSplit}} the last wave's tiles split in clusters on sm_90,{{end}}{{if .P.StreamK}} a one-wave problem's tiles or the last wave's by stream-K,{{end}} {{.In.Threads}} threads, {{if .P.ClusterReduce}}at most {{end}}{{.In.SharedBytes}} bytes of shared memory.`, funcs),
		config: emit.Template("gemm.config", `struct Config : kgen::sgemm::Config<{{.P.Block.M}}, {{.P.Block.N}}, {{.P.Block.K}}, {{.P.Warp.M}}, {{.P.Warp.N}}, {{.P.Thread.M}}, {{.P.Thread.N}}, /*min blocks per SM*/ {{.P.MinBlocksSM}},
                                   /*16-byte global access*/ {{eq .P.VecGlobal 4}}, {{if .P.Pack}}/*packed*/ {{end}}{{cudaOrder (kernelA .P)}}, {{cudaOrder (kernelB .P)}},
                                   /*stages*/ {{.P.Stages}}, /*split-K*/ {{.P.SplitK}}{{if or .P.LaneMap .P.FMAOrder .P.ClusterReduce .P.FillSplits .P.Mbarriers .P.TailArg}}, /*lane map: {{.P.LaneMap}}*/ {{printf "%d" .P.LaneMap}}{{end}}
                                   {{- if or .P.FMAOrder .P.ClusterReduce .P.FillSplits .P.Mbarriers .P.TailArg}}, /*FFMA order: {{.P.FMAOrder}}*/ {{printf "%d" .P.FMAOrder}}{{end}}
                                   {{- if or .P.ClusterReduce .P.FillSplits .P.Mbarriers .P.TailArg}}, /*splits summed in a cluster*/ {{.P.ClusterReduce}}{{end}}
                                   {{- if or .P.FillSplits .P.Mbarriers .P.TailArg}}, /*splits filling the GPU*/ {{.P.FillSplits}}{{end}}
                                   {{- if or .P.Mbarriers .P.TailArg}}, /*ring through mbarriers*/ {{.P.Mbarriers}}{{end}}
                                   {{- if .P.TailSplit}}, /*last wave split in clusters*/ true{{else if .P.StreamK}}, /*tiles by stream-K*/ kgen::sgemm::kTailStream{{end}}> {};
static_assert(Config::kStages * (Config::kStageA + Config::kStageB) * 4 + Config::kRingBarrierBytes == {{.P.RingBytes}},
              "the main loop's shared memory differs from the spec's");`, funcs),
		launch: emit.Template("gemm.launch", `{{if .P.Pack}}launch_packed<Config, {{cudaOrder .P.ALayout}}, {{cudaOrder .P.BLayout}}>{{else}}launch<Config>{{end}}`, funcs),
	},
	ir.GEMV: {
		header: "kgen/hgemv.cuh", namespace: "kgen::hgemv",
		describe: emit.Template("gemv.describe", `fp16 GEMV on CUDA cores, y = alpha * op(A) * x + beta * y, A {{if transposed .P.ALayout}}k x n (op(A) = A^T){{else}}n x k{{end}} row-major;
// {{.P.ThreadsPerOutput}} threads per output, {{.P.OutputsPerBlock}} outputs per block, {{.P.Vector}} halves per load, {{if gt .P.RowsPerThread 1}}{{.P.RowsPerThread}} rows per thread, {{end}}x {{if .P.XF32}}in shared memory as fp32{{else if .P.XShared}}in shared memory{{else}}through the cache{{end}}, split-K {{.P.SplitK}}, up to {{.P.MaxBatch}} vectors, {{.In.Threads}} threads.`, funcs),
		config: emit.Template("gemv.config", `struct Config : kgen::hgemv::Config<{{if transposed .P.ALayout}}kgen::hgemv::Layout::T{{else}}kgen::hgemv::Layout::N{{end}}, /*threads per output*/ {{.P.ThreadsPerOutput}},
                                   /*outputs per block*/ {{.P.OutputsPerBlock}}, /*vector*/ {{.P.Vector}}, /*x in shared*/ {{.P.XShared}},
                                   /*split-K*/ {{.P.SplitK}}, /*threads*/ {{.In.Threads}}, /*max batch*/ {{.P.MaxBatch}},
                                   /*rows per thread*/ {{.P.RowsPerThread}}, /*x in fp32*/ {{.P.XF32}}> {};`, funcs),
	},
	ir.GF256MatMul: {
		header: "kgen/gf256.cuh", namespace: "kgen::gf256",
		describe: emit.Template("gf256.describe", `GF(2^8) matrix product (Reed-Solomon coding), strategy {{.P.Strategy}};
// {{.P.BytesPerThread}} bytes per thread per step, {{.In.Threads}} threads, {{.P.RowsPerBlock}} output rows per block,
// {{if .P.Stages}}a ring of {{.P.Stages}} input batches in shared memory, {{end}}at most {{.In.SharedBytes}} bytes of dynamic shared memory.`, funcs),
		config: emit.Template("gf256.config", `struct Config : kgen::gf256::Config</*bytes per thread*/ {{.P.BytesPerThread}}, /*threads*/ {{.In.Threads}}, /*rows per block*/ {{.P.RowsPerBlock}},
                                   {{strategy .P.Strategy}}, /*stages*/ {{.P.Stages}}> {};`, funcs),
	},
}

// Config is a struct of the source's own, in a namespace named after the
// instance and the arch (kgen_config_<name>_sm90), not an alias of the template's:
// the four per-arch objects of one instance link into one binary, and with
// an alias their kernels would have equal names, whose host stubs the linker
// merges, so every arch's launch could reach the image of whichever arch
// registered last.

// sourceTemplate's arguments: the spec path, the instance, its op's
// description and Config, the launcher's parameters and helpers.
const sourceSource = `// Code generated by kgen from {{.Spec}}. DO NOT EDIT.

// {{.In.Name}}: {{.Describe}}
#include "kernels/generated/kgen_kernels.h"
#include "{{.Header}}"

namespace KGEN_CAT(kgen_config_{{.In.Name}}, KGEN_ARCH) {
{{.Config}}
static_assert(Config::kThreads == {{.In.Threads}}, "threads per block differ from the spec's");
}  // namespace
using KGEN_CAT(kgen_config_{{.In.Name}}, KGEN_ARCH)::Config;

extern "C" int KGEN_EXPORT(kgen_{{.In.Name}})(int device, {{range .Params}}{{.C}} {{.Name}}, {{end}}void* stream) {
  KGEN_BIND_DEVICE(device);
  return {{.Namespace}}::{{.Launch}}({{range .Params}}{{.Name}}, {{end}}static_cast<cudaStream_t>(stream));
}
`

var sourceTemplate = emit.Template("instance.cu", sourceSource, nil)

// hgemm is the GEMM config of fp16 instances (tensor cores).
var hgemm = opConfig{
	header: "kgen/hgemm.cuh", namespace: "kgen::hgemm",
	describe: emit.Template("hgemm.describe", `fp16 GEMM on tensor cores (mma.sync m16n8k16), A {{layout .P.ALayout}}-major, B {{layout .P.BLayout}}-major, C row-major, {{.In.Types.Acc}} accumulation;
// block {{.P.Block.M}}x{{.P.Block.N}}x{{.P.Block.K}}, warp {{.P.Warp.M}}x{{.P.Warp.N}}, {{.P.Stages}} cp.async stages{{if gt .P.SplitK 1}}, split-K {{.P.SplitK}}{{end}}, {{.In.Threads}} threads, {{.In.SharedBytes}} bytes of dynamic shared memory.`, funcs),
	config: emit.Template("hgemm.config", `struct Config : kgen::hgemm::Config<{{.P.Block.M}}, {{.P.Block.N}}, {{.P.Block.K}}, {{.P.Warp.M}}, {{.P.Warp.N}}, /*stages*/ {{.P.Stages}}, /*min blocks per SM*/ {{.P.MinBlocksSM}},
                                   {{cudaOrder .P.ALayout}}, {{cudaOrder .P.BLayout}}, {{if f16 .In.Types.Acc}}kgen::hgemm::Accum::F16{{else}}kgen::hgemm::Accum::F32{{end}}{{if gt .P.SplitK 1}}, /*split-K*/ {{.P.SplitK}}{{end}}> {};`, funcs),
}

// ladder is the GEMM config of the seed article's SGEMM ladder steps.
var ladder = opConfig{
	header: "kgen/sgemm_ladder.cuh", namespace: "kgen::sgemm_ladder",
	describe: emit.Template("ladder.describe", `the seed article's SGEMM ladder, step {{.P.Ladder}} (a reference kernel), A and B row-major, C row-major;
// block {{.P.Block.M}}x{{.P.Block.N}}x{{.P.Block.K}}, thread {{.P.Thread.M}}x{{.P.Thread.N}}, {{.In.Threads}} threads, {{.In.SharedBytes}} bytes of shared memory.`, funcs),
	config: emit.Template("ladder.config", `struct Config : kgen::sgemm_ladder::Config<{{ladderStep .P.Ladder}}, {{.P.Block.M}}, {{.P.Block.N}}, {{.P.Block.K}}, {{.P.Thread.M}}, {{.P.Thread.N}}> {};`, funcs),
}

// hgemvMMA is the GEMV config of tensor-core instances.
var hgemvMMA = opConfig{
	header: "kgen/hgemv_mma.cuh", namespace: "kgen::hgemv_mma",
	describe: emit.Template("hgemvmma.describe", `fp16 GEMV on tensor cores (mma.sync m16n8k16: 16 rows of A x 8 vectors), y = alpha * A * x + beta * y, A n x k row-major, {{.In.Types.Acc}} accumulation;
// {{.P.Warps}} warps splitting k, {{.P.Tiles}} x 16 rows per warp, {{.P.Unroll}} steps of 32 k in flight, up to {{.P.MaxBatch}} vectors, {{.In.Threads}} threads, {{.In.SharedBytes}} bytes of shared memory.`, funcs),
	config: emit.Template("hgemvmma.config", `struct Config : kgen::hgemv_mma::Config</*warps*/ {{.P.Warps}}, /*tiles*/ {{.P.Tiles}}, /*unroll*/ {{.P.Unroll}}, /*max batch*/ {{.P.MaxBatch}}> {};`, funcs),
}

// hgemvMMAT is the GEMV config of tensor-core instances of layout t (x as
// the mma's A operand, the weights as B; tiles is 1 there).
var hgemvMMAT = opConfig{
	header: "kgen/hgemv_mma_t.cuh", namespace: "kgen::hgemv_mma_t",
	describe: emit.Template("hgemvmmat.describe", `fp16 GEMV on tensor cores (mma.sync m16n8k16: up to 16 vectors x 8 outputs of A^T), y = alpha * A^T * x + beta * y, A k x n row-major, {{.In.Types.Acc}} accumulation;
// {{.P.Warps}} warps splitting k, 64 outputs per block, {{.P.Unroll}} steps of 16 k in flight, up to {{.P.MaxBatch}} vectors{{if gt .P.SplitK 1}}, {{.P.SplitK}} blocks splitting k{{end}}, {{.In.Threads}} threads, {{.In.SharedBytes}} bytes of shared memory.`, funcs),
	config: emit.Template("hgemvmmat.config", `struct Config : kgen::hgemv_mma_t::Config</*warps*/ {{.P.Warps}}, /*unroll*/ {{.P.Unroll}}, /*max batch*/ {{.P.MaxBatch}}{{if gt .P.SplitK 1}}, /*split-K*/ {{.P.SplitK}}{{end}}> {};`, funcs),
}

// hgemvMMAS is the GEMV config of tensor-core instances of layout n with A
// staged through shared memory (stages > 0): a ring of stages of 256 k
// (kgen/hgemv_mma_s.cuh), dynamic shared memory; the static_assert holds
// the spec's size to the template's.
var hgemvMMAS = opConfig{
	header: "kgen/hgemv_mma_s.cuh", namespace: "kgen::hgemv_mma_s",
	describe: emit.Template("hgemvmmas.describe", `fp16 GEMV on tensor cores (mma.sync m16n8k16: 16 rows of A x 8 vectors), y = alpha * A * x + beta * y, A n x k row-major, {{.In.Types.Acc}} accumulation;
// A staged through shared memory ({{.P.Stages}} stages of 256 k, cp.async, ldmatrix), {{.P.Warps}} warps splitting each stage's k, {{.P.Tiles}} x 16 rows per block, up to {{.P.MaxBatch}} vectors, {{.In.Threads}} threads, {{.In.SharedBytes}} bytes of dynamic shared memory.`, funcs),
	config: emit.Template("hgemvmmas.config", `struct Config : kgen::hgemv_mma_s::Config</*warps*/ {{.P.Warps}}, /*tiles*/ {{.P.Tiles}}, /*stages*/ {{.P.Stages}}, /*max batch*/ {{.P.MaxBatch}}> {};
static_assert(Config::kSmemBytes == {{.In.SharedBytes}}, "shared memory differs from the spec's");`, funcs),
}

// hgemvMMATS is the GEMV config of tensor-core instances of layout t with A
// staged through shared memory (stages > 0): a ring of stages of 64 rows of
// the block's 64 outputs (kgen/hgemv_mma_ts.cuh), dynamic shared memory.
var hgemvMMATS = opConfig{
	header: "kgen/hgemv_mma_ts.cuh", namespace: "kgen::hgemv_mma_ts",
	describe: emit.Template("hgemvmmats.describe", `fp16 GEMV on tensor cores (mma.sync m16n8k16: up to 8 vectors x 8 outputs), y = alpha * A^T * x + beta * y, A k x n row-major, {{.In.Types.Acc}} accumulation;
// A staged through shared memory ({{.P.Stages}} stages of 64 rows x 64 outputs, cp.async, ldmatrix.trans), {{.P.Warps}} warps sharing each stage's 4 k16 steps and 8 output tiles{{if gt .P.SplitK 1}}, {{.P.SplitK}} blocks splitting k{{end}}, up to {{.P.MaxBatch}} vectors, {{.In.Threads}} threads, {{.In.SharedBytes}} bytes of dynamic shared memory.`, funcs),
	config: emit.Template("hgemvmmats.config", `struct Config : kgen::hgemv_mma_ts::Config</*warps*/ {{.P.Warps}}, /*stages*/ {{.P.Stages}}, /*max batch*/ {{.P.MaxBatch}}{{if gt .P.SplitK 1}}, /*split-K*/ {{.P.SplitK}}{{end}}> {};
static_assert(Config::kSmemBytes == {{.In.SharedBytes}}, "shared memory differs from the spec's");`, funcs),
}

// configFor is the CUDA config of in: its op's, or for tensor-core GEMMs
// the fp16 one, for ladder steps the ladder's, for tensor-core GEMVs
// hgemvMMA (layout n), hgemvMMAS (layout n, staged), hgemvMMAT (layout t)
// or hgemvMMATS (layout t, staged).
func configFor(in ir.Instance) (opConfig, bool) {
	if p := in.Gemm(); p != nil && p.MMA {
		return hgemm, true
	}
	if p := in.Gemm(); p != nil && p.Ladder != ir.LadderNone {
		return ladder, true
	}
	if p, ok := in.Params.(*ir.GemvParams); ok && p.MMA {
		switch {
		case p.ALayout == ir.ColMajor && p.Stages > 0:
			return hgemvMMATS, true
		case p.ALayout == ir.ColMajor:
			return hgemvMMAT, true
		case p.Stages > 0:
			return hgemvMMAS, true
		}
		return hgemvMMA, true
	}
	cfg, ok := configs[in.Op]
	return cfg, ok
}

// Emit writes one source per instance, in instance order.
func Emit(m *ir.Module) ([]emit.File, error) {
	var files []emit.File
	for _, in := range m.Instances {
		cfg, ok := configFor(in)
		if !ok || in.Params == nil {
			return nil, fmt.Errorf("%s: no CUDA emitter for op %s", in.Name, in.Op)
		}
		data := struct {
			In ir.Instance
			P  ir.Params
		}{in, in.Params}
		describe, err := emit.Execute(cfg.describe, data)
		if err != nil {
			return nil, err
		}
		config, err := emit.Execute(cfg.config, data)
		if err != nil {
			return nil, err
		}
		launch := []byte("launch<Config>")
		if cfg.launch != nil {
			if launch, err = emit.Execute(cfg.launch, data); err != nil {
				return nil, err
			}
		}
		src, err := emit.Execute(sourceTemplate, struct {
			Spec, Header, Namespace, Describe, Config, Launch string
			In                                                ir.Instance
			Params                                            []ir.Param
		}{m.SpecPath, cfg.header, cfg.namespace, strings.TrimSpace(string(describe)), string(config), string(launch), in, in.Launch()})
		if err != nil {
			return nil, err
		}
		files = append(files, emit.File{Path: SourcePath(in), Content: src})
	}
	return files, nil
}
