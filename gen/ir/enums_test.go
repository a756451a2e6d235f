package ir

import "testing"

func TestEveryEnumValueHasATableRow(t *testing.T) {
	for _, d := range AllDTypes {
		row, ok := DTypes[d]
		if !ok || row.Name == "" || row.CUDA == "" || row.Go == "" || row.Bytes == 0 {
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
	in := Instance{AType: F32, AccType: F32, ALayout: RowMajor, BLayout: ColMajor, CLayout: RowMajor,
		Block: Tile{128, 128, 8}, Warp: Tile{32, 64, 0}, Thread: Tile{8, 8, 0}, Stages: 2, VecGlobal: 4, VecShared: 4}
	if got, want := GemmName("sgemm", in), "sgemm_nt_f32_b128x128x8_w32x64_t8x8_s2"; got != want {
		t.Errorf("GemmName = %q, want %q", got, want)
	}
	in.MinBlocksSM = 2
	in.VecGlobal = 1
	if got, want := GemmName("sgemm", in), "sgemm_nt_f32_b128x128x8_w32x64_t8x8_s2_v14_o2"; got != want {
		t.Errorf("GemmName = %q, want %q", got, want)
	}
	in.Name = "x"
	if got, want := in.Symbol(SM90), "kgen_x_sm90"; got != want {
		t.Errorf("Symbol = %q, want %q", got, want)
	}
}
