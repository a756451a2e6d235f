package spec

import (
	"strings"
	"testing"

	"github.com/kgen-gpu/kgen/gen/ir"
)

type ruleCase struct {
	name     string
	old, new string // edit of base
	line     int    // line of the expected error
	msg      string // substring of its message
	n        int    // number of errors expected; 0 means 1
}

// Each row breaks one rule. The error count guards against cascades: one
// mistake should be reported once, not echoed by the checks that follow.
var ruleCases = []ruleCase{
	// Document shape.
	{"version not 1", "version: 1", "version: 2", 1, "version 2 is not supported; this kgen reads version: 1", 0},
	{"version a string", "version: 1", `version: "1"`, 1, `version must be an integer, got the string "1"`, 0},
	{"version missing", "version: 1\n", "", 1, `the spec: missing required key "version"`, 0},
	{"unknown top key", "families:\n", "famlies:\n", 8, `the spec: unknown key "famlies"; the keys are version, targets, families`, 2},
	{"repeated key", "    op: gemm\n", "    op: gemm\n    op: gemm\n", 11, `family "sgemm": key "op" is repeated (first on line 10)`, 0},

	// Targets.
	{"targets empty", "targets:\n  - arch: sm_80\n  - arch: sm_86\n    flags: [-maxrregcount=255]\n  - arch: sm_90\n    ptx: true\n",
		"targets: []\n", 2, "targets must not be empty", 3},
	{"targets not a list", "targets:\n  - arch: sm_80\n  - arch: sm_86\n    flags: [-maxrregcount=255]\n  - arch: sm_90\n    ptx: true\n",
		"targets: sm_80\n", 2, `targets must be a list, got the string "sm_80"`, 3},
	{"target unknown arch", "  - arch: sm_80\n", "  - arch: sm_70\n", 3, `target 1 arch: unknown arch "sm_70"; use one of sm_80, sm_86, sm_89, sm_90`, 2},
	{"target repeated", "  - arch: sm_90\n", "  - arch: sm_86\n", 6, "target sm_86 is listed twice (first on line 4); remove one", 0},
	{"target missing arch", "  - arch: sm_90\n    ptx: true\n", "  - ptx: true\n", 6, `target 3: missing required key "arch"`, 0},
	{"target unknown key", "ptx: true", "pxt: true", 7, `target 3: unknown key "pxt"; the keys are arch, flags, ptx`, 0},
	{"flag without dash", "[-maxrregcount=255]", "[maxrregcount=255]", 5, `target sm_86 flags: "maxrregcount=255" must start with '-'`, 0},
	{"flag with space", "[-maxrregcount=255]", `["-Xptxas -v"]`, 5, "must not contain spaces or control characters", 0},
	{"flags not a list", "[-maxrregcount=255]", "-O3", 5, `target sm_86 flags must be a list, got the string "-O3"`, 0},
	{"flag not a string", "[-maxrregcount=255]", "[-3]", 5, "target sm_86 flags must be a string, got the integer -3", 0},
	{"ptx not a bool", "ptx: true", "ptx: 1", 7, "target sm_90 ptx must be true or false, got the integer 1", 0},

	// Family shape.
	{"name syntax", "name: sgemm", "name: SGemm", 9, `family 1: name "SGemm" must match [a-z][a-z0-9]*`, 0},
	{"name underscore", "name: sgemm", "name: s_gemm", 9, `name "s_gemm" must match [a-z][a-z0-9]*`, 0},
	{"name missing", "  - name: sgemm\n    op: gemm\n", "  - op: gemm\n", 9, `family 1: missing required key "name"`, 0},
	{"unknown family key", "    op: gemm\n", "    op: gemm\n    opp: gemm\n", 11, `family "sgemm": unknown key "opp"`, 0},
	{"unknown op", "op: gemm", "op: conv", 10, `family "sgemm" op: unknown op "conv"; use one of gemm, gemv, gf256_matmul`, 0},
	{"unknown dtype", "{a: f32, b", "{a: f64, b", 11, `family "sgemm" types a: unknown dtype "f64"; use one of f32, f16, gf256`, 0},
	{"types key missing", "c: f32, acc: f32}", "c: f32}", 11, `family "sgemm" types: missing required key "acc"`, 0},
	{"types not a mapping", "{a: f32, b: f32, c: f32, acc: f32}", "f32", 11, `family "sgemm" types must be a mapping (key: value), got the string "f32"`, 0},
	{"layouts empty", "[nn, tt]", "[]", 12, `family "sgemm" layouts must not be empty`, 0},
	{"layouts not a list", "[nn, tt]", "nn", 12, `family "sgemm" layouts must be a list, got the string "nn"`, 0},
	{"layout unknown", "[nn, tt]", "[nn, nx]", 12, `unknown layout "nx"; use two letters`, 0},
	{"layout repeated", "[nn, tt]", "[nn, nn]", 12, `family "sgemm" layouts: nn is listed twice (first on line 12); remove one`, 0},
	{"c_layout unknown", "    archs:", "    c_layout: diag\n    archs:", 13, `family "sgemm" c_layout: unknown layout "diag"; use one of row, col`, 0},
	{"archs empty", "[sm_80, sm_86]", "[]", 13, `family "sgemm" archs must not be empty`, 0},
	{"arch unknown", "[sm_80, sm_86]", "[sm_80, sm_75]", 13, `family "sgemm" archs: unknown arch "sm_75"`, 0},
	{"arch repeated", "[sm_80, sm_86]", "[sm_80, sm_80]", 13, "family \"sgemm\" archs: sm_80 is listed twice", 0},
	{"arch not a target", "[sm_80, sm_86]", "[sm_80, sm_89]", 13, `family "sgemm" archs: sm_89 is not one of the targets; add it to targets or remove it here`, 0},
	{"tilings empty", "    tilings:\n      - block: [128, 128, 8]\n        warp: [32, 64]\n        thread: [8, 8]\n        stages: 2\n        vector: {global: 4, shared: 4}\n        min_blocks_per_sm: 2\n",
		"    tilings: []\n", 14, `family "sgemm" tilings must not be empty`, 0},

	// Types: legality, then what this release implements.
	{"b differs from a", "b: f32", "b: f16", 11, `family "sgemm" types: b is f16 but must be the same as a (f32)`, 0},
	{"c not a or f32", "{a: f32, b: f32, c: f32, acc: f32}", "{a: f16, b: f16, c: gf256, acc: f32}", 11, "c is gf256 but must be a's dtype (f16) or f32", 2},
	{"acc f16 with f32", "acc: f32", "acc: f16", 11, "acc is f16 but must be f32 (or f16 when a is f16)", 0},
	{"gemm on gf256", "{a: f32, b: f32, c: f32, acc: f32}", "{a: gf256, b: gf256, c: gf256, acc: f32}", 11,
		"a is gf256 but op gemm takes f32 or f16 operands (gf256 needs op gf256_matmul)", 0},
	{"gf256_matmul on f32", "op: gemm", "op: gf256_matmul", 11, "a is f32 but op gf256_matmul takes gf256 for a, b, c and acc", 6},
	{"f16 gemm with an f32 tiling", "{a: f32, b: f32, c: f32, acc: f32}", "{a: f16, b: f16, c: f16, acc: f32}", 15,
		`family "sgemm" tiling 1: thread and vector are keys of the f32 CUDA-core kernel; an f16 gemm tiling (tensor cores, mma m16n8k16) takes block, warp, stages, min_blocks_per_sm`, 0},
	{"f16 gemm f32 c", "{a: f32, b: f32, c: f32, acc: f32}", "{a: f16, b: f16, c: f32, acc: f16}", 9, "c f32 with f16 operands is not implemented yet", 2},
	{"gemv", "op: gemm", "op: gemv", 9, `family "sgemm": op gemv with f32 operands is not implemented yet`, 4},
	{"gf256_matmul with gemm keys", "    op: gemm\n    types: {a: f32, b: f32, c: f32, acc: f32}\n", "    op: gf256_matmul\n    types: {a: gf256, b: gf256, c: gf256, acc: gf256}\n", 12,
		`family "sgemm": layouts do not apply to op gf256_matmul (shards are byte vectors); remove the key`, 2},
	{"gemm tiling with a strategy", "        stages: 2\n", "        stages: 2\n        strategy: table\n", 15,
		`family "sgemm" tiling 1: strategy is a key of a gf256_matmul tiling; a gemm tiling takes block, warp, thread, stages, vector, min_blocks_per_sm`, 0},
	{"c_layout col", "    archs:", "    c_layout: col\n    archs:", 9, `family "sgemm": c_layout col is not implemented yet`, 0},

	// Tiling shape.
	{"block too short", "[128, 128, 8]", "[128, 128]", 15, `family "sgemm" tiling 1 block must be a list of 3 integers [M, N, K], got 2 items`, 0},
	{"block item a string", "[128, 128, 8]", "[128, x, 8]", 15, `family "sgemm" tiling 1 block N must be an integer, got the string "x"`, 0},
	{"block a float", "[128, 128, 8]", "[128, 99999999999999999999, 8]", 15, "block N must be an integer, got the number 99999999999999999999", 0},
	{"block too large for int", "[128, 128, 8]", "[128, 18446744073709551615, 8]", 15, "block N: the integer 18446744073709551615 is not an integer this generator can hold", 0},
	{"stages missing", "        stages: 2\n", "", 15, `family "sgemm" tiling 1: missing required key "stages"`, 0},
	{"tiling unknown key", "        stages: 2\n", "        stages: 2\n        stage: 2\n", 19, `family "sgemm" tiling 1: unknown key "stage"`, 0},
	{"vector key missing", "{global: 4, shared: 4}", "{global: 4}", 19, `family "sgemm" tiling 1 vector: missing required key "shared"`, 0},

	// Tiling rules of the f32 kernel.
	{"tile zero", "[128, 128, 8]", "[0, 128, 8]", 15, `family "sgemm" tiling 1: block M (0) must be between 1 and 4096`, 0},
	{"tile negative", "thread: [8, 8]", "thread: [8, -8]", 15, "thread N (-8) must be between 1 and 4096", 0},
	{"tile huge", "[128, 128, 8]", "[128, 128, 100000]", 15, "block K (100000) must be between 1 and 4096", 0},
	{"block N not a multiple of warp N", "[128, 128, 8]", "[128, 96, 8]", 15, `family "sgemm" tiling 1: block N (96) must be a multiple of warp N (64)`, 0},
	{"warp M not a multiple of thread M", "warp: [32, 64]", "warp: [36, 64]", 15, "warp M (36) must be a multiple of thread M (8)", 2},
	{"warp not 32 threads", "thread: [8, 8]", "thread: [8, 4]", 15, "warp 32x64 / thread 8x4 gives 4x16 = 64 threads per warp; it must be 32", 0},
	{"vector global", "global: 4", "global: 2", 15, "vector global (2) must be 1 or 4", 0},
	{"vector shared", "shared: 4", "shared: 2", 15, "vector shared (2) must be 4: the kernel reads float4 fragments", 0},
	{"thread tile not float4", "        warp: [32, 64]\n        thread: [8, 8]\n", "        warp: [16, 64]\n        thread: [2, 16]\n", 15, "thread M (2) must be a multiple of vector shared (4)", 4},
	{"block K not a multiple of 4", "[128, 128, 8]", "[128, 128, 6]", 15, "block K (6) must be a multiple of 4 (4)", 3},
	{"operand tile not whole float4s", "[128, 128, 8]", "[128, 128, 4]", 15, "block M x K (128 x 4 = 512) must be a multiple of 4 x threads (1024)", 2},
	{"stages 6", "stages: 2", "stages: 6", 15, `family "sgemm" tiling 1: stages (6) must be 2 (double-buffered through registers) or 3 to 5 (cp.async pipeline, sm_80 and later)`, 0},
	{"stages 1", "stages: 2", "stages: 1", 15, `stages (1) must be 2`, 0},
	{"split_k zero", "min_blocks_per_sm: 2", "min_blocks_per_sm: 2\n        split_k: 0", 15, "split_k (0) must be between 1 and 256", 0},
	{"split_k too large", "min_blocks_per_sm: 2", "min_blocks_per_sm: 2\n        split_k: 257", 15, "split_k (257) must be between 1 and 256", 0},
	{"split_k not a number", "min_blocks_per_sm: 2", "min_blocks_per_sm: 2\n        split_k: four", 21, "split_k", 0},
	{"lanes unknown", "min_blocks_per_sm: 2", "min_blocks_per_sm: 2\n        lanes: diagonal", 21,
		`family "sgemm" tiling 1 lanes: unknown lane map "diagonal"; use one of rows, columns, row_pairs`, 0},
	{"fma unknown", "min_blocks_per_sm: 2", "min_blocks_per_sm: 2\n        fma: columns", 21,
		`family "sgemm" tiling 1 fma: unknown FFMA order "columns"; use one of rows, rows_zigzag, quads_zigzag`, 0},
	{"pack not a bool", "min_blocks_per_sm: 2", "min_blocks_per_sm: 2\n        pack: 1", 21,
		`family "sgemm" tiling 1 pack must be true or false, got the integer 1`, 0},
	{"pack through registers", "min_blocks_per_sm: 2", "min_blocks_per_sm: 2\n        pack: true", 15,
		`family "sgemm" tiling 1: pack needs stages 3 to 5 and vector global 4: the packed operands are copied 16 bytes at a time by cp.async; stages is 2, vector global 4`, 0},
	{"pack with nothing to pack", "[nn, tt]\n    archs: [sm_80, sm_86]\n    tilings:\n      - block: [128, 128, 8]\n        warp: [32, 64]\n        thread: [8, 8]\n        stages: 2\n",
		"[tn]\n    archs: [sm_80, sm_86]\n    tilings:\n      - block: [128, 128, 8]\n        warp: [32, 64]\n        thread: [8, 8]\n        stages: 3\n        pack: true\n", 15,
		`family "sgemm" tiling 1: pack transposes k-contiguous operands (A row-major, B column-major), and the family's layouts have none; remove pack or add layout nn, nt or tt`, 0},
	{"sync unknown", "min_blocks_per_sm: 2", "min_blocks_per_sm: 2\n        sync: spin", 21,
		`family "sgemm" tiling 1 sync: unknown ring synchronisation "spin"; use one of barrier, mbarrier`, 0},
	{"sync mbarrier through registers", "min_blocks_per_sm: 2", "min_blocks_per_sm: 2\n        sync: mbarrier", 15,
		`family "sgemm" tiling 1: sync mbarrier synchronises the cp.async ring, which a packing tiling's kernel (layout tn's) and stages 2 do not have mbarriers in: it needs stages 3 to 5 and no pack; stages is 2, pack false`, 0},
	{"sync mbarrier with pack", "stages: 2", "stages: 3\n        pack: true\n        sync: mbarrier", 15,
		"it needs stages 3 to 5 and no pack; stages is 3, pack true", 0},
	{"sync mbarrier in tn alone", "[nn, tt]\n    archs: [sm_80, sm_86]\n    tilings:\n      - block: [128, 128, 8]\n        warp: [32, 64]\n        thread: [8, 8]\n        stages: 2\n",
		"[tn]\n    archs: [sm_80, sm_86]\n    tilings:\n      - block: [128, 128, 8]\n        warp: [32, 64]\n        thread: [8, 8]\n        stages: 3\n        sync: mbarrier\n", 15,
		`family "sgemm" tiling 1: sync mbarrier applies to the layouts with a k-contiguous operand (A row-major, B column-major), and the family's layouts have none (tn keeps the barrier); remove sync or add layout nn, nt or tt`, 0},
	{"tail unknown", "min_blocks_per_sm: 2", "min_blocks_per_sm: 2\n        tail: streamk", 21,
		`family "sgemm" tiling 1 tail: unknown tail "streamk"; use one of whole, cluster, stream`, 0},
	{"tail cluster through registers", "min_blocks_per_sm: 2", "min_blocks_per_sm: 2\n        tail: cluster", 15,
		`family "sgemm" tiling 1: tail cluster splits the last wave's tiles in k among the blocks of a cluster, whose shared memory holds the partial tiles: it needs stages 3 to 5 and no split_k; stages is 2, split_k 1`, 0},
	{"tail cluster of a split tiling", "stages: 2", "stages: 3\n        split_k: 4\n        tail: cluster", 15,
		"it needs stages 3 to 5 and no split_k; stages is 3, split_k 4", 0},
	{"tail stream through registers", "min_blocks_per_sm: 2", "min_blocks_per_sm: 2\n        tail: stream", 15,
		`family "sgemm" tiling 1: tail stream runs the tiles by stream-K through the cp.async ring, each block's share of their k tiles summed through the workspace: it needs stages 3 to 5, no split_k and no pack; stages is 2, split_k 1, pack false`, 0},
	{"tail stream of a split tiling", "stages: 2", "stages: 3\n        split_k: 4\n        tail: stream", 15,
		"it needs stages 3 to 5, no split_k and no pack; stages is 3, split_k 4, pack false", 0},
	{"tail stream with pack", "stages: 2", "stages: 3\n        pack: true\n        tail: stream", 15,
		"it needs stages 3 to 5, no split_k and no pack; stages is 3, split_k 1, pack true", 0},
	{"split_reduce unknown", "min_blocks_per_sm: 2", "min_blocks_per_sm: 2\n        split_reduce: tree", 21,
		`family "sgemm" tiling 1 split_reduce: unknown split reduction "tree"; use one of workspace, cluster`, 0},
	{"split_reduce cluster without a split", "stages: 2", "stages: 3\n        split_reduce: cluster", 15,
		`family "sgemm" tiling 1: split_reduce cluster needs split_k between 2 and 8 (a portable cluster holds 8 blocks, one per split); split_k is 1`, 0},
	{"split_reduce cluster of 16 splits", "stages: 2", "stages: 3\n        split_k: 16\n        split_reduce: cluster", 15,
		"split_reduce cluster needs split_k between 2 and 8 (a portable cluster holds 8 blocks, one per split); split_k is 16", 0},
	{"split_reduce cluster of 300 splits", "stages: 2", "stages: 3\n        split_k: 300\n        split_reduce: cluster", 15,
		"split_k (300) must be between 1 and 256", 0}, // said once: not again as a cluster's bound
	{"split_reduce cluster through registers", "stages: 2", "stages: 2\n        split_k: 2\n        split_reduce: cluster", 15,
		"split_reduce cluster needs stages 3 to 5 (the cp.async pipeline, whose shared memory holds the partial tile); stages is 2", 0},
	{"split_count unknown", "min_blocks_per_sm: 2", "min_blocks_per_sm: 2\n        split_count: auto", 21,
		`family "sgemm" tiling 1 split_count: unknown split count "auto"; use one of fixed, fill`, 0},
	{"split_count fill without a split", "stages: 2", "stages: 2\n        split_count: fill", 15,
		"split_count fill chooses 1 to split_k splits at each launch, summed through the workspace: it needs split_k 2 or more and split_reduce workspace; split_k is 1, split_reduce workspace", 0},
	{"split_count fill in a cluster", "stages: 2", "stages: 3\n        split_k: 4\n        split_reduce: cluster\n        split_count: fill", 15,
		"it needs split_k 2 or more and split_reduce workspace; split_k is 4, split_reduce cluster", 0},
	// No tile that fits the register file outgrows sm_90's 227 KiB, so the
	// registers are the second error.
	{"split_reduce cluster tile", "    archs: [sm_80, sm_86]\n    tilings:\n      - block: [128, 128, 8]\n        warp: [32, 64]\n        thread: [8, 8]\n        stages: 2\n        vector: {global: 4, shared: 4}\n        min_blocks_per_sm: 2\n",
		"    archs: [sm_80, sm_90]\n    tilings:\n      - block: [256, 256, 8]\n        warp: [64, 64]\n        thread: [8, 16]\n        stages: 3\n        vector: {global: 4, shared: 4}\n        split_k: 2\n        split_reduce: cluster\n", 15,
		"split_reduce cluster stages the partial C tile in 266240 bytes of shared memory (block M x (block N + 4) x 4), over the 232448 a block can have on sm_90; a smaller block tile or split_reduce workspace", 2},
	{"lanes row_pairs of one thread row", "      - block: [128, 128, 8]\n        warp: [32, 64]\n        thread: [8, 8]\n        stages: 2\n        vector: {global: 4, shared: 4}\n        min_blocks_per_sm: 2\n",
		"      - block: [128, 256, 8]\n        warp: [16, 256]\n        thread: [16, 8]\n        stages: 2\n        vector: {global: 4, shared: 4}\n        lanes: row_pairs\n", 15,
		"lanes row_pairs needs an even number of thread rows in a warp; warp 16x256 / thread 16x8 has 1", 0},
	{"cp.async shared memory", "      - block: [128, 128, 8]\n        warp: [32, 64]\n        thread: [8, 8]\n        stages: 2\n", "      - block: [128, 128, 64]\n        warp: [32, 64]\n        thread: [8, 8]\n        stages: 5\n", 15,
		"337920 bytes of shared memory (stages x padded block tiles) exceed the 101376 a block can have on sm_86", 2},
	{"cp.async copies", "      - block: [128, 128, 8]\n        warp: [32, 64]\n        thread: [8, 8]\n        stages: 2\n", "      - block: [128, 128, 24]\n        warp: [32, 64]\n        thread: [8, 8]\n        stages: 3\n", 15,
		"with cp.async (stages 3) the 256 threads must be a multiple of block K (24)", 0},
	{"too many threads", "      - block: [128, 128, 8]\n        warp: [32, 64]\n        thread: [8, 8]\n", "      - block: [256, 256, 32]\n        warp: [32, 32]\n        thread: [4, 8]\n", 15,
		"2048 threads per block exceed the limit of 1024 on sm_80, sm_86; use fewer warps per block", 2},
	{"shared memory", "      - block: [128, 128, 8]\n", "      - block: [128, 128, 64]\n", 15,
		"135168 bytes of shared memory exceed the static limit of 49152 on sm_80, sm_86; shrink block K or the block tile", 2},
	{"registers per thread", "        warp: [32, 64]\n        thread: [8, 8]\n", "        warp: [64, 128]\n        thread: [16, 16]\n", 15,
		"needs about 376 registers per thread, over the limit of 255 on sm_80, sm_86: would spill registers", 0},
	{"resident threads", "min_blocks_per_sm: 2", "min_blocks_per_sm: 8", 15,
		"min_blocks_per_sm 8 x 256 threads exceeds the 1536 resident threads per SM on sm_86; lower min_blocks_per_sm", 2},
	{"register file", "min_blocks_per_sm: 2", "min_blocks_per_sm: 3", 15,
		"min_blocks_per_sm 3 x 256 threads x about 128 registers = 98304 exceeds the 65536 registers per SM on sm_80, sm_86: would spill registers; lower min_blocks_per_sm or the thread tile", 0},
	{"min blocks zero", "min_blocks_per_sm: 2", "min_blocks_per_sm: 0", 15, "min_blocks_per_sm (0) must be at least 1", 0},
	{"tiling repeated", base[strings.Index(base, "      - block"):], base[strings.Index(base, "      - block"):] + base[strings.Index(base, "      - block"):], 21,
		`family "sgemm" tiling 2: same as tiling 1 (line 15), so both would generate the same kernels; remove one`, 0},
}

