package tunefile

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kgen-gpu/kgen/gen/ir"
	"github.com/kgen-gpu/kgen/gen/lower"
	"github.com/kgen-gpu/kgen/gen/spec"
	"github.com/kgen-gpu/kgen/internal/tuning"
)

// module lowers the emitters' small golden spec: sgemm nn and tn on sm_86
// and sm_90, hgemm nt on sm_90, gf and hgemv on sm_90.
func module(t *testing.T) *ir.Module {
	t.Helper()
	data, err := os.ReadFile("../emit/testdata/small.yaml")
	require.NoError(t, err)
	s, err := spec.Parse("kernels/spec.yaml", data)
	require.NoError(t, err)
	m, err := lower.Lower(s)
	require.NoError(t, err)
	return m
}

const (
	sgemmNN = "sgemm_nn_f32_b64x64x8_w32x32_t4x8_s2"
	sgemmTN = "sgemm_tn_f32_b64x64x8_w32x32_t4x8_s2"
	hgemmNT = "hgemm_nt_f16accf32_b128x128x32_w64x64_s4"
)

func table() tuning.Table {
	return tuning.Table{
		GPU: "NVIDIA H100 80GB HBM3", Arch: 90, Driver: "12.4", NVCC: "nvcc 11.8.89", Date: "2026-11-23",
		Grids: []tuning.Grid{
			{Family: "sgemm", Layout: "nn", Instances: []string{sgemmNN}, Points: []tuning.Point{
				{M: 128, N: 128, K: 128, Ms: []float64{0.01234}},
				{M: 4097, N: 4097, K: 4097, Ms: []float64{3.333333333333}},
				{M: 64, N: 64, K: 65536, Ms: []float64{1.5e-05}},
			}},
			{Family: "hgemm", Layout: "nt", Instances: []string{hgemmNT}, Points: []tuning.Point{
				{M: 1000, N: 3000, K: 500, Ms: []float64{0.25}},
			}},
		},
	}
}

func TestFormatParseRoundTrip(t *testing.T) {
	want := table()
	want.GPU = `NVIDIA "quoted" \ name`
	// Several instances (names only Parse sees: Validate is not run), one
	// not measured at a point.
	want.Grids[1].Instances = []string{hgemmNT, "b", "c"}
	want.Grids[1].Points[0].Ms = []float64{0.25, 0, 0.3}
	data := tuning.Format(want)
	f, err := Parse("kernels/tuning/x.yaml", data)
	require.NoError(t, err, "%s", data)
	assert.Equal(t, want, f.Table)
	// The lines point at the parts: the first grid's points follow it.
	require.Len(t, f.PointLines, 2)
	assert.Less(t, f.GridLines[0], f.InstanceLines[0][0])
	assert.Less(t, f.InstanceLines[0][0], f.PointLines[0][0])
	assert.Equal(t, f.PointLines[0][0]+1, f.PointLines[0][1])
	assert.Equal(t, f.InstanceLines[1][0]+2, f.InstanceLines[1][2])
	// The comment names the fastest, for a reader.
	assert.Contains(t, string(data), "ms: [0.25, 0, 0.3]} # fastest 0 "+hgemmNT+", runner-up 1.200x\n")
}

func TestLoadValidatesAgainstTheSpec(t *testing.T) {
	m := module(t)
	root := t.TempDir()
	write(t, root, "nvidia-h100-80gb-hbm3.yaml", tuning.Format(table()))
	a100 := table()
	a100.GPU, a100.Arch = "NVIDIA A100-SXM4-40GB", 86
	a100.Grids = a100.Grids[:1]
	write(t, root, "nvidia-a100-sxm4-40gb.yaml", tuning.Format(a100))
	got, err := Load(root, "kernels/spec.yaml", m)
	require.NoError(t, err)
	require.Len(t, got, 2)
	assert.Equal(t, "NVIDIA A100-SXM4-40GB", got[0].GPU, "file name order")
	assert.Equal(t, table(), got[1])
	none, err := Load(t.TempDir(), "kernels/spec.yaml", m)
	assert.NoError(t, err, "no tuning directory: no tables")
	assert.Empty(t, none)
}

func write(t *testing.T, root, name string, data []byte) {
	t.Helper()
	dir := filepath.Join(root, "kernels", "tuning")
	require.NoError(t, os.MkdirAll(dir, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, name), data, 0o644))
}

