package tuning

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// tl is a Tiling of fixed splits.
func tl(bm, bn, bk, splits int) Tiling { return Tiling{BM: bm, BN: bn, BK: bk, SplitK: splits} }

func TestTilingOf(t *testing.T) {
	for name, want := range map[string]Tiling{
		"sgemm_nn_f32_b128x128x8_w32x64_t8x8_s4_o2_k4":     tl(128, 128, 8, 4),
		"sgemm_tt_f32_b128x128x16_w32x64_t8x8_s3_k4_lc_fq": tl(128, 128, 16, 4),
		"hgemm_nn_f16accf32_b64x64x32_w32x32_s3_k128":      tl(64, 64, 32, 128),
		"hgemmk_tt_f16accf32_b256x128x64_w64x64_s3":        tl(256, 128, 64, 1), // the family's k is no split
		"ladder_nn_f32_blocktile2d_b128x128x8_t8x8":        tl(128, 128, 8, 1),
		"sgemm_nn_f32_cn_b64x64x8_w32x32_t4x8_s4_o4":       tl(64, 64, 8, 1),
		"fast":             tl(1, 1, 1, 1),
		"x_b0x64x8_k0":     tl(1, 1, 1, 1),
		"x_b64x64_k+4":     tl(1, 1, 1, 1),
		"x_bigtile_kernel": tl(1, 1, 1, 1),
		"x_b64x64x8x2_k-3": tl(1, 1, 1, 1),
		"sgemm_nn_f32_b64x32x4_w32x32_t4x8_s4_o4_k16_extra": tl(64, 32, 4, 16),
		"sgemm_nn_f32_b128x128x16_w32x64_t8x8_s3_k2c_lc":    tl(128, 128, 16, 2), // summed in a cluster
		"x_b64x64x8_kc":   tl(64, 64, 8, 1),
		"x_b64x64x8_k2cc": tl(64, 64, 8, 1),
		"sgemm_tn_f32_b128x128x16_w32x64_t8x8_s3_k32f_lc_fz": {BM: 128, BN: 128, BK: 16, SplitK: 32, Fill: true},
		"x_b64x64x8_k2fc": tl(64, 64, 8, 1), // fill and cluster exclude each other
		"x_b64x64x8_k2ff": tl(64, 64, 8, 1),
		"x_b64x64x8_kf":   tl(64, 64, 8, 1),
		"sgemm_nt_f32_b128x128x16_w32x64_t8x8_s3_lc_fz_pk": {BM: 128, BN: 128, BK: 16, SplitK: 1, Pack: true},
		"x_b64x64x8_pkg": tl(64, 64, 8, 1),
	} {
		got := TilingOf(name)
		got.Threads, got.Regs = 0, 0 // TestTilingOfReadsTailAndOccupancy
		assert.Equal(t, want, got, name)
	}
}

func TestTilingOfReadsTailAndOccupancy(t *testing.T) {
	tc := TilingOf("sgemm_nn_f32_b128x128x16_w32x64_t8x8_s3_lc_fz_mb_tc")
	assert.Equal(t, Tiling{BM: 128, BN: 128, BK: 16, SplitK: 1, Tail: true, Threads: 256, Regs: 120}, tc)
	// 256 threads of 120 registers: two blocks a multiprocessor (the H100
	// held two of the kernel's 126).
	assert.Equal(t, 2, tc.perSMBound())
	// 128 threads of 80: six by registers (eight 128-thread blocks would
	// need 81920).
	assert.Equal(t, 6, TilingOf("sgemm_nn_f32_b64x64x8_w32x32_t4x8_s4_o4").perSMBound())
	// A name without a thread tile does not say.
	assert.Equal(t, 0, TilingOf("hgemm_nn_f16accf32_b64x64x32_w32x32_s3").perSMBound())
	assert.False(t, TilingOf("sgemm_nn_f32_b128x128x16_w32x64_t8x8_s3_lc_fz_mb").Tail)
	ts := TilingOf("sgemm_tn_f32_b128x128x16_w32x64_t8x8_s3_lc_fz_ts")
	assert.Equal(t, Tiling{BM: 128, BN: 128, BK: 16, SplitK: 1, Stream: true, Threads: 256, Regs: 120}, ts)
	assert.Equal(t, "sgemm_tn_f32_b128x128x16_w32x64_t8x8_s3_lc_fz", twinOf("sgemm_tn_f32_b128x128x16_w32x64_t8x8_s3_lc_fz_ts"))
}

