package spec

import (
	"strings"
	"testing"
)

// base is a valid spec; the rule tests each change one thing in it. Its
// line numbers are the ones the tables expect.
const base = `version: 1
targets:
  - arch: sm_80
  - arch: sm_86
    flags: [-maxrregcount=255]
  - arch: sm_90
    ptx: true
families:
  - name: sgemm
    op: gemm
    types: {a: f32, b: f32, c: f32, acc: f32}
    layouts: [nn, tt]
    archs: [sm_80, sm_86]
    tilings:
      - block: [128, 128, 8]
        warp: [32, 64]
        thread: [8, 8]
        stages: 2
        vector: {global: 4, shared: 4}
        min_blocks_per_sm: 2
`

// edit returns base with old replaced by new; old must occur exactly once,
// so a table row cannot silently stop testing anything.
func edit(t testing.TB, old, new string) string {
	t.Helper()
	if n := strings.Count(base, old); n != 1 {
		t.Fatalf("edit: %q occurs %d times in base, want 1", old, n)
	}
	return strings.Replace(base, old, new, 1)
}

// parseErrs parses src as "kernels/spec.yaml" and returns its errors.
func parseErrs(t testing.TB, src string) ErrorList {
	t.Helper()
	s, err := Parse("kernels/spec.yaml", []byte(src))
	if err == nil {
		return nil
	}
	if s != nil {
		t.Errorf("Parse returned a Spec together with an error")
	}
	list, ok := err.(ErrorList)
	if !ok {
		t.Fatalf("Parse error is %T, want ErrorList: %v", err, err)
	}
	return list
}

func TestBaseIsValid(t *testing.T) {
	if errs := parseErrs(t, base); errs != nil {
		t.Fatalf("base spec: %v", errs)
	}
}