// errorsOf loads one file of content under name and returns its messages,
// each "path:line: message".
func errorsOf(t *testing.T, name, content string) []string {
	t.Helper()
	root := t.TempDir()
	write(t, root, name, []byte(content))
	_, err := Load(root, "kernels/spec.yaml", module(t))
	require.Error(t, err)
	var list spec.ErrorList
	require.True(t, errors.As(err, &list), "%T", err)
	return strings.Split(err.Error(), "\n")
}

const header = `version: 2
gpu: "NVIDIA H100 80GB HBM3"
arch: sm_90
driver: "12.4"
nvcc: "nvcc 11.8.89"
date: "2026-11-23"
grids:
`

func TestValidationErrors(t *testing.T) {
	const file = "kernels/tuning/nvidia-h100-80gb-hbm3.yaml"
	for _, tc := range []struct {
		name, grids string
		want        []string // messages after "path:"
	}{
		{"unknown instance", `  - family: sgemm
    layout: nn
    instances:
      - ` + sgemmNN + `
      - sgemm_nn_f32_nonesuch
    points:
      - {shape: [128, 128, 128], ms: [1, 2]}
`, []string{"12: unknown instance sgemm_nn_f32_nonesuch: kernels/spec.yaml generates no kernel of that name"}},
		{"wrong layout", `  - family: sgemm
    layout: nn
    instances: [` + sgemmTN + `]
    points:
      - {shape: [128, 128, 128], ms: [1]}
`, []string{"10: instance " + sgemmTN + " takes layout tn, not the grid's nn"}},
		{"wrong family", `  - family: sgemm
    layout: nn
    instances:
      - ` + hgemmNT + `
    points:
      - {shape: [128, 128, 128], ms: [1]}
`, []string{"11: instance " + hgemmNT + " is of family hgemm, not sgemm"}},
		{"family without the layout", `  - family: sgemm
    layout: tt
    instances: [x]
    points:
      - {shape: [128, 128, 128], ms: [1]}
`, []string{"8: family sgemm has no layout tt (it has nn, tn)"}},
		{"not a gemm family", `  - family: gf
    layout: nn
    instances: [x]
    points:
      - {shape: [128, 128, 128], ms: [1]}
`, []string{`8: family "gf" is not a gemm family: only GEMMs are dispatched by a table`}},
		{"reference family", `  - family: ladder
    layout: nn
    instances: [ladder_nn_f32_coalesced_b32x32x1]
    points:
      - {shape: [128, 128, 128], ms: [1]}
`, []string{"8: family ladder is a reference family (reference: true), which the engine never dispatches; remove the grid"}},
		{"malformed shapes and times", `  - family: sgemm
    layout: nn
    instances: [` + sgemmNN + `]
    points:
      - {shape: [128, 128], ms: [1]}
      - {shape: [0, 128, -1], ms: [1, 2]}
      - {shape: [1.5, a, 3], ms: [0]}
      - {shape: [1, 2, 3], ms: [-1]}
      - {shape: [1, 2, 4], ms: 1}
      - {shape: [1, 2, 5], ms: [x]}
`, []string{
			"12: grid 1 point 1 shape must be [M, N, K], got 2 items",
			"13: grid 1 point 2 ms has 2 times for the grid's 1 instances: one per instance, 0 where one was not measured",
			`13: grid 1 point 2 shape K must be a positive integer, got "-1"`,
			`13: grid 1 point 2 shape M must be a positive integer, got "0"`,
			"14: grid 1 point 3 has no measured time: leave the shape out",
			`14: grid 1 point 3 shape M must be a positive integer, got "1.5"`,
			`14: grid 1 point 3 shape N must be a positive integer, got "a"`,
			"15: grid 1 point 4 has no measured time: leave the shape out",
			`15: grid 1 point 4 ms 1 must be a time in milliseconds, or 0 where the instance was not measured; got "-1"`,
			"16: grid 1 point 5 ms must be a list of times, one per instance",
			"17: grid 1 point 6 has no measured time: leave the shape out",
			`17: grid 1 point 6 ms 1 must be a number, got "x"`,
		}},
		{"duplicates", `  - family: sgemm
    layout: nn
    instances: [` + sgemmNN + `, ` + sgemmNN + `]
    points:
      - {shape: [128, 128, 128], ms: [1, 1]}
      - {shape: [128, 128, 128], ms: [2, 2]}
  - family: sgemm
    layout: nn
    instances: [` + sgemmNN + `]
    points:
      - {shape: [256, 128, 128], ms: [1]}
`, []string{
			"10: grid 1: instance " + sgemmNN + " is listed twice (first on line 10); keep one",
			"13: shape [128, 128, 128] is measured twice in this grid (first on line 12); keep one",
			"14: family sgemm layout nn has a grid already (line 8); keep one",
		}},
		{"keys", `  - family: sgemm
    layout: nn
    colour: red
    points:
      - {shape: [128, 128, 128], best: ` + sgemmNN + `}
`, []string{
			`8: grid 1: missing required key "instances"`,
			`10: grid 1: unknown key "colour"; the keys are family, layout, instances, points`,
			`12: grid 1 point 1: missing required key "ms"`,
			`12: grid 1 point 1: unknown key "best"; the keys are shape, ms`,
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := errorsOf(t, "nvidia-h100-80gb-hbm3.yaml", header+tc.grids)
			var want []string
			for _, w := range tc.want {
				want = append(want, file+":"+w)
			}
			assert.Equal(t, want, got)
		})
	}
}

