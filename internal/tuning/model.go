package tuning

import (
	"math"
	"slices"
	"strconv"
	"strings"
)

// Tiling is what Predict's timing model knows of an instance: its block
// tile, how many blocks at most share one C tile's k range, and whether a
// launch takes as many of those as fill the GPU.
type Tiling struct {
	BM, BN, BK int
	SplitK     int  // 1: the k range is not split
	Fill       bool // 1 to SplitK splits, as many as fill the GPU (FillSplits)
	// Tail: the last, partly filled wave's tiles split in clusters where
	// that finishes sooner (TailPlan).
	Tail bool
	// Stream: a one-wave problem's tiles, or the last wave's, by stream-K
	// where they fill at most 7/8 of the GPU (StreamPlan).
	Stream bool
	// Pack: the instance first copies its k-contiguous operands into
	// m/n-contiguous ones ("pk", the spec's pack: true), whose rows are
	// aligned whatever the caller's are.
	Pack bool
	// Threads and Regs are a block's threads and the spec's estimate of a
	// thread's registers (gen/spec's Tiling.Regs, with cp.async), from the
	// warp ("w<M>x<N>") and thread ("t<M>x<N>") tiles; 0 where the name
	// has none.
	Threads, Regs int
}

// regsPerSM and threadsPerSM bound the blocks a multiprocessor holds (sm_80
// to sm_90: 64K registers, 2048 threads; sm_86 and sm_89 hold 1536).
const regsPerSM, threadsPerSM = 65536, 2048

// perSMBound is the most blocks of t a multiprocessor can hold by its
// threads and estimated registers (allocated 8 at a time), or 0 where t's
// name did not say them.
func (t Tiling) perSMBound() int {
	if t.Threads <= 0 || t.Regs <= 0 {
		return 0
	}
	return max(1, min(threadsPerSM/t.Threads, regsPerSM/(t.Threads*ceilDiv(t.Regs, 8)*8)))
}

// TilingOf reads an instance's tiling from its procedural name (gen/ir's
// GemmParams.NameTail): the "b<M>x<N>x<K>" and "k<splits>" (or, summed in a
// thread-block cluster, "k<splits>c"; as many as fill the GPU,
// "k<splits>f") parts, e.g. sgemm_nn_f32_b128x128x8_w32x64_t8x8_s4_o2_k4 is
// 128x128x8 in up to 4 splits; "tc" marks a tail split in clusters, "ts"
// one by stream-K. A name
// without a block tile counts as 1x1x1 blocks, for which the model's work
// is the flops.
func TilingOf(name string) Tiling {
	t := Tiling{BM: 1, BN: 1, BK: 1, SplitK: 1}
	var warp, thread []int
	for _, part := range strings.Split(name, "_") {
		if part == "tc" {
			t.Tail = true
		} else if part == "ts" {
			t.Stream = true
		} else if part == "pk" {
			t.Pack = true
		} else if dims, ok := strings.CutPrefix(part, "w"); ok {
			if w, ok := positives(strings.Split(dims, "x")); ok && len(w) == 2 {
				warp = w
			}
		} else if dims, ok := strings.CutPrefix(part, "t"); ok {
			if th, ok := positives(strings.Split(dims, "x")); ok && len(th) == 2 {
				thread = th
			}
		} else if dims, ok := strings.CutPrefix(part, "b"); ok {
			if b, ok := positives(strings.Split(dims, "x")); ok && len(b) == 3 {
				t.BM, t.BN, t.BK = b[0], b[1], b[2]
			}
		} else if sp, ok := splitOf(part); ok {
			t.SplitK, t.Fill = sp.splits, sp.fill
		}
	}
	if warp != nil && thread != nil && t.BM%warp[0] == 0 && t.BN%warp[1] == 0 {
		t.Threads = 32 * (t.BM / warp[0]) * (t.BN / warp[1])
		t.Regs = thread[0]*thread[1] + 2*(thread[0]+thread[1]) + 24
	}
	return t
}

// split is a name's split part: "k<splits>", "k<splits>c" for splits
// summed in a thread-block cluster, "k<splits>f" for as many as fill the
// GPU.
type split struct {
	splits        int
	cluster, fill bool
}

