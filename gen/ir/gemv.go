package ir

import "fmt"

// GemvParams are the parameters of a GEMV kernel: y = alpha * op(A) * x +
// beta * y for up to MaxBatch right-hand vectors.
type GemvParams struct {
	ALayout          Layout // RowMajor: A is N x K (each output's weights contiguous); ColMajor: its transpose
	ThreadsPerOutput int    // 1, 2..16 lanes, 32 (a warp), 64..256 (several warps)
	OutputsPerBlock  int
	Vector           int  // halves per load
	XShared          bool // x staged in shared memory
	XF32             bool // x staged already converted to fp32 (with XShared)
	RowsPerThread    int  // layout n: rows of A per thread, sharing each x value
	SplitK           int  // blocks sharing one output's K, combined in one kernel
	MaxBatch         int  // right-hand vectors per launch
	// MMA is the tensor-core kernel: Warps split k, Unroll steps in flight.
	// Layout n (kgen/hgemv_mma.cuh): Tiles 16-row mma tiles per warp, steps
	// of 32 k. Layout t (kgen/hgemv_mma_t.cuh): Tiles is 1, a warp owns 64
	// outputs, steps of 16 k, and SplitK blocks may share a column strip's
	// k. The other CUDA-core fields above are unused (zero). Stages, above
	// 0, stages A through shared memory in a ring of that many stages,
	// Unroll unused (zero): layout n (kgen/hgemv_mma_s.cuh) stages of 256 k
	// of Tiles 16-row tiles per block; layout t (kgen/hgemv_mma_ts.cuh)
	// stages of 64 rows of the block's 64 outputs.
	MMA    bool
	Warps  int
	Tiles  int
	Unroll int
	Stages int
}

// Op is GEMV.
func (*GemvParams) Op() Op { return GEMV }

// NameTail is e.g. "n_f16_p32_o8_v8_k1_m8" (threads per output, outputs per
// block, vector, split-K, batch), then "_r4" for 4 rows per thread, and
// "_xs" when x is staged in shared memory as halves or "_xf" as fp32. The
// tensor-core kernel's is e.g. "n_f16accf32_w8_t1_u4_m8" (warps, tiles per
// warp, unroll, batch), then "_k8" for 8 blocks splitting k; staged through
// shared memory "n_f16accf32_w8_t1_s4_m8" (stages in place of unroll).
func (p *GemvParams) NameTail(t Types) string {
	s := fmt.Sprintf("%s_%s", Layouts[p.ALayout].Letter, DTypes[t.A].Name)
	if t.Acc != t.A {
		s += "acc" + DTypes[t.Acc].Name
	}
	if p.MMA {
		if p.Stages > 0 {
			s += fmt.Sprintf("_w%d_t%d_s%d_m%d", p.Warps, p.Tiles, p.Stages, p.MaxBatch)
		} else {
			s += fmt.Sprintf("_w%d_t%d_u%d_m%d", p.Warps, p.Tiles, p.Unroll, p.MaxBatch)
		}
		if p.SplitK > 1 {
			s += fmt.Sprintf("_k%d", p.SplitK)
		}
		return s
	}
	s += fmt.Sprintf("_p%d_o%d_v%d_k%d_m%d", p.ThreadsPerOutput, p.OutputsPerBlock, p.Vector, p.SplitK, p.MaxBatch)
	if p.RowsPerThread > 1 {
		s += fmt.Sprintf("_r%d", p.RowsPerThread)
	}
	switch {
	case p.XF32:
		s += "_xf"
	case p.XShared:
		s += "_xs"
	}
	return s
}
