package spec

import (
	"fmt"

	"github.com/kgen-gpu/kgen/gen/ir"
)

// maxGFRows bounds rows per block: the kernel keeps an accumulator per
// output row in registers (kgen::gf256::Config allows 1 to 32).
const maxGFRows = 32

// gf256SmemBudget is the dynamic shared memory every GF(2^8) kernel's
// coefficient slots stay within (kgen::gf256::kSmemBudget): 48 KB less the
// static copy of a launch's shard pointers and coefficients. A kernel stages
// as many inputs' slots per pass as fit, and makes more passes for larger k.
const gf256SmemBudget = 48<<10 - gf256InlineBytes

// gf256InlineBytes is kgen::gf256::Inline: 64 shard pointers and 32 x 32
// coefficients.
const gf256InlineBytes = 64*8 + 32*32

// gf256RingMax is the most shared memory an input ring may take beside the
// slots: an SM's 227 KB less 48 KB.
const gf256RingMax = (227 - 48) << 10

// RingBytes is the input ring's shared memory (kgen::gf256::Layout::kRing):
// stages x inputs per batch x threads x bytes per thread.
func (t GF256Tiling) RingBytes() int {
	batch := 4 // inputs per batch, kgen::gf256::Batch
	if t.BytesPerThread == 4 {
		batch = 8
	}
	return t.Stages * batch * t.Threads * t.BytesPerThread
}

// SharedBytes is the most dynamic shared memory a block of the kernel uses:
// the slots' budget and the input ring, except for the naive reference
// kernel, which uses none.
func (t GF256Tiling) SharedBytes() int {
	if t.Strategy == ir.GFNaiveLogExp {
		return 0
	}
	return gf256SmemBudget + t.RingBytes()
}

// checkGF256Family checks what only a gf256_matmul family has: no layouts,
// and the rules of the GF(2^8) kernel for each tiling.
func checkGF256Family(c *collector, what string, f *Family, implemented bool) {
	if len(f.Layouts) > 0 || f.pos.layouts > 0 {
		c.errorf(line(f.pos.layouts, f.Line), "%s: layouts do not apply to op gf256_matmul (shards are byte vectors); remove the key", what)
	}
	if f.pos.cLayout > 0 {
		c.errorf(f.pos.cLayout, "%s: c_layout does not apply to op gf256_matmul; remove the key", what)
	}
	if !implemented {
		return
	}
	for j, t := range f.GF256 {
		if !t.bad {
			checkGF256Tiling(c, fmt.Sprintf("%s tiling %d", what, j+1), t, f.Archs)
		}
	}
}

func checkGF256Tiling(c *collector, what string, t GF256Tiling, archs []ir.Arch) {
	errorf := func(format string, args ...any) { c.errorf(t.Line, what+": "+format, args...) }
	if _, ok := ir.GF256Strategies[t.Strategy]; !ok {
		errorf("unknown strategy %d", t.Strategy)
		return
	}
	switch t.BytesPerThread {
	case 4, 8, 16:
	default:
		errorf("bytes_per_thread (%d) must be 4, 8 or 16: bytes are packed into 32-bit words", t.BytesPerThread)
	}
	if t.Strategy == ir.GFNaiveLogExp && t.BytesPerThread != 4 {
		errorf("strategy naive reads one byte per thread per step; give bytes_per_thread: 4 (its name part)")
	}
	if t.RowsPerBlock < 1 || t.RowsPerBlock > maxGFRows {
		errorf("rows_per_block (%d) must be between 1 and %d: each row is an accumulator in registers; more rows take more blocks", t.RowsPerBlock, maxGFRows)
		return
	}
	if t.Threads < 32 || t.Threads%32 != 0 || t.Threads > maxTile {
		errorf("threads (%d) must be a positive multiple of 32 (whole warps)", t.Threads)
		return
	}
	switch {
	case t.Stages != 0 && (t.Stages < 2 || t.Stages > 8):
		errorf("stages (%d) must be 0 (inputs in registers) or 2 to 8 (batches of inputs in a ring in shared memory)", t.Stages)
	case t.Stages != 0 && t.Strategy == ir.GFNaiveLogExp:
		errorf("strategy naive has no aligned path for an input ring; remove stages")
	case t.RingBytes() > gf256RingMax:
		errorf("the input ring (stages x 4 or 8 inputs x threads x bytes_per_thread = %d bytes) exceeds the %d bytes an SM has beside the coefficient slots; use fewer stages or threads", t.RingBytes(), gf256RingMax)
	}
	perArch(archs, func(a ir.ArchInfo) int { return a.MaxThreads }, func(a ir.ArchInfo) bool { return t.Threads > a.MaxThreads },
		func(max int, on string) {
			errorf("%d threads per block exceed the limit of %d on %s; use fewer", t.Threads, max, on)
		})
}
