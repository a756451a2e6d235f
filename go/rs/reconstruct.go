package rs

import "github.com/klauspost/reedsolomon"

// Reconstruct recreates every missing shard. shards holds k+m shards; a
// missing one is nil or empty, and its capacity is reused when it holds a
// shard, else a new slice is allocated. Fewer than k present shards give
// ErrTooFewShards. Integrity is not checked: use Verify.
func (e *Encoder) Reconstruct(shards [][]byte) error {
	return e.reconstruct("Reconstruct", shards, false, nil)
}

// ReconstructData recreates the missing data shards only; missing parity
// stays missing (so Verify will fail until Reconstruct or Encode).
func (e *Encoder) ReconstructData(shards [][]byte) error {
	return e.reconstruct("ReconstructData", shards, true, nil)
}

// ReconstructSome recreates the missing shards marked true in required,
// which has k entries (data shards only) or k+m.
func (e *Encoder) ReconstructSome(shards [][]byte, required []bool) error {
	if len(required) != e.k && len(required) != e.TotalShards() {
		return errorf(ErrInvalidInput, "ReconstructSome: %d required flags, want %d or %d", len(required), e.k, e.TotalShards())
	}
	return e.reconstruct("ReconstructSome", shards, len(required) == e.k, required)
}

// reconstruct decodes from the first k present shards: their rows of the
// encoding matrix, inverted, turn them back into data, and parity rows
// times that inverse give parity. Every missing shard wanted is one row of
// a single product.
func (e *Encoder) reconstruct(op string, shards [][]byte, dataOnly bool, required []bool) error {
	if err := checkCount(op, len(shards), e.TotalShards()); err != nil {
		return err
	}
	if err := checkShards(op, shards, true); err != nil {
		return err
	}
	n := shardSize(shards)
	var valid, wanted []int
	present := 0
	for i, s := range shards {
		switch {
		case len(s) != 0:
			present++
			if len(valid) < e.k {
				valid = append(valid, i)
			}
		case dataOnly && i >= e.k:
		case required != nil && !required[i]:
		default:
			wanted = append(wanted, i)
		}
	}
	if len(wanted) == 0 {
		return nil
	}
	if present < e.k {
		return errorf(ErrTooFewShards, "%s: %d shards present, need %d", op, present, e.k)
	}
	d, err := e.decodeMatrix(valid)
	if err != nil {
		return err
	}
	coeffs := make([]byte, 0, len(wanted)*e.k)
	out := make([][]byte, len(wanted))
	for o, i := range wanted {
		coeffs = append(coeffs, e.recoveryRow(i, d)...)
		if cap(shards[i]) >= n {
			out[o] = shards[i][:n]
		} else {
			out[o] = reedsolomon.AllocAligned(1, n)[0]
		}
	}
	in := make([][]byte, len(valid))
	for j, v := range valid {
		in[j] = shards[v]
	}
	if err := e.mul(coeffs, len(wanted), e.k, in, out, false); err != nil {
		return err
	}
	// Hand the shards over only once they hold the right bytes.
	for o, i := range wanted {
		shards[i] = out[o]
	}
	return nil
}
