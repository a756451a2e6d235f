package lower

import (
	"fmt"
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
		if in.Params == nil || in.Params.Op() != in.Op {
			t.Errorf("%s: params %T for op %s", in.Name, in.Params, in.Op)
			continue
		}
		if want := ir.InstanceName(in.Family, in.Types, in.Params); in.Name != want {
			t.Errorf("%s: name does not match its fields (%s)", in.Name, want)
		}
		byName[in.Name] = in
	}
	n := 0
	types := func(f spec.Family) ir.Types {
		return ir.Types{A: f.Types.A, B: f.Types.B, C: f.Types.C, Acc: f.Types.Acc}
	}
	check := func(name string, in ir.Instance, line, threads, smem int, f spec.Family) {
		if in.SpecLine != line || in.Threads != threads || in.SharedBytes != smem || len(in.Archs) != len(f.Archs) {
			t.Errorf("%s: SpecLine, Threads, SharedBytes, Archs = %d, %d, %d, %v; tiling says %d, %d, %d, %v",
				name, in.SpecLine, in.Threads, in.SharedBytes, in.Archs, line, threads, smem, f.Archs)
		}
	}
	for _, f := range s.Families {
		for _, p := range f.Layouts {
			for _, tl := range f.Tilings {
				if f.Op != ir.GEMM {
					break
				}
				// Only layouts with a k-contiguous operand synchronise
				// through mbarriers (TestLowerSync).
				if !p.KContiguous() {
					tl.Sync = ir.SyncBarrier
				}
				gp := &ir.GemmParams{ALayout: p.A, BLayout: p.B, CLayout: f.CLayout,
					Block: tl.Block, Warp: tl.Warp, Thread: tl.Thread, Stages: tl.Stages, VecGlobal: tl.VecGlobal, VecShared: tl.VecShared, MinBlocksSM: tl.MinBlocksSM, SplitK: tl.SplitK, SplitReduce: tl.SplitReduce,
					SplitCount: tl.SplitCount, MMA: tl.MMA, LaneMap: tl.LaneMap, FMAOrder: tl.FMAOrder, Sync: tl.Sync, Tail: tl.Tail, Pack: tl.Pack, Ladder: tl.Ladder}
				name := ir.InstanceName(f.Name, types(f), gp)
				if tl.Pack && p.A == ir.ColMajor && p.B == ir.RowMajor {
					// Layout tn has nothing to pack: no instance.
					if _, ok := byName[name]; ok {
						t.Errorf("%s: a packing instance of layout tn", name)
					}
					continue
				}
				n++
				in, ok := byName[name]
				if !ok {
					t.Errorf("no instance %s", name)
					continue
				}
				ka, kb := gp.KernelLayouts()
				threads, smem := tl.Threads(), tl.SharedBytes(f.Archs, spec.LayoutPair{A: ka, B: kb})
				switch {
				case tl.Ladder != ir.LadderNone:
					threads, smem = ir.LadderThreads(tl.Block, tl.Thread), ir.LadderSharedBytes(tl.Ladder, tl.Block)
				case tl.MMA:
					smem = tl.MMASharedBytes()
				}
				check(name, in, tl.Line, threads, smem, f)
				if in.Reference != f.Reference {
					t.Errorf("%s: Reference = %v, family says %v", name, in.Reference, f.Reference)
				}
			}
		}
		for _, lp := range f.Layouts {
			for _, tl := range f.Gemv {
				if f.Op != ir.GEMV {
					break
				}
				n++
				params := &ir.GemvParams{ALayout: lp.A, ThreadsPerOutput: tl.ThreadsPerOutput, OutputsPerBlock: tl.OutputsPerBlock,
					Vector: tl.Vector, XShared: tl.XShared, XF32: tl.XF32, RowsPerThread: tl.RowsPerThread, SplitK: tl.SplitK, MaxBatch: tl.MaxBatch}
				smem := 0
				if tl.MMA {
					params = &ir.GemvParams{ALayout: lp.A, MMA: true, Warps: tl.Warps, Tiles: tl.Tiles, Unroll: tl.Unroll, Stages: tl.Stages, SplitK: tl.SplitK, MaxBatch: tl.MaxBatch}
					smem = tl.GemvMMASharedBytes(lp.A)
				}
				name := ir.InstanceName(f.Name, types(f), params)
				in, ok := byName[name]
				if !ok {
					t.Errorf("no instance %s", name)
					continue
				}
				if tl.MMA && (in.Threads != 32*tl.Warps || *in.Params.(*ir.GemvParams) != *params) {
					t.Errorf("%s: %d threads, params %+v; want %d, %+v", name, in.Threads, in.Params, 32*tl.Warps, params)
				}
				check(name, in, tl.Line, tl.Threads, smem, f)
			}
		}
		for _, tl := range f.GF256 {
			n++
			name := ir.InstanceName(f.Name, types(f), &ir.GF256Params{Strategy: tl.Strategy, BytesPerThread: tl.BytesPerThread, Threads: tl.Threads, RowsPerBlock: tl.RowsPerBlock, Stages: tl.Stages})
			in, ok := byName[name]
			if !ok {
				t.Errorf("no instance %s", name)
				continue
			}
			check(name, in, tl.Line, tl.Threads, tl.SharedBytes(), f)
		}
	}
	if n != len(m.Instances) {
		t.Errorf("%d instances, want layouts x tilings (gemm, packing ones not in tn) plus tilings (gf256_matmul) = %d", len(m.Instances), n)
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
		Types: ir.Types{A: ir.F32, B: ir.F32, C: ir.F32, Acc: ir.F32},
		Archs: []ir.Arch{ir.SM80, ir.SM90}, Threads: 128, SharedBytes: 8704, SpecLine: 12,
		Params: &ir.GemmParams{
			ALayout: ir.RowMajor, BLayout: ir.ColMajor, CLayout: ir.RowMajor,
			Block: ir.Tile{M: 64, N: 64, K: 8}, Warp: ir.Tile{M: 32, N: 32}, Thread: ir.Tile{M: 4, N: 8},
			Stages: 2, VecGlobal: 1, VecShared: 4, MinBlocksSM: 3, SplitK: 1,
		},
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

const stagedSrc = `version: 1
targets:
  - arch: sm_80
  - arch: sm_86
families:
  - name: hgemvtcs
    op: gemv
    types: {a: f16, b: f16, c: f16, acc: f32}
    layouts: [n]
    archs: [sm_80, sm_86]
    tilings:
      - {mma: true, warps: 8, tiles: 2, stages: 3, max_batch: 8}
`

// TestLowerGemvStaged checks a tensor-core gemv tiling staged through shared
// memory: its name carries the stages where unroll would be, and its shared
// memory is the ring of stages, 3 x (32 x 512 + 8 x 528) bytes.
func TestLowerGemvStaged(t *testing.T) {
	m, err := Lower(parse(t, "k.yaml", []byte(stagedSrc)))
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Instances) != 1 {
		t.Fatalf("got %d instances, want 1", len(m.Instances))
	}
	want := ir.Instance{
		Name: "hgemvtcs_n_f16accf32_w8_t2_s3_m8", Family: "hgemvtcs", Op: ir.GEMV,
		Types: ir.Types{A: ir.F16, B: ir.F16, C: ir.F16, Acc: ir.F32},
		Archs: []ir.Arch{ir.SM80, ir.SM86}, Threads: 256, SharedBytes: 61824, SpecLine: 12,
		Params: &ir.GemvParams{ALayout: ir.RowMajor, MMA: true, Warps: 8, Tiles: 2, Stages: 3, SplitK: 1, MaxBatch: 8},
	}
	if got := m.Instances[0]; !reflect.DeepEqual(got, want) {
		t.Errorf("instance:\n got %+v\nwant %+v", got, want)
	}
}

