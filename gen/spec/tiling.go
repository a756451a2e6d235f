package spec

import (
	"sort"
	"strings"

	"github.com/kgen-gpu/kgen/gen/ir"
)

// maxSplitK bounds split_k: the workspace holds split_k partial C tiles.
const maxSplitK = 256

// maxTile bounds every tile number. No real tile comes near it; it keeps
// the products below far from overflowing int.
const maxTile = 4096

// Threads is the block size of the f32 kernel: one warp per warp tile.
// It is 0 when the warp tile is not positive.
func (t Tiling) Threads() int {
	if t.Warp.M <= 0 || t.Warp.N <= 0 {
		return 0
	}
	return 32 * (t.Block.M / t.Warp.M) * (t.Block.N / t.Warp.N)
}

// SharedBytes is the most shared memory a block of the f32 kernel of layouts
// p uses on any of archs: the ring (RingBytesIn) or, where the splits sum in
// a cluster (split_reduce: cluster), the partial C tile staged in its place
// (ClusterTileBytes) if that is larger. Only the objects for sm_90 and
// later stage the tile; older archs' objects of the same instance use the
// ring's bytes. An instance reports one figure for all its archs, so it
// reports the largest any of them uses; checkF32Limits checks each arch's
// own.
func (t Tiling) SharedBytes(archs []ir.Arch, p LayoutPair) int {
	smem := t.RingBytesIn(p)
	for _, a := range archs {
		smem = max(smem, t.SharedBytesOn(ir.Arches[a], p))
	}
	return smem
}

// SharedBytesOn is the shared memory a block of the f32 kernel of layouts p
// uses in its object for arch a (kgen::sgemm::Config::kSmemBytes, or the
// static arrays of the 2-stage pipeline).
func (t Tiling) SharedBytesOn(a ir.ArchInfo, p LayoutPair) int {
	if a.CC >= ir.ClusterMinCC {
		return max(t.RingBytesIn(p), t.ClusterTileBytes())
	}
	return t.RingBytesIn(p)
}

// RingBytes is the shared memory of the f32 kernel's main loop: Stages copies
// of the A and B block tiles, each row padded by 4 floats against bank
// conflicts, and with sync mbarrier two 8-byte mbarriers per stage; static
// with 2 stages (through registers), dynamic with 3 to 5 (cp.async). It is
// the most any layout's instance uses (RingBytesIn).
func (t Tiling) RingBytes() int {
	return ir.F32RingBytes(t.Block, t.Stages, 4, 4, t.mbarriers())
}

// RingBytesIn is RingBytes for the kernel of layouts p, whose rows some
// tiles leave unpadded (ir.F32RowPads).
func (t Tiling) RingBytesIn(p LayoutPair) int {
	padA, padB := ir.F32RowPads(t.Block, t.Thread, t.Stages, t.FMAOrder, p.A, p.B)
	return ir.F32RingBytes(t.Block, t.Stages, padA, padB, t.mbarriers())
}

// mbarriers reports whether t's cp.async ring synchronises through
// mbarriers (ir.GemmParams.Mbarriers).
func (t Tiling) mbarriers() bool { return t.Sync == ir.SyncMbarrier && t.Stages >= 3 }

// ClusterTileBytes is the partial C tile that a block whose splits sum in a
// cluster (split_reduce cluster, or a split tail's: tail cluster) stages in
// shared memory once its ring is drained: block M rows of block N + 4 floats
// (kgen::sgemm::Config::kTileBytes, TailOf's); 0 without a cluster
// reduction.
func (t Tiling) ClusterTileBytes() int {
	cluster := t.SplitReduce == ir.SplitInCluster && t.SplitK > 1
	tail := t.Tail == ir.TailCluster && t.SplitK == 1 && t.Stages >= 3
	if !cluster && !tail {
		return 0
	}
	return t.Block.M * (t.Block.N + 4) * 4
}

