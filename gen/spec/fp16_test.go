package spec

import (
	"strings"
	"testing"

	"github.com/kgen-gpu/kgen/gen/ir"
)

// fp16Base is a valid spec with an f16 gemm (tensor cores) and a gemv
// family; fp16Cases each change one thing in it.
const fp16Base = `version: 1
targets:
  - arch: sm_80
  - arch: sm_90
families:
  - name: hgemm
    op: gemm
    types: {a: f16, b: f16, c: f16, acc: f32}
    layouts: [nn, tt]
    archs: [sm_80, sm_90]
    tilings:
      - {block: [128, 128, 32], warp: [64, 64], stages: 3}
  - name: hgemv
    op: gemv
    types: {a: f16, b: f16, c: f16, acc: f32}
    layouts: [n, t]
    archs: [sm_80, sm_90]
    tilings:
      - {threads_per_output: 32, outputs_per_block: 8, vector: 8, split_k: 1, threads: 256, max_batch: 8}
      - {threads_per_output: 1, outputs_per_block: 256, vector: 1, x_in_shared: true, threads: 256, max_batch: 1}
`

var fp16Cases = []ruleCase{
	{"warp M not 16s", "warp: [64, 64]", "warp: [40, 64]", 12, "warp M (40) must be a multiple of the mma M (16)", 2},
	{"block K not 32s", "[128, 128, 32]", "[128, 128, 48]", 12, "block K (48) must be a multiple of two mma K steps (32)", 0},
	{"stages 2", "stages: 3}", "stages: 2}", 12, "stages (2) must be 3 to 8 (cp.async multistage pipeline)", 0},
	{"gemm split_k", "stages: 3}", "stages: 3, split_k: 0}", 12, "split_k (0) must be between 1 and 256", 0},
	{"gemm split_k too many", "stages: 3}", "stages: 3, split_k: 257}", 12, "split_k (257) must be between 1 and 256", 0},
	{"shared memory", "{block: [128, 128, 32], warp: [64, 64], stages: 3}", "{block: [256, 256, 64], warp: [64, 64], stages: 5}", 12,
		"327680 bytes of shared memory (stages x block tiles) exceed the 166912 a block can have on sm_80", 2},
	{"accumulators", "warp: [64, 64]", "warp: [128, 128]", 12, "a 128x128 warp tile needs 512 f32 accumulator registers per thread", 0},
	{"fp16 accumulators", "acc: f32}\n    layouts: [nn, tt]\n    archs: [sm_80, sm_90]\n    tilings:\n      - {block: [128, 128, 32], warp: [64, 64], stages: 3}",
		"acc: f16}\n    layouts: [nn]\n    archs: [sm_80, sm_90]\n    tilings:\n      - {block: [128, 256, 32], warp: [128, 256], stages: 3}", 12,
		"a 128x256 warp tile needs 512 f16 accumulator registers per thread", 0},
	{"thread key", "{block: [128, 128, 32], warp: [64, 64], stages: 3}", "{block: [128, 128, 32], warp: [64, 64], thread: [8, 8], stages: 3}", 12,
		"thread and vector are keys of the f32 CUDA-core kernel", 0},
	{"gemv layout pair", "layouts: [n, t]", "layouts: [nn, t]", 16, `unknown layout "nn"; a gemv family gives A's layout alone`, 0},
	{"threads per output", "threads_per_output: 32, outputs_per_block: 8", "threads_per_output: 24, outputs_per_block: 8", 19,
		"threads_per_output (24) must be 1, a lane group of 2 to 16, a warp (32), or 64, 128 or 256", 0},
	{"outputs x threads", "outputs_per_block: 8, vector: 8", "outputs_per_block: 4, vector: 8", 19,
		"outputs_per_block (4) x threads_per_output (32) must be threads (256)", 0},
	{"vector", "vector: 8, split_k", "vector: 3, split_k", 19, "vector (3) must be 1, 2, 4 or 8", 0},
	{"batch", "max_batch: 8}", "max_batch: 16}", 19, "max_batch (16) must be 1, 2, 4 or 8", 0},
	{"split k", "split_k: 1", "split_k: 0", 19, "split_k (0) must be between 1 and 64", 0},
	{"layout t groups", "      - {threads_per_output: 1, outputs_per_block: 256, vector: 1, x_in_shared: true, threads: 256, max_batch: 1}",
		"      - {threads_per_output: 8, outputs_per_block: 12, vector: 1, threads: 96, max_batch: 1}", 20,
		"outputs_per_block (12) must be a power of two below 32 or a multiple of 32 for layout t", 0},
	{"x_f32 without x_in_shared", "vector: 8, split_k: 1", "vector: 8, x_f32: true, split_k: 1", 19,
		"x_f32 stages x in shared memory: set x_in_shared: true", 0},
	{"rows per thread in layout t", "vector: 8, split_k: 1", "vector: 8, x_in_shared: true, x_f32: true, rows_per_thread: 2, split_k: 1", 19,
		"rows_per_thread (2) is a layout n choice", 0},
	{"rows per thread without x_f32", "layouts: [n, t]\n    archs: [sm_80, sm_90]\n    tilings:\n      - {threads_per_output: 32, outputs_per_block: 8, vector: 8, split_k: 1",
		"layouts: [n]\n    archs: [sm_80, sm_90]\n    tilings:\n      - {threads_per_output: 32, outputs_per_block: 8, vector: 8, rows_per_thread: 4, split_k: 1", 19,
		"rows_per_thread (4) needs x_f32: true", 0},
	{"rows per thread 3", "vector: 8, split_k: 1", "vector: 8, x_in_shared: true, x_f32: true, rows_per_thread: 3, split_k: 1", 19,
		"rows_per_thread (3) must be 1, 2, 4 or 8", 0},
	{"rows per thread accumulators", "layouts: [n, t]\n    archs: [sm_80, sm_90]\n    tilings:\n      - {threads_per_output: 32, outputs_per_block: 8, vector: 8, split_k: 1",
		"layouts: [n]\n    archs: [sm_80, sm_90]\n    tilings:\n      - {threads_per_output: 32, outputs_per_block: 8, vector: 8, x_in_shared: true, x_f32: true, rows_per_thread: 8, split_k: 1", 19,
		"rows_per_thread (8) x max_batch (8) accumulators exceed 32", 0},
	{"fp32 x tile", "threads_per_output: 32, outputs_per_block: 8, vector: 8, split_k: 1",
		"threads_per_output: 256, outputs_per_block: 1, vector: 8, x_in_shared: true, x_f32: true, split_k: 1", 19,
		"the fp32 x tile (65536 bytes", 0},
	{"gemv acc f16", "    op: gemv\n    types: {a: f16, b: f16, c: f16, acc: f32}", "    op: gemv\n    types: {a: f16, b: f16, c: f16, acc: f16}", 13,
		"op gemv with acc f16 is not implemented yet", 0},
	{"mma tiles in layout t", "      - {threads_per_output: 1, outputs_per_block: 256, vector: 1, x_in_shared: true, threads: 256, max_batch: 1}",
		"      - {mma: true, warps: 8, tiles: 2, unroll: 4, max_batch: 8}", 20, `family "hgemv" tiling 2: tiles (2) must be 1 in a family with layout t`, 0},
	{"mma layout t shared memory", "      - {threads_per_output: 1, outputs_per_block: 256, vector: 1, x_in_shared: true, threads: 256, max_batch: 1}",
		"      - {mma: true, warps: 32, tiles: 1, unroll: 2, max_batch: 8}", 20, "the layout t reduction buffer (65536 bytes: warps x 2048) exceeds", 0},
	{"mma tiles", "layouts: [n, t]\n    archs: [sm_80, sm_90]\n    tilings:\n      - {threads_per_output: 32, outputs_per_block: 8, vector: 8, split_k: 1, threads: 256, max_batch: 8}",
		"layouts: [n]\n    archs: [sm_80, sm_90]\n    tilings:\n      - {mma: true, warps: 8, tiles: 3, unroll: 4, max_batch: 8}", 19, "tiles (3) must be 1 or 2", 0},
	{"mma unroll and batch", "layouts: [n, t]\n    archs: [sm_80, sm_90]\n    tilings:\n      - {threads_per_output: 32, outputs_per_block: 8, vector: 8, split_k: 1, threads: 256, max_batch: 8}",
		"layouts: [n]\n    archs: [sm_80, sm_90]\n    tilings:\n      - {mma: true, warps: 8, tiles: 1, unroll: 9, max_batch: 3}", 19, "unroll (9) must be between 1 and 8", 2},
	{"mma warps", "layouts: [n, t]\n    archs: [sm_80, sm_90]\n    tilings:\n      - {threads_per_output: 32, outputs_per_block: 8, vector: 8, split_k: 1, threads: 256, max_batch: 8}",
		"layouts: [n]\n    archs: [sm_80, sm_90]\n    tilings:\n      - {mma: true, warps: 33, tiles: 1, unroll: 4, max_batch: 8}", 19, "warps (33) must be between 1 and 32", 0},
	{"mma split_k in layout n", "layouts: [n, t]\n    archs: [sm_80, sm_90]\n    tilings:\n      - {threads_per_output: 32, outputs_per_block: 8, vector: 8, split_k: 1, threads: 256, max_batch: 8}",
		"layouts: [n]\n    archs: [sm_80, sm_90]\n    tilings:\n      - {mma: true, warps: 8, tiles: 1, unroll: 4, max_batch: 8, split_k: 4}", 19, "split_k (4) is a layout t choice", 0},
	{"mma split_k range", "      - {threads_per_output: 1, outputs_per_block: 256, vector: 1, x_in_shared: true, threads: 256, max_batch: 1}",
		"      - {mma: true, warps: 8, tiles: 1, unroll: 2, max_batch: 8, split_k: 65}", 20, "split_k (65) must be between 1 and 64 blocks per column strip", 0},
	{"mma false", "      - {threads_per_output: 1, outputs_per_block: 256, vector: 1, x_in_shared: true, threads: 256, max_batch: 1}",
		"      - {mma: false, warps: 8, tiles: 1, unroll: 4, max_batch: 8}", 20, "mma: false is not a tiling", 0},
	{"mma with a CUDA-core key", "      - {threads_per_output: 1, outputs_per_block: 256, vector: 1, x_in_shared: true, threads: 256, max_batch: 1}",
		"      - {mma: true, warps: 8, tiles: 1, unroll: 4, max_batch: 8, threads: 256}", 20, `unknown key "threads"; the keys are mma, warps, tiles, unroll, max_batch`, 0},
	{"mma missing key", "      - {threads_per_output: 1, outputs_per_block: 256, vector: 1, x_in_shared: true, threads: 256, max_batch: 1}",
		"      - {mma: true, warps: 8, tiles: 1, max_batch: 8}", 20, `missing required key "unroll"`, 0},
	{"mma neither unroll nor stages", "      - {threads_per_output: 1, outputs_per_block: 256, vector: 1, x_in_shared: true, threads: 256, max_batch: 1}",
		"      - {mma: true, warps: 8, tiles: 1, max_batch: 8}", 20, `missing required key "unroll" (steps of A in flight in registers), or "stages"`, 0},
	{"mma stages with unroll", "layouts: [n, t]\n    archs: [sm_80, sm_90]\n    tilings:\n      - {threads_per_output: 32, outputs_per_block: 8, vector: 8, split_k: 1, threads: 256, max_batch: 8}",
		"layouts: [n]\n    archs: [sm_80, sm_90]\n    tilings:\n      - {mma: true, warps: 8, tiles: 1, unroll: 4, stages: 4, max_batch: 8}", 19, "stages and unroll exclude each other", 0},
	{"mma stages in both layouts", "      - {threads_per_output: 1, outputs_per_block: 256, vector: 1, x_in_shared: true, threads: 256, max_batch: 1}",
		"      - {mma: true, warps: 8, tiles: 1, stages: 4, max_batch: 8}", 20, `family "hgemv" tiling 2: stages (4) needs a family of one layout`, 0},
	{"mma stages t tiles", "layouts: [n, t]\n    archs: [sm_80, sm_90]\n    tilings:\n      - {threads_per_output: 32, outputs_per_block: 8, vector: 8, split_k: 1, threads: 256, max_batch: 8}",
		"layouts: [t]\n    archs: [sm_80, sm_90]\n    tilings:\n      - {mma: true, warps: 8, tiles: 2, stages: 4, max_batch: 8}", 19, "tiles (2) must be 1 in a family with layout t", 0},
	{"mma stages t split_k", "layouts: [n, t]\n    archs: [sm_80, sm_90]\n    tilings:\n      - {threads_per_output: 32, outputs_per_block: 8, vector: 8, split_k: 1, threads: 256, max_batch: 8}",
		"layouts: [t]\n    archs: [sm_80, sm_90]\n    tilings:\n      - {mma: true, warps: 8, tiles: 1, stages: 4, max_batch: 8, split_k: 65}", 19, "split_k (65) must be between 1 and 64", 0},
	{"mma stages above 8", "layouts: [n, t]\n    archs: [sm_80, sm_90]\n    tilings:\n      - {threads_per_output: 32, outputs_per_block: 8, vector: 8, split_k: 1, threads: 256, max_batch: 8}",
		"layouts: [n]\n    archs: [sm_80, sm_90]\n    tilings:\n      - {mma: true, warps: 8, tiles: 1, stages: 9, max_batch: 8}", 19, "stages (9) must be 2 to 8 stages in the shared-memory ring", 0},
	{"mma stages 1", "layouts: [n, t]\n    archs: [sm_80, sm_90]\n    tilings:\n      - {threads_per_output: 32, outputs_per_block: 8, vector: 8, split_k: 1, threads: 256, max_batch: 8}",
		"layouts: [n]\n    archs: [sm_80, sm_90]\n    tilings:\n      - {mma: true, warps: 8, tiles: 1, stages: 1, max_batch: 8}", 19, "stages (1) must be 2 to 8 stages in the shared-memory ring", 0},
	{"mma stages 0", "layouts: [n, t]\n    archs: [sm_80, sm_90]\n    tilings:\n      - {threads_per_output: 32, outputs_per_block: 8, vector: 8, split_k: 1, threads: 256, max_batch: 8}",
		"layouts: [n]\n    archs: [sm_80, sm_90]\n    tilings:\n      - {mma: true, warps: 8, tiles: 1, stages: 0, max_batch: 8}", 19, "stages (0) must be 2 to 8 stages in the shared-memory ring", 0},
	{"mma stages warps", "layouts: [n, t]\n    archs: [sm_80, sm_90]\n    tilings:\n      - {threads_per_output: 32, outputs_per_block: 8, vector: 8, split_k: 1, threads: 256, max_batch: 8}",
		"layouts: [n]\n    archs: [sm_80, sm_90]\n    tilings:\n      - {mma: true, warps: 2, tiles: 1, stages: 4, max_batch: 8}", 19, "warps (2) must be 4, 8 or 16 with stages", 0},
	{"mma stages warps 32", "layouts: [n, t]\n    archs: [sm_80, sm_90]\n    tilings:\n      - {threads_per_output: 32, outputs_per_block: 8, vector: 8, split_k: 1, threads: 256, max_batch: 8}",
		"layouts: [n]\n    archs: [sm_80, sm_90]\n    tilings:\n      - {mma: true, warps: 32, tiles: 1, stages: 4, max_batch: 8}", 19, "warps (32) must be 4, 8 or 16 with stages", 0},
	{"mma stages tiles", "layouts: [n, t]\n    archs: [sm_80, sm_90]\n    tilings:\n      - {threads_per_output: 32, outputs_per_block: 8, vector: 8, split_k: 1, threads: 256, max_batch: 8}",
		"layouts: [n]\n    archs: [sm_80, sm_90]\n    tilings:\n      - {mma: true, warps: 8, tiles: 5, stages: 4, max_batch: 8}", 19, "tiles (5) must be 1 to 4 16-row mma tiles per block with stages", 0},
	{"mma stages batch", "layouts: [n, t]\n    archs: [sm_80, sm_90]\n    tilings:\n      - {threads_per_output: 32, outputs_per_block: 8, vector: 8, split_k: 1, threads: 256, max_batch: 8}",
		"layouts: [n]\n    archs: [sm_80, sm_90]\n    tilings:\n      - {mma: true, warps: 8, tiles: 1, stages: 4, max_batch: 3}", 19, "max_batch (3) must be 1, 2, 4 or 8", 0},
	{"mma stages split_k", "layouts: [n, t]\n    archs: [sm_80, sm_90]\n    tilings:\n      - {threads_per_output: 32, outputs_per_block: 8, vector: 8, split_k: 1, threads: 256, max_batch: 8}",
		"layouts: [n]\n    archs: [sm_80, sm_90]\n    tilings:\n      - {mma: true, warps: 8, tiles: 1, stages: 4, max_batch: 8, split_k: 2}", 19, "split_k (2) is a layout t choice", 0},
	{"mma stages shared memory sm_80", "layouts: [n, t]\n    archs: [sm_80, sm_90]\n    tilings:\n      - {threads_per_output: 32, outputs_per_block: 8, vector: 8, split_k: 1, threads: 256, max_batch: 8}",
		"layouts: [n]\n    archs: [sm_80, sm_90]\n    tilings:\n      - {mma: true, warps: 8, tiles: 4, stages: 5, max_batch: 8}", 19, "184960 bytes of shared memory (stages x (16 x tiles rows x 512 + 8 vectors x 528)) exceed the 166912 a block can have on sm_80", 0},
	{"mma stages shared memory every arch", "layouts: [n, t]\n    archs: [sm_80, sm_90]\n    tilings:\n      - {threads_per_output: 32, outputs_per_block: 8, vector: 8, split_k: 1, threads: 256, max_batch: 8}",
		"layouts: [n]\n    archs: [sm_80, sm_90]\n    tilings:\n      - {mma: true, warps: 16, tiles: 4, stages: 8, max_batch: 8}", 19, "295936 bytes of shared memory (stages x (16 x tiles rows x 512 + 8 vectors x 528)) exceed the 232448 (227 KiB) a block can have on any arch", 0},
	{"mma stages not an integer", "layouts: [n, t]\n    archs: [sm_80, sm_90]\n    tilings:\n      - {threads_per_output: 32, outputs_per_block: 8, vector: 8, split_k: 1, threads: 256, max_batch: 8}",
		"layouts: [n]\n    archs: [sm_80, sm_90]\n    tilings:\n      - {mma: true, warps: 8, tiles: 1, stages: four, max_batch: 8}", 19, "stages must be an integer", 0},
	{"gemv with a gemm tiling", "      - {threads_per_output: 1, outputs_per_block: 256, vector: 1, x_in_shared: true, threads: 256, max_batch: 1}",
		"      - {block: [64, 64, 32], warp: [32, 32], stages: 3}", 20, `family "hgemv" tiling 2: a gemv tiling takes threads_per_output`, 0},
}

