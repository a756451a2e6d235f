package rs

import (
	"errors"
	"sync"
	"time"

	"github.com/klauspost/reedsolomon"

	"github.com/kgen-gpu/kgen/go/cuda"
	"github.com/kgen-gpu/kgen/go/gf256"
)

// hostPipeline is the GPU as a MatMuler of host slices. A product is cut
// into chunks of every shard; each chunk goes through one of a few stages,
// each with its own stream, pinned host buffers and device buffers:
//
//	copy the inputs' chunk into pinned memory (CPU)
//	-> upload, multiply, download (queued on the stage's stream)
//	-> copy (or XOR, for accumulate) the outputs' chunk out of pinned memory
//
// Shards in AllocPinned memory skip the CPU copies: the copy engines move
// them directly. Chunk c+1 is staged on the CPU while chunk c moves and
// multiplies, so transfers in both directions and kernels overlap. Stages
// are allocated on first use and kept; products on one pipeline are
// serialized.
type hostPipeline struct {
	eng     *gf256.Engine
	maxIn   int // inputs and rows a product may have (New's k and m)
	maxRows int
	chunk   int // bytes of each shard per chunk

	// pinnedRate is the throughput on AllocPinned shards, in input bytes
	// per second (0: not measured, no direct path).
	pinnedRate float64

	mu     sync.Mutex
	stages []*stage
}

// pipelineStages is how many chunks are in flight; stageBudget bounds the
// pinned (and as much device) memory of one stage.
const (
	pipelineStages = 3
	stageBudget    = 48 << 20
	maxChunk       = 2 << 20
	minChunk       = 64 << 10
)

func newHostPipeline(eng *gf256.Engine, k, m int) *hostPipeline {
	chunk := stageBudget / (k + m)
	chunk = max(minChunk, min(maxChunk, chunk)) &^ 4095
	return &hostPipeline{eng: eng, maxIn: k, maxRows: m, chunk: chunk}
}

// stage is one chunk's worth of buffers and the stream that moves it.
type stage struct {
	s       *cuda.Stream
	done    *cuda.Event
	hostIn  *cuda.HostBuffer // maxIn chunks
	hostOut *cuda.HostBuffer // maxRows chunks
	devIn   *cuda.Buffer
	devOut  *cuda.Buffer

	// The chunk in flight, to collect once done has passed: its outputs'
	// byte range and where they go.
	busy       bool
	from, to   int
	out        [][]byte
	direct     []bool // out[r]'s chunk is downloaded into place already
	accumulate bool
}

func (p *hostPipeline) newStage() (*stage, error) {
	dev := p.eng.Device()
	st := &stage{}
	var err error
	if st.s, err = dev.NewStream(); err != nil {
		return nil, err
	}
	if st.done, err = dev.NewEvent(); err == nil {
		if st.hostIn, err = dev.AllocHost(p.maxIn * p.chunk); err == nil {
			if st.hostOut, err = dev.AllocHost(p.maxRows * p.chunk); err == nil {
				if st.devIn, err = dev.Alloc(p.maxIn * p.chunk); err == nil {
					st.devOut, err = dev.Alloc(p.maxRows * p.chunk)
				}
			}
		}
	}
	if err != nil {
		return nil, errors.Join(err, st.free())
	}
	return st, nil
}

func (st *stage) free() error {
	var errs []error
	if st.s != nil {
		errs = append(errs, st.s.Synchronize(), st.s.Destroy())
	}
	for _, f := range []func() error{
		func() error { return nilOr(st.done != nil, st.done.Destroy) },
		func() error { return nilOr(st.hostIn != nil, st.hostIn.Free) },
		func() error { return nilOr(st.hostOut != nil, st.hostOut.Free) },
		func() error { return nilOr(st.devIn != nil, st.devIn.Free) },
		func() error { return nilOr(st.devOut != nil, st.devOut.Free) },
	} {
		errs = append(errs, f())
	}
	return errors.Join(errs...)
}

func nilOr(ok bool, f func() error) error {
	if !ok {
		return nil
	}
	return f()
}