// Regs estimates the registers per thread of the f32 kernel: accumulators,
// double-buffered A and B fragments, the float4s staged from global memory
// between iterations (with 2 stages; cp.async holds none), and 24 for
// addresses and loop state. It is 0 when Threads is.
func (t Tiling) Regs() int {
	th := t.Threads()
	if th <= 0 {
		return 0
	}
	staged := (t.Block.M*t.Block.K + t.Block.N*t.Block.K) / th / 4
	if t.Stages > 2 {
		staged = 0
	}
	return t.Thread.M*t.Thread.N + 2*(t.Thread.M+t.Thread.N) + 4*staged + 24
}

// checkF32Tiling applies the rules of the f32 CUDA-core kernel to t. Checks
// whose inputs already failed are skipped, so each mistake is said once.
func checkF32Tiling(c *collector, what string, t Tiling, archs []ir.Arch) {
	l := t.Line
	errorf := func(format string, args ...any) { c.errorf(l, what+": "+format, args...) }
	ok := true
	for _, d := range []struct {
		name string
		v    int
	}{{"block M", t.Block.M}, {"block N", t.Block.N}, {"block K", t.Block.K},
		{"warp M", t.Warp.M}, {"warp N", t.Warp.N}, {"thread M", t.Thread.M}, {"thread N", t.Thread.N}} {
		if d.v <= 0 || d.v > maxTile {
			errorf("%s (%d) must be between 1 and %d", d.name, d.v, maxTile)
			ok = false
		}
	}
	if t.Stages < 2 || t.Stages > 5 {
		errorf("stages (%d) must be 2 (double-buffered through registers) or 3 to 5 (cp.async pipeline, sm_80 and later)", t.Stages)
	}
	if t.SplitK < 1 || t.SplitK > maxSplitK {
		errorf("split_k (%d) must be between 1 and %d", t.SplitK, maxSplitK)
	}
	// A cluster's own rules, where the general ones above did not fail.
	if t.SplitReduce == ir.SplitInCluster {
		if t.SplitK == 1 || (t.SplitK > ir.MaxClusterSplits && t.SplitK <= maxSplitK) {
			errorf("split_reduce cluster needs split_k between 2 and %d (a portable cluster holds %d blocks, one per split); split_k is %d",
				ir.MaxClusterSplits, ir.MaxClusterSplits, t.SplitK)
		}
		if t.Stages == 2 {
			errorf("split_reduce cluster needs stages 3 to 5 (the cp.async pipeline, whose shared memory holds the partial tile); stages is %d", t.Stages)
		}
	}
	if t.SplitCount == ir.SplitsFill && (t.SplitK == 1 || t.SplitReduce == ir.SplitInCluster) {
		errorf("split_count fill chooses 1 to split_k splits at each launch, summed through the workspace: it needs split_k 2 or more and split_reduce workspace; split_k is %d, split_reduce %s",
			t.SplitK, t.SplitReduce)
	}
	if t.Pack && (t.Stages == 2 || t.VecGlobal != 4) {
		errorf("pack needs stages 3 to 5 and vector global 4: the packed operands are copied 16 bytes at a time by cp.async; stages is %d, vector global %d",
			t.Stages, t.VecGlobal)
	}
	if t.Tail == ir.TailCluster && (t.Stages == 2 || t.SplitK > 1) {
		errorf("tail cluster splits the last wave's tiles in k among the blocks of a cluster, whose shared memory holds the partial tiles: it needs stages 3 to 5 and no split_k; stages is %d, split_k %d",
			t.Stages, t.SplitK)
	}
	if t.Tail == ir.TailStream && (t.Stages == 2 || t.SplitK > 1 || t.Pack) {
		errorf("tail stream runs the tiles by stream-K through the cp.async ring, each block's share of their k tiles summed through the workspace: it needs stages 3 to 5, no split_k and no pack; stages is %d, split_k %d, pack %v",
			t.Stages, t.SplitK, t.Pack)
	}
	if t.Sync == ir.SyncMbarrier && (t.Stages == 2 || t.Pack) {
		errorf("sync mbarrier synchronises the cp.async ring, which a packing tiling's kernel (layout tn's) and stages 2 do not have mbarriers in: it needs stages 3 to 5 and no pack; stages is %d, pack %v",
			t.Stages, t.Pack)
	}
	if t.VecGlobal != 1 && t.VecGlobal != 4 {
		errorf("vector global (%d) must be 1 or 4", t.VecGlobal)
	}
	if t.VecShared != 4 {
		errorf("vector shared (%d) must be 4: the kernel reads float4 fragments from shared memory", t.VecShared)
	}
	if t.MinBlocksSM < 1 {
		errorf("min_blocks_per_sm (%d) must be at least 1", t.MinBlocksSM)
		ok = false
	}
	if !ok {
		return
	}
	multiple := func(a int, an string, b int, bn string) bool {
		if a%b != 0 {
			errorf("%s (%d) must be a multiple of %s (%d)", an, a, bn, b)
			return false
		}
		return true
	}
	split := multiple(t.Block.M, "block M", t.Warp.M, "warp M")
	split = multiple(t.Block.N, "block N", t.Warp.N, "warp N") && split
	frag := multiple(t.Warp.M, "warp M", t.Thread.M, "thread M")
	frag = multiple(t.Warp.N, "warp N", t.Thread.N, "thread N") && frag
	if wm, wn := t.Warp.M/t.Thread.M, t.Warp.N/t.Thread.N; frag && wm*wn != 32 {
		errorf("warp %dx%d / thread %dx%d gives %dx%d = %d threads per warp; it must be 32, so change the warp or thread tile",
			t.Warp.M, t.Warp.N, t.Thread.M, t.Thread.N, wm, wn, wm*wn)
	} else if frag && t.LaneMap == ir.LanesByRowPair && wm%2 != 0 {
		errorf("lanes row_pairs needs an even number of thread rows in a warp; warp %dx%d / thread %dx%d has %d", t.Warp.M, t.Warp.N, t.Thread.M, t.Thread.N, wm)
	}
	if t.VecShared == 4 {
		multiple(t.Thread.M, "thread M", 4, "vector shared")
		multiple(t.Thread.N, "thread N", 4, "vector shared")
	}
	multiple(t.Block.K, "block K", 4, "4")
	if !split {
		return // without whole warps the thread count is undefined
	}
	checkF32Limits(errorf, t, archs)
}