func TestFP16Rules(t *testing.T) {
	if errs := parseErrs(t, fp16Base); errs != nil {
		t.Fatalf("fp16Base: %v", errs)
	}
	for _, c := range fp16Cases {
		t.Run(c.name, func(t *testing.T) {
			if n := strings.Count(fp16Base, c.old); n != 1 {
				t.Fatalf("%q occurs %d times in fp16Base, want 1", c.old, n)
			}
			errs := parseErrs(t, strings.Replace(fp16Base, c.old, c.new, 1))
			found := false
			for _, e := range errs {
				found = found || e.Line == c.line && strings.Contains(e.Msg, c.msg)
			}
			if !found || len(errs) != max(c.n, 1) {
				t.Errorf("want %d error(s), one at line %d containing\n\t%s\ngot:\n%v", max(c.n, 1), c.line, c.msg, errs)
			}
		})
	}
}

// TestFP16AccumulatorsTakeHalfTheRegisters checks that a warp tile whose
// fp32 accumulators would not fit is valid with fp16 ones (two to a
// register): 128x64 is 256 fp32 registers a thread, 128 fp16.
func TestFP16AccumulatorsTakeHalfTheRegisters(t *testing.T) {
	tiling := "{block: [256, 128, 32], warp: [128, 64], stages: 4, min_blocks_per_sm: 2}"
	f32 := strings.Replace(fp16Base, "{block: [128, 128, 32], warp: [64, 64], stages: 3}", tiling, 1)
	f16 := strings.Replace(f32, "acc: f32}\n    layouts: [nn, tt]", "acc: f16}\n    layouts: [nn]", 1)
	if !strings.Contains(f16, "acc: f16}\n    layouts: [nn]\n    archs: [sm_80, sm_90]\n    tilings:\n      - "+tiling) {
		t.Fatalf("the edit missed:\n%s", f16)
	}
	if errs := parseErrs(t, f16); errs != nil {
		t.Errorf("fp16 accumulators: %v", errs)
	}
	errs := parseErrs(t, f32)
	if len(errs) != 1 || !strings.Contains(errs[0].Msg, "needs 256 f32 accumulator registers") {
		t.Errorf("fp32 accumulators: want one error about 256 registers, got %v", errs)
	}
}

