// Package cuda is kgen's small device layer: devices, device memory, streams,
// events and CUDA errors, over a plain-C shim (kernels/runtime) so that no CUDA
// header is ever compiled by cgo.
//
// It never panics and never exits: on a machine without a GPU or driver Open
// returns an error that matches ErrNoDevice, and every method of a nil, freed,
// destroyed or closed value returns an error (or, for accessors, a zero value).
//
// Every shim call takes the device's ordinal and makes that device current
// itself, inside the one C call: a goroutine may move to another OS thread
// between two cgo calls, so the device current on a thread is never relied
// on, and no thread locking is needed for this package's own calls. Code
// mixing in driver-API libraries such as gorgonia.org/cu, which do rely on the
// current context, must lock its thread.
package cuda
