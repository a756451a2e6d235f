package ir

import "testing"

func TestEveryEnumValueHasATableRow(t *testing.T) {
	for _, d := range AllDTypes {
		row, ok := DTypes[d]
		if !ok || row.Name == "" || row.CUDA == "" || row.CHeader == "" || row.Go == "" || row.GoConst == "" || row.Bytes == 0 {
			t.Errorf("DType %d: incomplete table row %+v", d, row)
		}
		if back, ok := ParseDType(row.Name); !ok || back != d {
			t.Errorf("ParseDType(%q) = %v, %v", row.Name, back, ok)
		}
	}
	for _, l := range AllLayouts {
		row, ok := Layouts[l]
		if !ok || row.Name == "" || row.Letter == "" || row.CUDA == "" || row.Go == "" {
			t.Errorf("Layout %d: incomplete table row %+v", l, row)
		}
		if back, ok := ParseLayout(row.Name); !ok || back != l {
			t.Errorf("ParseLayout(%q) = %v, %v", row.Name, back, ok)
		}
	}
	for _, o := range AllOps {
		row, ok := Ops[o]
		if !ok || row.Name == "" || row.Go == "" {
			t.Errorf("Op %d: incomplete table row %+v", o, row)
		}
		if back, ok := ParseOp(row.Name); !ok || back != o {
			t.Errorf("ParseOp(%q) = %v, %v", row.Name, back, ok)
		}
	}
	prev := 0
	for _, a := range AllArches {
		row, ok := Arches[a]
		if !ok || row.Name == "" || row.Short == "" || row.CC == 0 || row.MaxThreads == 0 || row.MaxThreadsPerSM == 0 ||
			row.StaticSmem == 0 || row.MaxSmemPerBlock == 0 || row.RegsPerSM == 0 || row.MaxRegsPerThread == 0 || row.FP32Lanes == 0 {
			t.Errorf("Arch %d: incomplete table row %+v", a, row)
		}
		if row.CC <= prev {
			t.Errorf("AllArches not in ascending compute capability at %s", row.Name)
		}
		prev = row.CC
		if back, ok := ParseArch(row.Name); !ok || back != a {
			t.Errorf("ParseArch(%q) = %v, %v", row.Name, back, ok)
		}
	}
	if len(DTypes) != len(AllDTypes) || len(Layouts) != len(AllLayouts) || len(Ops) != len(AllOps) || len(Arches) != len(AllArches) {
		t.Error("a table has a row for a value missing from its All list")
	}
}

func TestGemmNameEncodesConfiguration(t *testing.T) {
	types := Types{A: F32, B: F32, C: F32, Acc: F32}
	p := &GemmParams{ALayout: RowMajor, BLayout: ColMajor, CLayout: RowMajor,
		Block: Tile{128, 128, 8}, Warp: Tile{32, 64, 0}, Thread: Tile{8, 8, 0}, Stages: 2, VecGlobal: 4, VecShared: 4}
	if got, want := InstanceName("sgemm", types, p), "sgemm_nt_f32_b128x128x8_w32x64_t8x8_s2"; got != want {
		t.Errorf("InstanceName = %q, want %q", got, want)
	}
	p.MinBlocksSM = 2
	p.VecGlobal = 1
	if got, want := InstanceName("sgemm", types, p), "sgemm_nt_f32_b128x128x8_w32x64_t8x8_s2_v14_o2"; got != want {
		t.Errorf("InstanceName = %q, want %q", got, want)
	}
	p.Stages, p.SplitK = 4, 16
	if got, want := InstanceName("sgemm", types, p), "sgemm_nt_f32_b128x128x8_w32x64_t8x8_s4_v14_o2_k16"; got != want {
		t.Errorf("InstanceName = %q, want %q", got, want)
	}
	in := Instance{Name: "x"}
	if got, want := in.Symbol(SM90), "kgen_x_sm90"; got != want {
		t.Errorf("Symbol = %q, want %q", got, want)
	}
}