// checkF32Limits checks what depends on the block's thread count and on the
// limits of each arch.
func checkF32Limits(errorf func(string, ...any), t Tiling, archs []ir.Arch) {
	threads := t.Threads()
	for _, op := range []struct {
		name string
		v    int
	}{{"M", t.Block.M}, {"N", t.Block.N}} {
		if (op.v*t.Block.K)%(threads*4) != 0 {
			errorf("block %s x K (%d x %d = %d) must be a multiple of 4 x threads (%d) so each thread loads whole float4s; change the block or warp tile",
				op.name, op.v, t.Block.K, op.v*t.Block.K, threads*4)
		}
	}
	regs := t.Regs()
	perArch(archs, func(a ir.ArchInfo) int { return a.MaxThreads }, func(a ir.ArchInfo) bool { return threads > a.MaxThreads },
		func(max int, on string) {
			errorf("%d threads per block exceed the limit of %d on %s; use fewer warps per block", threads, max, on)
		})
	smem := t.RingBytes()
	if t.Stages == 2 {
		perArch(archs, func(a ir.ArchInfo) int { return a.StaticSmem }, func(a ir.ArchInfo) bool { return smem > a.StaticSmem },
			func(max int, on string) {
				errorf("%d bytes of shared memory exceed the static limit of %d on %s; shrink block K or the block tile", smem, max, on)
			})
	} else if t.Stages <= 5 {
		perArch(archs, func(a ir.ArchInfo) int { return a.CC }, func(a ir.ArchInfo) bool { return a.CC < 80 },
			func(_ int, on string) {
				errorf("stages %d use cp.async, which %s lacks; use stages: 2 there", t.Stages, on)
			})
		perArch(archs, func(a ir.ArchInfo) int { return a.MaxSmemPerBlock }, func(a ir.ArchInfo) bool { return smem > a.MaxSmemPerBlock },
			func(max int, on string) {
				errorf("%d bytes of shared memory (stages x padded block tiles) exceed the %d a block can have on %s; fewer stages or a smaller tile", smem, max, on)
			})
		if tile := t.ClusterTileBytes(); tile > 0 {
			perArch(archs, func(a ir.ArchInfo) int { return a.MaxSmemPerBlock },
				func(a ir.ArchInfo) bool { return a.CC >= ir.ClusterMinCC && tile > a.MaxSmemPerBlock },
				func(max int, on string) {
					errorf("split_reduce cluster stages the partial C tile in %d bytes of shared memory (block M x (block N + 4) x 4), over the %d a block can have on %s; a smaller block tile or split_reduce workspace",
						tile, max, on)
				})
		}
		// A thread's copies of one tile stay in one column of it: 4-byte
		// copies of a k-contiguous operand step over whole rows of BK, and
		// 16-byte copies of an m/n-contiguous one over whole rows of BM/4 or
		// BN/4 float4s. Every layout is generated, so both must hold.
		for _, d := range []struct {
			name string
			v    int
		}{{"block K", t.Block.K}, {"block M / 4", t.Block.M / 4}, {"block N / 4", t.Block.N / 4}} {
			if d.v > 0 && threads%d.v != 0 {
				errorf("with cp.async (stages %d) the %d threads must be a multiple of %s (%d); change the block or warp tile", t.Stages, threads, d.name, d.v)
			}
		}
	}
	perArch(archs, func(a ir.ArchInfo) int { return a.MaxRegsPerThread }, func(a ir.ArchInfo) bool { return regs > a.MaxRegsPerThread },
		func(max int, on string) {
			errorf("needs about %d registers per thread, over the limit of %d on %s: would spill registers; shrink the thread tile", regs, max, on)
		})
	// Occupancy only means something for a block that fits at all; the
	// divisions keep min_blocks_per_sm x threads x regs from overflowing.
	fits := func(a ir.ArchInfo) bool { return threads <= a.MaxThreads && regs <= a.MaxRegsPerThread }
	perArch(archs, func(a ir.ArchInfo) int { return a.MaxThreadsPerSM },
		func(a ir.ArchInfo) bool { return fits(a) && t.MinBlocksSM > a.MaxThreadsPerSM/threads },
		func(max int, on string) {
			errorf("min_blocks_per_sm %d x %d threads exceeds the %d resident threads per SM on %s; lower min_blocks_per_sm", t.MinBlocksSM, threads, max, on)
		})
	perArch(archs, func(a ir.ArchInfo) int { return a.RegsPerSM },
		func(a ir.ArchInfo) bool {
			return fits(a) && t.MinBlocksSM <= a.MaxThreadsPerSM/threads && t.MinBlocksSM > a.RegsPerSM/(threads*regs)
		},
		func(max int, on string) {
			errorf("min_blocks_per_sm %d x %d threads x about %d registers = %d exceeds the %d registers per SM on %s: would spill registers; lower min_blocks_per_sm or the thread tile",
				t.MinBlocksSM, threads, regs, t.MinBlocksSM*threads*regs, max, on)
		})
}

// perArch reports once per distinct limit that fails, naming every arch
// that has it, so four archs with one limit give one message, not four.
func perArch(archs []ir.Arch, limit func(ir.ArchInfo) int, fails func(ir.ArchInfo) bool, report func(limit int, on string)) {
	on := map[int][]string{}
	for _, a := range archs {
		if info, ok := ir.Arches[a]; ok && fails(info) {
			on[limit(info)] = append(on[limit(info)], a.String())
		}
	}
	limits := make([]int, 0, len(on))
	for l := range on {
		limits = append(limits, l)
	}
	sort.Ints(limits)
	for _, l := range limits {
		report(l, strings.Join(on[l], ", "))
	}
}
