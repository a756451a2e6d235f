package gemm

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/kgen-gpu/kgen/go/cuda"
	"github.com/kgen-gpu/kgen/go/internal/kernels"
	"github.com/kgen-gpu/kgen/internal/tuning"
)

// DefaultTuneCandidates is how many instances Tune times unless told: the
// four the device's table predicts fastest. On an H200, at 40 random shapes
// in 4 layouts that no tune had measured, an engine tuned over its table's
// first four ran within 5% of the fastest instance at 151 of 160 problems,
// the table's own pick at 122 (bench -engine-tune 4; replayed offline on
// 368 such problems, the fastest of the first four is within 5% at 350,
// of the first two at 309: internal/tuning's
// TestTopOfTheRankingOnFreshShapes).
const DefaultTuneCandidates = 4

// TuneOptions says what Tune times.
type TuneOptions struct {
	// Candidates is how many instances to time: those the device's table
	// predicts fastest for the problem (0: DefaultTuneCandidates). Where
	// the device has no table for the problem's instances, Tune times
	// every instance that can run it.
	Candidates int
	// All times every instance that can run the problem, whatever the
	// table predicts.
	All bool
	// Rounds is how many times each candidate is timed, in turn with the
	// others so that a change of clock falls on all of them alike (0:
	// DefaultTuneRounds); its time is the median.
	Rounds int
}

// DefaultTuneRounds is how many times Tune times each candidate unless
// told.
const DefaultTuneRounds = 5

// tuneSpanMs is the least time Tune measures between two events: a short
// kernel is launched several times in a row, so that the events' own
// resolution and the launches' latency count little.
const tuneSpanMs = 0.2

// TunedTime is one candidate's time on the caller's problem.
type TunedTime struct {
	Name        string
	Ms          float64 // a launch's time, the median over the rounds
	PredictedMs float64 // the device's table's time for it, 0 where it has none
}

// Tuning is what Tune measured and chose.
type Tuning struct {
	// Choice is the instance the engine runs for the problem from now on
	// (Source Tuned), or for an empty problem its usual choice.
	Choice Choice
	// Times are the candidates', fastest first; none for an empty problem.
	Times []TunedTime
}

// Tune times the instances that may run fastest for the GEMM of element
// type dt that GEMM(dt, s, alpha, a, b, beta, c) computes, on those
// operands, and makes the fastest the engine's choice for every later GEMM
// of that element type, shape and layouts (and Pick's answer, with Source
// Tuned): a dispatch measured on this GPU at the caller's own shape, where
// the table measured shapes around it and predicts between them. C is not
// written: the candidates write a scratch matrix of C's shape, stride and
// alignment, which Tune allocates and frees. It waits for s, so it cannot
// run while s is captured into a graph: tune first, then capture.
//
// Which instances it times: TuneOptions. Each is launched once to warm
// up and once more to size its spans, then timed in Rounds rounds, a round
// timing every candidate once in turn, each over at least 0.2 ms of
// launches between two events on s; the operands are the caller's, so a
// problem small enough for the L2 runs from it after the first launch, as
// it would when called again and again. The choice holds for the engine's
// life; tuning the problem again replaces it. Tune accumulates in fp32
// (GEMM, SGEMM, HGEMM), not in fp16 (GEMMAcc).
func (e *Engine) Tune(dt DType, s *cuda.Stream, alpha float32, a, b Matrix, beta float32, c Matrix, opt TuneOptions) (Tuning, error) {
	if e == nil {
		return Tuning{}, errors.New("gemm: nil *Engine")
	}
	if err := checkAcc(dt, F32); err != nil {
		return Tuning{}, err
	}
	if opt.Candidates < 0 || opt.Rounds < 0 {
		return Tuning{}, fmt.Errorf("gemm: Tune: negative candidates (%d) or rounds (%d)", opt.Candidates, opt.Rounds)
	}
	if err := e.validate(dt, s, a, b, c); err != nil {
		return Tuning{}, err
	}
	if c.Order == ColMajor {
		a, b, c = b.T(), a.T(), c.T() // as gemmWith runs it
	}
	m, n, k := c.Rows, c.Cols, a.Cols
	if m == 0 || n == 0 {
		_, choice, err := e.chooseCached(dt, F32, a.Order, b.Order, m, n, k)
		return Tuning{Choice: choice}, err
	}
	if s != nil { // the default stream is never captured
		if capturing, err := s.Capturing(); err != nil || capturing {
			if err == nil {
				err = errors.New("the stream is being captured into a graph, and Tune waits for the instances it times: tune before the capture")
			}
			return Tuning{}, fmt.Errorf("gemm: Tune: %w", err)
		}
	}
	sms := e.dev.Info().Multiprocessors
	cands, err := e.tuneCandidates(sms, dt, a.Order, b.Order, m, n, k, opt)
	if err != nil {
		return Tuning{}, err
	}
	times, err := e.timeCandidates(cands, dt, s, alpha, a, b, beta, c, cmp.Or(opt.Rounds, DefaultTuneRounds))
	if err != nil {
		return Tuning{}, err
	}
	best := cands[slices.IndexFunc(cands, func(x candidate) bool { return x.kern.Name == times[0].Name })].kern
	// What the rule alone would run, as Choice says for every source.
	h := pickTiling(e.ranked[rankKey{dt, F32, a.Order, b.Order}], m, n, k, sms)
	choice := Choice{Name: best.Name, Source: Tuned, Heuristic: h.Name}
	e.picksMu.Lock()
	if e.tuned == nil {
		e.tuned = map[pickKey]picked{}
	}
	e.tuned[pickKey{dt, F32, a.Order, b.Order, m, n, k}] = picked{best, choice}
	e.picksMu.Unlock()
	return Tuning{Choice: choice, Times: times}, nil
}

