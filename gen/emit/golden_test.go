package emit_test

import (
	"flag"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/kgen-gpu/kgen/gen/emit"
	"github.com/kgen-gpu/kgen/gen/emit/bazel"
	"github.com/kgen-gpu/kgen/gen/emit/cheader"
	"github.com/kgen-gpu/kgen/gen/emit/cuda"
	"github.com/kgen-gpu/kgen/gen/emit/gobind"
	kmake "github.com/kgen-gpu/kgen/gen/emit/make"
	"github.com/kgen-gpu/kgen/gen/ir"
	"github.com/kgen-gpu/kgen/gen/lower"
	"github.com/kgen-gpu/kgen/gen/spec"
	"github.com/kgen-gpu/kgen/gen/tunefile"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// TestGolden runs each emitter on testdata/small.yaml and compares every file
// it writes with testdata/golden/<emitter>/<file name>.golden.
func TestGolden(t *testing.T) {
	const specPath = "gen/emit/testdata/small.yaml"
	data, err := os.ReadFile("testdata/small.yaml")
	if err != nil {
		t.Fatal(err)
	}
	s, err := spec.Parse(specPath, data)
	if err != nil {
		t.Fatal(err)
	}
	m, err := lower.Lower(s)
	if err != nil {
		t.Fatal(err)
	}
	// testdata/tuning/ holds one table; it must reach tuning_gen.go.
	if m.Tunings, err = tunefile.Load("../..", specPath, m); err != nil {
		t.Fatal(err)
	}
	if len(m.Tunings) != 1 {
		t.Fatalf("%d tuning tables from testdata/tuning, want 1", len(m.Tunings))
	}
	for _, tc := range []struct {
		name string
		emit func(*ir.Module) ([]emit.File, error)
		want int // files
	}{
		{"cuda", cuda.Emit, 17},
		{"cheader", cheader.Emit, 1},
		{"gobind", gobind.Emit, 2},
		{"make", kmake.Emit, 1},
		{"bazel", bazel.Emit, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			files, err := tc.emit(m)
			if err != nil {
				t.Fatal(err)
			}
			if len(files) != tc.want {
				t.Fatalf("%d files, want %d", len(files), tc.want)
			}
			for _, f := range files {
				golden := filepath.Join("testdata", "golden", tc.name, filepath.Base(f.Path)+".golden")
				if *update {
					if err := os.MkdirAll(filepath.Dir(golden), 0o755); err != nil {
						t.Fatal(err)
					}
					if err := os.WriteFile(golden, f.Content, 0o644); err != nil {
						t.Fatal(err)
					}
					continue
				}
				want, err := os.ReadFile(golden)
				if err != nil {
					t.Fatalf("%v (run with -update to create it)", err)
				}
				if string(want) != string(f.Content) {
					t.Errorf("%s differs from %s (run with -update after checking the change):\n%s", f.Path, golden, firstDiff(string(want), string(f.Content)))
				}
			}
		})
	}
}

// firstDiff shows the first differing line of two texts.
func firstDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := 0; i < max(len(w), len(g)); i++ {
		var wl, gl string
		if i < len(w) {
			wl = w[i]
		}
		if i < len(g) {
			gl = g[i]
		}
		if wl != gl {
			return "line " + strconv.Itoa(i+1) + ":\n  want: " + wl + "\n  got:  " + gl
		}
	}
	return "(same lines, different bytes)"
}

func TestEmittersRejectOpsTheyDoNotKnow(t *testing.T) {
	m := &ir.Module{SpecPath: "x.yaml", Instances: []ir.Instance{{Name: "hgemv_n", Op: ir.GEMV, Archs: []ir.Arch{ir.SM90}}}}
	if _, err := cuda.Emit(m); err == nil || !strings.Contains(err.Error(), "no CUDA emitter for op gemv") {
		t.Errorf("cuda.Emit on a gemv instance: %v", err)
	}
	if _, err := gobind.Emit(m); err == nil || !strings.Contains(err.Error(), "op gemv without its parameters") {
		t.Errorf("gobind.Emit on a gemv instance without parameters: %v", err)
	}
}

func TestGoSourceKeepsUnformattableOutput(t *testing.T) {
	src := []byte("package x\nfunc {")
	out, err := emit.GoSource("x.go", src)
	if err == nil || string(out) != string(src) {
		t.Fatalf("GoSource on broken Go: %q, %v; want the input back and an error", out, err)
	}
}
