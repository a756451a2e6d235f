// Package rs is a Reed-Solomon erasure coder over GF(2^8) that is a drop-in
// for github.com/klauspost/reedsolomon and can share its work with a GPU.
//
// # Switching
//
// Replace reedsolomon.New(k, m, opts...) with rs.New(k, m, opts...), using
// this package's options of the same names. *Encoder implements
// reedsolomon.Encoder and reedsolomon.Extensions, and returns klauspost's
// own error values (wrapped with context: compare with errors.Is). The
// coding matrices are built here, the same way klauspost builds them, so
// parity is byte-identical to klauspost's for the default matrix and for
// WithCauchyMatrix, WithPAR1Matrix, WithFastOneParityMatrix and
// WithCustomMatrix: shards written by one can be verified and repaired by
// the other. Tests hold this identity for many shapes and lengths.
//
// Differences from klauspost, each deliberate:
//
//   - More than 256 shards in all is ErrMaxShardNum: klauspost switches to
//     Leopard GF(2^16) there, a different code, not provided here. Nor is
//     WithLeopardGF, WithJerasureMatrix, or the streaming encoder.
//   - Update leaves the old data shards as they were; klauspost's leaves
//     old XOR new in them despite documenting otherwise.
//   - Join with a negative outSize is ErrInvalidInput (klauspost panics),
//     and DecodeIdx's merge mode checks all shards before changing any.
//   - Nothing panics on bad arguments; nothing outside the given shards
//     (and their spare capacity, as in klauspost) is written.
//
// Of Extensions, all methods carry over: ShardSizeMultiple (1: any length),
// DataShards, ParityShards, TotalShards, AllocAligned and DecodeIdx.
//
// # Backends
//
// Every operation is one product out[r] = XOR_j M[r][j] * in[j] (MatMuler).
// The CPU backend runs it through klauspost's SIMD code, turning each
// coefficient matrix into a cached klauspost encoder (WithCustomMatrix).
// A GPU backend, when one is attached, takes a byte range of every shard
// proportional to its throughput for products of at least WithMinGPUBytes
// input bytes, while the CPU does the rest concurrently. Only shards in
// AllocPinned memory split by default: the GPU reads and writes them with
// its copy engines, where ordinary shards would first be copied by the CPU,
// which measured slower than the CPU alone (WithMinGPUBytesStaged opts in).
// If the GPU's part
// fails, the CPU redoes it, so results never depend on the device;
// LastBackends tells which backends served the last call and why the GPU
// was bypassed.
//
// The GPU backend plugs in through gpuConstructor (backend.go): the file
// binding the CUDA kernels sets it in an init function and New calls it.
// MatMulRef is the plain Go reference such kernels are tested against.
//
// # Concurrency
//
// An Encoder is safe for concurrent use. The inversion cache (one k x k
// inverse per loss pattern, WithInversionCache) and the CPU backend's
// encoder cache are bounded and locked; LastBackends is one atomic value.
package rs