func TestGemvMMANameEncodesConfiguration(t *testing.T) {
	types := Types{A: F16, B: F16, C: F16, Acc: F32}
	for _, c := range []struct {
		p    GemvParams
		want string
	}{
		{GemvParams{ALayout: RowMajor, MMA: true, Warps: 8, Tiles: 1, Unroll: 4, SplitK: 1, MaxBatch: 8}, "hgemvtc_n_f16accf32_w8_t1_u4_m8"},
		{GemvParams{ALayout: ColMajor, MMA: true, Warps: 8, Tiles: 1, Unroll: 2, SplitK: 8, MaxBatch: 8}, "hgemvtc_t_f16accf32_w8_t1_u2_m8_k8"},
		{GemvParams{ALayout: RowMajor, MMA: true, Warps: 16, Tiles: 2, Stages: 4, SplitK: 1, MaxBatch: 8}, "hgemvtc_n_f16accf32_w16_t2_s4_m8"},
	} {
		if got := InstanceName("hgemvtc", types, &c.p); got != c.want {
			t.Errorf("InstanceName(%+v) = %q, want %q", c.p, got, c.want)
		}
	}
}

func TestGF256NameEncodesConfiguration(t *testing.T) {
	p := &GF256Params{Strategy: GFNibble, BytesPerThread: 16, Threads: 256, RowsPerBlock: 4}
	if got, want := InstanceName("gf", Types{}, p), "gf_nibble_v16_t256_r4"; got != want {
		t.Errorf("InstanceName = %q, want %q", got, want)
	}
	for _, s := range AllGF256Strategies {
		row, ok := GF256Strategies[s]
		if !ok || row.Name == "" || row.CUDA == "" || row.Go == "" {
			t.Errorf("GF256Strategy %d: incomplete table row %+v", s, row)
		}
		if back, ok := ParseGF256Strategy(row.Name); !ok || back != s {
			t.Errorf("ParseGF256Strategy(%q) = %v, %v", row.Name, back, ok)
		}
	}
	if len(GF256Strategies) != len(AllGF256Strategies) {
		t.Error("GF256Strategies has a row for a value missing from AllGF256Strategies")
	}
}

// TestEveryOpWithParamsHasASignature: the launcher of each op that a spec
// can lower is derived from the op, with C and cgo spellings for every
// parameter.
func TestEveryOpWithParamsHasASignature(t *testing.T) {
	for _, op := range []Op{GEMM, GEMV, GF256MatMul} {
		types := Types{F32, F32, F32, F32}
		if op == GF256MatMul {
			types = Types{GF256, GF256, GF256, GF256}
		}
		sig := Signature(op, types)
		if len(sig) == 0 {
			t.Errorf("%s: no launcher signature", op)
		}
		for _, p := range sig {
			if p.Name == "" || p.Field == "" || p.C == "" || p.Cgo == "" {
				t.Errorf("%s: incomplete parameter %+v", op, p)
			}
		}
		if row := Ops[op]; row.GoTable == "" || row.GoEntry == "" || row.GoParams == "" || row.Doc == "" {
			t.Errorf("%s: incomplete Go names %+v", op, row)
		}
	}
}

func TestLadderStepsTable(t *testing.T) {
	for _, s := range AllLadderSteps {
		row, ok := LadderSteps[s]
		if !ok || row.Name == "" || row.CUDA == "" {
			t.Errorf("LadderStep %d: incomplete table row %+v", s, row)
		}
		if back, ok := ParseLadderStep(row.Name); !ok || back != s {
			t.Errorf("ParseLadderStep(%q) = %v, %v", row.Name, back, ok)
		}
	}
	if len(LadderSteps) != len(AllLadderSteps)+1 { // + LadderNone
		t.Error("LadderSteps has a row for a value missing from AllLadderSteps")
	}
	if _, ok := ParseLadderStep("none"); ok {
		t.Error(`ParseLadderStep("none") succeeded; a spec cannot name the absence of a step`)
	}
	p := &GemmParams{Block: Tile{M: 128, N: 128, K: 8}, Thread: Tile{M: 8, N: 8}, Ladder: LadderBlockTile2D}
	if got, want := InstanceName("sgemmladder", Types{A: F32, B: F32, C: F32, Acc: F32}, p), "sgemmladder_nn_f32_blocktile2d_b128x128x8_t8x8"; got != want {
		t.Errorf("InstanceName = %q, want %q", got, want)
	}
	p = &GemmParams{Block: Tile{M: 32, N: 32, K: 1}, Thread: Tile{M: 1, N: 1}, Ladder: LadderNaive}
	if got, want := InstanceName("sgemmladder", Types{A: F32, B: F32, C: F32, Acc: F32}, p), "sgemmladder_nn_f32_naive_b32x32x1"; got != want {
		t.Errorf("InstanceName = %q, want %q", got, want)
	}
}

