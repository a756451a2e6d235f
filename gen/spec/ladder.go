package spec

import "github.com/kgen-gpu/kgen/gen/ir"

// checkLadderTiling applies the rules of the ladder kernels
// (kernels/include/kgen/sgemm_ladder.cuh) to t, a tiling of family f: f32
// operands, layout nn only, a reference family, and the tile each step
// needs. Checks whose inputs already failed are skipped.
func checkLadderTiling(c *collector, what string, t Tiling, f *Family) {
	l := t.Line
	errorf := func(format string, args ...any) { c.errorf(l, what+": "+format, args...) }
	step := t.Ladder
	if f.Types.A != ir.F32 {
		errorf("ladder %s is an f32 kernel; the family's operands are %s", step, f.Types.A)
		return
	}
	for _, p := range f.Layouts {
		if p != (LayoutPair{ir.RowMajor, ir.RowMajor}) {
			errorf("ladder kernels take row-major A and B only; set the family's layouts to [nn] (it has %s)", p)
			break
		}
	}
	if !f.Reference {
		errorf("ladder %s is a reference kernel; set reference: true on the family so the engine never picks it by itself", step)
	}
	ok := true
	for _, d := range []struct {
		name string
		v    int
	}{{"block M", t.Block.M}, {"block N", t.Block.N}, {"block K", t.Block.K}, {"thread M", t.Thread.M}, {"thread N", t.Thread.N}} {
		if d.v <= 0 || d.v > maxTile {
			errorf("%s (%d) must be between 1 and %d", d.name, d.v, maxTile)
			ok = false
		}
	}
	if !ok {
		return
	}
	switch {
	case step < ir.LadderBlockTile1D && t.threadGiven:
		errorf("ladder %s computes one C element per thread; remove thread (it starts with blocktile1d)", step)
		return
	case step >= ir.LadderBlockTile1D && !t.threadGiven:
		errorf("ladder %s needs thread: [M, N], the C elements each thread computes", step)
		return
	}
	if step < ir.LadderSmem && t.Block.K != 1 {
		errorf("ladder %s has no k tile (each thread walks all of K); block K (%d) must be 1", step, t.Block.K)
	}
	if step == ir.LadderBlockTile1D && t.Thread.N != 1 {
		errorf("ladder blocktile1d computes a column of thread M elements per thread; thread N (%d) must be 1 (use blocktile2d for more)", t.Thread.N)
	}
	if t.Block.M%t.Thread.M != 0 || t.Block.N%t.Thread.N != 0 {
		errorf("block %dx%d must be a multiple of thread %dx%d", t.Block.M, t.Block.N, t.Thread.M, t.Thread.N)
		return
	}
	if step == ir.LadderVectorized {
		for _, d := range []struct {
			name string
			v    int
		}{{"block K", t.Block.K}, {"block N", t.Block.N}, {"thread M", t.Thread.M}, {"thread N", t.Thread.N}} {
			if d.v%4 != 0 {
				errorf("ladder vectorized moves float4s; %s (%d) must be a multiple of 4", d.name, d.v)
			}
		}
	}
	threads := ir.LadderThreads(t.Block, t.Thread)
	if threads%32 != 0 {
		errorf("block %dx%d / thread %dx%d gives %d threads; it must be whole warps (a multiple of 32)",
			t.Block.M, t.Block.N, t.Thread.M, t.Thread.N, threads)
	}
	perArch(f.Archs, func(a ir.ArchInfo) int { return a.MaxThreads }, func(a ir.ArchInfo) bool { return threads > a.MaxThreads },
		func(max int, on string) {
			errorf("%d threads per block exceed the limit of %d on %s; shrink the block tile or grow the thread tile", threads, max, on)
		})
	smem := ir.LadderSharedBytes(step, t.Block)
	perArch(f.Archs, func(a ir.ArchInfo) int { return a.StaticSmem }, func(a ir.ArchInfo) bool { return smem > a.StaticSmem },
		func(max int, on string) {
			errorf("%d bytes of shared memory exceed the static limit of %d on %s; shrink block K or the block tile", smem, max, on)
		})
	// Accumulators, one k's operands, and addresses and loop state.
	regs := t.Thread.M*t.Thread.N + t.Thread.M + t.Thread.N + 24
	perArch(f.Archs, func(a ir.ArchInfo) int { return a.MaxRegsPerThread }, func(a ir.ArchInfo) bool { return regs > a.MaxRegsPerThread },
		func(max int, on string) {
			errorf("needs about %d registers per thread, over the limit of %d on %s: would spill registers; shrink the thread tile", regs, max, on)
		})
}
