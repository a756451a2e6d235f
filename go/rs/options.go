package rs

import (
	"math"

	"github.com/klauspost/reedsolomon"
)

// Option configures New. Options named like klauspost's do what klauspost's
// do, so switching is a change of package name; klauspost options that tune
// its SIMD paths, streams or Leopard codes have no counterpart here.
type Option func(*config)

type config struct {
	kind           matrixKind
	customMatrix   [][]byte
	fastOneParity  bool
	inversionCache bool
	cpuOpts        []reedsolomon.Option // forwarded to the CPU backend

	gpuMode           GPUMode
	minGPUBytes       int
	minGPUBytesStaged int
	cpuRate           float64 // 0: measure in New

	// backend replaces the registered GPU constructor; only tests set it,
	// through withGPUBackend.
	backend     MatMuler
	backendRate float64
}

// defaultMinGPUBytes is where splitting a product of AllocPinned shards
// with the GPU starts paying off. Measured on an H100 host (2026-11-23,
// 10+4, 16 cores), Encode of pinned shards split with the GPU against the
// CPU alone on the same memory: 0.72x at 1 MiB shards (10 MiB of data),
// 1.04x at 4 MiB (40 MiB), 1.63x at 16 MiB (160 MiB); the pipeline's
// fixed costs (a bare pinned round trip alone is ~24 us over its transfers)
// outweigh its share below about 32 MiB.
const defaultMinGPUBytes = 32 << 20

// defaultMinGPUBytesStaged is the same for shards in ordinary memory, whose
// GPU share is copied through pinned staging buffers by the CPU: on that
// host the split never beat klauspost alone (0.98x at 10+4 with 16 MiB
// shards, 160 MiB of data; 0.45x at 1 MiB shards), as the staging copies
// (33 GB/s on 10 cores) compete with klauspost for memory bandwidth. So
// such products stay on the CPU unless WithMinGPUBytes says otherwise.
const defaultMinGPUBytesStaged = math.MaxInt

func defaultConfig() config {
	return config{inversionCache: true, minGPUBytes: defaultMinGPUBytes, minGPUBytesStaged: defaultMinGPUBytesStaged}
}

// validate rejects option values New cannot act on.
func (c *config) validate() error {
	if c.minGPUBytes < 0 {
		return errorf(ErrInvalidOption, "WithMinGPUBytes(%d): must be >= 0", c.minGPUBytes)
	}
	if c.minGPUBytesStaged < 0 {
		return errorf(ErrInvalidOption, "WithMinGPUBytesStaged(%d): must be >= 0", c.minGPUBytesStaged)
	}
	if c.cpuRate < 0 || math.IsNaN(c.cpuRate) || math.IsInf(c.cpuRate, 0) {
		return errorf(ErrInvalidOption, "WithCPURate(%v): must be a finite rate >= 0 (0 measures it)", c.cpuRate)
	}
	if c.gpuMode < GPUAuto || c.gpuMode > GPURequired {
		return errorf(ErrInvalidOption, "WithGPU(%d): unknown mode", c.gpuMode)
	}
	return nil
}

// WithCauchyMatrix builds a Cauchy parity matrix, as klauspost's option of
// the same name does: parity differs from the default matrix but equals
// klauspost's with WithCauchyMatrix.
func WithCauchyMatrix() Option {
	return func(c *config) { c.kind = matrixCauchy }
}

// WithPAR1Matrix builds the matrix as PARv1 does, as klauspost's option of
// the same name does. Some loss patterns cannot be recovered with it.
func WithPAR1Matrix() Option {
	return func(c *config) { c.kind = matrixPAR1 }
}

// WithFastOneParityMatrix makes the single parity shard, when m == 1, the
// XOR of the data shards, as klauspost's option of the same name does.
func WithFastOneParityMatrix() Option {
	return func(c *config) { c.fastOneParity = true }
}

// WithCustomMatrix uses the given parity rows (at least m rows of at least
// k columns; the identity for the data shards is implied), as klauspost's
// option of the same name does. The matrix is copied by New.
func WithCustomMatrix(customMatrix [][]byte) Option {
	return func(c *config) { c.customMatrix = customMatrix }
}

// WithInversionCache turns the cache of decoding matrices on or off (on by
// default). Each distinct loss pattern costs one k x k inversion; the cache
// keeps a bounded number of them for reuse.
func WithInversionCache(enabled bool) Option {
	return func(c *config) { c.inversionCache = enabled }
}

// WithMaxGoroutines is forwarded to the klauspost encoders of the CPU
// backend; see klauspost's option of the same name.
func WithMaxGoroutines(n int) Option {
	return func(c *config) { c.cpuOpts = append(c.cpuOpts, reedsolomon.WithMaxGoroutines(n)) }
}

// WithAutoGoroutines is forwarded to the klauspost encoders of the CPU
// backend; see klauspost's option of the same name.
func WithAutoGoroutines(shardSize int) Option {
	return func(c *config) { c.cpuOpts = append(c.cpuOpts, reedsolomon.WithAutoGoroutines(shardSize)) }
}

// WithMinSplitSize is forwarded to the klauspost encoders of the CPU
// backend; see klauspost's option of the same name.
func WithMinSplitSize(n int) Option {
	return func(c *config) { c.cpuOpts = append(c.cpuOpts, reedsolomon.WithMinSplitSize(n)) }
}

// GPUMode says whether New attaches a GPU backend.
type GPUMode int

const (
	// GPUAuto uses a GPU when one is registered and starts, else the CPU
	// alone; UsesGPU says which and why.
	GPUAuto GPUMode = iota
	// GPUOff never uses a GPU.
	GPUOff
	// GPURequired makes New fail with ErrNoGPU when no GPU starts.
	GPURequired
)

// WithGPU sets the GPU mode (GPUAuto by default).
func WithGPU(mode GPUMode) Option {
	return func(c *config) { c.gpuMode = mode }
}

// WithMinGPUBytes sets the smallest product, in input bytes (input shards
// times shard length), that is split between GPU and CPU; smaller ones run
// on the CPU alone. It sets the threshold for every product: a later
// WithMinGPUBytesStaged overrides it for shards outside AllocPinned memory.
// By default products of AllocPinned shards split from 32 MiB, and others
// never (see defaultMinGPUBytes and defaultMinGPUBytesStaged for the
// measurements).
func WithMinGPUBytes(n int) Option {
	return func(c *config) { c.minGPUBytes, c.minGPUBytesStaged = n, n }
}

// WithMinGPUBytesStaged sets WithMinGPUBytes's threshold for products whose
// shards are not all AllocPinned memory (the GPU's share then goes through
// CPU copies into staging buffers). The default never splits them.
func WithMinGPUBytesStaged(n int) Option {
	return func(c *config) { c.minGPUBytesStaged = n }
}

// WithCPURate sets the CPU's throughput in input bytes per second, used to
// size the CPU's share of a split product. Zero (the default) measures it
// once in New, and only when a GPU is attached.
func WithCPURate(bytesPerSecond float64) Option {
	return func(c *config) { c.cpuRate = bytesPerSecond }
}

// withGPUBackend attaches b as the GPU backend with the given throughput,
// bypassing the registered constructor. It is unexported so that only this
// package's tests (through export_test.go) can inject a fake device.
func withGPUBackend(b MatMuler, bytesPerSecond float64) Option {
	return func(c *config) { c.backend, c.backendRate = b, bytesPerSecond }
}