// TestStreamPlan checks the launcher's choices, worked out by hand for an
// H100 (132 SMs, two blocks of the 128x128 tile each: 264 slots).
func TestStreamPlan(t *testing.T) {
	for _, c := range []struct {
		m, n, k     int
		tiles, grid int
		why         string
	}{
		{1024, 1024, 1024, 64, 264, "64 tiles of 64 k tiles: 4096 iterations over every slot"},
		{1536, 1536, 1536, 144, 264, "144 of 264 slots"},
		{2048, 2048, 2048, 0, 0, "256 tiles fill 97% of the slots (more than 7/8): whole"},
		{3072, 3072, 3072, 48, 264, "576 tiles: 48 past two waves"},
		{4096, 4096, 4096, 0, 0, "1024 tiles: 232 past three waves fill 88%: whole"},
		{128, 128, 48, 1, 3, "one tile of 3 k tiles: 3 blocks"},
		{1000, 1024, 1024, 0, 0, "M not whole tiles"},
		{1024, 1024, 1000, 0, 0, "K not whole k tiles"},
		{8192, 8192, 8192, 136, 264, "4096 tiles: 136 past 15 waves"},
	} {
		tiles, grid := StreamPlan(c.m, c.n, c.k, 128, 128, 16, 132, 2)
		assert.Equal(t, [2]int{c.tiles, c.grid}, [2]int{tiles, grid}, "%dx%dx%d: %s", c.m, c.n, c.k, c.why)
	}
	// More slots than a grid may have: 512.
	_, grid := StreamPlan(2048, 2048, 2048, 128, 128, 16, 400, 2)
	assert.Equal(t, 512, grid, "800 slots hold 256 tiles at 32%; the grid is capped")
}

func TestClustersHeld(t *testing.T) {
	var two, one []int
	for s := 2; s <= 8; s++ {
		two, one = append(two, ClustersHeld(132, 2, s)), append(one, ClustersHeld(132, 1, s))
	}
	// The occupancy API on an H100 (session 27) and an H200 (session 38,
	// bench/results/h200-2026-11-29-session38-call1-tail-nn.csv's header).
	assert.Equal(t, []int{132, 79, 62, 47, 39, 32, 30}, two)
	assert.Equal(t, []int{66, 39, 30, 22, 17, 15, 15}, one)
	// Elsewhere the estimate: 144 multiprocessors, 9 GPCs of 16.
	assert.Equal(t, 72, ClustersHeld(144, 1, 2), "a multiprocessor holds a cluster of 2 at 2 blocks, not at 1")
	assert.Equal(t, 144, ClustersHeld(144, 2, 2))
	assert.Equal(t, 9*(32/8), ClustersHeld(144, 2, 8))
	assert.Equal(t, 9*(16/3), ClustersHeld(144, 1, 3))
	assert.Equal(t, 8*8, ClustersHeld(132, 4, 8), "132 at 4 blocks: the estimate, 8 GPCs of 16 holding 8 each")
	assert.Equal(t, 4, ClustersHeld(8, 1, 2), "a GPU smaller than a GPC holds what its multiprocessors hold")
	assert.Equal(t, 0, ClustersHeld(0, 2, 2))
	assert.Equal(t, 0, ClustersHeld(132, 0, 2))
}

