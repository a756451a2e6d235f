package rs_test

import (
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/klauspost/reedsolomon"

	"github.com/kgen-gpu/kgen/go/rs"
)

// FuzzNewAndEncodeArgs throws random shapes and malformed shard lists at
// New and the shard-taking methods. Ours must never panic, and must agree
// with klauspost: the same error class, or the same bytes. (Where klauspost
// itself panics, ours must still return an error or a correct result.)
func FuzzNewAndEncodeArgs(f *testing.F) {
	f.Add(4, 2, int8(0), uint8(16), []byte{}, uint8(0))
	f.Add(4, 2, int8(0), uint8(16), []byte{0, 1, 2, 3, 200, 200}, uint8(2))
	f.Add(10, 4, int8(-1), uint8(3), []byte{9}, uint8(1))
	f.Add(1, 0, int8(0), uint8(1), []byte{7, 7}, uint8(4))
	f.Add(0, 1, int8(0), uint8(1), []byte{}, uint8(0))
	f.Add(200, 57, int8(0), uint8(1), []byte{}, uint8(0))
	f.Add(17, 3, int8(1), uint8(0), []byte{3, 3, 3}, uint8(5))
	f.Add(5, 3, int8(0), uint8(9), []byte{3, 0, 3, 1}, uint8(6))
	f.Add(3, 0, int8(0), uint8(5), []byte{}, uint8(6))
	f.Fuzz(func(t *testing.T, k, m int, countDelta int8, n uint8, pattern []byte, op uint8) {
		ours, err := rs.New(k, m)
		small := k <= 256 && m <= 256 // klauspost's Leopard setup is slow above
		if small {
			kp, kpErr := reedsolomon.New(k, m)
			if (err == nil) != (kpErr == nil && k+m <= 256) {
				t.Fatalf("New(%d, %d): ours %v, klauspost %v", k, m, err, kpErr)
			}
			if kpErr != nil && !errors.Is(err, sentinelOf(kpErr)) {
				t.Fatalf("New(%d, %d): ours %v, klauspost %v", k, m, err, kpErr)
			}
			if err == nil {
				fuzzOp(t, ours, kp, k, m, int(countDelta%3), int(n%65), pattern, op)
			}
		}
	})
}

// fuzzOp builds a correctly encoded shard set, damages it by pattern (one
// byte per shard: nil, empty, one byte long, or intact) and by adding or
// removing shards, and runs operation op on both encoders.
func fuzzOp(t *testing.T, ours *rs.Encoder, kp reedsolomon.Encoder, k, m, countDelta, n int, pattern []byte, op uint8) {
	rng := rand.New(rand.NewPCG(uint64(k*1000+m), uint64(n)))
	truth := randShards(rng, k+m, n)
	if n > 0 {
		_ = kp.Encode(truth)
	}
	shards := clone(truth)
	for i := range shards {
		if i < len(pattern) {
			switch pattern[i] % 8 {
			case 0:
				shards[i] = nil
			case 1:
				shards[i] = shards[i][:0]
			case 2:
				shards[i] = append(shards[i], 1)
			}
		}
	}
	switch {
	case countDelta < 0 && len(shards) > 0:
		shards = shards[:len(shards)-1]
	case countDelta > 0:
		shards = append(shards, make([]byte, n))
	}
	idx := int(op>>3) - 2
	run := func(enc reedsolomon.Encoder, s [][]byte) error {
		switch op % 7 {
		case 6:
			// Decode from the shards present into zeroed missing ones; dst
			// is returned in s's place so the comparison below covers it.
			expect := make([]bool, len(s))
			dst := make([][]byte, len(s))
			for i, x := range s {
				expect[i] = len(x) != 0
				if !expect[i] {
					dst[i] = make([]byte, n)
					s[i] = nil
				}
			}
			err := enc.(reedsolomon.Extensions).DecodeIdx(dst, expect, s)
			copy(s, dst)
			return err
		case 0:
			return enc.Encode(s)
		case 1:
			_, err := enc.Verify(s)
			return err
		case 2:
			return enc.Reconstruct(s)
		case 3:
			return enc.ReconstructData(s)
		case 4:
			if len(s) == 0 {
				return enc.EncodeIdx(nil, idx, s)
			}
			return enc.EncodeIdx(s[0], idx, s[min(k, len(s)):])
		default:
			if len(s) < k {
				return enc.Update(s, s)
			}
			return enc.Update(s, clone(s[:k]))
		}
	}
	got, want := clone(shards), clone(shards)
	ourErr := run(ours, got)
	kpErr, kpPanic := runRecover(func() error { return run(kp, want) })
	if kpPanic != nil {
		// Only ours to judge: an error, or shards that match the truth.
		if ourErr == nil {
			checkAgainstTruth(t, got, truth)
		}
		return
	}
	if (ourErr == nil) != (kpErr == nil) || kpErr != nil && !errors.Is(ourErr, sentinelOf(kpErr)) {
		t.Fatalf("op %d: ours %v, klauspost %v", op%7, ourErr, kpErr)
	}
	if ourErr == nil && op%7 != 5 { // klauspost's Update rewrites old data
		for i := range got {
			if string(got[i]) != string(want[i]) {
				t.Fatalf("op %d: shard %d differs from klauspost's", op%7, i)
			}
		}
	}
}

func runRecover(f func() error) (err error, panicked any) {
	defer func() { panicked = recover() }()
	return f(), nil
}

func checkAgainstTruth(t *testing.T, got, truth [][]byte) {
	for i := range min(len(got), len(truth)) {
		if len(got[i]) == len(truth[i]) && string(got[i]) != string(truth[i]) {
			t.Fatalf("shard %d wrong", i)
		}
	}
}
