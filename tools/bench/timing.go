package main

import (
	"fmt"
	"sort"
	"time"

	"github.com/kgen-gpu/kgen/go/cuda"
)

// Timing is one row's measurement: the median time of one launch and the
// spread of the repeats around it.
type Timing struct {
	Ms       float64 // median per launch
	NoiseMs  float64 // interquartile range of the per-launch times of the repeats
	Launches int     // launches between one pair of events (or in one graph)
	Method   string  // events, graph or wall
}

// Launch queues the work to time once on stream s; i counts the launches
// of one measurement from 0, so that the caller can rotate operand sets
// (i % len(sets)) to keep small problems out of the L2.
type Launch func(s *cuda.Stream, i int) error

// maxLaunches caps the launches per event pair: enough for a few-us kernel
// to span 1 ms, not so many that a mistaken estimate runs for minutes.
const maxLaunches = 1024

// Measure times launch on the bench's stream: warm-up launches, then as
// many launches back to back between one pair of events as make the pair
// span -min-span-ms (so that the launch latency of an idle GPU does not
// count against a 60 us kernel), repeated -iters times. This is the
// function for anything that times a launch function over operand sets,
// the tuner included.
func (b *bencher) Measure(launch Launch) (Timing, error) {
	i := 0
	for range b.warmup {
		if err := launch(b.stream, i); err != nil {
			return Timing{}, err
		}
		i++
	}
	n := 1
	for {
		ms, err := b.span(launch, &i, n)
		if err != nil {
			return Timing{}, err
		}
		if ms >= b.minSpanMs || n >= maxLaunches {
			break
		}
		// Aim past the span with some margin, at least doubling.
		n = min(maxLaunches, max(2*n, int(1.2*b.minSpanMs/max(ms, 1e-4)*float64(n))+1))
	}
	per := make([]float64, b.iters)
	for r := range per {
		ms, err := b.span(launch, &i, n)
		if err != nil {
			return Timing{}, err
		}
		per[r] = ms / float64(n)
	}
	med, iqr := medianIQR(per)
	return Timing{Ms: med, NoiseMs: iqr, Launches: n, Method: "events"}, nil
}

// span times n launches between one pair of events, in milliseconds.
func (b *bencher) span(launch Launch, i *int, n int) (float64, error) {
	if err := b.start.Record(b.stream); err != nil {
		return 0, err
	}
	for range n {
		if err := launch(b.stream, *i); err != nil {
			return 0, err
		}
		*i++
	}
	if err := b.stop.Record(b.stream); err != nil {
		return 0, err
	}
	if err := b.stop.Synchronize(); err != nil {
		return 0, err
	}
	ms, err := cuda.Elapsed(b.start, b.stop)
	return float64(ms), err
}

// MeasureGraph captures n launches (i = 0 .. n-1) into one CUDA graph and
// times replays of it, one per event pair: what launching from a graph
// costs, without the host between kernels. n comes from a Measure of the
// same launch so that the graph spans -min-span-ms too.
func (b *bencher) MeasureGraph(launch Launch, n int) (Timing, error) {
	g, err := b.stream.Capture(func() error {
		for i := range n {
			if err := launch(b.stream, i); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return Timing{}, fmt.Errorf("graph capture: %w", err)
	}
	defer g.Destroy()
	replay := func(s *cuda.Stream, _ int) error { return g.Launch(s) }
	i := 0
	for range max(b.warmup, 1) {
		if err := replay(b.stream, 0); err != nil {
			return Timing{}, err
		}
	}
	per := make([]float64, b.iters)
	for r := range per {
		ms, err := b.span(replay, &i, 1)
		if err != nil {
			return Timing{}, err
		}
		per[r] = ms / float64(n)
	}
	med, iqr := medianIQR(per)
	return Timing{Ms: med, NoiseMs: iqr, Launches: n, Method: "graph"}, nil
}

// wallTiming is the wall-clock median and spread of iters runs of f (host
// work: klauspost, the host-to-host pipeline), after one warm-up.
func wallTiming(iters int, f func() error) (Timing, error) {
	if err := f(); err != nil {
		return Timing{}, err
	}
	ts := make([]float64, iters)
	for i := range ts {
		start := time.Now()
		if err := f(); err != nil {
			return Timing{}, err
		}
		ts[i] = float64(time.Since(start).Nanoseconds()) / 1e6
	}
	med, iqr := medianIQR(ts)
	return Timing{Ms: med, NoiseMs: iqr, Launches: 1, Method: "wall"}, nil
}

// medianIQR is the median and the interquartile range (linear
// interpolation between order statistics) of xs, which it sorts.
func medianIQR(xs []float64) (median, iqr float64) {
	if len(xs) == 0 {
		return 0, 0
	}
	sort.Float64s(xs)
	q := func(p float64) float64 {
		pos := p * float64(len(xs)-1)
		lo := int(pos)
		if lo+1 >= len(xs) {
			return xs[lo]
		}
		return xs[lo] + (pos-float64(lo))*(xs[lo+1]-xs[lo])
	}
	return q(0.5), q(0.75) - q(0.25)
}