func TestTailPlan(t *testing.T) {
	// Costs in half k tiles: a whole tile 2 (k + 2); split s ways, rounds
	// of ClustersHeld clusters (at two blocks an SM 132, 79, 62, 47, 39,
	// 32 and 30 of 2 to 8 blocks; 5 and 7 only where the tail is the whole
	// problem and takes one round), each 2 (ceil(k / s) + 6). A block alone
	// on its SM counts half: the whole tiles where 132 or fewer; with no
	// whole tiles before the tail, its last round where it has no more
	// clusters than a GPU holds at one block an SM (66, 39, 30, 22, 17, 15,
	// 15); behind whole tiles, the last of several rounds where its blocks
	// are 132 or fewer. Each case wants Tail{tail tiles, splits, rounds,
	// last round alone}.
	none := Tail{Splits: 1}
	for _, tc := range []struct {
		tiles, kTiles, sms, perSM int
		want                      Tail
	}{
		// 8192^3 in 128x128x16 at two blocks an SM: 4096 tiles, 136 past
		// 15 waves of 264 (1028 whole). 8 splits: 4 rounds of 30 clusters
		// of 64 + 6, then 16 clusters alone (8 x 70 + 70 = 630); 6: 3 of 39
		// and 19 alone (6 x 92 + 92 = 644); 4: 670; 3: 708; 2: 786.
		{4096, 512, 132, 2, Tail{136, 8, 5, true}},
		// 6144^3: 192 tiles past 8 waves (772 whole). 2 splits: 132
		// clusters, then 60 alone (2 x 198 + 198 = 594); 3: 3 rounds, the
		// last alone (670); 6: 5, the last of 216 blocks (700); 8: 7 (702).
		// The H100 ran 2 fastest (session 27).
		{2304, 384, 132, 2, Tail{192, 2, 2, true}},
		// 4096^3: 232 tiles past 3 waves, too many for any split to beat
		// 516 (2 splits: 2 rounds of 134, the second of 200 blocks: 536).
		{1024, 256, 132, 2, none},
		// 2048^3: 256 tiles, all in the tail, none split (2: 2 rounds of
		// 70, the second of 124 clusters, more than 66: 280 > 260).
		{256, 128, 132, 2, none},
		// 4097^3: 33 x 33 tiles, 33 past 4 waves, of 257 k tiles, one on
		// each of 33 SMs (259 whole): 6 splits in one round (98); 8 take a
		// second round of three clusters (2 x 39 + 39 = 117).
		{1089, 257, 132, 2, Tail{33, 6, 1, false}},
		// 1664^3: 169 tiles of 104 in one wave of 264 (212 whole): 2
		// splits, a round of 132 clusters and 37 alone (2 x 58 + 58 =
		// 174); 4: 3 rounds, the last of 45 clusters, more than 30 (192).
		{169, 104, 132, 2, Tail{169, 2, 2, true}},
		// 1280^3: 100 tiles of 80 stay whole, one on each of 100 SMs (82):
		// 2 splits in one round of 100 clusters, more than 66, cost 92.
		{100, 80, 132, 2, none},
		// 1024^3: 64 tiles of 64: 2 splits in one round of 64 clusters,
		// alone (38); 3 would share (56). On an H200 2 ran 0.0570 ms, 3
		// 0.0739 (session 38).
		{64, 64, 132, 2, Tail{64, 2, 1, true}},
		// 128x128x128, one tile of 8: 8 splits alone (7) before the tile
		// whole (10), 1.85x faster on an H200; 765^3, 36 tiles of 48: 3
		// splits alone (22) before 6 sharing (28), the fastest instance
		// there. kernels/tests/tail_plan_host_test.cu holds these cases
		// for the launcher's tail_plan.
		{1, 8, 132, 2, Tail{1, 8, 1, true}},
		{36, 48, 132, 2, Tail{36, 3, 1, true}},
		// 1 to 67 tiles of 512 k tiles (session 38's harness, every split
		// forced on an H200; the fastest within 5% of the plan's): 15
		// clusters of 8 alone (70); 16 share (140), and 6 splits alone
		// take 92; 20: 5 splits alone (109) before 4 (134) and 8 (140); 31:
		// 7 splits sharing (160) before 3 alone (177) and 8 in two rounds
		// (210); 67: 5 would take two rounds, and 8 take 3, the last alone
		// (350), before 3 sharing (354).
		{15, 512, 132, 2, Tail{15, 8, 1, true}},
		{16, 512, 132, 2, Tail{16, 6, 1, true}},
		{20, 512, 132, 2, Tail{20, 5, 1, true}},
		{31, 512, 132, 2, Tail{31, 7, 1, false}},
		{67, 512, 132, 2, Tail{67, 8, 3, true}},
		// At one block an SM, 64 of them past one wave of 132, each alone
		// as every block is (226): 2 splits in one round of 64 clusters
		// (124).
		{196, 111, 132, 1, Tail{64, 2, 1, false}},
		{264, 512, 132, 2, none}, // whole waves
		{136, 512, 132, 0, none}, // blocks a multiprocessor unknown
		{136, 0, 132, 2, none},   // no k tiles
	} {
		assert.Equal(t, tc.want, TailPlan(tc.tiles, tc.kTiles, tc.sms, tc.perSM), "%+v", tc)
	}
}