const gfSrc = `version: 1
targets:
  - arch: sm_90
families:
  - name: gf
    op: gf256_matmul
    types: {a: gf256, b: gf256, c: gf256, acc: gf256}
    archs: [sm_90]
    tilings:
      - {strategy: xorshift, bytes_per_thread: 16, threads: 256, rows_per_block: 4}
`

func TestLowerGF256(t *testing.T) {
	m, err := Lower(parse(t, "k.yaml", []byte(gfSrc)))
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Instances) != 1 {
		t.Fatalf("got %d instances, want 1", len(m.Instances))
	}
	in := m.Instances[0]
	want := ir.Instance{
		Name: "gf_xorshift_v16_t256_r4", Family: "gf", Op: ir.GF256MatMul,
		Types: ir.Types{A: ir.GF256, B: ir.GF256, C: ir.GF256, Acc: ir.GF256},
		Archs: []ir.Arch{ir.SM90}, Threads: 256, SharedBytes: in.SharedBytes, SpecLine: 10,
		Params: &ir.GF256Params{Strategy: ir.GFXorShift, BytesPerThread: 16, Threads: 256, RowsPerBlock: 4},
	}
	if !reflect.DeepEqual(in, want) {
		t.Errorf("instance:\n got %+v\nwant %+v", in, want)
	}
	if in.SharedBytes <= 0 {
		t.Errorf("SharedBytes = %d", in.SharedBytes)
	}
	if in.GF256() == nil || in.Gemm() != nil {
		t.Error("accessors disagree with the op")
	}
}

