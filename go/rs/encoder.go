package rs

import (
	"io"
	"sync"
	"sync/atomic"

	"github.com/klauspost/reedsolomon"
)

// Encoder is a Reed-Solomon coder over GF(2^8) for k data and m parity
// shards, made by New (the zero value is not usable). It is safe for
// concurrent use by many goroutines.
type Encoder struct {
	k, m   int
	matrix matrix // (k+m) x k, identity on top
	parity []byte // rows k.. of matrix, row-major: the encoding coefficients
	inv    *invCache

	cpu     *cpuBackend
	cpuRate float64
	minGPU  int // products of AllocPinned shards (see directMatMuler)

	minGPUStaged int // products of other shards

	// gpuMu guards gpu against Close: products hold it for reading.
	gpuMu   sync.RWMutex
	gpu     MatMuler
	gpuRate float64
	gpuErr  error // why no GPU is attached, when one was wanted
	seen    seenRates

	last atomic.Pointer[Backends]
}

var (
	_ reedsolomon.Encoder    = (*Encoder)(nil)
	_ reedsolomon.Extensions = (*Encoder)(nil)
)

// New returns an Encoder for dataShards data and parityShards parity
// shards, dataShards >= 1, parityShards >= 0 and their sum at most 256.
// With no options its parity equals reedsolomon.New(dataShards,
// parityShards)'s byte for byte.
func New(dataShards, parityShards int, opts ...Option) (*Encoder, error) {
	c := defaultConfig()
	for _, o := range opts {
		o(&c)
	}
	if err := c.validate(); err != nil {
		return nil, err
	}
	k, m := dataShards, parityShards
	if k <= 0 || m < 0 {
		return nil, errorf(ErrInvShardNum, "New(%d, %d): need at least 1 data shard and 0 parity shards", k, m)
	}
	if k > 256 || m > 256 || k+m > 256 {
		// klauspost switches to its Leopard GF(2^16) code here: a different
		// code whose parity no GF(2^8) matrix reproduces.
		return nil, errorf(ErrMaxShardNum, "New(%d, %d): at most 256 shards in all in GF(2^8) (klauspost's Leopard GF(2^16) mode has no counterpart here)", k, m)
	}
	e := &Encoder{k: k, m: m, cpu: newCPUBackend(c.cpuOpts), cpuRate: c.cpuRate, minGPU: c.minGPUBytes,
		minGPUStaged: c.minGPUBytesStaged}
	e.matrix = identity(k) // with no parity, decoding is the identity
	if m > 0 {
		mat, err := codingMatrix(k, m, &c)
		if err != nil {
			return nil, err
		}
		e.matrix, e.parity = mat, flatten(mat[k:])
	}
	if c.inversionCache {
		e.inv = newInvCache()
	}
	if err := e.attachGPU(&c); err != nil {
		return nil, err
	}
	return e, nil
}

// DataShards returns k.
func (e *Encoder) DataShards() int { return e.k }

// ParityShards returns m.
func (e *Encoder) ParityShards() int { return e.m }

// TotalShards returns k + m.
func (e *Encoder) TotalShards() int { return e.k + e.m }

// ShardSizeMultiple returns 1: any shard length works, as with klauspost's
// GF(2^8) encoder. (The GPU gets 64-byte multiples; the CPU takes the rest.)
func (e *Encoder) ShardSizeMultiple() int { return 1 }

// AllocAligned allocates TotalShards shards of each bytes, 64-byte aligned.
// A negative size counts as zero.
func (e *Encoder) AllocAligned(each int) [][]byte {
	return reedsolomon.AllocAligned(e.TotalShards(), max(each, 0))
}

// UsesGPU reports whether a GPU backend is attached and, when not, why:
// a nil error means none was wanted or none is registered on this build.
func (e *Encoder) UsesGPU() (bool, error) {
	e.gpuMu.RLock()
	defer e.gpuMu.RUnlock()
	return e.gpu != nil, e.gpuErr
}

// Close detaches the GPU backend and closes it if it is an io.Closer. The
// Encoder stays usable on the CPU. Calls in flight finish first. Encoders
// without a GPU need no Close.
func (e *Encoder) Close() error {
	e.gpuMu.Lock()
	g := e.gpu
	e.gpu = nil
	e.gpuMu.Unlock()
	if c, ok := g.(io.Closer); ok {
		return c.Close()
	}
	return nil
}