func TestSplitsFollowTheLauncher(t *testing.T) {
	split := Tiling{BM: 64, BN: 64, BK: 32, SplitK: 8}
	for _, tc := range []struct {
		t       Tiling
		m, n, k int
		want    int
	}{
		{tl(64, 64, 32, 1), 256, 256, 65536, 1},
		{split, 256, 256, 4096, 8},
		{split, 256, 256, 32, 1},     // one k tile
		{split, 256, 256, 100, 4},    // four k tiles, the last partial
		{split, 2048, 4096, 4096, 2}, // 2^23 elements: two partial C's fit the workspace
		{split, 4096, 4097, 4096, 1}, // more than 2^24: none does
		{split, 0, 0, 4096, 8},       // an empty C needs no workspace
		{tl(1, 1, 1, 0), 8, 8, 8, 1}, // no split_k read from the name
	} {
		assert.Equal(t, tc.want, tc.t.Splits(tc.m, tc.n, tc.k), "%v %dx%dx%d", tc.t, tc.m, tc.n, tc.k)
	}
}

func TestUnsplit(t *testing.T) {
	assert.Equal(t, "sgemm_nn_f32_b128x128x16_w32x64_t8x8_s3_lc_fq", unsplit("sgemm_nn_f32_b128x128x16_w32x64_t8x8_s3_k4_lc_fq"))
	assert.Equal(t, "hgemmk_nn_f16accf32_b128x64x64_w64x32_s6", unsplit("hgemmk_nn_f16accf32_b128x64x64_w64x32_s6"))
	assert.Equal(t, unsplit("hgemm_nn_f16accf32_b64x64x32_w32x32_s3"), unsplit("hgemm_nn_f16accf32_b64x64x32_w32x32_s3_k32"))
	assert.Equal(t, "sgemm_nn_f32_b128x128x16_w32x64_t8x8_s3_kc_lc", unsplit("sgemm_nn_f32_b128x128x16_w32x64_t8x8_s3_k2c_lc"))
	assert.Equal(t, unsplit("sgemm_nn_f32_b128x128x16_w32x64_t8x8_s3_k4c_lc"), unsplit("sgemm_nn_f32_b128x128x16_w32x64_t8x8_s3_k2c_lc"),
		"cluster instances of other split counts run one kernel")
	assert.NotEqual(t, unsplit("sgemm_nn_f32_b128x128x16_w32x64_t8x8_s3_k2_lc"), unsplit("sgemm_nn_f32_b128x128x16_w32x64_t8x8_s3_k2c_lc"),
		"a cluster's reduction is not the workspace's")
	assert.Equal(t, unsplit("sgemm_nn_f32_b128x128x16_w32x64_t8x8_s3_k4_lc_fz"), unsplit("sgemm_nn_f32_b128x128x16_w32x64_t8x8_s3_k32f_lc_fz"),
		"splits that fill the GPU run the kernel and reduction of fixed ones")
}

func TestFillSplits(t *testing.T) {
	// Costs below in k tiles: the busiest multiprocessor's blocks (6/5 for
	// a block its last round leaves alone) times their k tiles and 4 more,
	// and split, 6/5 a C tile read or written by the reduction over the
	// blocks held at once.
	for _, tc := range []struct {
		tiles, kTiles, sms, perSM, max, want int
	}{
		// 9 tiles of 725 k tiles (362 x 362 x 11585 in 128x128x16): 14
		// splits are 126 blocks, one on each busy multiprocessor, of 52 k
		// tiles (56 x 6/5 = 67.2, and 0.6 to reduce); 29 are 261 blocks,
		// two on the busiest, of 25 (2 x 29 = 58, and 1.2); 16 would be
		// two of 46 (100).
		{9, 725, 132, 2, 32, 29},
		// One block a multiprocessor at a time: two of 25 (58, and 2.5 to
		// reduce over 132 blocks) take longer than one of 52 (56 and 1.2).
		{9, 725, 132, 1, 32, 14},
		// 25 tiles of 40 (627^3): 5 splits, one block of 8 (14.4 + 0.7),
		// beat 10, two blocks of 4 (16 + 1.3).
		{25, 40, 132, 2, 32, 5},
		// 64 tiles of 64 (1024^3): 4 splits, two blocks of 16 (40 + 1.5),
		// beat 2, one of 32 (43.2 + 0.9), and 8, four of 8 (48 + 2.6).
		{64, 64, 132, 2, 32, 4},
		// 144 tiles of 96 (1536^3): 3 splits, four blocks of 32 (144 +
		// 2.6), beat 5 (144 + 3.9), 6 (seven blocks of 16: 144 + 4.6) and
		// 4 (five of 24: 145.6 + 3.3); 1 is two of 96 (200). On an H100 4
		// ran 2% faster than 3 (session 22).
		{144, 96, 132, 2, 32, 3},
		// 198 tiles of 17 (1370 x 2268 x 265): unsplit, two blocks (42),
		// beats 2, three blocks of 9 (41.6 + 2.7 to reduce), which ran
		// 1.27-1.42x slower on an H100 (session 24).
		{198, 17, 132, 2, 16, 1},
		// The same at one block a multiprocessor: 2 splits are three
		// blocks of 9 (39 + 5.4 to reduce over 132 blocks).
		{198, 17, 132, 1, 16, 1},
		// 256 tiles of 128 (2048^3): unsplit, two blocks of 128 (264), beats
		// 2, four of 64 (272 + 3.5).
		{256, 128, 132, 2, 4, 1},
		{4, 256, 132, 2, 32, 32}, // 128 blocks of 8: the most splits
		{4, 2, 132, 2, 2, 2},     // the most is 2
		{36, 512, 132, 2, 1, 1},  // no split
		{36, 512, 0, 2, 8, 8},    // multiprocessors unknown: the most
		{36, 512, 132, 0, 8, 8},  // blocks per multiprocessor unknown: the most
		{0, 512, 132, 2, 8, 1},   // no tiles
	} {
		assert.Equal(t, tc.want, FillSplits(tc.tiles, tc.kTiles, tc.sms, tc.perSM, tc.max), "%+v", tc)
	}
}

