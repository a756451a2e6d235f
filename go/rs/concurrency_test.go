package rs_test

import (
	"errors"
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kgen-gpu/kgen/go/rs"
)

// TestConcurrentUse has many goroutines encode, verify and reconstruct
// through one Encoder, with random loss patterns so the inversion cache
// fills and evicts concurrently; once CPU-only and once split with a fake
// GPU. Run it under -race.
func TestConcurrentUse(t *testing.T) {
	s := shape{10, 4}
	for _, opts := range map[string][]rs.Option{
		"cpu":   nil,
		"split": {rs.WithGPUBackend(&refGPU{}, 2e9), rs.WithCPURate(1e9), rs.WithMinGPUBytes(0)},
	} {
		enc, err := rs.New(s.k, s.m, opts...)
		require.NoError(t, err)
		var wg sync.WaitGroup
		errs := make(chan error, 16)
		for w := range 16 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				rng := rand.New(rand.NewPCG(uint64(w), 1))
				for range 20 {
					if err := roundTrip(enc, s, rng); err != nil {
						errs <- err
						return
					}
				}
			}()
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Fatal(err)
		}
	}
}

func roundTrip(enc *rs.Encoder, s shape, rng *rand.Rand) error {
	orig := randShards(rng, s.k+s.m, 1+rng.IntN(3000))
	if err := enc.Encode(orig); err != nil {
		return err
	}
	got := clone(orig)
	for _, i := range rng.Perm(s.k + s.m)[:1+rng.IntN(s.m)] {
		got[i] = nil
	}
	if err := enc.Reconstruct(got); err != nil {
		return err
	}
	for i := range got {
		if string(got[i]) != string(orig[i]) {
			return errMismatch
		}
	}
	if ok, err := enc.Verify(got); err != nil || !ok {
		return errMismatch
	}
	_ = enc.LastBackends()
	return nil
}

var errMismatch = errors.New("reconstructed shards differ from the originals")
