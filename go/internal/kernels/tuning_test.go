package kernels

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/kgen-gpu/kgen/internal/tuning"
)

// checkTables says what is wrong with tables against the instance table
// gemms: every grid's instances must be GEMMs of its family and layout built
// for its table's arch, every point must have a time per instance, and no
// GPU and arch may have two tables. kgen checks
// the YAML the same way; this checks what reached the binary.
func checkTables(tables []tuning.Table, gemms []GEMM) []string {
	var bad []string
	seen := map[string]bool{}
	for _, t := range tables {
		key := fmt.Sprintf("%s/sm_%d", t.GPU, t.Arch)
		if seen[key] {
			bad = append(bad, key+": two tables")
		}
		seen[key] = true
		for _, g := range t.Grids {
			for _, name := range g.Instances {
				k, ok := Named(ForArch(gemms, t.Arch), name)
				switch {
				case !ok:
					bad = append(bad, fmt.Sprintf("%s %s %s: %s is not built for sm_%d", key, g.Family, g.Layout, name, t.Arch))
				case k.Family != g.Family || tuning.Layout(k.Tiling.A == ColMajor, k.Tiling.B == ColMajor) != g.Layout || k.Tiling.C != RowMajor:
					bad = append(bad, fmt.Sprintf("%s %s %s: %s is of family %s, layout %s%s", key, g.Family, g.Layout, name,
						k.Family, tuning.Layout(k.Tiling.A == ColMajor, k.Tiling.B == ColMajor), map[bool]string{true: ", column-major C"}[k.Tiling.C != RowMajor]))
				}
			}
			for _, p := range g.Points {
				switch {
				case p.M < 1 || p.N < 1 || p.K < 1:
					bad = append(bad, fmt.Sprintf("%s %s %s: shape %dx%dx%d", key, g.Family, g.Layout, p.M, p.N, p.K))
				case len(p.Ms) != len(g.Instances) || p.Best() < 0:
					bad = append(bad, fmt.Sprintf("%s %s %s: %dx%dx%d has %d times for %d instances", key, g.Family, g.Layout, p.M, p.N, p.K, len(p.Ms), len(g.Instances)))
				}
			}
		}
	}
	return bad
}

// TestTuningTablesNameBuiltInstances runs the check over the generated
// tables (none until a GPU's table is checked in under kernels/tuning/).
func TestTuningTablesNameBuiltInstances(t *testing.T) {
	assert.Empty(t, checkTables(Tunings, GEMMs))
	t.Logf("%d tuning tables checked", len(Tunings))
}

// TestCheckTablesFindsBadNames shows the check fails on each kind of bad
// table, built from the generated instances.
func TestCheckTablesFindsBadNames(t *testing.T) {
	var sg, other GEMM
	for _, k := range ForArch(GEMMs, 90) {
		if k.Tiling.A == RowMajor && k.Tiling.B == RowMajor && sg.Name == "" {
			sg = k
		}
	}
	for _, k := range ForArch(GEMMs, 90) {
		if k.Family == sg.Family && k.Tiling.B == ColMajor && other.Name == "" {
			other = k
		}
	}
	if sg.Name == "" || other.Name == "" {
		t.Fatal("no two GEMMs of one family and different layouts on sm_90")
	}
	good := tuning.Table{GPU: "G", Arch: 90, Grids: []tuning.Grid{{Family: sg.Family, Layout: "nn", Instances: []string{sg.Name}, Points: []tuning.Point{{M: 1, N: 1, K: 1, Ms: []float64{1}}}}}}
	assert.Empty(t, checkTables([]tuning.Table{good}, GEMMs))
	for name, mutate := range map[string]func(*tuning.Table){
		"unknown":      func(t *tuning.Table) { t.Grids[0].Instances = []string{"sgemm_nonesuch"} },
		"wrong layout": func(t *tuning.Table) { t.Grids[0].Instances = []string{other.Name} },
		"short row":    func(t *tuning.Table) { t.Grids[0].Points[0].Ms = nil },
		"not measured": func(t *tuning.Table) { t.Grids[0].Points[0].Ms = []float64{0} },
		"wrong family": func(t *tuning.Table) { t.Grids[0].Family = "x" + sg.Family },
		"wrong arch":   func(t *tuning.Table) { t.Arch = 75 },
		"bad shape":    func(t *tuning.Table) { t.Grids[0].Points[0].K = 0 },
	} {
		bad := good
		bad.Grids = []tuning.Grid{{Family: sg.Family, Layout: "nn", Instances: []string{sg.Name}, Points: []tuning.Point{{M: 1, N: 1, K: 1, Ms: []float64{1}}}}}
		mutate(&bad)
		assert.Len(t, checkTables([]tuning.Table{bad}, GEMMs), 1, name)
	}
	assert.Len(t, checkTables([]tuning.Table{good, good}, GEMMs), 1, "two tables for one GPU and arch")
}
