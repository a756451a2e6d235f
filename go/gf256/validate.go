package gf256

import (
	"errors"
	"fmt"

	"github.com/kgen-gpu/kgen/go/cuda"
)

// ErrShape is wrapped by every error about the shape of a product: shard
// counts, coefficient counts, lengths.
var ErrShape = errors.New("gf256: bad product shape")

func (e *Engine) validate(s *cuda.Stream, coeffs []byte, in, out []Shard, n int) error {
	switch {
	case s != nil && s.Handle() == nil:
		return errors.New("gf256: the stream was destroyed")
	case s != nil && s.Device().Ordinal() != e.dev.Ordinal():
		return errors.New("gf256: the stream belongs to another device")
	case n < 0:
		return fmt.Errorf("%w: shard length %d", ErrShape, n)
	case len(in) > MaxShards || len(out) > MaxShards:
		return fmt.Errorf("%w: %d inputs and %d outputs; at most %d each", ErrShape, len(in), len(out), MaxShards)
	case len(out) > 0 && len(in) == 0:
		return fmt.Errorf("%w: %d outputs from no inputs", ErrShape, len(out))
	case len(coeffs) != len(in)*len(out):
		return fmt.Errorf("%w: %d coefficients for %d outputs x %d inputs (want %d)", ErrShape, len(coeffs), len(out), len(in), len(in)*len(out))
	}
	for _, list := range []struct {
		name   string
		shards []Shard
	}{{"input", in}, {"output", out}} {
		for i, sh := range list.shards {
			if err := e.checkShard(sh, n); err != nil {
				return fmt.Errorf("gf256: %s shard %d: %w", list.name, i, err)
			}
		}
	}
	// An output may not overlap an input (a kernel reads inputs while other
	// blocks write outputs) or another output.
	for i, o := range out {
		for j, x := range in {
			if overlaps(o, x, n) {
				return fmt.Errorf("gf256: output shard %d overlaps input shard %d", i, j)
			}
		}
		for j, x := range out[:i] {
			if overlaps(o, x, n) {
				return fmt.Errorf("gf256: output shard %d overlaps output shard %d", i, j)
			}
		}
	}
	return nil
}

func (e *Engine) checkShard(sh Shard, n int) error {
	switch {
	case sh.Buf == nil:
		return errors.New("nil buffer")
	case sh.Buf.Device() == nil:
		return errors.New("the buffer was freed")
	case sh.Buf.Device().Ordinal() != e.dev.Ordinal(): // two Opens of one GPU are one device
		return fmt.Errorf("the buffer is on device %d, the engine on device %d", sh.Buf.Device().Ordinal(), e.dev.Ordinal())
	case sh.Off < 0 || sh.Off > sh.Buf.Bytes() || n > sh.Buf.Bytes()-sh.Off:
		return fmt.Errorf("%d bytes at offset %d do not fit its %d bytes", n, sh.Off, sh.Buf.Bytes())
	}
	return nil
}

// overlaps reports whether two n-byte shards share a byte.
func overlaps(a, b Shard, n int) bool {
	return n > 0 && a.Buf == b.Buf && a.Off < b.Off+n && b.Off < a.Off+n
}