func splitOf(part string) (split, bool) {
	s, ok := strings.CutPrefix(part, "k")
	if !ok {
		return split{}, false
	}
	var sp split
	if s, sp.cluster = strings.CutSuffix(s, "c"); !sp.cluster {
		s, sp.fill = strings.CutSuffix(s, "f")
	}
	k, ok := positives([]string{s})
	if !ok {
		return split{}, false
	}
	sp.splits = k[0]
	return sp, true
}

// positives parses decimal integers above 0.
func positives(ss []string) ([]int, bool) {
	out := make([]int, len(ss))
	for i, s := range ss {
		v, err := strconv.Atoi(s)
		if err != nil || v <= 0 || s[0] == '+' {
			return nil, false
		}
		out[i] = v
	}
	return out, true
}

// maxPartials bounds a split-K workspace, in floats: the launcher's
// kMaxPartials (kernels/include/kgen/common.cuh).
const maxPartials = 1 << 24

// Splits is how many blocks share each C tile's k range on an m x n x k
// problem: SplitK, but no more than there are k tiles nor than maxPartials
// partial C's hold (the launcher's splits_for, which go/internal/kernels'
// GEMMSplits mirrors too).
func (t Tiling) Splits(m, n, k int) int {
	if t.SplitK <= 1 {
		return 1
	}
	s := min(t.SplitK, ceilDiv(k, t.BK))
	if mn := m * n; mn > 0 {
		s = min(s, maxPartials/mn)
	}
	return max(1, s)
}

// fillBlockCost is what a block costs FillSplits beyond its k tiles, in k
// tiles (the launcher's kFillBlockCost).
const fillBlockCost = 4

// fillReduceCost is what the reduction of split partial C's costs
// FillSplits for each C tile it reads or writes, spread over the blocks
// the GPU holds at once, in fifths of a k tile (kFillReduceCost).
const fillReduceCost = 6

// FillSplits is how many of at most maxSplits blocks share each C tile's
// k range, of tiles C tiles of kTiles k tiles each, on sms multiprocessors
// holding perSM blocks each at once: the fewest splits whose launch
// finishes first. Its busiest multiprocessor runs ceil(tiles x splits /
// sms) blocks of ceil(kTiles / splits) k tiles and fillBlockCost more
// each, a block counting 5/5 of that and, where perSM > 1 and its last
// round leaves a block alone, 1/5 more. Split, the reduction then reads
// splits partial tiles and writes one for each C tile, at fillReduceCost
// fifths of a k tile a C tile over the sms x perSM blocks. maxSplits where
// sms or perSM is unknown (0). It is the launcher's fill_splits
// (kernels/include/kgen/common.cuh), which says how it was measured.
func FillSplits(tiles, kTiles, sms, perSM, maxSplits int) int {
	if maxSplits <= 1 || tiles <= 0 {
		return 1
	}
	if sms <= 0 || perSM <= 0 {
		return maxSplits
	}
	best, bestCost := 1, -1
	for s := 1; s <= maxSplits; s++ {
		busiest := ceilDiv(tiles*s, sms)
		fifths := 5 * busiest
		if perSM > 1 && busiest%perSM != 0 {
			fifths++
		}
		// In fifths of a k tile, times the sms x perSM blocks held at once.
		cost := fifths * (ceilDiv(kTiles, s) + fillBlockCost) * sms * perSM
		if s > 1 {
			cost += fillReduceCost * (s + 1) * tiles
		}
		if bestCost < 0 || cost < bestCost {
			best, bestCost = s, cost
		}
	}
	return best
}

// tileBlockCost is what a block of a whole tile costs TailPlan beyond its k
// tiles, in k tiles (the launcher's kTileBlockCost); tailBlockCost the same
// for a block of a split tile, with its sum in the cluster
// (kTailBlockCost).
const tileBlockCost, tailBlockCost = 2, 6

// maxClusterSplits is the largest cluster TailPlan tries (the launcher's
// kMaxClusterSplits); it tries every size from 2 (oddSplitPays).
const maxClusterSplits = 8

