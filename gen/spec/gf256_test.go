package spec

import (
	"strings"
	"testing"
)

// gfBase is a valid spec with one gf256_matmul family; gfCases each change
// one thing in it.
const gfBase = `version: 1
targets:
  - arch: sm_80
  - arch: sm_90
families:
  - name: gf
    op: gf256_matmul
    types: {a: gf256, b: gf256, c: gf256, acc: gf256}
    archs: [sm_80, sm_90]
    tilings:
      - {strategy: xorshift, bytes_per_thread: 16, threads: 256, rows_per_block: 4}
      - {strategy: table, bytes_per_thread: 4, threads: 128, rows_per_block: 2}
`

var gfCases = []ruleCase{
	{"bytes per thread", "bytes_per_thread: 16", "bytes_per_thread: 3", 11, `family "gf" tiling 1: bytes_per_thread (3) must be 4, 8 or 16`, 0},
	{"threads not whole warps", "threads: 256", "threads: 100", 11, "threads (100) must be a positive multiple of 32 (whole warps)", 0},
	{"too many threads", "threads: 256", "threads: 2048", 11, "2048 threads per block exceed the limit of 1024 on sm_80, sm_90", 0},
	{"rows zero", "rows_per_block: 4", "rows_per_block: 0", 11, "rows_per_block (0) must be between 1 and 32", 0},
	{"rows over 32", "rows_per_block: 2", "rows_per_block: 33", 12, "rows_per_block (33) must be between 1 and 32", 0},
	{"unknown strategy", "strategy: xorshift", "strategy: magic", 11, `family "gf" tiling 1 strategy: unknown strategy "magic"; use one of table, nibble, xorshift, naive, tiled`, 0},
	{"naive needs 4 bytes", "strategy: xorshift", "strategy: naive", 11, "strategy naive reads one byte per thread per step", 0},
	{"missing key", ", rows_per_block: 4}", "}", 11, `family "gf" tiling 1: missing required key "rows_per_block"`, 0},
	{"gemm tiling keys", "      - {strategy: xorshift, bytes_per_thread: 16, threads: 256, rows_per_block: 4}\n",
		"      - {block: [64, 64, 8], warp: [32, 32], thread: [4, 8], stages: 2, vector: {global: 4, shared: 4}}\n", 11,
		`family "gf" tiling 1: block, warp and thread are keys of a gemm tiling; op gf256_matmul takes strategy, bytes_per_thread, threads, rows_per_block`, 0},
	{"one stage", "threads: 256, rows_per_block: 4}", "threads: 256, rows_per_block: 4, stages: 1}", 11,
		"stages (1) must be 0 (inputs in registers) or 2 to 8", 0},
	{"naive with a ring", "{strategy: table, bytes_per_thread: 4, threads: 128, rows_per_block: 2}",
		"{strategy: naive, bytes_per_thread: 4, threads: 128, rows_per_block: 2, stages: 2}", 12,
		"strategy naive has no aligned path for an input ring; remove stages", 0},
	{"ring too large", "threads: 256, rows_per_block: 4}", "threads: 1024, rows_per_block: 4, stages: 8}", 11,
		"the input ring (stages x 4 or 8 inputs x threads x bytes_per_thread = 524288 bytes) exceeds the 183296 bytes", 0},
	{"layouts given", "    archs:", "    layouts: [nn]\n    archs:", 9, `family "gf": layouts do not apply to op gf256_matmul`, 0},
	{"c_layout given", "    archs:", "    c_layout: row\n    archs:", 9, `family "gf": c_layout does not apply to op gf256_matmul; remove the key`, 0},
	{"types not gf256", "{a: gf256, b: gf256, c: gf256, acc: gf256}", "{a: gf256, b: gf256, c: gf256, acc: f32}", 8,
		"acc is f32 but op gf256_matmul takes gf256 for a, b, c and acc", 0},
	{"tiling repeated", "rows_per_block: 2}", "rows_per_block: 2}\n      - {strategy: table, bytes_per_thread: 4, threads: 128, rows_per_block: 2}", 13,
		`family "gf" tiling 3: same as tiling 2 (line 12), so both would generate the same kernels; remove one`, 0},
}

func TestGF256Rules(t *testing.T) {
	if errs := parseErrs(t, gfBase); errs != nil {
		t.Fatalf("gfBase: %v", errs)
	}
	for _, c := range gfCases {
		t.Run(c.name, func(t *testing.T) {
			if n := strings.Count(gfBase, c.old); n != 1 {
				t.Fatalf("%q occurs %d times in gfBase, want 1", c.old, n)
			}
			errs := parseErrs(t, strings.Replace(gfBase, c.old, c.new, 1))
			want := max(c.n, 1)
			found := false
			for _, e := range errs {
				found = found || e.Line == c.line && strings.Contains(e.Msg, c.msg)
			}
			if !found || len(errs) != want {
				t.Errorf("want %d error(s), one at line %d containing\n\t%s\ngot:\n%v", want, c.line, c.msg, errs)
			}
		})
	}
}
