package rs

import (
	"crypto/subtle"
	"errors"
	"fmt"
	"io"
	"math"
	"sync"
	"time"

	"github.com/klauspost/reedsolomon"
)

// Backends says which backends served one product: bytes are input bytes
// (input shards times the range of shard bytes each backend took).
type Backends struct {
	CPUBytes int64 // on the CPU, including a GPU range redone there
	GPUBytes int64 // on the GPU, counted only when it succeeded
	GPUErr   error // why the GPU's range was redone on the CPU, if it was
	// How long each side of a product split between the two took, both
	// running at once (zero when it was not split, or the GPU's range was
	// redone): the rates the next splits are sized by come from these.
	CPUTime, GPUTime time.Duration
}

// CPU reports whether the CPU computed any of the product.
func (b Backends) CPU() bool { return b.CPUBytes > 0 }

// GPU reports whether the GPU computed any of the product.
func (b Backends) GPU() bool { return b.GPUBytes > 0 }

// LastBackends returns the Backends of the most recently completed call
// that computed a product (a call that failed its argument checks, or had
// nothing to compute, leaves it alone). It is one atomic value per Encoder:
// under concurrent calls it is whichever finished last, so use it for
// tests, logs and metrics, not to learn about a particular call.
func (e *Encoder) LastBackends() Backends {
	if b := e.last.Load(); b != nil {
		return *b
	}
	return Backends{}
}

// attachGPU asks the registered constructor (or a test's backend) for a GPU
// and, when one comes, measures the CPU so splits can be sized.
func (e *Encoder) attachGPU(c *config) error {
	if c.gpuMode == GPUOff || e.m == 0 { // m == 0: there are no products
		return nil
	}
	b, rate, err := c.backend, c.backendRate, error(nil)
	if b == nil && gpuConstructor != nil {
		b, rate, err = gpuConstructor(e.k, e.m)
	}
	if b != nil && !(rate > 0 && !math.IsInf(rate, 0)) {
		if c, ok := b.(io.Closer); ok {
			_ = c.Close() // unusable without a rate; its own error adds nothing
		}
		b, err = nil, fmt.Errorf("GPU backend reports throughput %v bytes/s; want a finite rate > 0", rate)
	}
	if b == nil {
		if c.gpuMode != GPURequired {
			e.gpuErr = err
			return nil
		}
		if err == nil {
			err = errors.New("no GPU backend is registered in this build")
		}
		return fmt.Errorf("rs: New(%d, %d) with GPURequired: %w: %w", e.k, e.m, ErrNoGPU, err)
	}
	e.gpu, e.gpuRate = b, rate
	if e.cpuRate == 0 {
		e.cpuRate = e.measureCPU()
	}
	return nil
}

// measureCPU times the encoding product on about 1 MiB, best of two after
// a warm-up that also builds the cached klauspost encoder.
func (e *Encoder) measureCPU() float64 {
	n := ((1<<20)/e.k + 63) &^ 63
	in, out := reedsolomon.AllocAligned(e.k, n), reedsolomon.AllocAligned(e.m, n)
	best := time.Duration(math.MaxInt64)
	for i := 0; i < 3; i++ {
		start := time.Now()
		_ = e.cpu.MatMul(e.parity, e.m, e.k, in, out, false)
		if d := time.Since(start); i > 0 && d < best {
			best = d
		}
	}
	return float64(e.k*n) / max(best.Seconds(), 1e-9)
}

// directMatMuler is a GPU backend that moves some host memory without
// staging it through the CPU (the pipeline: AllocPinned shards). Products
// whose shards all are such memory have a rate of their own and the
// threshold WithMinGPUBytes sets, the others WithMinGPUBytesStaged's.
type directMatMuler interface {
	MatMuler
	// directRate is the throughput in input bytes per second on in and out,
	// and whether all of them are memory the backend moves directly.
	directRate(in, out [][]byte) (float64, bool)
}