// oddSplitPays reports whether TailPlan tries clusters of s blocks on a tail
// of rounds rounds of clusters: s odd and over 3 only where the tail is the
// whole problem (only) and runs in one round (the launcher's
// odd_split_pays, which says how that was measured).
func oddSplitPays(s int, only bool, rounds int) bool {
	return s < 5 || s%2 == 0 || (only && rounds == 1)
}

// gpcSMs is the multiprocessors of a GPU processing cluster that
// ClustersHeld counts: a thread-block cluster runs within one, and an
// H100's 132 hold 8 of at least 16.
const gpcSMs = 16

// heldOn132 is what the occupancy API reports (kgen::clusters_held and
// kgen::clusters_alone) on a GPU of 132 multiprocessors: the clusters of 2
// to 8 blocks it holds at once at one and at two blocks a multiprocessor,
// the same on an H100 (session 27) and an H200 (session 38). The estimate
// below is up to 2 over them, and one cluster too many makes a round of 16
// clusters of 8 take twice as long (TailPlan).
var heldOn132 = [3][maxClusterSplits + 1]int{
	1: {2: 66, 3: 39, 4: 30, 5: 22, 6: 17, 7: 15, 8: 15},
	2: {2: 132, 3: 79, 4: 62, 5: 47, 6: 39, 7: 32, 8: 30},
}

// ClustersHeld is how many clusters of size blocks the GPU holds at once,
// of a kernel of which perSM blocks fit a multiprocessor: heldOn132 on a GPU
// of 132 at one or two blocks a multiprocessor; else an estimate: where a
// multiprocessor holds a whole cluster, sms x (perSM / size); else sms /
// gpcSMs clusters of gpcSMs multiprocessors, each holding gpcSMs x perSM /
// size of them (on 132 multiprocessors at 2 blocks 132, 80, 64, 48, 40, 32,
// 32 for sizes 2 to 8; at 1, 64, 40, 32, 24, 16, 16, 16).
func ClustersHeld(sms, perSM, size int) int {
	if sms <= 0 || perSM <= 0 || size <= 0 {
		return 0
	}
	if sms == 132 && perSM <= 2 && size >= 2 && size <= maxClusterSplits {
		return heldOn132[perSM][size]
	}
	if size <= perSM {
		return sms * (perSM / size)
	}
	return max(sms/gpcSMs, 1) * (min(sms, gpcSMs) * perSM / size)
}

// StreamMaxBlocks bounds a stream-K grid whatever the device, and so its
// workspace (kgen::kStreamMaxBlocks).
const StreamMaxBlocks = 512

// StreamIterations is the (tile, k tile) iterations of an m x n x k problem
// in tiles of bm x bn x bk that stream-K may take: problems of whole tiles
// and k tiles, fewer than 2^31 (kgen::stream_aligned); 0 for any other.
func StreamIterations(m, n, k, bm, bn, bk int) int {
	if m <= 0 || n <= 0 || k <= 0 || bm <= 0 || bn <= 0 || bk <= 0 || m%bm != 0 || n%bn != 0 || k%bk != 0 {
		return 0
	}
	if it := (m / bm) * (n / bn) * (k / bk); it < 1<<31 {
		return it
	}
	return 0
}

// StreamPlan is how a stream-K launch runs an m x n x k problem of tiles
// of bm x bn x bk on sms multiprocessors holding perSM blocks each: the
// last tiles (every one where they fit the slots, min(sms x perSM,
// streamMaxBlocks); else tiles % slots) over grid blocks, each an equal
// share of their k tiles, where the problem is whole tiles and k tiles
// (StreamIterations) and they fill at most 7/8 of the slots; else 0, 0. It
// is the launcher's launch_stream (kernels/include/kgen/sgemm.cuh).
func StreamPlan(m, n, k, bm, bn, bk, sms, perSM int) (tiles, grid int) {
	if StreamIterations(m, n, k, bm, bn, bk) == 0 || sms <= 0 || perSM <= 0 {
		return 0, 0
	}
	all, kTiles := (m/bm)*(n/bn), k/bk
	slots := min(sms*perSM, StreamMaxBlocks)
	tiles = all
	if all > slots {
		tiles = all % slots
	}
	if tiles == 0 || tiles*8 > slots*7 {
		return 0, 0
	}
	return tiles, min(slots, tiles*kTiles)
}

