package rs

import (
	"container/list"
	"sync"

	"github.com/klauspost/reedsolomon"
)

// cpuBackend runs products through klauspost/reedsolomon, whose SIMD
// kernels are the fastest CPU GF(2^8) code we know. klauspost only
// multiplies by its own encoding matrix, so each coefficient block becomes
// the parity rows of a klauspost encoder built WithCustomMatrix; Encode
// then computes the product and EncodeIdx accumulates one input at a time.
type cpuBackend struct {
	opts []reedsolomon.Option

	mu    sync.Mutex
	lru   *list.List // of *cpuEntry, most recently used first
	byKey map[string]*list.Element
}

type cpuEntry struct {
	key string
	enc reedsolomon.Encoder
}

// cpuCacheSize bounds the klauspost encoders kept: one for encoding plus
// one per recent loss pattern is the common working set.
const cpuCacheSize = 64

// klauspostMaxShards: above 256 shards klauspost.New switches to its Leopard
// GF(2^16) code and ignores the custom matrix, so blocks stay at or below.
const klauspostMaxShards = 256

func newCPUBackend(opts []reedsolomon.Option) *cpuBackend {
	return &cpuBackend{opts: opts, lru: list.New(), byKey: map[string]*list.Element{}}
}

// MatMul implements MatMuler. Shapes wider than klauspost takes are cut
// into column and row blocks, later column blocks accumulating.
func (c *cpuBackend) MatMul(coeffs []byte, rows, k int, in, out [][]byte, accumulate bool) error {
	if err := checkMatMulArgs(coeffs, rows, k, in, out); err != nil {
		return err
	}
	if rows == 0 || len(out[0]) == 0 {
		return nil
	}
	if k == 0 {
		if !accumulate {
			for _, o := range out[:rows] {
				clear(o)
			}
		}
		return nil
	}
	colStep, rowStep := k, rows
	if k+rows > klauspostMaxShards {
		colStep = min(k, klauspostMaxShards/2)
		rowStep = klauspostMaxShards - colStep
	}
	for r0 := 0; r0 < rows; r0 += rowStep {
		r1 := min(r0+rowStep, rows)
		for j0 := 0; j0 < k; j0 += colStep {
			j1 := min(j0+colStep, k)
			block := make(matrix, r1-r0)
			for r := range block {
				block[r] = coeffs[(r0+r)*k+j0 : (r0+r)*k+j1]
			}
			err := c.block(block, in[j0:j1], out[r0:r1], accumulate || j0 > 0)
			if err != nil {
				return err
			}
		}
	}
	return nil
}

// block multiplies one block that klauspost can take whole.
func (c *cpuBackend) block(m matrix, in, out [][]byte, accumulate bool) error {
	enc, err := c.encoder(m)
	if err != nil {
		return err
	}
	if !accumulate {
		shards := make([][]byte, 0, len(in)+len(out))
		return enc.Encode(append(append(shards, in...), out...))
	}
	for j, s := range in {
		if err := enc.EncodeIdx(s, j, out); err != nil {
			return err
		}
	}
	return nil
}

// encoder returns the cached klauspost encoder whose parity rows are m.
func (c *cpuBackend) encoder(m matrix) (reedsolomon.Encoder, error) {
	key := string([]byte{byte(len(m)), byte(len(m[0]))}) + string(flatten(m))
	c.mu.Lock()
	if el, ok := c.byKey[key]; ok {
		c.lru.MoveToFront(el)
		c.mu.Unlock()
		return el.Value.(*cpuEntry).enc, nil
	}
	c.mu.Unlock()

	// Built outside the lock: New costs far more than a lookup, and two
	// goroutines building the same encoder is harmless.
	opts := append([]reedsolomon.Option{reedsolomon.WithCustomMatrix(m)}, c.opts...)
	enc, err := reedsolomon.New(len(m[0]), len(m), opts...)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.byKey[key]; !ok {
		c.byKey[key] = c.lru.PushFront(&cpuEntry{key: key, enc: enc})
		if c.lru.Len() > cpuCacheSize {
			oldest := c.lru.Remove(c.lru.Back()).(*cpuEntry)
			delete(c.byKey, oldest.key)
		}
	}
	return enc, nil
}
