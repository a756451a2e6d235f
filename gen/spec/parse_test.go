package spec

import (
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/kgen-gpu/kgen/gen/ir"
)

func TestDocumentErrors(t *testing.T) {
	for _, c := range []struct {
		name, src string
		line      int
		msg       string
	}{
		{"empty", "", 1, "the spec is empty; it must start with version: 1"},
		{"comments only", "# nothing\n", 1, "the spec is empty"},
		{"invalid yaml", "version: 1\ntargets: [\n", 2, "invalid YAML: did not find expected node content"},
		{"tab indent", "version: 1\n\ttargets: []\n", 2, "invalid YAML: found a tab character that violates indentation"},
		{"two documents", base + "---\nversion: 1\n", 21, "a spec is one YAML document; remove the second one (after ---)"},
		{"root is a list", "- version: 1\n", 1, "the spec must be a mapping (key: value), got a list"},
		{"root is a scalar", "sgemm\n", 1, `the spec must be a mapping (key: value), got the string "sgemm"`},
		{"alias", "x: &a [sm_80, sm_86]\n" + strings.Replace(base, "archs: [sm_80, sm_86]", "archs: *a", 1), 14, "anchors and aliases (*name) are not supported"},
		{"unknown anchor", strings.Replace(base, "archs: [sm_80, sm_86]", "archs: *a", 1), 1, "invalid YAML: unknown anchor 'a' referenced"},
		{"key is a list", "[a]: 1\n", 1, "the spec: a key must be a plain name, got a list"},
	} {
		t.Run(c.name, func(t *testing.T) {
			errs := parseErrs(t, c.src)
			for _, e := range errs {
				if e.Line == c.line && strings.Contains(e.Msg, c.msg) {
					return
				}
			}
			t.Errorf("want an error at line %d containing %q, got:\n%v", c.line, c.msg, errs)
		})
	}
}

// TestAllErrorsReported breaks six things at once: all six must come
// back, in line order, in one ErrorList.
func TestAllErrorsReported(t *testing.T) {
	src := base
	for _, e := range [][2]string{
		{"version: 1", "version: 3"},
		{"  - arch: sm_90\n", "  - arch: sm_99\n"},
		{"op: gemm", "op: gemm2"},
		{"[nn, tt]", "[nn, nn]"},
	} {
		src = strings.Replace(src, e[0], e[1], 1)
	}
	// Tilings are not checked while op is unknown, so a second family
	// (repeating the name) carries the tiling mistake.
	src += strings.Replace(base[strings.Index(base, "  - name: sgemm"):], "[128, 128, 8]", "[128, 96, 8]", 1)
	errs := parseErrs(t, src)
	want := []struct {
		line int
		msg  string
	}{
		{1, "version 3 is not supported"},
		{6, `unknown arch "sm_99"`},
		{10, `unknown op "gemm2"`},
		{12, "nn is listed twice"},
		{21, `family "sgemm": another family on line 9 has this name`},
		{27, "block N (96) must be a multiple of warp N (64)"},
	}
	if len(errs) != len(want) {
		t.Fatalf("got %d errors, want %d:\n%v", len(errs), len(want), errs)
	}
	for i, w := range want {
		if errs[i].Line != w.line || !strings.Contains(errs[i].Msg, w.msg) {
			t.Errorf("error %d = %v, want line %d containing %q", i, errs[i], w.line, w.msg)
		}
	}
	lines := strings.Split(errs.Error(), "\n")
	if len(lines) != len(want) || !strings.HasPrefix(lines[0], "kernels/spec.yaml:1: version 3") {
		t.Errorf("Error() = %q, want one path:line: msg per line", errs.Error())
	}
}

func TestErrorList(t *testing.T) {
	var l ErrorList
	if l.err() != nil {
		t.Fatal("an empty ErrorList must be a nil error, not a typed nil")
	}
	l.add("s.yaml", 7, "b")
	l.add("s.yaml", 2, "z")
	l.add("s.yaml", 7, "a")
	err := l.err()
	if got, want := err.Error(), "s.yaml:2: z\ns.yaml:7: a\ns.yaml:7: b"; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
	var e *Error
	if !errors.As(err, &e) || e.Line != 2 {
		t.Errorf("errors.As found %v, want the line-2 error", e)
	}
}