func TestRules(t *testing.T) {
	for _, c := range ruleCases {
		t.Run(c.name, func(t *testing.T) {
			errs := parseErrs(t, edit(t, c.old, c.new))
			want := c.n
			if want == 0 {
				want = 1
			}
			found := false
			for _, e := range errs {
				found = found || e.Line == c.line && strings.Contains(e.Msg, c.msg)
			}
			if !found || len(errs) != want {
				t.Errorf("want %d error(s), one at line %d containing\n\t%s\ngot:\n%v", want, c.line, c.msg, errs)
			}
			for _, e := range errs {
				if e.Path != "kernels/spec.yaml" || e.Line < 1 {
					t.Errorf("error without a position: %#v", e)
				}
			}
		})
	}
}

// TestF32CpAsyncAndSplitK checks that the choices the rules above bound are
// accepted inside their bounds and reach the Tiling.
func TestF32CpAsyncAndSplitK(t *testing.T) {
	src := edit(t, "        stages: 2\n", "        stages: 4\n        split_k: 16\n")
	s, err := Parse("kernels/spec.yaml", []byte(src))
	if err != nil {
		t.Fatalf("stages 4 with split_k 16: %v", err)
	}
	tl := s.Families[0].Tilings[0]
	if tl.Stages != 4 || tl.SplitK != 16 {
		t.Errorf("Stages, SplitK = %d, %d; want 4, 16", tl.Stages, tl.SplitK)
	}
	s, err = Parse("kernels/spec.yaml", []byte(base))
	if err != nil || s.Families[0].Tilings[0].SplitK != 1 || s.Families[0].Tilings[0].SplitReduce != ir.SplitInWorkspace {
		t.Errorf("split_k should default to 1, split_reduce to workspace: %v", err)
	}
}

