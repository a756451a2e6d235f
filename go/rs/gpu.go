package rs

import (
	"errors"
	"sync"

	"github.com/kgen-gpu/kgen/go/cuda"
	"github.com/kgen-gpu/kgen/go/gf256"
)

// The GPU behind every Encoder of the process: device 0 and its GF(2^8)
// engine, opened once. Without a device or driver it is (nil, nil): the
// encoders run on the CPU, quietly.
var (
	sharedOnce sync.Once
	sharedEng  *gf256.Engine
	sharedErr  error
)

func sharedEngine() (*gf256.Engine, error) {
	sharedOnce.Do(func() {
		dev, err := cuda.Open(0)
		if errors.Is(err, cuda.ErrNoDevice) {
			return
		}
		if err != nil {
			sharedErr = err
			return
		}
		sharedEng, sharedErr = gf256.New(dev)
	})
	return sharedEng, sharedErr
}

func init() { gpuConstructor = openGPU }

// openGPU attaches the shared engine to an Encoder of k data and m parity
// shards: a host-to-host pipeline (hostPipeline), and its throughput for
// that shape on ordinary memory, measured once per process and shape (and
// on AllocPinned memory, kept by the pipeline for directRate).
func openGPU(k, m int) (MatMuler, float64, error) {
	eng, err := sharedEngine()
	if eng == nil || err != nil {
		return nil, 0, err
	}
	p := newHostPipeline(eng, k, m)
	rate, err := p.rate(k, m, false)
	if err == nil {
		p.pinnedRate, err = p.rate(k, m, true)
	}
	if err != nil {
		return nil, 0, errors.Join(err, p.Close())
	}
	return p, rate, nil
}

// engine returns the GPU engine of e, or an error wrapping ErrNoGPU.
func (e *Encoder) engine() (*gf256.Engine, error) {
	e.gpuMu.RLock()
	p, ok := e.gpu.(*hostPipeline)
	e.gpuMu.RUnlock()
	if !ok || p == nil {
		why := e.gpuErr
		if why == nil {
			why = errors.New("no GPU is attached to this Encoder")
		}
		return nil, errors.Join(ErrNoGPU, why)
	}
	return p.eng, nil
}
