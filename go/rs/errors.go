package rs

import (
	"errors"
	"fmt"

	"github.com/klauspost/reedsolomon"
)

// The error values are klauspost's own, so code that tests
// errors.Is(err, reedsolomon.ErrTooFewShards) keeps working after the
// switch. They are repeated here so it can also say rs.ErrTooFewShards.
// Errors returned by this package wrap them with context; compare with
// errors.Is, never ==.
var (
	ErrTooFewShards        = reedsolomon.ErrTooFewShards
	ErrShardNoData         = reedsolomon.ErrShardNoData
	ErrShardSize           = reedsolomon.ErrShardSize
	ErrInvalidShardSize    = reedsolomon.ErrInvalidShardSize
	ErrInvShardNum         = reedsolomon.ErrInvShardNum
	ErrMaxShardNum         = reedsolomon.ErrMaxShardNum
	ErrInvalidInput        = reedsolomon.ErrInvalidInput
	ErrShortData           = reedsolomon.ErrShortData
	ErrReconstructRequired = reedsolomon.ErrReconstructRequired
	ErrNotSupported        = reedsolomon.ErrNotSupported
)

// Errors of this package, for cases klauspost has no exported value for.
var (
	// ErrInvalidMatrix: a custom matrix too small for the shard counts.
	ErrInvalidMatrix = errors.New("rs: invalid coding matrix")
	// ErrInvalidOption: an option value New cannot use (negative sizes,
	// non-finite rates).
	ErrInvalidOption = errors.New("rs: invalid option")
	// ErrNoGPU: WithGPU(GPURequired) was given but no GPU backend could be
	// started; the wrapped error says why.
	ErrNoGPU = errors.New("rs: no GPU backend")
)

// errorf wraps a sentinel with a message that names the problem, keeping
// errors.Is(err, sentinel) true.
func errorf(sentinel error, format string, args ...any) error {
	return fmt.Errorf("rs: %s: %w", fmt.Sprintf(format, args...), sentinel)
}
