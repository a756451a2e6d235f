package rs

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func TestSeenRatesStartFromThePriorsAndMoveHalfway(t *testing.T) {
	var r seenRates
	require.Equal(t, 5e9, r.gpuRate(true, 5e9))
	require.Equal(t, 3e9, r.cpuRate(3e9))

	// 1 GB in 1 s each: the first observation replaces the prior.
	r.observe(true, 1e9, time.Second, 1e9, time.Second)
	require.InDelta(t, 1e9, r.gpuRate(true, 5e9), 1)
	require.InDelta(t, 1e9, r.cpuRate(3e9), 1)
	require.Equal(t, 7e9, r.gpuRate(false, 7e9), "staged shards keep their own rate")

	// Then halfway: 3 GB/s seen moves 1 to 2.
	r.observe(true, 3e9, time.Second, 3e9, time.Second)
	require.InDelta(t, 2e9, r.gpuRate(true, 5e9), 1)
	require.InDelta(t, 2e9, r.cpuRate(3e9), 1)
}

func TestSeenRatesIgnoreShortAndEmptyParts(t *testing.T) {
	var r seenRates
	r.observe(false, 1e6, minRateSample/2, 0, time.Second)
	require.Equal(t, 4e9, r.gpuRate(false, 4e9))
	require.Equal(t, 2e9, r.cpuRate(2e9))
	require.Zero(t, r.gpuTimes+r.cpuTimes)
}