// TestDTypeOnArch exercises the check that a future arch without some
// dtype would fail; no arch in ir.Arches fails it today.
func TestDTypeOnArch(t *testing.T) {
	defer func(f func(ir.DType, ir.Arch) bool) { dtypeOnArch = f }(dtypeOnArch)
	dtypeOnArch = func(d ir.DType, a ir.Arch) bool { return a != ir.SM86 }
	errs := parseErrs(t, base)
	if len(errs) != 1 || errs[0].Line != 11 || !strings.Contains(errs[0].Msg, "f32 is not supported on sm_86; remove sm_86 from archs") {
		t.Errorf("got:\n%v", errs)
	}
}

func TestRealSpec(t *testing.T) {
	data, err := os.ReadFile("../../kernels/spec.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Parse("kernels/spec.yaml", data); err != nil {
		t.Fatalf("kernels/spec.yaml does not validate:\n%v", err)
	}
}

func TestTilingNumbers(t *testing.T) {
	for _, c := range []struct {
		t                   Tiling
		threads, smem, regs int
	}{
		{Tiling{Block: ir.Tile{M: 128, N: 128, K: 8}, Warp: ir.Tile{M: 32, N: 64}, Thread: ir.Tile{M: 8, N: 8}, Stages: 2}, 256, 16896, 128},
		{Tiling{Block: ir.Tile{M: 128, N: 128, K: 16}, Warp: ir.Tile{M: 32, N: 64}, Thread: ir.Tile{M: 8, N: 8}, Stages: 2}, 256, 33792, 136},
		{Tiling{Block: ir.Tile{M: 128, N: 256, K: 8}, Warp: ir.Tile{M: 64, N: 64}, Thread: ir.Tile{M: 8, N: 16}, Stages: 2}, 256, 25088, 212},
		{Tiling{Block: ir.Tile{M: 64, N: 64, K: 8}, Warp: ir.Tile{M: 32, N: 32}, Thread: ir.Tile{M: 4, N: 8}, Stages: 2}, 128, 8704, 88},
		{Tiling{}, 0, 0, 0}, // no warp tile: zero, not a division by zero
	} {
		if th, sm, r := c.t.Threads(), c.t.RingBytes(), c.t.Regs(); th != c.threads || sm != c.smem || r != c.regs {
			t.Errorf("%+v: threads, shared, regs = %d, %d, %d; want %d, %d, %d", c.t, th, sm, r, c.threads, c.smem, c.regs)
		}
	}
}

// TestValidateHandBuilt checks a Spec that never went through Parse: bad
// enum values and tiles are errors (at the family line), not panics.
func TestValidateHandBuilt(t *testing.T) {
	s := &Spec{
		Path:    "x.yaml",
		Targets: []Target{{Arch: ir.SM80, Line: 3}, {Arch: ir.Arch(42), Line: 4}},
		Families: []Family{{
			Name: "Bad", Op: ir.GEMM, Layouts: []LayoutPair{{}, {}}, Archs: []ir.Arch{ir.SM80}, Line: 9,
			Tilings: []Tiling{{Line: 12}},
		}},
	}
	err := s.Validate()
	if err == nil {
		t.Fatal("Validate accepted a broken hand-built spec")
	}
	for _, want := range []string{"x.yaml:4: target: unknown arch 42", "x.yaml:9: family 1: name \"Bad\" must match", "x.yaml:9: family 1 layouts: nn is listed twice", "x.yaml:12: family 1 tiling 1: block M (0) must be between 1 and 4096"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("missing %q in:\n%v", want, err)
		}
	}
}

// TestReadmeExample keeps the complete example in kernels/README.md valid.
func TestReadmeExample(t *testing.T) {
	data, err := os.ReadFile("../../kernels/README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(data), "```yaml\n")
	example, _, ok2 := strings.Cut(rest, "```")
	if !ok || !ok2 {
		t.Fatal("kernels/README.md has no ```yaml example")
	}
	if _, err := Parse("kernels/README.md", []byte(example)); err != nil {
		t.Errorf("the README example does not validate:\n%v", err)
	}
}