// tailRounds is how TailPlan runs a tail of tail tiles (all of tiles where
// only) split s ways: rounds of ClustersHeld clusters, the last with each
// block alone on its multiprocessor where apart; ok false where TailPlan
// does not try s.
func tailRounds(tail, s, sms, perSM int, only bool) (rounds int, apart, ok bool) {
	held := ClustersHeld(sms, perSM, s)
	if held <= 0 {
		return 0, false, false
	}
	rounds = ceilDiv(tail, held)
	if !oddSplitPays(s, only, rounds) {
		return 0, false, false
	}
	last := tail - (rounds-1)*held
	if only {
		apart = last <= ClustersHeld(sms, 1, s)
	} else {
		apart = rounds > 1 && last*s <= sms
	}
	return rounds, apart && perSM > 1, true
}

// Tail is a tail-splitting launch's plan (TailPlan): its last Tiles C
// tiles split Splits ways in clusters, in Rounds rounds of them, the last
// with each block alone on its multiprocessor where Apart. A plan that
// splits nothing has Splits 1 and the rest zero.
type Tail struct {
	Tiles, Splits, Rounds int
	Apart                 bool
}

// TailPlan is how a tail-splitting launch runs the last tiles % (sms x
// perSM) of tiles C tiles of kTiles k tiles each (every one where fewer):
// split s ways (2 to 8, oddSplitPays) in clusters of s blocks, in
// tailRounds, each round ceil(kTiles / s) + tailBlockCost k tiles, where
// that finishes before the whole tiles' kTiles + tileBlockCost; else it
// splits nothing. Where a multiprocessor holds two or more blocks, a block
// alone on one counts half: the whole tiles where sms or fewer, the last
// round where tailRounds says apart. It is the launcher's tail_plan
// (kernels/include/kgen/common.cuh, which says how it was measured) with
// ClustersHeld for the occupancy API.
func TailPlan(tiles, kTiles, sms, perSM int) Tail {
	none := Tail{Splits: 1}
	if tiles <= 0 || sms <= 0 || perSM <= 0 || kTiles <= 0 {
		return none
	}
	last := tiles % (sms * perSM)
	if last == 0 {
		return none
	}
	// Costs in half k tiles: 2 a k tile of a block sharing its
	// multiprocessor, 1 of one alone where it could share.
	cost := func(apart bool) int {
		if apart {
			return 1
		}
		return 2
	}
	best, plan := cost(perSM > 1 && last <= sms)*(kTiles+tileBlockCost), none
	for s := 2; s <= maxClusterSplits; s++ {
		rounds, apart, ok := tailRounds(last, s, sms, perSM, last == tiles)
		if !ok {
			continue
		}
		round := ceilDiv(kTiles, s) + tailBlockCost
		if c := 2*(rounds-1)*round + cost(apart)*round; c < best {
			best, plan = c, Tail{Tiles: last, Splits: s, Rounds: rounds, Apart: apart}
		}
	}
	return plan
}

// The terms of the timing model: what an instance does on a problem, in
// units whose cost the fit finds (fitModels).
const (
	// termSerial is the most blocks one multiprocessor runs, one after
	// another, times a block's multiply-adds: wave quantization.
	termSerial = iota
	// termResident is the same in waves of o blocks resident together on
	// each multiprocessor, a wave costing as o blocks.
	termResident
	// termFixed is 1: launch and pipeline fill, whatever the shape.
	termFixed
	// termReduce is the partial sums that split-K writes and its reduction
	// reads: splits x M x N, 0 unsplit.
	termReduce
	nTerms
)

// maxResident bounds the blocks per multiprocessor the fit tries.
const maxResident = 4

// tie is the difference in squared relative error (summed over a fit's
// times) below which two fits count as equally good: it tells rounding
// apart, where times follow a model exactly, from the 0.1-10 that fits to
// measured times differ by.
const tie = 1e-9