func TestTermsCountWavesAndSplits(t *testing.T) {
	big := Tiling{BM: 128, BN: 128, BK: 16, SplitK: 1}
	tile := 128.0 * 128 * 1024
	// 8 x 8 = 64 blocks fill half of 132 multiprocessors: one block each,
	// one wave of 2 resident blocks.
	x := big.terms(132, 2, 1024, 1024, 1024)
	assert.Equal(t, [nTerms]float64{tile, 2 * tile, 1, 0}, x)
	// 12 x 12 = 144 blocks: two on some multiprocessors, still one wave of
	// 264 resident ones.
	x = big.terms(132, 2, 1536, 1536, 1024)
	assert.Equal(t, [nTerms]float64{2 * tile, 2 * tile, 1, 0}, x)
	// One row more of C takes a row of blocks more, and a k tile more
	// rounds K up to 1040.
	x = big.terms(132, 1, 1537, 1536, 1025)
	assert.Equal(t, [nTerms]float64{2 * 128 * 128 * 1040, 2 * 128 * 128 * 1040, 1, 0}, x)

	// 4 x 4 tiles in 8 splits of 512 of K each: 128 blocks, and 8 partial
	// C's to write and reduce.
	split := Tiling{BM: 64, BN: 64, BK: 32, SplitK: 8}
	x = split.terms(132, 4, 256, 256, 4096)
	assert.Equal(t, [nTerms]float64{64 * 64 * 512, 4 * 64 * 64 * 512, 1, 8 * 256 * 256}, x)

	// Filling the GPU: 362 x 362 is 3 x 3 tiles of 128x128 and 11585 is
	// 725 k tiles; at two resident blocks a multiprocessor FillSplits takes
	// 29 splits of 25 k tiles (the last 25 too): 261 blocks, two on the
	// busiest multiprocessors, one wave.
	fill := Tiling{BM: 128, BN: 128, BK: 16, SplitK: 32, Fill: true}
	x = fill.terms(132, 2, 362, 362, 11585)
	assert.Equal(t, [nTerms]float64{2 * 128 * 128 * 25 * 16, 2 * 128 * 128 * 25 * 16, 1, 29 * 362 * 362}, x)
	// At one, 14 splits of 52: 126 blocks, one on each busy multiprocessor.
	x = fill.terms(132, 1, 362, 362, 11585)
	assert.Equal(t, [nTerms]float64{128 * 128 * 52 * 16, 128 * 128 * 52 * 16, 1, 14 * 362 * 362}, x)

	// A tail split (8192^3 at two blocks an SM, TailPlan's 8 splits of
	// the last 136 tiles): 30 blocks on the busiest SM of the 3960 whole
	// tiles, in 15 waves, then 1088 blocks of 64 k tiles (1024 of K), 9 on
	// the busiest, in 5 rounds of 32 clusters. Its registers cap the plan's
	// blocks an SM at 2 whatever o fits the times.
	tail := TilingOf("sgemm_tn_f32_b128x128x16_w32x64_t8x8_s3_lc_fz_tc")
	whole, part := 128.0*128*8192, 128.0*128*1024
	want := [nTerms]float64{30*whole + 9*part, 30*whole + 5*2*part, 1, 0}
	assert.Equal(t, want, tail.terms(132, 2, 8192, 8192, 8192))
	want[termResident] = 32*whole + 5*4*part
	assert.Equal(t, want, tail.terms(132, 4, 8192, 8192, 8192), "o = 4 counts waves of 528, the plan's rounds at 2")

	// Stream-K at 1536^3 (144 tiles of 96 k tiles, 264 blocks of
	// ceil(13824 / 264) = 53 k tiles): one block an SM's 53 k tiles alone,
	// two sharing each SM; the 264 partial tiles written.
	stream := TilingOf("sgemm_tn_f32_b128x128x16_w32x64_t8x8_s3_lc_fz_ts")
	share := 128.0 * 128 * 53 * 16
	assert.Equal(t, [nTerms]float64{2 * share, 2 * share, 1, 264 * 128 * 128}, stream.terms(132, 2, 1536, 1536, 1536))
	// At 2048^3 it runs whole.
	assert.Equal(t, tl(128, 128, 16, 1).terms(132, 2, 2048, 2048, 2048), stream.terms(132, 2, 2048, 2048, 2048))

	// No multiprocessors given counts one; empty dimensions count 1.
	assert.Equal(t, [nTerms]float64{1, 1, 1, 0}, tl(1, 1, 1, 1).terms(0, 1, 0, -1, 0))
}

