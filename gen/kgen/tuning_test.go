package kgen

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kgen-gpu/kgen/gen/emit/gobind"
	"github.com/kgen-gpu/kgen/gen/ir"
	"github.com/kgen-gpu/kgen/internal/tuning"
)

// tuningRoot is a tree holding the real spec and one tuning file.
func tuningRoot(t *testing.T, table []byte) string {
	t.Helper()
	root := t.TempDir()
	spec, err := os.ReadFile(filepath.Join(repoRoot, "kernels/spec.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(root, "kernels/tuning"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "kernels/spec.yaml"), spec, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "kernels/tuning/test-gpu.yaml"), table, 0o644); err != nil {
		t.Fatal(err)
	}
	return root
}

// TestLoadCompilesTuningTables: a table beside the spec reaches
// tuning_gen.go, and one naming an instance the spec lacks stops Load with
// the file and line.
func TestLoadCompilesTuningTables(t *testing.T) {
	m, err := Load(repoRoot, "kernels/spec.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var name string
	for _, in := range m.Instances {
		if p := in.Gemm(); p != nil && in.Family == "sgemm" && !p.MMA && p.ALayout == ir.RowMajor && p.BLayout == ir.RowMajor && name == "" {
			name = in.Name
		}
	}
	if name == "" {
		t.Fatal("the spec has no sgemm nn instance")
	}
	table := tuning.Table{GPU: "Test GPU", Arch: 90, Driver: "12.4", NVCC: "nvcc 11.8", Date: "2026-11-23", Grids: []tuning.Grid{
		{Family: "sgemm", Layout: "nn", Instances: []string{name}, Points: []tuning.Point{{M: 7, N: 35, K: 4097, Ms: []float64{0.5}}}},
	}}
	tm, err := Load(tuningRoot(t, tuning.Format(table)), "kernels/spec.yaml")
	if err != nil {
		t.Fatal(err)
	}
	files, err := Generate(tm)
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, f := range files {
		if f.Path == gobind.TuningPath {
			found = strings.Contains(string(f.Content), `{M: 7, N: 35, K: 4097, Ms: []float64{0.5}}`) && strings.Contains(string(f.Content), `"`+name+`",`)
		}
	}
	if !found {
		t.Errorf("%s does not hold the table's point", gobind.TuningPath)
	}

	table.Grids[0].Instances[0] = name + "_gone"
	_, err = Load(tuningRoot(t, tuning.Format(table)), "kernels/spec.yaml")
	want := "kernels/tuning/test-gpu.yaml:14: unknown instance " + name + "_gone: kernels/spec.yaml generates no kernel of that name"
	if err == nil || err.Error() != want {
		t.Errorf("Load with a stale table: %v\nwant: %s", err, want)
	}
}
