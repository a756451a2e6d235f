package lower

import (
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/kgen-gpu/kgen/gen/ir"
	"github.com/kgen-gpu/kgen/gen/spec"
)

func parse(t *testing.T, path string, src []byte) *spec.Spec {
	t.Helper()
	s, err := spec.Parse(path, src)
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	return s
}

func TestLowerRealSpec(t *testing.T) {
	data, err := os.ReadFile("../../kernels/spec.yaml")
	if err != nil {
		t.Fatal(err)
	}
	m, err := Lower(parse(t, "kernels/spec.yaml", data))
	if err != nil {
		t.Fatal(err)
	}
	if m.SpecPath != "kernels/spec.yaml" {
		t.Errorf("SpecPath = %q", m.SpecPath)
	}
	wantTargets := []ir.Target{
		{Arch: ir.SM80}, {Arch: ir.SM86, Flags: []string{"-maxrregcount=255"}}, {Arch: ir.SM89}, {Arch: ir.SM90, PTX: true},
	}
	if len(m.Targets) != len(wantTargets) {
		t.Fatalf("Targets = %+v", m.Targets)
	}
	for i, w := range wantTargets {
		if g := m.Targets[i]; g.Arch != w.Arch || g.PTX != w.PTX || !slices.Equal(g.Flags, w.Flags) {
			t.Errorf("Targets[%d] = %+v, want %+v", i, g, w)
		}
	}
	var names []string
	for _, in := range m.Instances {
		names = append(names, in.Name)
		if !slices.Equal(in.Archs, ir.AllArches) {
			t.Errorf("%s: Archs = %v", in.Name, in.Archs)
		}
		if in.Family != "sgemm" || in.Op != ir.GEMM || in.AType != ir.F32 || in.CType != ir.F32 || in.AccType != ir.F32 || in.CLayout != ir.RowMajor {
			t.Errorf("%s: wrong family, op or types: %+v", in.Name, in)
		}
	}
	var want []string
	for _, l := range []string{"nn", "nt", "tn", "tt"} {
		for _, tile := range []string{"b128x128x8_w32x64_t8x8_s2_o2", "b128x128x16_w32x64_t8x8_s2", "b128x256x8_w64x64_t8x16_s2", "b64x64x8_w32x32_t4x8_s2"} {
			want = append(want, "sgemm_"+l+"_f32_"+tile)
		}
	}
	slices.Sort(want)
	if !slices.Equal(names, want) {
		t.Errorf("instance names:\n%s\nwant:\n%s", strings.Join(names, "\n"), strings.Join(want, "\n"))
	}
}

// src lists targets and archs out of order and two layouts, to check the
// ordering and every derived field of one instance.
const src = `version: 1
targets:
  - arch: sm_90
  - arch: sm_80
families:
  - name: sgemm
    op: gemm
    types: {a: f32, b: f32, c: f32, acc: f32}
    layouts: [tn, nt]
    archs: [sm_90, sm_80]
    tilings:
      - block: [64, 64, 8]
        warp: [32, 32]
        thread: [4, 8]
        stages: 2
        vector: {global: 1, shared: 4}
        min_blocks_per_sm: 3
`

func TestLowerFields(t *testing.T) {
	m, err := Lower(parse(t, "k.yaml", []byte(src)))
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Targets) != 2 || m.Targets[0].Arch != ir.SM80 || m.Targets[1].Arch != ir.SM90 {
		t.Errorf("Targets not in arch order: %+v", m.Targets)
	}
	if len(m.Instances) != 2 {
		t.Fatalf("got %d instances, want 2", len(m.Instances))
	}
	want := ir.Instance{
		Name: "sgemm_nt_f32_b64x64x8_w32x32_t4x8_s2_v14_o3", Family: "sgemm", Op: ir.GEMM,
		AType: ir.F32, BType: ir.F32, CType: ir.F32, AccType: ir.F32,
		ALayout: ir.RowMajor, BLayout: ir.ColMajor, CLayout: ir.RowMajor,
		Block: ir.Tile{M: 64, N: 64, K: 8}, Warp: ir.Tile{M: 32, N: 32}, Thread: ir.Tile{M: 4, N: 8},
		Stages: 2, VecGlobal: 1, VecShared: 4, MinBlocksSM: 3,
		Archs: []ir.Arch{ir.SM80, ir.SM90}, Threads: 128, SharedBytes: 8704, SpecLine: 12,
	}
	got := m.Instances[0]
	if !slices.Equal(got.Archs, want.Archs) {
		t.Errorf("Archs = %v, want %v", got.Archs, want.Archs)
	}
	got.Archs, want.Archs = nil, nil
	if !reflect.DeepEqual(got, want) {
		t.Errorf("instance:\n got %+v\nwant %+v", got, want)
	}
	if n := m.Instances[1].Name; n != "sgemm_tn_f32_b64x64x8_w32x32_t4x8_s2_v14_o3" {
		t.Errorf("second instance %s", n)
	}
	m.Instances[0].Archs[0] = ir.SM90
	if m.Instances[1].Archs[0] != ir.SM80 {
		t.Error("instances share one Archs slice")
	}
}

func TestLowerRejects(t *testing.T) {
	if _, err := Lower(nil); err == nil {
		t.Error("Lower(nil) succeeded")
	}
	// A hand-built spec is validated too: a repeated tiling is reported with
	// both lines, and a zero warp tile is an error, not a division by zero.
	s := parse(t, "k.yaml", []byte(src))
	dup := s.Families[0].Tilings[0]
	dup.Line = 30
	s.Families[0].Tilings = append(s.Families[0].Tilings, dup)
	_, err := Lower(s)
	if err == nil || !strings.Contains(err.Error(), "k.yaml:30: family \"sgemm\" tiling 2: same as tiling 1 (line 12)") {
		t.Errorf("repeated tiling: %v", err)
	}
	s.Families[0].Tilings = []spec.Tiling{{Line: 7}}
	if _, err := Lower(s); err == nil || !strings.Contains(err.Error(), "k.yaml:7:") {
		t.Errorf("zero tiling: %v", err)
	}
}
