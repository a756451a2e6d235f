package rs

import (
	"fmt"

	"github.com/kgen-gpu/kgen/go/cuda"
	"github.com/kgen-gpu/kgen/go/gf256"
)

// The device-resident API: shards already on the GPU, as byte ranges of
// device buffers, processed on a stream. This is where the kernels' own
// speed shows (no host transfers), and what a GPU pipeline calls. Every
// method returns once the work is queued on s (nil: the device's default
// stream); synchronize s before reading the results.

// EncodeDevice computes the parity shards shards[k:] from the data shards
// shards[:k], size bytes of each.
func (e *Encoder) EncodeDevice(s *cuda.Stream, shards []gf256.Shard, size int) error {
	if err := e.checkDevice("EncodeDevice", shards, size); err != nil {
		return err
	}
	eng, err := e.engine()
	if err != nil {
		return err
	}
	if e.m == 0 {
		return nil
	}
	return eng.MatMul(s, e.parity, shards[:e.k], shards[e.k:], size, false)
}

// ReconstructDevice rebuilds the shards for which present is false from k
// of those for which it is true, size bytes of each; with dataOnly only the
// missing data shards are rebuilt. The inversion runs on the CPU (cached,
// as Reconstruct's), the product on the GPU.
func (e *Encoder) ReconstructDevice(s *cuda.Stream, shards []gf256.Shard, present []bool, size int, dataOnly bool) error {
	const op = "ReconstructDevice"
	if err := e.checkDevice(op, shards, size); err != nil {
		return err
	}
	if len(present) != len(shards) {
		return errorf(ErrInvalidInput, "%s: %d present flags for %d shards", op, len(present), len(shards))
	}
	var valid, wanted []int
	for i, ok := range present {
		switch {
		case ok && len(valid) < e.k:
			valid = append(valid, i)
		case ok:
		case dataOnly && i >= e.k:
		default:
			wanted = append(wanted, i)
		}
	}
	if len(wanted) == 0 {
		return nil
	}
	if len(valid) < e.k {
		return errorf(ErrTooFewShards, "%s: %d shards present, need %d", op, len(valid), e.k)
	}
	eng, err := e.engine()
	if err != nil {
		return err
	}
	d, err := e.decodeMatrix(valid)
	if err != nil {
		return err
	}
	coeffs := make([]byte, 0, len(wanted)*e.k)
	in, out := make([]gf256.Shard, len(valid)), make([]gf256.Shard, len(wanted))
	for o, i := range wanted {
		coeffs = append(coeffs, e.recoveryRow(i, d)...)
		out[o] = shards[i]
	}
	for j, v := range valid {
		in[j] = shards[v]
	}
	return eng.MatMul(s, coeffs, in, out, size, false)
}

func (e *Encoder) checkDevice(op string, shards []gf256.Shard, size int) error {
	if err := checkCount(op, len(shards), e.TotalShards()); err != nil {
		return err
	}
	if size < 0 {
		return fmt.Errorf("rs: %s: shard size %d: %w", op, size, ErrShardSize)
	}
	if size == 0 {
		return errorf(ErrShardNoData, "%s: shards of 0 bytes", op)
	}
	return nil
}
