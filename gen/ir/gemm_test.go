package ir

import "testing"

// TestGemmRingBytes: an instance's main-loop shared memory follows its
// kernel's layouts (F32RowPads), which for a packing instance are A
// column-major and B row-major whatever it packs; mbarriers add 16 bytes a
// stage with cp.async only.
func TestGemmRingBytes(t *testing.T) {
	big := func(a, b Layout, pack bool, sync Sync) *GemmParams {
		return &GemmParams{ALayout: a, BLayout: b, Block: Tile{M: 256, N: 128, K: 16}, Thread: Tile{M: 8, N: 16},
			Stages: 3, Pack: pack, Sync: sync}
	}
	for _, c := range []struct {
		what string
		p    *GemmParams
		want int
	}{
		{"nn", big(RowMajor, RowMajor, false, SyncBarrier), 3 * 16 * (260 + 132) * 4},
		{"nn mbarriers", big(RowMajor, RowMajor, false, SyncMbarrier), 3*16*(260+132)*4 + 48},
		{"tn", big(ColMajor, RowMajor, false, SyncBarrier), 3 * 16 * (256 + 128) * 4},
		{"tt", big(ColMajor, ColMajor, false, SyncBarrier), 3 * 16 * (256 + 132) * 4},
		{"nn packed", big(RowMajor, RowMajor, true, SyncMbarrier), 3*16*(256+128)*4 + 48},
		{"nt packed", big(RowMajor, ColMajor, true, SyncBarrier), 3 * 16 * (256 + 128) * 4},
		{"tn, 2 stages", &GemmParams{ALayout: ColMajor, BLayout: RowMajor, Block: Tile{M: 256, N: 128, K: 16},
			Thread: Tile{M: 8, N: 16}, Stages: 2, Sync: SyncMbarrier}, 2 * 16 * (260 + 132) * 4},
	} {
		if got := c.p.RingBytes(); got != c.want {
			t.Errorf("%s: RingBytes = %d, want %d", c.what, got, c.want)
		}
	}
}
