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
			{Family: "sgemm", Layout: "nn", Points: []tuning.Point{
				{M: 128, N: 128, K: 128, Best: sgemmNN, Ms: 0.01234, RunnerUp: 1.071},
				{M: 4097, N: 4097, K: 4097, Best: sgemmNN, Ms: 3.333333333333, RunnerUp: 0},
				{M: 64, N: 64, K: 65536, Best: sgemmNN, Ms: 1.5e-05, RunnerUp: 12},
			}},
			{Family: "hgemm", Layout: "nt", Points: []tuning.Point{
				{M: 1000, N: 3000, K: 500, Best: hgemmNT, Ms: 0.25, RunnerUp: 1},
			}},
		},
	}
}

func TestFormatParseRoundTrip(t *testing.T) {
	want := table()
	want.GPU = `NVIDIA "quoted" \ name`
	f, err := Parse("kernels/tuning/x.yaml", tuning.Format(want))
	require.NoError(t, err, "%s", tuning.Format(want))
	assert.Equal(t, want, f.Table)
	// The lines point at the parts: the first grid's points follow it.
	require.Len(t, f.PointLines, 2)
	assert.Less(t, f.GridLines[0], f.PointLines[0][0])
	assert.Equal(t, f.PointLines[0][0]+1, f.PointLines[0][1])
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

const header = `version: 1
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
    points:
      - {shape: [128, 128, 128], best: sgemm_nn_f32_nonesuch, ms: 1, runner_up: 0}
`, []string{"11: unknown instance sgemm_nn_f32_nonesuch: kernels/spec.yaml generates no kernel of that name"}},
		{"wrong layout", `  - family: sgemm
    layout: nn
    points:
      - {shape: [128, 128, 128], best: ` + sgemmTN + `, ms: 1, runner_up: 0}
`, []string{"11: instance " + sgemmTN + " takes layout tn, not the grid's nn"}},
		{"wrong family", `  - family: sgemm
    layout: nn
    points:
      - {shape: [128, 128, 128], best: ` + hgemmNT + `, ms: 1, runner_up: 0}
`, []string{"11: instance " + hgemmNT + " is of family hgemm, not sgemm"}},
		{"family without the layout", `  - family: sgemm
    layout: tt
    points:
      - {shape: [128, 128, 128], best: x, ms: 1, runner_up: 0}
`, []string{"8: family sgemm has no layout tt (it has nn, tn)"}},
		{"not a gemm family", `  - family: gf
    layout: nn
    points:
      - {shape: [128, 128, 128], best: x, ms: 1, runner_up: 0}
`, []string{`8: family "gf" is not a gemm family: only GEMMs are dispatched by a table`}},
		{"malformed shapes", `  - family: sgemm
    layout: nn
    points:
      - {shape: [128, 128], best: ` + sgemmNN + `, ms: 1, runner_up: 0}
      - {shape: [0, 128, -1], best: ` + sgemmNN + `, ms: 1, runner_up: 0}
      - {shape: [1.5, a, 3], best: ` + sgemmNN + `, ms: 0, runner_up: 0.5}
`, []string{
			"11: grid 1 point 1 shape must be [M, N, K], got 2 items",
			`12: grid 1 point 2 shape K must be a positive integer, got "-1"`,
			`12: grid 1 point 2 shape M must be a positive integer, got "0"`,
			`13: grid 1 point 3 ms must be a positive time, got "0"`,
			`13: grid 1 point 3 runner_up is the second fastest time over the fastest: at least 1, or 0 when only one instance ran; got "0.5"`,
			`13: grid 1 point 3 shape M must be a positive integer, got "1.5"`,
			`13: grid 1 point 3 shape N must be a positive integer, got "a"`,
		}},
		{"duplicates", `  - family: sgemm
    layout: nn
    points:
      - {shape: [128, 128, 128], best: ` + sgemmNN + `, ms: 1, runner_up: 0}
      - {shape: [128, 128, 128], best: ` + sgemmNN + `, ms: 2, runner_up: 0}
  - family: sgemm
    layout: nn
    points:
      - {shape: [256, 128, 128], best: ` + sgemmNN + `, ms: 1, runner_up: 0}
`, []string{
			"12: shape [128, 128, 128] is measured twice in this grid (first on line 11); keep one",
			"13: family sgemm layout nn has a grid already (line 8); keep one",
		}},
		{"keys", `  - family: sgemm
    layout: nn
    colour: red
    points:
      - {shape: [128, 128, 128], best: ` + sgemmNN + `, ms: 1}
`, []string{
			`10: grid 1: unknown key "colour"; the keys are family, layout, points`,
			`12: grid 1 point 1: missing required key "runner_up"`,
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
		"  - family: sgemm\n    layout: nn\n    points:\n      - {shape: [1, 1, 1], best: " + sgemmNN + ", ms: 1, runner_up: 0}\n"
	assert.Equal(t, []string{
		file + `h100.yaml:2: a table for gpu "NVIDIA H100 80GB HBM3" goes in nvidia-h100-80gb-hbm3.yaml (or nvidia-h100-80gb-hbm3-sm_80.yaml beside another arch's)`,
		file + "h100.yaml:3: arch sm_80 is not a target of kernels/spec.yaml",
		file + `h100.yaml:6: date must be YYYY-MM-DD, got "23.11.2026"`,
	}, errorsOf(t, "h100.yaml", bad))

	// sgemm is built for sm_86 too, hgemm only for sm_90.
	sm86 := strings.Replace(header, "arch: sm_90", "arch: sm_86", 1) +
		"  - family: hgemm\n    layout: nt\n    points:\n      - {shape: [1, 1, 1], best: " + hgemmNT + ", ms: 1, runner_up: 0}\n"
	assert.Equal(t, []string{
		file + "nvidia-h100-80gb-hbm3-sm_86.yaml:11: instance " + hgemmNT + " is not built for sm_86 (it is for sm_90)",
	}, errorsOf(t, "nvidia-h100-80gb-hbm3-sm_86.yaml", sm86))

	assert.Equal(t, []string{file + "nvidia-h100-80gb-hbm3.yaml:1: table: missing required key \"grids\""},
		errorsOf(t, "nvidia-h100-80gb-hbm3.yaml", strings.TrimSuffix(header, "grids:\n")))
	assert.Contains(t, errorsOf(t, "nvidia-h100-80gb-hbm3.yaml", "gpu: [")[0], "nvidia-h100-80gb-hbm3.yaml:1: not YAML")
}

func TestTwoFilesForOneGPUAndArch(t *testing.T) {
	root := t.TempDir()
	write(t, root, "nvidia-h100-80gb-hbm3.yaml", tuning.Format(table()))
	write(t, root, "nvidia-h100-80gb-hbm3-sm_90.yaml", tuning.Format(table()))
	_, err := Load(root, "kernels/spec.yaml", module(t))
	require.Error(t, err)
	assert.Contains(t, err.Error(), `kernels/tuning/nvidia-h100-80gb-hbm3.yaml:5: gpu "NVIDIA H100 80GB HBM3" and arch sm_90 already have a table in kernels/tuning/nvidia-h100-80gb-hbm3-sm_90.yaml; keep one`)
}
