package ir

import "fmt"

// GF256Strategy is how a GF(2^8) kernel multiplies bytes by coefficients.
type GF256Strategy int

const (
	GFTable       GF256Strategy = iota // 256-entry product tables in shared memory
	GFNibble                           // 16-entry tables per nibble, applied with byte permutes
	GFXorShift                         // XOR-only multiplication by constants on packed words
	GFNaiveLogExp                      // reference: one byte per thread, log/exp tables
	GFTiledLogExp                      // reference: log/exp tables and coefficients in shared memory
)

// GF256StrategyInfo is the one table row of a GF256Strategy.
type GF256StrategyInfo struct {
	Name string // spelling in the spec and in instance names
	CUDA string // kgen::gf256::Strategy enumerator
	Go   string // kernels.GF256Strategy constant in the Go bindings
}

// GF256Strategies is the table of every strategy.
var GF256Strategies = map[GF256Strategy]GF256StrategyInfo{
	GFTable:       {Name: "table", CUDA: "kgen::gf256::Strategy::Table", Go: "GFTable"},
	GFNibble:      {Name: "nibble", CUDA: "kgen::gf256::Strategy::Nibble", Go: "GFNibble"},
	GFXorShift:    {Name: "xorshift", CUDA: "kgen::gf256::Strategy::XorShift", Go: "GFXorShift"},
	GFNaiveLogExp: {Name: "naive", CUDA: "kgen::gf256::Strategy::NaiveLogExp", Go: "GFNaiveLogExp"},
	GFTiledLogExp: {Name: "tiled", CUDA: "kgen::gf256::Strategy::TiledLogExp", Go: "GFTiledLogExp"},
}

// AllGF256Strategies lists the strategies in declaration order.
var AllGF256Strategies = []GF256Strategy{GFTable, GFNibble, GFXorShift, GFNaiveLogExp, GFTiledLogExp}

func (s GF256Strategy) String() string { return GF256Strategies[s].Name }

// ParseGF256Strategy maps a spec spelling to a strategy.
func ParseGF256Strategy(s string) (GF256Strategy, bool) {
	return lookup(AllGF256Strategies, s, GF256Strategy.String)
}

// GF256Params are the parameters of a GF(2^8) matrix-product kernel.
type GF256Params struct {
	Strategy       GF256Strategy
	BytesPerThread int // bytes a thread handles per step: 4, 8 or 16
	Threads        int // threads per block
	RowsPerBlock   int // output rows one block makes from one read of the inputs
	Stages         int // 0: inputs load into registers; else batches in a cp.async ring in shared memory
}

// Op is GF256MatMul.
func (*GF256Params) Op() Op { return GF256MatMul }

// NameTail is e.g. "xorshift_v16_t256_r4", or "nibble_v16_t512_r4_s3" with
// a ring of 3 stages.
func (p *GF256Params) NameTail(Types) string {
	tail := fmt.Sprintf("%s_v%d_t%d_r%d", p.Strategy, p.BytesPerThread, p.Threads, p.RowsPerBlock)
	if p.Stages > 0 {
		tail += fmt.Sprintf("_s%d", p.Stages)
	}
	return tail
}