// terms is the model's terms for an instance of tiling t on an m x n x k
// problem on sms multiprocessors holding o blocks each (each count below 1
// counts as 1); a Fill tiling splits as FillSplits does there.
// Every block computes its whole tile over its split's share of whole k
// tiles, also where the tile or the last k tile reaches past the matrix.
func (t Tiling) terms(sms, o, m, n, k int) [nTerms]float64 {
	m, n, k, sms = max(m, 1), max(n, 1), max(k, 1), max(sms, 1)
	tiles := ceilDiv(m, t.BM) * ceilDiv(n, t.BN)
	s := t.Splits(m, n, k)
	if t.Fill {
		s = FillSplits(tiles, ceilDiv(k, t.BK), sms, o, s)
	}
	blocks := tiles * s
	tile := float64(t.BM) * float64(t.BN) * float64(ceilDiv(ceilDiv(k, t.BK), s)*t.BK)
	var out [nTerms]float64
	if t.Tail && s == 1 {
		po := t.planO(o)
		if plan := TailPlan(tiles, ceilDiv(k, t.BK), sms, po); plan.Splits > 1 {
			// The whole tiles in their waves, then the tail's rounds of
			// clusters, each block a split's share of k: po of them one
			// after another on a multiprocessor a round, one in a last
			// round apart.
			part := float64(t.BM) * float64(t.BN) * float64(ceilDiv(ceilDiv(k, t.BK), plan.Splits)*t.BK)
			whole := tiles - plan.Tiles
			serial := plan.Rounds * po
			if plan.Apart {
				serial -= po - 1
			}
			out[termSerial] = float64(ceilDiv(whole, sms))*tile + float64(serial)*part
			out[termResident] = float64(ceilDiv(whole, sms*o)*o)*tile + float64(plan.Rounds*o)*part
			out[termFixed] = 1
			return out
		}
	}
	if t.Stream && s == 1 {
		if st, grid := StreamPlan(m, n, k, t.BM, t.BN, t.BK, sms, t.planO(o)); grid > 0 {
			// The whole tiles in their waves, then one wave of the stream
			// grid, each block an equal share of the tail's k tiles, and
			// the partial tiles written and read.
			share := float64(t.BM) * float64(t.BN) * float64(ceilDiv(st*(k/t.BK), grid)*t.BK)
			whole := tiles - st
			out[termSerial] = float64(ceilDiv(whole, sms))*tile + float64(ceilDiv(grid, sms))*share
			out[termResident] = float64(ceilDiv(whole, sms*o)*o)*tile + float64(ceilDiv(grid, sms*o)*o)*share
			out[termFixed] = 1
			out[termReduce] = float64(grid) * float64(t.BM) * float64(t.BN)
			return out
		}
	}
	out[termSerial] = float64(ceilDiv(blocks, sms)) * tile
	out[termResident] = float64(ceilDiv(blocks, sms*o)*o) * tile
	out[termFixed] = 1
	if s > 1 {
		out[termReduce] = float64(s) * float64(m) * float64(n)
	}
	return out
}

// planO is the blocks a multiprocessor holds that a tail-splitting or
// stream-K launch plans by, where the fit found o: no more than the
// registers allow (perSMBound), whatever o fits the times.
func (t Tiling) planO(o int) int {
	if b := t.perSMBound(); b > 0 {
		return min(o, b)
	}
	return o
}

// plans reports whether a tail-splitting or stream-K instance of tiling t
// launches its plan on an m x n x k problem on sms multiprocessors holding
// o blocks each (TailPlan splits a tail, StreamPlan has a grid): where it
// does not, it launches its twin's kernel as its twin does, and takes the
// twin's time.
func (t Tiling) plans(sms, o, m, n, k int) bool {
	m, n, k, sms = max(m, 1), max(n, 1), max(k, 1), max(sms, 1)
	if !t.twinned() || t.Splits(m, n, k) != 1 {
		return false
	}
	if t.Tail {
		return TailPlan(ceilDiv(m, t.BM)*ceilDiv(n, t.BN), ceilDiv(k, t.BK), sms, t.planO(o)).Splits > 1
	}
	_, grid := StreamPlan(m, n, k, t.BM, t.BN, t.BK, sms, t.planO(o))
	return grid > 0
}

// twinned reports whether t's instance runs its twin's kernel (the name
// without "_tc" or "_ts", twinOf) for most shapes, at as many blocks a
// multiprocessor, and plans its tail by that number.
func (t Tiling) twinned() bool { return t.Tail || t.Stream }

