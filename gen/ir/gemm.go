package ir

import (
	"fmt"
	"strings"
)

// GemmParams are the parameters of a GEMM kernel on CUDA cores: operand
// layouts and the block, warp and thread tiles.
type GemmParams struct {
	ALayout, BLayout, CLayout Layout

	Block  Tile // M, N, K of the block tile
	Warp   Tile // M, N of a warp's tile (K unused)
	Thread Tile // M, N of a thread's tile (K unused)

	Stages      int  // shared-memory buffers in the main-loop pipeline
	VecGlobal   int  // elements per global load (CUDA cores only)
	VecShared   int  // elements per shared-memory load (CUDA cores only)
	MinBlocksSM int  // blocks per multiprocessor asked of the register allocator
	SplitK      int  // most blocks sharing one C tile's k range, through a workspace (CUDA cores only)
	MMA         bool // tensor cores (mma.sync m16n8k16): no thread tile, no vectors
	// Ladder is the seed article's step that a reference instance
	// implements (sgemm_ladder.cuh); LadderNone for kgen's template. A
	// ladder kernel has a block tile and, from BlockTile1D on, a thread
	// tile; no warp tile, stages, vectors or split-K.
	Ladder LadderStep
}

// Op is GEMM.
func (*GemmParams) Op() Op { return GEMM }

// NameTail is e.g. "nn_f32_b128x128x8_w32x64_t8x8_s4_o2_k4" (CUDA cores),
// "nn_f16accf32_b128x128x32_w64x64_s3" (tensor cores) or
// "nn_f32_blocktile2d_b128x128x8_t8x8" (a ladder step): layouts, dtype, tiles
// and every non-default choice, so two instances never share a name unless
// they are the same kernel.
func (p *GemmParams) NameTail(t Types) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s%s", Layouts[p.ALayout].Letter, Layouts[p.BLayout].Letter)
	if p.CLayout != RowMajor {
		b.WriteString("_c" + Layouts[p.CLayout].Letter)
	}
	fmt.Fprintf(&b, "_%s", DTypes[t.A].Name)
	if p.Ladder != LadderNone {
		fmt.Fprintf(&b, "_%s_b%dx%dx%d", p.Ladder, p.Block.M, p.Block.N, p.Block.K)
		if p.Ladder >= LadderBlockTile1D {
			fmt.Fprintf(&b, "_t%dx%d", p.Thread.M, p.Thread.N)
		}
		return b.String()
	}
	if t.Acc != t.A {
		fmt.Fprintf(&b, "acc%s", DTypes[t.Acc].Name)
	}
	fmt.Fprintf(&b, "_b%dx%dx%d_w%dx%d", p.Block.M, p.Block.N, p.Block.K, p.Warp.M, p.Warp.N)
	if !p.MMA {
		fmt.Fprintf(&b, "_t%dx%d", p.Thread.M, p.Thread.N)
	}
	fmt.Fprintf(&b, "_s%d", p.Stages)
	if !p.MMA && (p.VecGlobal != 4 || p.VecShared != 4) {
		fmt.Fprintf(&b, "_v%d%d", p.VecGlobal, p.VecShared)
	}
	if p.MinBlocksSM > 1 {
		fmt.Fprintf(&b, "_o%d", p.MinBlocksSM)
	}
	if p.SplitK > 1 {
		fmt.Fprintf(&b, "_k%d", p.SplitK)
	}
	return b.String()
}
