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

// TestLowerRealSpec checks the properties every lowering must have on the
// checked-in spec, whatever tilings it lists today; TestLowerFields checks
// exact values on a spec of its own.
func TestLowerRealSpec(t *testing.T) {
	data, err := os.ReadFile("../../kernels/spec.yaml")
	if err != nil {
		t.Fatal(err)
	}
	s := parse(t, "kernels/spec.yaml", data)
	m, err := Lower(s)
	if err != nil {
		t.Fatal(err)
	}
	if m.SpecPath != "kernels/spec.yaml" {
		t.Errorf("SpecPath = %q", m.SpecPath)
	}
	if len(m.Targets) != len(s.Targets) || !slices.IsSortedFunc(m.Targets, func(a, b ir.Target) int { return int(a.Arch) - int(b.Arch) }) {
		t.Errorf("Targets not all present in arch order: %+v", m.Targets)
	}
	byName := map[string]ir.Instance{}
	for i, in := range m.Instances {
		if i > 0 && m.Instances[i-1].Name >= in.Name {
			t.Errorf("instances not sorted by unique name: %s then %s", m.Instances[i-1].Name, in.Name)
		}
		if !slices.IsSorted(in.Archs) || len(in.Archs) == 0 {
			t.Errorf("%s: Archs = %v, want non-empty ascending", in.Name, in.Archs)
		}
		if in.Name != ir.GemmName(in.Family, in) {
			t.Errorf("%s: name does not match its fields (%s)", in.Name, ir.GemmName(in.Family, in))
		}
		byName[in.Name] = in
	}
	n := 0
	for _, f := range s.Families {
		for _, p := range f.Layouts {
			for _, tl := range f.Tilings {
				n++
				name := ir.GemmName(f.Name, ir.Instance{ALayout: p.A, BLayout: p.B, CLayout: f.CLayout, AType: f.Types.A, AccType: f.Types.Acc,
					Block: tl.Block, Warp: tl.Warp, Thread: tl.Thread, Stages: tl.Stages, VecGlobal: tl.VecGlobal, VecShared: tl.VecShared, MinBlocksSM: tl.MinBlocksSM})
				in, ok := byName[name]
				if !ok {
					t.Errorf("no instance %s", name)
					continue
				}
				if in.SpecLine != tl.Line || in.Threads != tl.Threads() || in.SharedBytes != tl.SharedBytes() || len(in.Archs) != len(f.Archs) {
					t.Errorf("%s: SpecLine, Threads, SharedBytes, Archs = %d, %d, %d, %v; tiling says %d, %d, %d, %v",
						name, in.SpecLine, in.Threads, in.SharedBytes, in.Archs, tl.Line, tl.Threads(), tl.SharedBytes(), f.Archs)
				}
			}
		}
	}
	if n != len(m.Instances) {
		t.Errorf("%d instances, want layouts x tilings = %d", len(m.Instances), n)
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