// twins is, for each of names, the index in names of its twin (twinOf)
// where it splits its tail or streams and names holds the twin, else -1.
func twins(names []string) []int {
	index := map[string]int{}
	for i, name := range names {
		index[name] = i
	}
	out := make([]int, len(names))
	for i, name := range names {
		out[i] = -1
		if j, ok := index[twinOf(name)]; ok && TilingOf(name).twinned() {
			out[i] = j
		}
	}
	return out
}

// twinOf is a tail-splitting or stream-K instance's twin: its name without
// "_tc" or "_ts".
func twinOf(name string) string {
	return strings.Replace(strings.Replace(name, "_tc", "", 1), "_ts", "", 1)
}

// timeModel is one instance's fitted time in milliseconds: its terms at o
// blocks per multiprocessor, weighted by coef.
type timeModel struct {
	tiling Tiling
	o      int
	coef   [nTerms]float64
}

// ms is the model's time for an m x n x k problem on sms multiprocessors.
func (tm timeModel) ms(sms, m, n, k int) float64 {
	x := tm.tiling.terms(sms, tm.o, m, n, k)
	var sum float64
	for j, c := range tm.coef {
		sum += c * x[j]
	}
	return sum
}

// fitModels fits a timeModel for each of g's instances to its times at
// pts on g.SMs multiprocessors. Instances whose names differ only in their
// split ("_k4") run the same kernel and share one fit over all their
// times, so that the split instances, which split differently at each
// shape, are fitted from several times the points. For each o from 1 to
// maxResident the fit finds the non-negative weights of the terms that
// minimise the squared relative error; the o with the least error wins
// (the smaller within tie). An instance with no time at pts gets its serial
// work as its model.
func fitModels(g *Grid, pts []Point) []timeModel {
	models := make([]timeModel, len(g.Instances))
	groups := map[string][]int{}
	var keys []string // in instance order, so that fits are made in the same order every time
	for i, name := range g.Instances {
		models[i].tiling = TilingOf(name)
		key := unsplit(name)
		if groups[key] == nil {
			keys = append(keys, key)
		}
		groups[key] = append(groups[key], i)
	}
	// A tail-splitting or stream-K instance runs its twin's kernel (the
	// name without "_tc" or "_ts", twinOf), as many blocks a
	// multiprocessor, and its launch plans its tail by that number: its
	// fit keeps the twin's o, fitted first, where
	// the grid has the twin (free, the tail's o fitted the tail's splits
	// elsewhere: at 1774^3 o = 4 planned 2 splits where the H100's 2
	// blocks a multiprocessor plan none, and the model took the tail
	// instance, 1.2x slower than 2 splits in a cluster).
	twin := twins(g.Instances)
	slices.SortStableFunc(keys, func(a, b string) int {
		ta, tb := models[groups[a][0]].tiling.twinned(), models[groups[b][0]].tiling.twinned()
		switch {
		case ta == tb:
			return 0
		case tb:
			return -1
		}
		return 1
	})
	fitted := map[int]bool{}
	for _, key := range keys {
		members := groups[key]
		o, coef := 1, [nTerms]float64{termSerial: 1}
		bestErr := math.Inf(1)
		first, last := 1, maxResident
		if t := twin[members[0]]; t >= 0 && fitted[t] {
			first, last = models[t].o, models[t].o
		}
		for try := first; try <= last; try++ {
			var ne normalEquations
			for _, i := range members {
				for _, p := range pts {
					if ms := p.Ms[i]; ms > 0 {
						ne.add(models[i].tiling.terms(g.SMs, try, p.M, p.N, p.K), ms)
					}
				}
			}
			if c, err, ok := ne.solve(); ok && err < bestErr-tie {
				o, coef, bestErr = try, c, err
			}
		}
		for _, i := range members {
			models[i].o, models[i].coef = o, coef
			fitted[i] = true
		}
	}
	return models
}