func TestSolveFindsNonNegativeWeights(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	row := func() [nTerms]float64 {
		return [nTerms]float64{1e9 * (1 + rng.Float64()), 1e10 * rng.Float64(), 1, 1e6 * rng.Float64()}
	}
	// Times that follow non-negative weights exactly: found exactly.
	want := [nTerms]float64{2e-11, 0, 3e-3, 1e-9}
	var ne normalEquations
	for range 40 {
		x := row()
		ne.add(x, dot(want, x))
	}
	coef, sqErr, ok := ne.solve()
	require.True(t, ok)
	assert.InDelta(t, 0, sqErr, 1e-12)
	for j := range want {
		if want[j] == 0 {
			assert.Zero(t, coef[j], "term %d", j)
		} else {
			assert.InEpsilon(t, want[j], coef[j], 1e-6, "term %d", j)
		}
	}

	// Times that would need a negative fixed time: none is given.
	ne = normalEquations{}
	for range 40 {
		x := row()
		ne.add(x, 1e-11*x[termSerial]-1e-3)
	}
	coef, _, ok = ne.solve()
	require.True(t, ok)
	for j, c := range coef {
		assert.GreaterOrEqual(t, c, 0.0, "term %d", j)
	}
	assert.Zero(t, coef[termFixed])

	// Times of split problems only, in proportion to their reductions: the
	// model still has a time for a problem that does not split.
	ne = normalEquations{}
	for r := range 40 {
		ne.add([nTerms]float64{1, 1, 1, float64(r + 1)}, 1e-3*float64(r+1))
	}
	coef, _, ok = ne.solve()
	require.True(t, ok)
	assert.Positive(t, coef[termSerial]+coef[termResident]+coef[termFixed])

	_, _, ok = (&normalEquations{}).solve()
	assert.False(t, ok, "no rows")
}

func dot(a, b [nTerms]float64) float64 {
	var s float64
	for j := range a {
		s += a[j] * b[j]
	}
	return s
}

// modelGrid is a grid of the named instances whose times follow their
// models exactly: each instance's timeModel with coefficients coef[i] and
// o resident blocks, on 132 multiprocessors, at shapes {lo, ..., hi}^3 in
// steps of 2x.
func modelGrid(names []string, o []int, coef [][nTerms]float64, lo, hi int) Grid {
	g := Grid{Family: "sgemm", Layout: "nn", Instances: names, SMs: 132}
	for m := lo; m <= hi; m *= 2 {
		for n := lo; n <= hi; n *= 2 {
			for k := lo; k <= hi; k *= 2 {
				p := Point{M: m, N: n, K: k}
				for i, name := range names {
					p.Ms = append(p.Ms, timeModel{TilingOf(name), o[i], coef[i]}.ms(132, m, n, k))
				}
				g.Points = append(g.Points, p)
			}
		}
	}
	return g
}