// mul computes out = coeffs * in (or out ^= it) for the Encoder's
// operations: on the CPU alone for small products or without a GPU, else
// split by byte range between the two in proportion to their rates.
// Callers pass k >= 1 inputs of one non-zero length.
func (e *Encoder) mul(coeffs []byte, rows, k int, in, out [][]byte, accumulate bool) error {
	n := len(in[0])
	total := int64(k) * int64(n)
	e.gpuMu.RLock()
	defer e.gpuMu.RUnlock()
	split, direct := 0, false
	if e.gpu != nil {
		rate, least := e.gpuRate, e.minGPUStaged
		if d, ok := e.gpu.(directMatMuler); ok {
			if r, ok := d.directRate(in[:k], out[:rows]); ok && !accumulate {
				rate, least, direct = r, e.minGPU, true
			}
		}
		if total >= int64(least) {
			split = gpuShare(n, e.seen.gpuRate(direct, rate), e.seen.cpuRate(e.cpuRate))
		}
	}
	if split == 0 {
		err := e.cpu.MatMul(coeffs, rows, k, in, out, accumulate)
		e.last.Store(&Backends{CPUBytes: total})
		return err
	}

	var wg sync.WaitGroup
	var gpuErr, cpuErr error
	var gpuTime, cpuTime time.Duration
	wg.Add(1)
	go func() {
		defer wg.Done()
		start := time.Now()
		gpuErr = runGPU(e.gpu, coeffs, rows, k, cut(in, 0, split), cut(out, 0, split), accumulate)
		gpuTime = time.Since(start)
	}()
	if split < n {
		start := time.Now()
		cpuErr = e.cpu.MatMul(coeffs, rows, k, cut(in, split, n), cut(out, split, n), accumulate)
		cpuTime = time.Since(start)
	}
	wg.Wait()
	b := Backends{CPUBytes: int64(k) * int64(n-split), GPUBytes: int64(k) * int64(split), CPUTime: cpuTime, GPUTime: gpuTime}
	if gpuErr == nil && cpuErr == nil {
		e.seen.observe(direct, b.GPUBytes, gpuTime, b.CPUBytes, cpuTime)
	}
	if gpuErr != nil {
		// The result must not depend on the device: redo its range here.
		b = Backends{CPUBytes: total, GPUErr: gpuErr}
		redoErr := e.cpu.MatMul(coeffs, rows, k, cut(in, 0, split), cut(out, 0, split), accumulate)
		cpuErr = errors.Join(cpuErr, redoErr)
	}
	e.last.Store(&b)
	return cpuErr
}

// seenRates are the rates the Encoder's split products ran at, which size
// the next splits. The rates known before the first split (the CPU's
// measured in New on a small product, the GPU's from its backend) are
// only estimates: on an H100 host the first put the CPU at 27 GB/s where
// 16 MiB shards ran at 42 GB/s, leaving the CPU idle for a third of the
// call. Each observation moves a rate halfway to what was seen.
type seenRates struct {
	mu        sync.Mutex
	gpu       [2]float64 // staged, direct; 0: not seen yet
	cpu       float64
	gpuTimes  int // observations, for tests
	cpuTimes  int
	minSample time.Duration
}

// minRateSample is the shortest part of a split whose time counts: shorter
// ones are mostly goroutine start and call overheads.
const minRateSample = 200 * time.Microsecond

func (r *seenRates) gpuRate(direct bool, prior float64) float64 {
	r.mu.Lock()
	defer r.mu.Unlock()
	if v := r.gpu[b2i(direct)]; v > 0 {
		return v
	}
	return prior
}

func (r *seenRates) cpuRate(prior float64) float64 {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.cpu > 0 {
		return r.cpu
	}
	return prior
}

// observe records the parts of one split product: input bytes and time
// of each side.
func (r *seenRates) observe(direct bool, gpuBytes int64, gpuTime time.Duration, cpuBytes int64, cpuTime time.Duration) {
	least := r.minSample
	if least == 0 {
		least = minRateSample
	}
	mix := func(old float64, bytes int64, d time.Duration) float64 {
		v := float64(bytes) / d.Seconds()
		if old == 0 {
			return v
		}
		return (old + v) / 2
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if gpuBytes > 0 && gpuTime >= least {
		r.gpu[b2i(direct)] = mix(r.gpu[b2i(direct)], gpuBytes, gpuTime)
		r.gpuTimes++
	}
	if cpuBytes > 0 && cpuTime >= least {
		r.cpu = mix(r.cpu, cpuBytes, cpuTime)
		r.cpuTimes++
	}
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// gpuShare is the GPU's part of n bytes per shard, proportional to its
// rate and cut to a multiple of 64 bytes: kernels then see whole 16-byte
// vectors only, and the CPU's part starts on a cache line.
func gpuShare(n int, gpuRate, cpuRate float64) int {
	share := float64(n) * gpuRate / (gpuRate + cpuRate)
	return min(int(share), n) &^ 63
}

// runGPU runs the GPU's range. A failed backend may have written part of
// out; for an overwriting product the CPU's redo covers that, but an
// accumulating one would XOR twice, so the GPU writes to scratch and the
// XOR into out happens only on success. A panic in the backend (foreign
// glue code) becomes an error, as the CPU can still finish the call.
func runGPU(g MatMuler, coeffs []byte, rows, k int, in, out [][]byte, accumulate bool) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("rs: GPU backend panicked: %v", p)
		}
	}()
	if !accumulate {
		return g.MatMul(coeffs, rows, k, in, out, false)
	}
	tmp := make([][]byte, rows)
	for r := range tmp {
		tmp[r] = make([]byte, len(out[r]))
	}
	if err := g.MatMul(coeffs, rows, k, in, tmp, false); err != nil {
		return err
	}
	for r := range tmp {
		subtle.XORBytes(out[r], out[r], tmp[r])
	}
	return nil
}

// cut is every shard's bytes [from, to), capped so nothing beyond is
// reachable through it.
func cut(shards [][]byte, from, to int) [][]byte {
	c := make([][]byte, len(shards))
	for i, s := range shards {
		c[i] = s[from:to:to]
	}
	return c
}