// unsplit is an instance's name without its "_k<splits>" part. Splits
// summed in a cluster ("_k<splits>c") become "_kc": they share one kernel
// with each other, not with the splits summed through a workspace, whose
// reduction costs differently. Splits that fill the GPU ("_k<splits>f")
// are fixed splits in number chosen at launch: no part, like those.
func unsplit(name string) string {
	parts := strings.Split(name, "_")
	out := parts[:0]
	for _, p := range parts {
		if sp, ok := splitOf(p); ok {
			if sp.cluster {
				out = append(out, "kc")
			}
			continue
		}
		out = append(out, p)
	}
	return strings.Join(out, "_")
}

// normalEquations accumulates the least-squares problem of fitting
// coef . x to a time ms, relatively: each row is x / ms against 1.
type normalEquations struct {
	a    [nTerms][nTerms]float64
	b    [nTerms]float64
	rows int
}

func (ne *normalEquations) add(x [nTerms]float64, ms float64) {
	for j := range x {
		x[j] /= ms
	}
	for j := range x {
		ne.b[j] += x[j]
		for l := range x {
			ne.a[j][l] += x[j] * x[l]
		}
	}
	ne.rows++
}

// solve returns the non-negative coefficients with the least squared
// error, and that error; false when no subset of the terms has a positive
// least-squares solution. It tries every subset but termReduce alone (it
// is 0 where a problem does not split), in order,
// termSerial alone first, and a later one replaces the best only with an
// error smaller by more than tie, so that exact data keeps the simplest
// model. The terms are scaled to unit norm first: they differ by twenty
// orders of magnitude.
func (ne *normalEquations) solve() (coef [nTerms]float64, sqErr float64, ok bool) {
	var scale [nTerms]float64
	for j := range scale {
		scale[j] = math.Sqrt(ne.a[j][j])
	}
	sqErr = math.Inf(1)
	for mask := 1; mask < 1<<nTerms; mask++ {
		if mask == 1<<termReduce {
			continue // 0 where a problem does not split: no model of a time
		}
		var idx [nTerms]int
		n := 0
		for j := range nTerms {
			if mask&(1<<j) != 0 {
				if scale[j] == 0 {
					n = -1 // a term that is 0 at every row
					break
				}
				idx[n] = j
				n++
			}
		}
		if n < 0 {
			continue
		}
		var a [nTerms][nTerms]float64
		var b [nTerms]float64
		for r := range n {
			for c := range n {
				a[r][c] = ne.a[idx[r]][idx[c]] / (scale[idx[r]] * scale[idx[c]])
			}
			b[r] = ne.b[idx[r]] / scale[idx[r]]
		}
		x, solved := gauss(a, b, n)
		if !solved || slices.Min(x[:n]) <= 0 {
			continue
		}
		// sum (x.r - 1)^2 = x'Ax - 2b'x + rows, in the scaled terms.
		e := float64(ne.rows)
		for r := range n {
			e -= 2 * b[r] * x[r]
			for c := range n {
				e += x[r] * a[r][c] * x[c]
			}
		}
		if e < sqErr-tie {
			sqErr, ok = e, true
			coef = [nTerms]float64{}
			for r := range n {
				coef[idx[r]] = x[r] / scale[idx[r]]
			}
		}
	}
	return coef, sqErr, ok
}

// gauss solves the n x n system a x = b by elimination with partial
// pivoting; false when a is singular (in the scaled terms: two terms equal,
// or one a multiple of another, at every row).
func gauss(a [nTerms][nTerms]float64, b [nTerms]float64, n int) ([nTerms]float64, bool) {
	var x [nTerms]float64
	for c := range n {
		p := c
		for r := c + 1; r < n; r++ {
			if math.Abs(a[r][c]) > math.Abs(a[p][c]) {
				p = r
			}
		}
		if math.Abs(a[p][c]) < 1e-10 {
			return x, false
		}
		a[c], a[p] = a[p], a[c]
		b[c], b[p] = b[p], b[c]
		for r := c + 1; r < n; r++ {
			f := a[r][c] / a[c][c]
			for j := c; j < n; j++ {
				a[r][j] -= f * a[c][j]
			}
			b[r] -= f * b[c]
		}
	}
	for r := n - 1; r >= 0; r-- {
		s := b[r]
		for j := r + 1; j < n; j++ {
			s -= a[r][j] * x[j]
		}
		x[r] = s / a[r][r]
	}
	return x, true
}

func ceilDiv(a, b int) int { return (a + b - 1) / b }
