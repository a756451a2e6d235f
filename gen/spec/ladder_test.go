package spec

import (
	"strings"
	"testing"

	"github.com/kgen-gpu/kgen/gen/ir"
)

// ladderBase is a valid spec with a reference family of ladder steps; the
// ladder rule tests each change one thing in it.
const ladderBase = `version: 1
targets:
  - arch: sm_80
  - arch: sm_90
families:
  - name: ladder
    op: gemm
    types: {a: f32, b: f32, c: f32, acc: f32}
    layouts: [nn]
    archs: [sm_80, sm_90]
    reference: true
    tilings:
      - {ladder: naive, block: [32, 32, 1]}
      - {ladder: smem, block: [32, 32, 32]}
      - {ladder: blocktile2d, block: [128, 128, 8], thread: [8, 8]}
      - {ladder: vectorized, block: [128, 128, 8], thread: [8, 8]}
`

var ladderCases = []ruleCase{
	{"unknown step", "ladder: naive", "ladder: tiny", 13,
		`family "ladder" tiling 1 ladder: unknown ladder step "tiny"; use one of naive, coalesced, smem, blocktile1d, blocktile2d, vectorized`, 0},
	{"warp key", "{ladder: naive, block: [32, 32, 1]}", "{ladder: naive, block: [32, 32, 1], warp: [32, 32]}", 13,
		`family "ladder" tiling 1: unknown key "warp"; the keys are ladder, block, thread`, 0},
	{"block missing", "{ladder: naive, block: [32, 32, 1]}", "{ladder: naive}", 13, `family "ladder" tiling 1: missing required key "block"`, 0},
	{"not a reference family", "    reference: true\n", "", 12,
		`family "ladder" tiling 1: ladder naive is a reference kernel; set reference: true on the family so the engine never picks it by itself`, 4},
	{"reference not a bool", "reference: true", "reference: 1", 11, `family "ladder" reference must be true or false, got the integer 1`, 5},
	{"layout tt", "[nn]", "[nn, tt]", 15, "ladder kernels take row-major A and B only; set the family's layouts to [nn] (it has tt)", 4},
	{"f16 operands", "{a: f32, b: f32, c: f32, acc: f32}", "{a: f16, b: f16, c: f16, acc: f32}", 13, "ladder naive is an f32 kernel; the family's operands are f16", 4},
	{"naive with thread", "{ladder: naive, block: [32, 32, 1]}", "{ladder: naive, block: [32, 32, 1], thread: [1, 1]}", 13,
		"ladder naive computes one C element per thread; remove thread (it starts with blocktile1d)", 0},
	{"blocktile2d without thread", "{ladder: blocktile2d, block: [128, 128, 8], thread: [8, 8]}", "{ladder: blocktile2d, block: [128, 128, 8]}", 15,
		"ladder blocktile2d needs thread: [M, N], the C elements each thread computes", 0},
	{"naive block K", "naive, block: [32, 32, 1]", "naive, block: [32, 32, 8]", 13, "ladder naive has no k tile (each thread walks all of K); block K (8) must be 1", 0},
	{"blocktile1d thread N", "{ladder: blocktile2d, block: [128, 128, 8], thread: [8, 8]}", "{ladder: blocktile1d, block: [128, 128, 8], thread: [8, 8]}", 15,
		"ladder blocktile1d computes a column of thread M elements per thread; thread N (8) must be 1", 0},
	{"thread does not divide block", "{ladder: blocktile2d, block: [128, 128, 8], thread: [8, 8]}", "{ladder: blocktile2d, block: [128, 128, 8], thread: [8, 6]}", 15,
		"block 128x128 must be a multiple of thread 8x6", 0},
	{"vectorized thread N", "vectorized, block: [128, 128, 8], thread: [8, 8]", "vectorized, block: [128, 128, 8], thread: [8, 2]", 16,
		"ladder vectorized moves float4s; thread N (2) must be a multiple of 4", 0},
	{"not whole warps", "naive, block: [32, 32, 1]", "naive, block: [8, 5, 1]", 13, "block 8x5 / thread 1x1 gives 40 threads; it must be whole warps (a multiple of 32)", 0},
	{"too many threads", "naive, block: [32, 32, 1]", "naive, block: [64, 32, 1]", 13,
		"2048 threads per block exceed the limit of 1024 on sm_80, sm_90; shrink the block tile or grow the thread tile", 0},
	{"shared memory", "smem, block: [32, 32, 32]", "smem, block: [128, 8, 128]", 14,
		"69632 bytes of shared memory exceed the static limit of 49152 on sm_80, sm_90; shrink block K or the block tile", 0},
	{"registers", "blocktile2d, block: [128, 128, 8], thread: [8, 8]", "blocktile2d, block: [128, 128, 8], thread: [16, 16]", 15,
		"needs about 312 registers per thread, over the limit of 255 on sm_80, sm_90: would spill registers; shrink the thread tile", 0},
	{"thread zero", "blocktile2d, block: [128, 128, 8], thread: [8, 8]", "blocktile2d, block: [128, 128, 8], thread: [0, 8]", 15,
		"thread M (0) must be between 1 and 4096", 0},
	{"step repeated", "      - {ladder: naive, block: [32, 32, 1]}\n", "      - {ladder: naive, block: [32, 32, 1]}\n      - {ladder: naive, block: [32, 32, 1]}\n", 14,
		`family "ladder" tiling 2: same as tiling 1 (line 13), so both would generate the same kernels; remove one`, 0},
}

func TestLadderRules(t *testing.T) {
	for _, c := range ladderCases {
		t.Run(c.name, func(t *testing.T) {
			if n := strings.Count(ladderBase, c.old); n != 1 {
				t.Fatalf("%q occurs %d times in ladderBase, want 1", c.old, n)
			}
			errs := parseErrs(t, strings.Replace(ladderBase, c.old, c.new, 1))
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

// TestLadderTilings checks that a valid ladder family reaches the Spec: the
// flag, each step, and a thread tile of 1 x 1 where none is given.
func TestLadderTilings(t *testing.T) {
	s, err := Parse("kernels/spec.yaml", []byte(ladderBase))
	if err != nil {
		t.Fatal(err)
	}
	f := s.Families[0]
	if !f.Reference {
		t.Error("Reference = false; the family says reference: true")
	}
	want := []struct {
		step   ir.LadderStep
		thread ir.Tile
	}{{ir.LadderNaive, ir.Tile{M: 1, N: 1}}, {ir.LadderSmem, ir.Tile{M: 1, N: 1}},
		{ir.LadderBlockTile2D, ir.Tile{M: 8, N: 8}}, {ir.LadderVectorized, ir.Tile{M: 8, N: 8}}}
	if len(f.Tilings) != len(want) {
		t.Fatalf("%d tilings, want %d", len(f.Tilings), len(want))
	}
	for i, w := range want {
		if tl := f.Tilings[i]; tl.Ladder != w.step || tl.Thread != w.thread {
			t.Errorf("tiling %d: Ladder, Thread = %v, %v; want %v, %v", i+1, tl.Ladder, tl.Thread, w.step, w.thread)
		}
	}
	s, err = Parse("kernels/spec.yaml", []byte(base))
	if err != nil || s.Families[0].Reference || s.Families[0].Tilings[0].Ladder != ir.LadderNone {
		t.Errorf("a family without the keys is not a reference and has no ladder step: %v", err)
	}
}