// candidate is an instance Tune times and the table's time for it (0:
// none).
type candidate struct {
	kern        kernels.GEMM
	predictedMs float64
}

// tuneCandidates are the instances Tune times for an M x N x K problem of
// element type dt, A of order a and B of order b (C row-major) on a device
// of sms multiprocessors: the opt.Candidates that the table's grids of the
// candidate families predict fastest (tuning.Predictor.Ranking, families
// merged by time), or every instance that can run it (in ranking order)
// where opt.All says so or no grid predicts any.
func (e *Engine) tuneCandidates(sms int, dt DType, a, b Order, m, n, k int, opt TuneOptions) ([]candidate, error) {
	key := rankKey{dt, F32, a, b}
	all := e.ranked[key]
	if len(all) == 0 {
		return nil, fmt.Errorf("gemm: no %s kernel accumulating in %s for A %s and B %s on sm_%d", dt, F32, a, b, e.arch)
	}
	var ranking []tuning.Prediction
	if !opt.All {
		layout := tuning.Layout(a == ColMajor, b == ColMajor)
		for _, fam := range e.families[key] {
			if p := e.predictor(fam, layout, sms, VectorElems(dt)); p != nil {
				ranking = append(ranking, p.Ranking(m, n, k)...)
			}
		}
		slices.SortStableFunc(ranking, func(x, y tuning.Prediction) int { return cmp.Compare(x.Ms, y.Ms) })
	}
	var out []candidate
	for _, r := range ranking {
		if i := slices.IndexFunc(all, func(g kernels.GEMM) bool { return g.Name == r.Name }); i >= 0 {
			out = append(out, candidate{all[i], r.Ms})
		}
		if len(out) == cmp.Or(opt.Candidates, DefaultTuneCandidates) {
			break
		}
	}
	if len(out) == 0 {
		for _, g := range all {
			out = append(out, candidate{kern: g})
		}
	}
	return out, nil
}

// timeCandidates times each of cands on the problem (operands validated, C
// row-major) into a scratch C, as Tune says, and returns their times
// fastest first (ties in cands' order).
func (e *Engine) timeCandidates(cands []candidate, dt DType, s *cuda.Stream, alpha float32, a, b Matrix, beta float32, c Matrix, rounds int) (times []TunedTime, err error) {
	// The scratch C keeps C's stride and its offset's alignment to the
	// kernels' vector, so that the candidates take C's path (aligned or
	// element-wise stores) as the caller's C would; zeros, read where beta
	// is not 0.
	off := c.Offset % VectorElems(dt)
	buf, err := e.dev.Alloc(ceilDiv((off+c.span())*dt.Size(), 4) * 4) // whole words, which Fill32 clears
	if err != nil {
		return nil, fmt.Errorf("gemm: Tune: a scratch C: %w", err)
	}
	defer func() { err = errors.Join(err, buf.Free()) }()
	if err := buf.Fill32(s, 0); err != nil {
		return nil, fmt.Errorf("gemm: Tune: clearing the scratch C: %w", err)
	}
	scratch := c
	scratch.Buf, scratch.Offset = buf, off
	var ev [2]*cuda.Event
	for i := range ev {
		if ev[i], err = e.dev.NewEvent(); err != nil {
			return nil, err
		}
		defer func(x *cuda.Event) { err = errors.Join(err, x.Destroy()) }(ev[i])
	}
	// span is the milliseconds a launch of cand takes, over reps launches
	// in a row.
	span := func(cand candidate, reps int) (float64, error) {
		if err := ev[0].Record(s); err != nil {
			return 0, err
		}
		for range reps {
			if err := e.launch(cand.kern, dt, s, alpha, a, b, beta, scratch); err != nil {
				return 0, fmt.Errorf("gemm: Tune: %s: %w", cand.kern.Name, err)
			}
		}
		if err := ev[1].Record(s); err != nil {
			return 0, err
		}
		if err := ev[1].Synchronize(); err != nil {
			return 0, err
		}
		ms, err := cuda.Elapsed(ev[0], ev[1])
		return float64(ms) / float64(reps), err
	}
	reps := make([]int, len(cands))
	for i, cand := range cands {
		// A launch to warm up (and load the kernel), then one timed to
		// size the candidate's spans.
		if _, err := span(cand, 1); err != nil {
			return nil, err
		}
		ms, err := span(cand, 1)
		if err != nil {
			return nil, err
		}
		reps[i] = min(max(int(math.Ceil(tuneSpanMs/max(ms, 1e-4))), 1), 1000)
	}
	runs := make([][]float64, len(cands))
	for range rounds {
		for i, cand := range cands {
			ms, err := span(cand, reps[i])
			if err != nil {
				return nil, err
			}
			runs[i] = append(runs[i], ms)
		}
	}
	for i, cand := range cands {
		slices.Sort(runs[i])
		times = append(times, TunedTime{Name: cand.kern.Name, Ms: runs[i][len(runs[i])/2], PredictedMs: cand.predictedMs})
	}
	slices.SortStableFunc(times, func(x, y TunedTime) int { return cmp.Compare(x.Ms, y.Ms) })
	return times, nil
}