// TestF32ClusterReduce checks that split_reduce reaches the Tiling and that
// the shared memory counts the partial tile staged on sm_90 only: the tile
// of 128 x (128 + 4) floats outgrows the 3-stage ring of 128x128x16.
func TestF32ClusterReduce(t *testing.T) {
	src := edit(t, "      - block: [128, 128, 8]\n        warp: [32, 64]\n        thread: [8, 8]\n        stages: 2\n",
		"      - block: [128, 128, 16]\n        warp: [32, 64]\n        thread: [8, 8]\n        stages: 3\n        split_k: 2\n        split_reduce: cluster\n")
	s, err := Parse("kernels/spec.yaml", []byte(src))
	if err != nil {
		t.Fatalf("split_reduce cluster: %v", err)
	}
	tl := s.Families[0].Tilings[0]
	if tl.SplitReduce != ir.SplitInCluster || tl.SplitK != 2 {
		t.Errorf("SplitReduce, SplitK = %v, %d; want cluster, 2", tl.SplitReduce, tl.SplitK)
	}
	for _, c := range []struct {
		archs []ir.Arch
		want  int
	}{{nil, 50688}, {[]ir.Arch{ir.SM80, ir.SM86}, 50688}, {[]ir.Arch{ir.SM80, ir.SM90}, 67584}} {
		if got := tl.SharedBytes(c.archs, LayoutPair{A: ir.RowMajor, B: ir.RowMajor}); got != c.want {
			t.Errorf("SharedBytes(%v) = %d, want %d", c.archs, got, c.want)
		}
	}
	if tl.RingBytes() != 50688 || tl.ClusterTileBytes() != 67584 {
		t.Errorf("RingBytes, ClusterTileBytes = %d, %d; want 50688, 67584", tl.RingBytes(), tl.ClusterTileBytes())
	}
	tl.SplitReduce = ir.SplitInWorkspace
	if got := tl.SharedBytes([]ir.Arch{ir.SM90}, LayoutPair{A: ir.RowMajor, B: ir.RowMajor}); got != 50688 {
		t.Errorf("workspace split on sm_90: SharedBytes = %d, want the ring's 50688", got)
	}
}

