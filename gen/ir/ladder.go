package ir

// LadderStep is the rung of the seed article's SGEMM ladder that a reference
// gemm instance implements (kernels/include/kgen/sgemm_ladder.cuh); the zero
// value is no rung: kgen's own template.
type LadderStep int

const (
	LadderNone        LadderStep = iota // not a ladder kernel
	LadderNaive                         // one thread per C element, uncoalesced
	LadderCoalesced                     // one thread per C element, coalesced
	LadderSmem                          // k tiles through shared memory
	LadderBlockTile1D                   // TM rows of C per thread
	LadderBlockTile2D                   // a TM x TN tile of C per thread
	LadderVectorized                    // the same with 16-byte loads and stores
)

// LadderStepInfo is the one table row of a LadderStep.
type LadderStepInfo struct {
	Name string // spelling in the spec and in instance names
	CUDA string // kgen::sgemm_ladder::Step enumerator
}

// LadderSteps is the table of every step, LadderNone included.
var LadderSteps = map[LadderStep]LadderStepInfo{
	LadderNone:        {Name: "none"},
	LadderNaive:       {Name: "naive", CUDA: "kgen::sgemm_ladder::Step::Naive"},
	LadderCoalesced:   {Name: "coalesced", CUDA: "kgen::sgemm_ladder::Step::Coalesced"},
	LadderSmem:        {Name: "smem", CUDA: "kgen::sgemm_ladder::Step::Smem"},
	LadderBlockTile1D: {Name: "blocktile1d", CUDA: "kgen::sgemm_ladder::Step::BlockTile1D"},
	LadderBlockTile2D: {Name: "blocktile2d", CUDA: "kgen::sgemm_ladder::Step::BlockTile2D"},
	LadderVectorized:  {Name: "vectorized", CUDA: "kgen::sgemm_ladder::Step::Vectorized"},
}

// AllLadderSteps lists the steps a spec may name, in ladder order.
var AllLadderSteps = []LadderStep{LadderNaive, LadderCoalesced, LadderSmem, LadderBlockTile1D, LadderBlockTile2D, LadderVectorized}

func (s LadderStep) String() string { return LadderSteps[s].Name }

// ParseLadderStep maps a spec spelling to a step.
func ParseLadderStep(s string) (LadderStep, bool) {
	return lookup(AllLadderSteps, s, LadderStep.String)
}

// LadderThreads is the block size of a ladder kernel with block tile b and
// thread tile t (1 x 1 before the block-tiling steps): one thread per
// thread tile. It is 0 when the thread tile is not positive.
func LadderThreads(b, t Tile) int {
	if t.M <= 0 || t.N <= 0 {
		return 0
	}
	return (b.M / t.M) * (b.N / t.N)
}

// LadderSharedBytes is a ladder kernel's static shared memory: one BM x BK
// tile of A and one BK x BN of B from the Smem step on, none before.
func LadderSharedBytes(s LadderStep, b Tile) int {
	if s < LadderSmem {
		return 0
	}
	return (b.M*b.K + b.K*b.N) * 4
}
