package rs

import "crypto/subtle"

// DecodeIdx decodes progressively, as klauspost's method of the same name:
// shards arrive in any order and any number of calls, and each call XORs
// their contribution into the non-nil dst shards (zeroed by the caller
// before the first call). expectInput marks the shards that will arrive
// (at least k); the first k of them are the ones decoded from, so later
// ones contribute nothing. input[i] is non-nil for shards given in this
// call. With expectInput nil, DecodeIdx instead merges partial results:
// dst[i] ^= input[i] for each non-nil input.
func (e *Encoder) DecodeIdx(dst [][]byte, expectInput []bool, input [][]byte) error {
	if expectInput == nil {
		return mergeDecoded(dst, input)
	}
	total := e.TotalShards()
	for _, c := range []struct {
		name string
		n    int
	}{{"expectInput", len(expectInput)}, {"dst", len(dst)}, {"input", len(input)}} {
		if c.n != total {
			return errorf(ErrInvalidInput, "DecodeIdx: %s has %d entries, want %d", c.name, c.n, total)
		}
	}
	var valid []int
	for i := range expectInput {
		switch {
		case input[i] != nil && !expectInput[i]:
			return errorf(ErrInvalidInput, "DecodeIdx: input %d given but not expected", i)
		case expectInput[i] && dst[i] != nil:
			return errorf(ErrInvalidInput, "DecodeIdx: dst %d must be nil: shard %d is an expected input", i, i)
		case expectInput[i]:
			valid = append(valid, i)
		}
	}
	if len(valid) < e.k {
		return errorf(ErrTooFewShards, "DecodeIdx: %d inputs expected, need %d", len(valid), e.k)
	}
	valid = valid[:e.k]
	d, err := e.decodeMatrix(valid)
	if err != nil {
		return err
	}
	n, err := decodeIdxSize(dst, input)
	if err != nil {
		return err
	}
	var in [][]byte
	var cols []int // column of d for each input
	for j, v := range valid {
		if input[v] != nil {
			in, cols = append(in, input[v]), append(cols, j)
		}
	}
	var out [][]byte
	var coeffs []byte
	for i, s := range dst {
		if s == nil {
			continue
		}
		row := e.recoveryRow(i, d)
		for _, j := range cols {
			coeffs = append(coeffs, row[j])
		}
		out = append(out, s)
	}
	if len(in) == 0 || len(out) == 0 || n == 0 {
		return nil
	}
	return e.mul(coeffs, len(out), len(in), in, out, true)
}

// decodeIdxSize is the common length of the given inputs, which every
// non-nil dst must share.
func decodeIdxSize(dst, input [][]byte) (int, error) {
	n, known := 0, false
	for i, s := range input {
		switch {
		case s == nil:
		case !known:
			n, known = len(s), true
		case len(s) != n:
			return 0, errorf(ErrInvalidShardSize, "DecodeIdx: input %d is %d bytes, want %d", i, len(s), n)
		}
	}
	for i, s := range dst {
		if s != nil && len(s) != n {
			return 0, errorf(ErrInvalidShardSize, "DecodeIdx: dst %d is %d bytes, want %d", i, len(s), n)
		}
	}
	return n, nil
}

// mergeDecoded is DecodeIdx's merge mode.
func mergeDecoded(dst, input [][]byte) error {
	if len(dst) != len(input) {
		return errorf(ErrInvalidInput, "DecodeIdx merge: %d dst, %d input", len(dst), len(input))
	}
	for i, s := range input {
		switch {
		case s == nil:
		case dst[i] == nil:
			return errorf(ErrInvalidInput, "DecodeIdx merge: input %d given but dst %d is nil", i, i)
		case len(dst[i]) != len(s):
			return errorf(ErrInvalidShardSize, "DecodeIdx merge: dst %d is %d bytes, input %d", i, len(dst[i]), len(s))
		}
	}
	for i, s := range input {
		if s != nil {
			subtle.XORBytes(dst[i], dst[i], s)
		}
	}
	return nil
}
