package rs

// Argument checks in klauspost's order, so that a bad call gets the same
// error value from both packages; the messages add which shard and why.

// checkCount wants exactly want shards, else ErrTooFewShards (klauspost
// uses it for too many, too).
func checkCount(op string, got, want int) error {
	if got != want {
		return errorf(ErrTooFewShards, "%s: got %d shards, want %d", op, got, want)
	}
	return nil
}

// shardSize is the length of the first non-empty shard, 0 if none.
func shardSize(shards [][]byte) int {
	for _, s := range shards {
		if len(s) != 0 {
			return len(s)
		}
	}
	return 0
}

// checkShards wants one common non-zero length; with missingOK, empty
// shards (nil or zero length) stand for missing ones and are allowed.
func checkShards(op string, shards [][]byte, missingOK bool) error {
	n := shardSize(shards)
	if n == 0 {
		return errorf(ErrShardNoData, "%s: all %d shards are empty", op, len(shards))
	}
	for i, s := range shards {
		if len(s) != n && (len(s) != 0 || !missingOK) {
			return errorf(ErrShardSize, "%s: shard %d is %d bytes, shard %d is %d", op, i, len(s), firstNonEmpty(shards), n)
		}
	}
	return nil
}

func firstNonEmpty(shards [][]byte) int {
	for i, s := range shards {
		if len(s) != 0 {
			return i
		}
	}
	return -1
}