const clusterSrc = `version: 1
targets:
  - arch: sm_80
  - arch: sm_90
families:
  - name: sgemm
    op: gemm
    types: {a: f32, b: f32, c: f32, acc: f32}
    layouts: [nn]
    archs: [%s]
    tilings:
      - block: [128, 128, 16]
        warp: [32, 64]
        thread: [8, 8]
        stages: 3
        vector: {global: 4, shared: 4}
        split_k: 2
        split_reduce: cluster
        lanes: columns
`

// TestLowerClusterReduce checks a tiling whose splits sum in a cluster: the
// choice reaches the parameters and the name (_k2c), and the shared memory
// is the partial tile staged on sm_90, 128 x (128 + 4) x 4 bytes, larger
// than the ring of 3 x 16 x (132 + 132) x 4, but the ring where no arch
// stages the tile.
func TestLowerClusterReduce(t *testing.T) {
	for _, c := range []struct {
		archs string
		smem  int
	}{{"sm_80, sm_90", 67584}, {"sm_80", 50688}} {
		m, err := Lower(parse(t, "k.yaml", []byte(fmt.Sprintf(clusterSrc, c.archs))))
		if err != nil {
			t.Fatal(err)
		}
		if len(m.Instances) != 1 {
			t.Fatalf("got %d instances, want 1", len(m.Instances))
		}
		in := m.Instances[0]
		if want := "sgemm_nn_f32_b128x128x16_w32x64_t8x8_s3_k2c_lc"; in.Name != want {
			t.Errorf("name %s, want %s", in.Name, want)
		}
		if p := in.Gemm(); p == nil || p.SplitReduce != ir.SplitInCluster || !p.ClusterReduce() || p.SplitK != 2 || p.LaneMap != ir.LanesByColumn {
			t.Errorf("params %+v", in.Params)
		}
		if in.SharedBytes != c.smem {
			t.Errorf("archs %s: SharedBytes = %d, want %d", c.archs, in.SharedBytes, c.smem)
		}
	}
}

const syncSrc = `version: 1
targets:
  - arch: sm_90
families:
  - name: sgemm
    op: gemm
    types: {a: f32, b: f32, c: f32, acc: f32}
    layouts: [nn, nt, tn, tt]
    archs: [sm_90]
    tilings:
      - block: [128, 128, 16]
        warp: [32, 64]
        thread: [8, 8]
        stages: 3
        vector: {global: 4, shared: 4}
        lanes: columns
        sync: mbarrier
`

// TestLowerSync checks a tiling whose ring synchronises through mbarriers:
// the layouts with a k-contiguous operand (nn, nt, tt) get it, in their
// parameters, names (_mb) and shared memory (the ring, 3 x 16 x (132 + 132)
// floats = 50688 bytes, and 2 x 3 mbarriers of 8 bytes); tn keeps the
// barrier, the plain name and the ring alone.
func TestLowerSync(t *testing.T) {
	m, err := Lower(parse(t, "k.yaml", []byte(syncSrc)))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]struct {
		sync ir.Sync
		smem int
	}{
		"sgemm_nn_f32_b128x128x16_w32x64_t8x8_s3_lc_mb": {ir.SyncMbarrier, 50688 + 48},
		"sgemm_nt_f32_b128x128x16_w32x64_t8x8_s3_lc_mb": {ir.SyncMbarrier, 50688 + 48},
		"sgemm_tn_f32_b128x128x16_w32x64_t8x8_s3_lc":    {ir.SyncBarrier, 50688},
		"sgemm_tt_f32_b128x128x16_w32x64_t8x8_s3_lc_mb": {ir.SyncMbarrier, 50688 + 48},
	}
	if len(m.Instances) != len(want) {
		t.Fatalf("got %d instances, want %d", len(m.Instances), len(want))
	}
	for _, in := range m.Instances {
		w, ok := want[in.Name]
		if !ok {
			t.Errorf("unexpected instance %s", in.Name)
			continue
		}
		if p := in.Gemm(); p == nil || p.Sync != w.sync || p.Mbarriers() != (w.sync == ir.SyncMbarrier) {
			t.Errorf("%s: params %+v, want sync %v", in.Name, in.Params, w.sync)
		}
		if in.SharedBytes != w.smem {
			t.Errorf("%s: SharedBytes = %d, want %d", in.Name, in.SharedBytes, w.smem)
		}
	}
}
