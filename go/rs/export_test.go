package rs

// Hooks for the external tests (package rs_test); compiled only with tests.

// WithGPUBackend attaches a fake GPU backend with the given throughput.
var WithGPUBackend = withGPUBackend

// CPUBackend is the klauspost-backed CPU MatMuler, for checking it against
// MatMulRef directly.
func CPUBackend() MatMuler { return newCPUBackend(nil) }

// SetGPUConstructor installs f as the registered GPU constructor, as gpu.go
// will, and returns a function that restores the previous one.
func SetGPUConstructor(f func(dataShards, parityShards int) (MatMuler, float64, error)) (restore func()) {
	old := gpuConstructor
	gpuConstructor = f
	return func() { gpuConstructor = old }
}

// GPUShare exposes the split arithmetic.
var GPUShare = gpuShare

// SeenRates returns the GPU rate (staged shards) and CPU rate that enc's
// splits have observed, 0 where none was, after making every sample count.
func SeenRates(enc *Encoder) (gpu, cpu float64) {
	enc.seen.mu.Lock()
	defer enc.seen.mu.Unlock()
	return enc.seen.gpu[0], enc.seen.cpu
}

// CountEverySample makes enc's splits observe parts of any duration.
func CountEverySample(enc *Encoder) {
	enc.seen.mu.Lock()
	enc.seen.minSample = 1
	enc.seen.mu.Unlock()
}