func TestValidationOfTheTable(t *testing.T) {
	const file = "kernels/tuning/"
	bad := strings.NewReplacer(`arch: sm_90`, `arch: sm_80`, `date: "2026-11-23"`, `date: "23.11.2026"`).Replace(header) +
		"  - family: sgemm\n    layout: nn\n    instances: [" + sgemmNN + "]\n    points:\n      - {shape: [1, 1, 1], ms: [1]}\n"
	assert.Equal(t, []string{
		file + `h100.yaml:2: a table for gpu "NVIDIA H100 80GB HBM3" goes in nvidia-h100-80gb-hbm3.yaml (or nvidia-h100-80gb-hbm3-sm_80.yaml beside another arch's)`,
		file + "h100.yaml:3: arch sm_80 is not a target of kernels/spec.yaml",
		file + `h100.yaml:6: date must be YYYY-MM-DD, got "23.11.2026"`,
	}, errorsOf(t, "h100.yaml", bad))

	// sgemm is built for sm_86 too, hgemm only for sm_90.
	sm86 := strings.Replace(header, "arch: sm_90", "arch: sm_86", 1) +
		"  - family: hgemm\n    layout: nt\n    instances:\n      - " + hgemmNT + "\n    points:\n      - {shape: [1, 1, 1], ms: [1]}\n"
	assert.Equal(t, []string{
		file + "nvidia-h100-80gb-hbm3-sm_86.yaml:11: instance " + hgemmNT + " is not built for sm_86 (it is for sm_90)",
	}, errorsOf(t, "nvidia-h100-80gb-hbm3-sm_86.yaml", sm86))

	assert.Equal(t, []string{file + "nvidia-h100-80gb-hbm3.yaml:1: table: missing required key \"grids\""},
		errorsOf(t, "nvidia-h100-80gb-hbm3.yaml", strings.TrimSuffix(header, "grids:\n")))
	assert.Contains(t, errorsOf(t, "nvidia-h100-80gb-hbm3.yaml", "gpu: [")[0], "nvidia-h100-80gb-hbm3.yaml:1: not YAML")
	assert.Contains(t, errorsOf(t, "nvidia-h100-80gb-hbm3.yaml", strings.Replace(header, "version: 2", "version: 1", 1)+"  []\n"),
		file+"nvidia-h100-80gb-hbm3.yaml:1: version 1 tables hold only each point's fastest instance; measure again with bench -tune (version 2 holds every instance's time)")
}

func TestTwoFilesForOneGPUAndArch(t *testing.T) {
	root := t.TempDir()
	write(t, root, "nvidia-h100-80gb-hbm3.yaml", tuning.Format(table()))
	write(t, root, "nvidia-h100-80gb-hbm3-sm_90.yaml", tuning.Format(table()))
	_, err := Load(root, "kernels/spec.yaml", module(t))
	require.Error(t, err)
	assert.Contains(t, err.Error(), `kernels/tuning/nvidia-h100-80gb-hbm3.yaml:5: gpu "NVIDIA H100 80GB HBM3" and arch sm_90 already have a table in kernels/tuning/nvidia-h100-80gb-hbm3-sm_90.yaml; keep one`)
}
