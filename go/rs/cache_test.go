package rs

import (
	"fmt"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"
)

// Both caches must stay bounded and keep serving right answers while they
// evict, with many goroutines at once.
func TestInvCacheBounded(t *testing.T) {
	c := newInvCache()
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range invCacheSize {
				key := fmt.Sprint(w, i)
				c.put(key, matrix{{byte(i)}})
				if m := c.get(key); m != nil {
					require.Equal(t, byte(i), m[0][0])
				}
			}
		}()
	}
	wg.Wait()
	require.LessOrEqual(t, len(c.m), invCacheSize)
}

func TestCPUBackendCacheBounded(t *testing.T) {
	cpu := newCPUBackend(nil)
	in := [][]byte{{1, 2, 3}, {4, 5, 6}}
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 2 * cpuCacheSize {
				coeffs := []byte{byte(i), byte(w + 1)}
				out := [][]byte{make([]byte, 3)}
				want := [][]byte{make([]byte, 3)}
				require.NoError(t, cpu.MatMul(coeffs, 1, 2, in, out, false))
				MatMulRef(coeffs, 1, 2, in, want, false)
				require.Equal(t, want, out)
			}
		}()
	}
	wg.Wait()
	require.LessOrEqual(t, cpu.lru.Len(), cpuCacheSize)
	require.Equal(t, cpu.lru.Len(), len(cpu.byKey))
}
