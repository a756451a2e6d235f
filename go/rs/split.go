package rs

import (
	"io"

	"github.com/klauspost/reedsolomon"
)

// Split cuts data into k equal data shards plus m empty parity shards,
// laid out exactly as klauspost's Split: shards are ceil(len/k) bytes, the
// last data shards padded with zeros. Whole shards alias data; spare
// capacity of data is zeroed and used before anything is allocated. Empty
// data gives ErrShortData.
func (e *Encoder) Split(data []byte) ([][]byte, error) {
	if len(data) == 0 {
		return nil, errorf(ErrShortData, "Split: no data")
	}
	total := e.TotalShards()
	if total == 1 {
		return [][]byte{data}, nil
	}
	size := len(data)
	per := (size + e.k - 1) / e.k
	if extra := min(cap(data), total*per); extra > size {
		data = data[:extra]
		clear(data[size:])
	}
	shards := make([][]byte, total)
	whole := min(len(data)/per, total)
	for i := range whole {
		shards[i] = data[i*per : (i+1)*per : (i+1)*per]
	}
	if whole < total {
		// The tail of data (less than a shard) and every shard after it.
		rest := reedsolomon.AllocAligned(total-whole, per)
		if whole*per < size {
			copy(rest[0], data[whole*per:size])
		}
		copy(shards[whole:], rest)
	}
	return shards, nil
}

// Join writes the first outSize bytes of the data shards to dst. Fewer
// than k shards give ErrTooFewShards, a nil data shard within the bytes
// needed ErrReconstructRequired, and too little data ErrShortData.
func (e *Encoder) Join(dst io.Writer, shards [][]byte, outSize int) error {
	if len(shards) < e.k {
		return errorf(ErrTooFewShards, "Join: got %d shards, want at least %d", len(shards), e.k)
	}
	if outSize < 0 || dst == nil {
		return errorf(ErrInvalidInput, "Join: outSize %d, writer %v", outSize, dst)
	}
	shards = shards[:e.k]
	have := 0
	for i, s := range shards {
		if s == nil {
			return errorf(ErrReconstructRequired, "Join: data shard %d is nil", i)
		}
		if have += len(s); have >= outSize {
			break
		}
	}
	if have < outSize {
		return errorf(ErrShortData, "Join: data shards hold %d bytes, want %d", have, outSize)
	}
	left := outSize
	for _, s := range shards {
		if left == 0 {
			break
		}
		n := min(left, len(s))
		if _, err := dst.Write(s[:n]); err != nil {
			return err
		}
		left -= n
	}
	return nil
}