// TestGemvMMATiling checks that a tensor-core gemv tiling of a layout-n
// family is valid and decodes its keys (32 threads per warp).
func TestGemvMMATiling(t *testing.T) {
	src := strings.Replace(fp16Base, "layouts: [n, t]\n    archs: [sm_80, sm_90]\n    tilings:\n",
		"layouts: [n]\n    archs: [sm_80, sm_90]\n    tilings:\n      - {mma: true, warps: 16, tiles: 2, unroll: 3, max_batch: 4}\n", 1)
	s, err := Parse("spec.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	got := s.Families[1].Gemv[0]
	if !got.MMA || got.Warps != 16 || got.Tiles != 2 || got.Unroll != 3 || got.MaxBatch != 4 || got.Threads != 512 || got.GemvMMASharedBytes(ir.RowMajor) != 16384 {
		t.Errorf("decoded %+v", got)
	}
}

// TestGemvMMAStaged checks that tensor-core gemv tilings with stages (A
// staged through shared memory, kgen/hgemv_mma_s.cuh) are valid in a
// layout-n family, decode without unroll, and size their ring of stages:
// stages x (16 x tiles rows of 512 bytes + 8 vectors of 528).
func TestGemvMMAStaged(t *testing.T) {
	src := strings.Replace(fp16Base, "layouts: [n, t]\n    archs: [sm_80, sm_90]\n    tilings:\n",
		"layouts: [n]\n    archs: [sm_80, sm_90]\n    tilings:\n      - {mma: true, warps: 8, tiles: 1, stages: 4, max_batch: 8}\n"+
			"      - {mma: true, warps: 16, tiles: 2, stages: 4, max_batch: 8}\n", 1)
	s, err := Parse("spec.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	got := s.Families[1].Gemv[0]
	if !got.MMA || got.Warps != 8 || got.Tiles != 1 || got.Stages != 4 || got.Unroll != 0 || got.MaxBatch != 8 || got.SplitK != 1 ||
		got.Threads != 256 || got.GemvMMASharedBytes(ir.RowMajor) != 49664 {
		t.Errorf("decoded %+v (%d bytes of shared memory)", got, got.GemvMMASharedBytes(ir.RowMajor))
	}
	if got := s.Families[1].Gemv[1]; got.Threads != 512 || got.GemvMMASharedBytes(ir.RowMajor) != 82432 {
		t.Errorf("decoded %+v (%d bytes of shared memory)", got, got.GemvMMASharedBytes(ir.RowMajor))
	}
}

// TestGemvMMAStagedT checks that a staged tiling is valid in a layout-t
// family, with split-K, and sizes its ring: stages x (64 rows x 128 bytes +
// 8 vectors x 144).
func TestGemvMMAStagedT(t *testing.T) {
	src := strings.Replace(fp16Base, "layouts: [n, t]\n    archs: [sm_80, sm_90]\n    tilings:\n",
		"layouts: [t]\n    archs: [sm_80, sm_90]\n    tilings:\n      - {mma: true, warps: 16, tiles: 1, stages: 4, max_batch: 8}\n"+
			"      - {mma: true, warps: 8, tiles: 1, stages: 6, max_batch: 4, split_k: 2}\n", 1)
	s, err := Parse("spec.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	got := s.Families[1].Gemv[0]
	if !got.MMA || got.Warps != 16 || got.Stages != 4 || got.Threads != 512 || got.GemvMMASharedBytes(ir.ColMajor) != 37376 {
		t.Errorf("decoded %+v (%d bytes of shared memory)", got, got.GemvMMASharedBytes(ir.ColMajor))
	}
	if got := s.Families[1].Gemv[1]; got.SplitK != 2 || got.GemvMMASharedBytes(ir.ColMajor) != 56064 {
		t.Errorf("decoded %+v (%d bytes of shared memory)", got, got.GemvMMASharedBytes(ir.ColMajor))
	}
}

// stagedArchs is a staged family on sm_80, sm_86 and sm_90; stagedArchs'
// second tiling needs 103040 bytes of shared memory, over sm_86's 99 KiB.
const stagedArchs = `version: 1
targets:
  - arch: sm_80
  - arch: sm_86
  - arch: sm_90
families:
  - name: hgemvtcs
    op: gemv
    types: {a: f16, b: f16, c: f16, acc: f32}
    layouts: [n]
    archs: [sm_80, sm_86, sm_90]
    tilings:
      - {mma: true, warps: 16, tiles: 2, stages: 4, max_batch: 8}
      - {mma: true, warps: 8, tiles: 2, stages: 5, max_batch: 8}
`

// TestGemvMMAStagedSharedMemoryPerArch checks that a staged tiling's ring of
// stages is held to each arch of its family, as the f16 gemm's stages are:
// 82432 bytes fit sm_86's 99 KiB, 103040 do not and are refused there, and
// the same tiling in a family without sm_86 is valid.
func TestGemvMMAStagedSharedMemoryPerArch(t *testing.T) {
	errs := parseErrs(t, stagedArchs)
	if len(errs) != 1 || errs[0].Line != 14 ||
		!strings.Contains(errs[0].Msg, `family "hgemvtcs" tiling 2: 103040 bytes of shared memory (stages x (16 x tiles rows x 512 + 8 vectors x 528)) exceed the 101376 a block can have on sm_86`) {
		t.Errorf("want one error at line 14 for sm_86, got:\n%v", errs)
	}
	if errs := parseErrs(t, strings.Replace(stagedArchs, "archs: [sm_80, sm_86, sm_90]", "archs: [sm_80, sm_90]", 1)); errs != nil {
		t.Errorf("without sm_86: %v", errs)
	}
	if errs := parseErrs(t, strings.Replace(stagedArchs, "      - {mma: true, warps: 8, tiles: 2, stages: 5, max_batch: 8}\n", "", 1)); errs != nil {
		t.Errorf("the tiling that fits sm_86: %v", errs)
	}
}

// TestGemvMMATilingT checks that a tensor-core gemv tiling with one tile is
// valid in a family of layouts n and t (kgen/hgemv_mma_t.cuh for t) and
// sizes its layout t reduction buffer (8 vectors x 64 outputs per warp).
func TestGemvMMATilingT(t *testing.T) {
	src := strings.Replace(fp16Base, "layouts: [n, t]\n    archs: [sm_80, sm_90]\n    tilings:\n",
		"layouts: [n, t]\n    archs: [sm_80, sm_90]\n    tilings:\n      - {mma: true, warps: 16, tiles: 1, unroll: 2, max_batch: 8}\n", 1)
	s, err := Parse("spec.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	got := s.Families[1].Gemv[0]
	if !got.MMA || got.Tiles != 1 || got.GemvMMASharedBytes(ir.ColMajor) != 32768 || got.GemvMMASharedBytes(ir.RowMajor) != 8192 {
		t.Errorf("decoded %+v", got)
	}
}