// TestF32RingBytesByLayout: the cp.async ring of the 256x128x16 and
// 128x256x16 tiles of 8x16 threads and of the 128x128x16 tile in
// quads_zigzag order leaves the rows of a column-major A unpadded, and in tn
// those of B too (kgen::sgemm::Config's kUnpaddedRows); the 2-stage
// pipeline and other tiles (rows_zigzag order, block K 8) pad every row.
func TestF32RingBytesByLayout(t *testing.T) {
	const padded = 3 * 16 * (256 + 4 + 128 + 4) * 4
	big := Tiling{Block: ir.Tile{M: 256, N: 128, K: 16}, Thread: ir.Tile{M: 8, N: 16}, Stages: 3}
	wide := Tiling{Block: ir.Tile{M: 128, N: 256, K: 16}, Thread: ir.Tile{M: 8, N: 16}, Stages: 3}
	quads := Tiling{Block: ir.Tile{M: 128, N: 128, K: 16}, Thread: ir.Tile{M: 8, N: 8}, Stages: 3, FMAOrder: ir.FMAByQuadZigzag}
	for _, c := range []struct {
		a, b             ir.Layout
		big, wide, quads int
	}{
		{ir.RowMajor, ir.RowMajor, padded, padded, 3 * 16 * (132 + 132) * 4},                             // nn
		{ir.RowMajor, ir.ColMajor, padded, padded, 3 * 16 * (132 + 132) * 4},                             // nt
		{ir.ColMajor, ir.RowMajor, 3 * 16 * (256 + 128) * 4, 3 * 16 * (128 + 256) * 4, 3 * 16 * 256 * 4}, // tn
		{ir.ColMajor, ir.ColMajor, 3 * 16 * (256 + 132) * 4, 3 * 16 * (128 + 260) * 4, 3 * 16 * 260 * 4}, // tt
	} {
		p := LayoutPair{A: c.a, B: c.b}
		if got := big.RingBytesIn(p); got != c.big {
			t.Errorf("%s, 256x128x16: RingBytesIn = %d, want %d", p, got, c.big)
		}
		if got := big.SharedBytes([]ir.Arch{ir.SM80, ir.SM90}, p); got != c.big {
			t.Errorf("%s, 256x128x16: SharedBytes = %d, want the ring's %d", p, got, c.big)
		}
		if got := wide.RingBytesIn(p); got != c.wide {
			t.Errorf("%s, 128x256x16: RingBytesIn = %d, want %d", p, got, c.wide)
		}
		if got := quads.RingBytesIn(p); got != c.quads {
			t.Errorf("%s, 128x128x16 quads_zigzag: RingBytesIn = %d, want %d", p, got, c.quads)
		}
		for _, o := range []struct {
			what string
			t    Tiling
		}{
			{"2 stages", Tiling{Block: big.Block, Thread: big.Thread, Stages: 2}},
			{"256x128x8", Tiling{Block: ir.Tile{M: 256, N: 128, K: 8}, Thread: big.Thread, Stages: 3}},
			{"128x128x16 rows_zigzag", Tiling{Block: quads.Block, Thread: quads.Thread, Stages: 3, FMAOrder: ir.FMAByRowZigzag}},
		} {
			if got, want := o.t.RingBytesIn(p), o.t.RingBytes(); got != want {
				t.Errorf("%s, %s: RingBytesIn = %d, want the padded %d", p, o.what, got, want)
			}
		}
	}
	if got := big.RingBytes(); got != padded {
		t.Errorf("RingBytes = %d, want the padded %d", got, padded)
	}
}