// checkChoices checks a table of named choices: every value has a row with a
// name that parses back to it, no two share a name suffix (their instances
// would share names), and the default adds none (every existing instance
// would be renamed). It returns the suffixes in use.
func checkChoices[T comparable](t *testing.T, what string, all []T, def T, table map[T]Choice, parse func(string) (T, bool)) map[string]T {
	t.Helper()
	suffixes := map[string]T{}
	for _, v := range all {
		row, ok := table[v]
		if !ok || row.Name == "" {
			t.Errorf("%s %v: incomplete table row %+v", what, v, row)
		}
		if back, ok := parse(row.Name); !ok || back != v {
			t.Errorf("parsing %s %q = %v, %v", what, row.Name, back, ok)
		}
		if other, dup := suffixes[row.Suffix]; dup {
			t.Errorf("%ss %v and %v share the name suffix %q: their instances would share names", what, other, v, row.Suffix)
		}
		suffixes[row.Suffix] = v
	}
	if table[def].Suffix != "" {
		t.Errorf("the default %s adds a name suffix: every existing instance would be renamed", what)
	}
	if len(table) != len(all) {
		t.Errorf("the %s table has a row for a value missing from its list", what)
	}
	return suffixes
}

func TestChoiceTables(t *testing.T) {
	lanes := checkChoices(t, "lane map", AllLaneMaps, LanesByRow, LaneMaps, ParseLaneMap)
	orders := checkChoices(t, "FFMA order", AllFMAOrders, FMAByRow, FMAOrders, ParseFMAOrder)
	for suffix, o := range orders {
		if m, dup := lanes[suffix]; dup && suffix != "" {
			t.Errorf("FFMA order %v and lane map %v share the name suffix %q", o, m, suffix)
		}
	}
	// The split reduction's suffix follows the split count ("_k2c"), so it
	// needs no letters of its own beside the others'.
	// The ring's synchronisation follows the FFMA order ("_fz_mb"): its
	// suffix must be neither a lane map's nor an order's.
	for suffix, y := range checkChoices(t, "ring synchronisation", AllSyncs, SyncBarrier, Syncs, ParseSync) {
		if m, dup := lanes[suffix]; dup && suffix != "" {
			t.Errorf("ring synchronisation %v and lane map %v share the name suffix %q", y, m, suffix)
		}
		if o, dup := orders[suffix]; dup && suffix != "" {
			t.Errorf("ring synchronisation %v and FFMA order %v share the name suffix %q", y, o, suffix)
		}
	}
	// The tail follows the ring's synchronisation ("_mb_tc"): its suffix
	// must be none of the choices' before it.
	syncs := checkChoices(t, "ring synchronisation", AllSyncs, SyncBarrier, Syncs, ParseSync)
	for suffix, tl := range checkChoices(t, "tail", AllTails, TailWhole, Tails, ParseTail) {
		_, lane := lanes[suffix]
		_, order := orders[suffix]
		_, sync := syncs[suffix]
		if suffix != "" && (lane || order || sync || suffix == PackSuffix) {
			t.Errorf("tail %v shares the name suffix %q with another choice", tl, suffix)
		}
	}
	reduces := checkChoices(t, "split reduction", AllSplitReduces, SplitInWorkspace, SplitReduces, ParseSplitReduce)
	// So does the split count's ("_k16f"): it must not be read as a
	// reduction's.
	for suffix, c := range checkChoices(t, "split count", AllSplitCounts, SplitsFixed, SplitCounts, ParseSplitCount) {
		if r, dup := reduces[suffix]; dup && suffix != "" {
			t.Errorf("split count %v and split reduction %v share the name suffix %q", c, r, suffix)
		}
	}
	f32 := Types{A: F32, B: F32, C: F32, Acc: F32}
	p := &GemmParams{Block: Tile{M: 128, N: 128, K: 16}, Warp: Tile{M: 32, N: 64}, Thread: Tile{M: 8, N: 8}, Stages: 3,
		VecGlobal: 4, VecShared: 4, MinBlocksSM: 1, SplitK: 1, LaneMap: LanesByColumn, FMAOrder: FMAByQuadZigzag}
	if got, want := InstanceName("sgemm", f32, p), "sgemm_nn_f32_b128x128x16_w32x64_t8x8_s3_lc_fq"; got != want {
		t.Errorf("InstanceName = %q, want %q", got, want)
	}
	p.FMAOrder, p.SplitK = FMAByRow, 2
	if got, want := InstanceName("sgemm", f32, p), "sgemm_nn_f32_b128x128x16_w32x64_t8x8_s3_k2_lc"; got != want || p.ClusterReduce() {
		t.Errorf("InstanceName = %q, want %q (ClusterReduce %v)", got, want, p.ClusterReduce())
	}
	p.SplitReduce = SplitInCluster
	if got, want := InstanceName("sgemm", f32, p), "sgemm_nn_f32_b128x128x16_w32x64_t8x8_s3_k2c_lc"; got != want || !p.ClusterReduce() {
		t.Errorf("InstanceName = %q, want %q (ClusterReduce %v)", got, want, p.ClusterReduce())
	}
	p.SplitK, p.SplitReduce, p.SplitCount = 16, SplitInWorkspace, SplitsFill
	if got, want := InstanceName("sgemm", f32, p), "sgemm_nn_f32_b128x128x16_w32x64_t8x8_s3_k16f_lc"; got != want || !p.FillSplits() {
		t.Errorf("InstanceName = %q, want %q (FillSplits %v)", got, want, p.FillSplits())
	}
	p.SplitCount = SplitsFixed
	// The mbarrier ring follows the FFMA order; with 2 stages (no cp.async
	// ring) the template has none to synchronise.
	p.SplitK, p.SplitReduce, p.FMAOrder, p.Sync = 1, SplitInWorkspace, FMAByRowZigzag, SyncMbarrier
	if got, want := InstanceName("sgemm", f32, p), "sgemm_nn_f32_b128x128x16_w32x64_t8x8_s3_lc_fz_mb"; got != want || !p.Mbarriers() {
		t.Errorf("InstanceName = %q, want %q (Mbarriers %v)", got, want, p.Mbarriers())
	}
	if q := *p; func() bool { q.Stages = 2; return q.Mbarriers() }() {
		t.Error("Mbarriers with 2 stages: the register pipeline has no ring")
	}
	// The tail follows the ring's synchronisation; it needs the cp.async
	// ring (whose shared memory holds a split's partial tile) and no split.
	p.Tail = TailCluster
	if got, want := InstanceName("sgemm", f32, p), "sgemm_nn_f32_b128x128x16_w32x64_t8x8_s3_lc_fz_mb_tc"; got != want || !p.TailSplit() {
		t.Errorf("InstanceName = %q, want %q (TailSplit %v)", got, want, p.TailSplit())
	}
	for _, q := range []GemmParams{{Stages: 2, SplitK: 1, Tail: TailCluster}, {Stages: 3, SplitK: 2, Tail: TailCluster}, {Stages: 3, SplitK: 1}} {
		if q.TailSplit() {
			t.Errorf("TailSplit with stages %d, split_k %d, tail %v", q.Stages, q.SplitK, q.Tail)
		}
	}
	// Stream-K takes the same place and the same conditions.
	if q := *p; func() bool {
		q.Tail = TailStream
		return InstanceName("sgemm", f32, &q) != "sgemm_nn_f32_b128x128x16_w32x64_t8x8_s3_lc_fz_mb_ts" || !q.StreamK() || q.TailSplit() || !q.TailArg()
	}() {
		t.Error("a stream-K tiling is not named _ts or not StreamK alone")
	}
	for _, q := range []GemmParams{{Stages: 2, SplitK: 1, Tail: TailStream}, {Stages: 3, SplitK: 2, Tail: TailStream}, {Stages: 3, SplitK: 1, Tail: TailCluster}} {
		if q.StreamK() {
			t.Errorf("StreamK with stages %d, split_k %d, tail %v", q.Stages, q.SplitK, q.Tail)
		}
	}
	p.Sync = SyncBarrier
	// Packing ends the name, after every other choice.
	if q := *p; func() bool {
		q.Pack = true
		return InstanceName("sgemm", f32, &q) != "sgemm_nn_f32_b128x128x16_w32x64_t8x8_s3_lc_fz_tc_pk"
	}() {
		t.Error("a packing instance's tail does not come before _pk")
	}
	p.Tail = TailWhole
	p.SplitK, p.SplitReduce, p.FMAOrder, p.Pack = 1, SplitInWorkspace, FMAByRowZigzag, true
	if got, want := InstanceName("sgemm", f32, p), "sgemm_nn_f32_b128x128x16_w32x64_t8x8_s3_lc_fz_pk"; got != want {
		t.Errorf("InstanceName = %q, want %q", got, want)
	}
}