// MatMul runs the product through the stages; see hostPipeline.
func (p *hostPipeline) MatMul(coeffs []byte, rows, k int, in, out [][]byte, accumulate bool) error {
	if err := checkMatMulArgs(coeffs, rows, k, in, out); err != nil {
		return err
	}
	if rows > p.maxRows || k > p.maxIn {
		return errorf(ErrInvalidInput, "GPU pipeline: %d x %d product, sized for %d x %d", rows, k, p.maxRows, p.maxIn)
	}
	n := 0
	if k > 0 {
		n = len(in[0])
	}
	if rows == 0 || n == 0 {
		return nil
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	for len(p.stages) < pipelineStages {
		st, err := p.newStage()
		if err != nil {
			return err
		}
		p.stages = append(p.stages, st)
	}
	var err error
	for c, from := 0, 0; from < n && err == nil; c, from = c+1, from+p.chunk {
		st := p.stages[c%len(p.stages)]
		if err = p.collect(st); err == nil {
			err = p.send(st, coeffs[:rows*k], in[:k], out[:rows], from, min(n, from+p.chunk), accumulate)
		}
	}
	for _, st := range p.stages {
		err = errors.Join(err, p.collect(st))
	}
	if err != nil {
		// A failed send may leave copies queued on pinned memory that the
		// next product would overwrite: drain every stream first.
		for _, st := range p.stages {
			err = errors.Join(err, st.s.Synchronize())
			st.busy, st.out = false, nil
		}
	}
	return err
}

// send stages bytes [from, to) of every input, queues their product and
// the download of the outputs on st's stream.
func (p *hostPipeline) send(st *stage, coeffs []byte, in, out [][]byte, from, to int, accumulate bool) error {
	l := to - from
	hostIn := st.hostIn.Bytes()
	var staged []int
	for j := range in {
		if buf, off, ok := pinned.at(in[j][from:to]); ok {
			if err := cuda.CopyToDeviceAsync(st.s, st.devIn, j*l, buf, off, l); err != nil {
				return err
			}
		} else {
			staged = append(staged, j)
		}
	}
	parallel(len(staged), func(i int) { j := staged[i]; copy(hostIn[j*l:(j+1)*l], in[j][from:to]) })
	for _, j := range staged {
		if err := cuda.CopyToDeviceAsync(st.s, st.devIn, j*l, st.hostIn, j*l, l); err != nil {
			return err
		}
	}
	ins := make([]gf256.Shard, len(in))
	for j := range ins {
		ins[j] = gf256.Shard{Buf: st.devIn, Off: j * l}
	}
	outs := make([]gf256.Shard, len(out))
	for r := range outs {
		outs[r] = gf256.Shard{Buf: st.devOut, Off: r * l}
	}
	if err := p.eng.MatMul(st.s, coeffs, ins, outs, l, false); err != nil {
		return err
	}
	st.direct = st.direct[:0]
	for r := range out {
		buf, off, ok := pinned.at(out[r][from:to])
		ok = ok && !accumulate // accumulating XORs on the CPU, from staging
		if !ok {
			buf, off = st.hostOut, r*l
		}
		if err := cuda.CopyToHostAsync(st.s, buf, off, st.devOut, r*l, l); err != nil {
			return err
		}
		st.direct = append(st.direct, ok)
	}
	if err := st.done.Record(st.s); err != nil {
		return err
	}
	st.busy, st.from, st.to, st.out, st.accumulate = true, from, to, out, accumulate
	return nil
}

// collect waits for st's chunk in flight, if any, and copies (or XORs) its
// outputs into place.
func (p *hostPipeline) collect(st *stage) error {
	if !st.busy {
		return nil
	}
	st.busy = false
	if err := st.done.Synchronize(); err != nil {
		return err
	}
	l := st.to - st.from
	hostOut := st.hostOut.Bytes()
	parallel(len(st.out), func(r int) {
		if st.direct[r] {
			return
		}
		dst, src := st.out[r][st.from:st.to], hostOut[r*l:(r+1)*l]
		if st.accumulate {
			xorInto(dst, src)
		} else {
			copy(dst, src)
		}
	})
	st.out = nil
	return nil
}

// parallel runs f(0..n-1) on up to n goroutines: staging copies are bound
// by memory bandwidth, which one core does not reach.
func parallel(n int, f func(int)) {
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() { defer wg.Done(); f(i) }()
	}
	wg.Wait()
}

func xorInto(dst, src []byte) {
	for i := range dst {
		dst[i] ^= src[i]
	}
}

// rate measures the pipeline's throughput in input bytes per second for a
// k-input, m-row product of about 48 MiB in all (at most 4 MiB shards),
// once per process, shape and kind of memory: ordinary (staged) or, with
// pinnedShards, AllocPinned's.
func (p *hostPipeline) rate(k, m int, pinnedShards bool) (float64, error) {
	key := rateKey{k, m, pinnedShards}
	rateMu.Lock()
	defer rateMu.Unlock()
	if r, ok := rates[key]; ok {
		return r, nil
	}
	n := min(4<<20, max(64<<10, (48<<20)/(k+m)))
	var shards [][]byte
	if pinnedShards {
		ps, err := allocPinned(p.eng.Device(), k+m, n)
		if err != nil {
			return 0, err
		}
		defer func() { _ = ps.Free() }() // a failed free leaks, and the rate stands
		shards = ps.Shards
	} else {
		shards = reedsolomon.AllocAligned(k+m, n)
	}
	in, out := shards[:k], shards[k:]
	coeffs := make([]byte, k*m)
	for i := range coeffs {
		coeffs[i] = byte(i + 1)
	}
	if err := p.MatMul(coeffs, m, k, in, out, false); err != nil { // warm-up: allocates the stages
		return 0, err
	}
	start := time.Now()
	if err := p.MatMul(coeffs, m, k, in, out, false); err != nil {
		return 0, err
	}
	r := float64(k*n) / time.Since(start).Seconds()
	rates[key] = r
	return r, nil
}

type rateKey struct {
	k, m   int
	pinned bool
}

var (
	rateMu sync.Mutex
	rates  = map[rateKey]float64{}
)

// directRate is the throughput for a product whose shards all are
// AllocPinned memory, and whether they are (see directMatMuler).
func (p *hostPipeline) directRate(in, out [][]byte) (float64, bool) {
	if p.pinnedRate <= 0 || !allPinned(in) || !allPinned(out) {
		return 0, false
	}
	return p.pinnedRate, true
}

// Close frees the pipeline's buffers and streams; the shared engine stays.
func (p *hostPipeline) Close() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	var errs []error
	for _, st := range p.stages {
		errs = append(errs, st.free())
	}
	p.stages = nil
	return errors.Join(errs...)
}
