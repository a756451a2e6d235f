package spec_test

import (
	"errors"
	"os"
	"testing"

	"github.com/kgen-gpu/kgen/gen/lower"
	"github.com/kgen-gpu/kgen/gen/spec"
)

// FuzzParse checks that no input makes Parse or Lower panic, that every
// error carries its path and a line, and that whatever Parse accepts lowers.
func FuzzParse(f *testing.F) {
	if data, err := os.ReadFile("../../kernels/spec.yaml"); err == nil {
		f.Add(string(data))
	} else {
		f.Fatal(err)
	}
	for _, s := range append(seeds, spec.RuleInputs()...) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		const path = "fuzz.yaml"
		s, err := spec.Parse(path, []byte(src))
		if err != nil {
			if s != nil {
				t.Fatal("Parse returned a Spec with an error")
			}
			var list spec.ErrorList
			if !errors.As(err, &list) || len(list) == 0 {
				t.Fatalf("Parse error is %T, want a non-empty spec.ErrorList", err)
			}
			for _, e := range list {
				if e.Path != path || e.Line < 1 || e.Msg == "" {
					t.Fatalf("error without a position or message: %#v", e)
				}
			}
			return
		}
		m, err := lower.Lower(s)
		if err != nil {
			t.Fatalf("Parse accepted a spec that Lower rejects: %v", err)
		}
		if m.SpecPath != path {
			t.Fatalf("SpecPath = %q", m.SpecPath)
		}
	})
}

// seeds are valid and invalid snippets; fuzzing starts from these.
var seeds = []string{
	"",
	"version: 1",
	"version: 1\ntargets: []\nfamilies: []\n",
	"- a\n- b\n",
	"x: &a [1]\ny: *a\n",
	"version: 1\n---\nversion: 1\n",
	"version: 1\ntargets:\n  - arch: sm_80\n    flags: [-O3, \"-a b\"]\n    ptx: yes\n",
	`version: 1
targets: [{arch: sm_80}, {arch: sm_80}]
families:
  - name: h
    op: gemm
    types: {a: f16, b: f16, c: f32, acc: f16}
    layouts: [nt]
    c_layout: col
    archs: [sm_80]
    tilings: [{block: [64, 64, 8], warp: [32, 32], thread: [4, 8], stages: 2, vector: {global: 4, shared: 4}}]
`,
	`version: 1
targets: [{arch: sm_89}]
families:
  - name: s
    op: gemm
    types: {a: f32, b: f32, c: f32, acc: f32}
    layouts: [nn, tt]
    archs: [sm_89]
    tilings:
      - {block: [64, 64, 8], warp: [32, 32], thread: [4, 8], stages: 2, vector: {global: 1, shared: 4}, min_blocks_per_sm: 4}
      - {block: [0, 64, 8], warp: [0, 32], thread: [4, 0], stages: 9, vector: {global: 3, shared: 0}, min_blocks_per_sm: -1}
      - {block: [4096, 4096, 4096], warp: [1, 1], thread: [1, 1], stages: 2, vector: {global: 4, shared: 4}, min_blocks_per_sm: 9223372036854775807}
`,
	`version: 1
targets: [{arch: sm_80}, {arch: sm_90}]
families:
  - name: s
    op: gemm
    types: {a: f32, b: f32, c: f32, acc: f32}
    layouts: [nt]
    archs: [sm_80, sm_90]
    tilings:
      - {block: [128, 128, 16], warp: [32, 64], thread: [8, 8], stages: 3, vector: {global: 4, shared: 4}, split_k: 2, split_reduce: cluster}
      - {block: [256, 256, 8], warp: [64, 64], thread: [8, 16], stages: 5, vector: {global: 4, shared: 4}, split_k: 9, split_reduce: cluster}
      - {block: [64, 64, 8], warp: [32, 32], thread: [4, 8], stages: 2, vector: {global: 4, shared: 4}, split_k: 1, split_reduce: workspace}
`,
	`version: 1
targets: [{arch: sm_90, ptx: true}]
families:
  - {name: g, op: gf256_matmul, types: {a: gf256, b: gf256, c: gf256, acc: gf256}, layouts: [nn], archs: [sm_90], tilings: [{block: [1,1,1], warp: [1,1], thread: [1,1], stages: 1, vector: {global: 1, shared: 1}}]}
`,
}