// TestFitModelsRecoverTheModel: fitted to times that follow a model, the
// fit finds it back, blocks per multiprocessor included, for instances
// that differ only in split_k from their shared times.
func TestFitModelsRecoverTheModel(t *testing.T) {
	names := []string{"f_nn_b128x128x16_s3", "f_nn_b64x64x8_s4", "f_nn_b64x64x8_s4_k16"}
	o := []int{1, 3, 3}
	coef := [][nTerms]float64{
		{1e-9, 0, 4e-3, 0},
		{0, 2e-9, 3e-3, 5e-9},
		{0, 2e-9, 3e-3, 5e-9},
	}
	g := modelGrid(names, o, coef, 64, 8192)
	models := fitModels(&g, g.Points)
	for i, tm := range models {
		assert.Equal(t, TilingOf(names[i]), tm.tiling, names[i])
		assert.Equal(t, o[i], tm.o, "%s: blocks per multiprocessor", names[i])
		for j := range coef[i] {
			if coef[i][j] == 0 {
				assert.Zero(t, tm.coef[j], "%s: term %d", names[i], j)
			} else {
				assert.InEpsilon(t, coef[i][j], tm.coef[j], 1e-6, "%s: term %d", names[i], j)
			}
		}
	}

	// Nothing measured: the serial work.
	for _, tm := range fitModels(&g, nil) {
		assert.Equal(t, [nTerms]float64{termSerial: 1}, tm.coef)
		assert.Equal(t, 1, tm.o)
	}
}

// TestPredictFollowsTheModelBetweenPoints: where times follow the model,
// Predict gives the model's time and fastest instance at any shape, also
// where the waves, the tiles' edges and the splits make the fastest change
// between two points.
func TestPredictFollowsTheModelBetweenPoints(t *testing.T) {
	names := []string{"f_nn_b128x256x16_s3", "f_nn_b128x128x16_s3", "f_nn_b64x64x8_s4_o4", "f_nn_b64x64x8_s4_o4_k32"}
	o := []int{1, 2, 4, 4}
	coef := [][nTerms]float64{
		{0.8e-9, 0, 6e-3, 0},
		{0.5e-9, 0.25e-9, 5e-3, 0},
		{0, 0.7e-9, 4e-3, 4e-9},
		{0, 0.7e-9, 4e-3, 4e-9},
	}
	g := modelGrid(names, o, coef, 128, 8192)
	p := NewPredictor(&g, 1)
	rng := rand.New(rand.NewPCG(7, 8))
	for range 300 {
		m, n, k := 100+rng.IntN(9000), 100+rng.IntN(9000), 100+rng.IntN(9000)
		times := map[string]float64{}
		fastest := math.Inf(1)
		for i, name := range names {
			times[name] = timeModel{TilingOf(name), o[i], coef[i]}.ms(132, m, n, k)
			fastest = min(fastest, times[name])
		}
		name, ms, ok := p.Predict(m, n, k)
		require.True(t, ok)
		// The fastest, or one as fast: a split instance whose C is too
		// large to split runs as its unsplit twin.
		assert.InEpsilon(t, fastest, times[name], 1e-9, "%dx%dx%d: %s", m, n, k, name)
		assert.InEpsilon(t, fastest, ms, 1e-6, "%dx%dx%d", m, n, k)
	}
}

func TestPredictorIsPredict(t *testing.T) {
	g := corners()
	p := NewPredictor(&g, 1)
	rng := rand.New(rand.NewPCG(9, 10))
	for range 100 {
		m, n, k := rng.IntN(6000), rng.IntN(6000), rng.IntN(6000)
		name, ms, ok := p.Predict(m, n, k)
		wantName, wantMs, wantOk := Predict(&g, m, n, k, 1)
		assert.Equal(t, wantOk, ok)
		assert.Equal(t, wantName, name, "%dx%dx%d", m, n, k)
		assert.Equal(t, wantMs, ms, "%dx%dx%d", m, n, k)
	}
	_, _, ok := NewPredictor(nil, 4).Predict(5, 5, 5)
	assert.False(t, ok)
}

