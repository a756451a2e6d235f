package rs

import (
	"bytes"
	"crypto/subtle"

	"github.com/klauspost/reedsolomon"
)

// Encode computes the parity shards from the data shards. shards holds k
// data then m parity shards, all of one non-zero length; parity is
// overwritten and data only read.
func (e *Encoder) Encode(shards [][]byte) error {
	if err := checkCount("Encode", len(shards), e.TotalShards()); err != nil {
		return err
	}
	if err := checkShards("Encode", shards, false); err != nil {
		return err
	}
	if e.m == 0 {
		return nil
	}
	return e.mul(e.parity, e.m, e.k, shards[:e.k], shards[e.k:], false)
}

// EncodeIdx adds data shard idx's contribution to the m parity shards,
// which the caller zeroes before the first shard; delivering every data
// shard once leaves the same parity as Encode.
func (e *Encoder) EncodeIdx(dataShard []byte, idx int, parity [][]byte) error {
	if err := checkCount("EncodeIdx parity", len(parity), e.m); err != nil {
		return err
	}
	if e.m == 0 {
		return nil
	}
	if idx < 0 || idx >= e.k {
		return errorf(ErrInvShardNum, "EncodeIdx: index %d, want 0 <= idx < %d", idx, e.k)
	}
	if err := checkShards("EncodeIdx parity", parity, false); err != nil {
		return err
	}
	if len(dataShard) != len(parity[0]) {
		return errorf(ErrShardSize, "EncodeIdx: data shard is %d bytes, parity %d", len(dataShard), len(parity[0]))
	}
	column := make([]byte, e.m)
	for r := range column {
		column[r] = e.parity[r*e.k+idx]
	}
	return e.mul(column, e.m, 1, [][]byte{dataShard}, parity, true)
}

// Verify reports whether the parity shards match the data shards. Nothing
// is modified.
func (e *Encoder) Verify(shards [][]byte) (bool, error) {
	if err := checkCount("Verify", len(shards), e.TotalShards()); err != nil {
		return false, err
	}
	if err := checkShards("Verify", shards, false); err != nil {
		return false, err
	}
	if e.m == 0 {
		return true, nil
	}
	want := reedsolomon.AllocAligned(e.m, len(shards[0]))
	if err := e.mul(e.parity, e.m, e.k, shards[:e.k], want, false); err != nil {
		return false, err
	}
	for i, p := range want {
		if !bytes.Equal(p, shards[e.k+i]) {
			return false, nil
		}
	}
	return true, nil
}

// Update brings the parity in shards up to date after the data shards given
// non-empty in newDatashards change. shards holds the old data (only the
// changed shards are needed; others may be nil) and the old parity, which
// is updated in place. The old data shards are not modified (klauspost's
// implementation leaves old XOR new in them; its documentation, like this
// one, promises they are not touched).
func (e *Encoder) Update(shards [][]byte, newDatashards [][]byte) error {
	if err := checkCount("Update", len(shards), e.TotalShards()); err != nil {
		return err
	}
	if err := checkCount("Update new data", len(newDatashards), e.k); err != nil {
		return err
	}
	if err := checkShards("Update", shards, true); err != nil {
		return err
	}
	if err := checkShards("Update new data", newDatashards, true); err != nil {
		return err
	}
	n := shardSize(shards)
	var changed []int
	for i, s := range newDatashards {
		switch {
		case len(s) == 0:
			continue
		case len(s) != n:
			return errorf(ErrShardSize, "Update: new data shard %d is %d bytes, shards are %d", i, len(s), n)
		case len(shards[i]) != n:
			return errorf(ErrInvalidInput, "Update: new data shard %d given but old data shard %d is missing", i, i)
		}
		changed = append(changed, i)
	}
	for i, p := range shards[e.k:] {
		if len(p) != n {
			return errorf(ErrInvalidInput, "Update: parity shard %d is %d bytes, want %d", e.k+i, len(p), n)
		}
	}
	if e.m == 0 {
		return nil
	}
	// parity += P[:, changed] * (old xor new), as parity is linear in data.
	deltas := reedsolomon.AllocAligned(len(changed), n)
	coeffs := make([]byte, e.m*len(changed))
	for c, i := range changed {
		subtle.XORBytes(deltas[c], shards[i], newDatashards[i])
		for r := 0; r < e.m; r++ {
			coeffs[r*len(changed)+c] = e.parity[r*e.k+i]
		}
	}
	return e.mul(coeffs, e.m, len(changed), deltas, shards[e.k:], true)
}
