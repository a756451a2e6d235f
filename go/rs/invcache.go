package rs

import "sync"

// invCache keeps decoding matrices by loss pattern. Storage systems lose
// the same shards over and over (one dead disk), so the k x k inversion,
// O(k^3), is worth doing once per pattern. The key is the list of the k
// surviving shards used, which fixes the matrix.
type invCache struct {
	mu sync.RWMutex
	m  map[string]matrix
}

// invCacheSize bounds the cache. When full, a random entry goes (Go's map
// order is random), which costs nothing to track and keeps hot patterns
// likely to stay.
const invCacheSize = 1024

func newInvCache() *invCache { return &invCache{m: map[string]matrix{}} }

// get returns the cached matrix; it is shared and must not be modified.
func (c *invCache) get(key string) matrix {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.m[key]
}

func (c *invCache) put(key string, m matrix) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.m) >= invCacheSize {
		for k := range c.m {
			delete(c.m, k)
			break
		}
	}
	c.m[key] = m
}

// decodeMatrix returns the inverse of the rows of the encoding matrix
// named by valid (k shard indices in increasing order): row i of it turns
// those k shards back into data shard i.
func (e *Encoder) decodeMatrix(valid []int) (matrix, error) {
	key := make([]byte, len(valid))
	for i, v := range valid {
		key[i] = byte(v) // < 256 shards, so one byte each
	}
	if e.inv != nil {
		if d := e.inv.get(string(key)); d != nil {
			return d, nil
		}
	}
	sub := make(matrix, len(valid))
	for i, v := range valid {
		sub[i] = e.matrix[v]
	}
	d, err := sub.invert()
	if err != nil {
		return nil, err
	}
	if e.inv != nil {
		e.inv.put(string(key), d)
	}
	return d, nil
}

// recoveryRow is the row that computes shard i from the shards in valid,
// given their decoding matrix d: d's own row for data, the parity row
// times d for parity.
func (e *Encoder) recoveryRow(i int, d matrix) []byte {
	if i < e.k {
		return d[i]
	}
	return mulRowMatrix(e.matrix[i], d)
}