// Where a tail-splitting instance's plan does not split the shape's tail,
// it runs its twin's launch, and Predict gives it the twin's time, not one
// interpolated from neighbours where the plan made it faster than its
// model (or slower) by other rules.
func TestPredictGivesAnUnplannedTailItsTwinsTime(t *testing.T) {
	twin, tail := "f_nn_b128x128x16_w32x64_t8x8_s3", "f_nn_b128x128x16_w32x64_t8x8_s3_tc"
	twinModel := timeModel{TilingOf(twin), 2, [nTerms]float64{0.5e-9, 0.25e-9, 5e-3, 0}}
	tailModel := timeModel{TilingOf(tail), 2, twinModel.coef}
	g := Grid{Family: "sgemm", Layout: "nn", Instances: []string{twin, tail}, SMs: 132}
	for _, m := range []int{1024, 1536, 2048, 3072, 4096, 6144, 8192} {
		for _, k := range []int{1024, 4096} {
			ms := twinModel.ms(132, m, m, k)
			if tailModel.tiling.plans(132, 2, m, m, k) {
				// The split tail, 0.7x its model's time.
				g.Points = append(g.Points, Point{M: m, N: m, K: k, Ms: []float64{ms, 0.7 * tailModel.ms(132, m, m, k)}})
			} else {
				g.Points = append(g.Points, Point{M: m, N: m, K: k, Ms: []float64{ms, ms}})
			}
		}
	}
	p := NewPredictor(&g, 1)
	alone := Grid{Family: g.Family, Layout: g.Layout, Instances: []string{twin}, SMs: g.SMs}
	for _, q := range g.Points {
		alone.Points = append(alone.Points, Point{M: q.M, N: q.N, K: q.K, Ms: q.Ms[:1:1]})
	}
	twinAlone := NewPredictor(&alone, 1)
	rng := rand.New(rand.NewPCG(11, 12))
	unplanned := 0
	for range 300 {
		m, n, k := 1024+rng.IntN(7168), 1024+rng.IntN(7168), 1024+rng.IntN(3072)
		if tailModel.tiling.plans(132, 2, m, n, k) {
			continue
		}
		unplanned++
		name, ms, ok := p.Predict(m, n, k)
		require.True(t, ok)
		_, want, _ := twinAlone.Predict(m, n, k)
		assert.Equal(t, twin, name, "%dx%dx%d: equal times go to the earlier instance", m, n, k)
		assert.Equal(t, want, ms, "%dx%dx%d", m, n, k)
	}
	assert.Greater(t, unplanned, 20, "shapes without a tail plan")

	// Not measured at a neighbour, the tail stays out even where it would
	// take its twin's time: listed first, it wins the ties elsewhere.
	swapped := Grid{Family: g.Family, Layout: g.Layout, Instances: []string{tail, twin}, SMs: g.SMs}
	for _, q := range g.Points {
		swapped.Points = append(swapped.Points, Point{M: q.M, N: q.N, K: q.K, Ms: []float64{q.Ms[1], q.Ms[0]}})
	}
	hole := &swapped.Points[5]
	hole.Ms[0] = 0
	p = NewPredictor(&swapped, 1)
	near, far := 0, 0
	for range 300 {
		m, n, k := 1024+rng.IntN(7168), 1024+rng.IntN(7168), 1024+rng.IntN(3072)
		if tailModel.tiling.plans(132, 2, m, n, k) {
			continue
		}
		want := tail
		for _, q := range nearest(p.pool, m, n, k) {
			if q.p.M == hole.M && q.p.N == hole.N && q.p.K == hole.K {
				want = twin
			}
		}
		if want == twin {
			near++
		} else {
			far++
		}
		name, _, _ := p.Predict(m, n, k)
		assert.Equal(t, want, name, "%dx%dx%d", m, n, k)
	}
	assert.Positive(t, near, "shapes near the point the tail was not measured at")
	assert.Positive(t, far)
}

func TestPlans(t *testing.T) {
	tail := TilingOf("sgemm_tn_f32_b128x128x16_w32x64_t8x8_s3_lc_fz_tc")
	assert.True(t, tail.plans(132, 2, 8192, 8192, 8192), "TailPlan's 8 splits of the last 136 tiles")
	assert.False(t, tail.plans(132, 2, 3072, 1408, 4096), "264 tiles: no tail at two blocks an SM")
	stream := TilingOf("sgemm_tn_f32_b128x128x16_w32x64_t8x8_s3_lc_fz_ts")
	assert.True(t, stream.plans(132, 2, 1536, 1536, 1536), "144 tiles by stream-K")
	assert.False(t, stream.plans(132, 2, 2048, 2048, 2048), "256 tiles fill more than 7/8 of 264 slots")
	assert.False(t, stream.plans(132, 2, 1537, 1536, 1536), "not whole tiles")
	assert.False(t, tl(128, 128, 16, 1).plans(132, 2, 8192, 8192, 8192), "neither tail nor stream")
	assert.False(t, TilingOf("f_nn_b128x128x16_s3_k4_tc").plans(132, 2, 1024, 1024, 8192), "split-K runs no tail plan")
}
