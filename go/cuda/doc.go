// Package cuda is kgen's small device layer: devices, device memory, streams,
// events and CUDA errors, over a plain-C shim (kernels/runtime) so that no CUDA
// header is ever compiled by cgo.
//
// It never panics and never exits: on a machine without a GPU or driver Open
// returns an error that matches ErrNoDevice. Every call runs on the calling
// goroutine's OS thread; the CUDA runtime makes the device's primary context
// current on each thread it is used from, so no thread locking is needed for
// this package's own calls (code mixing in driver-API libraries such as
// gorgonia.org/cu must lock its thread).
package cuda
