package cuda

// #include "kernels/runtime/kgen_runtime.h"
import "C"

import (
	"errors"
	"fmt"
)

var (
	// ErrNoDevice means no usable CUDA device or driver was found.
	ErrNoDevice = errors.New("cuda: no CUDA device available")
	// ErrClosed means a Device, Buffer, Stream or Event was used after Close or Free.
	ErrClosed = errors.New("cuda: use after close")
)

// Error is a failed CUDA runtime call or kernel launch.
type Error struct {
	Op     string // what was being done
	Status int    // cudaError_t, or a negative KGEN_ERR_* code
	Name   string
	Msg    string
}

func (e *Error) Error() string {
	return fmt.Sprintf("cuda: %s: %s (%s, %d)", e.Op, e.Msg, e.Name, e.Status)
}

// Statuses of cudaError_t that mean there is no device to use.
const (
	statusNoDevice          = 100 // cudaErrorNoDevice
	statusInsufficientDrive = 35  // cudaErrorInsufficientDriver
	statusStubLibrary       = 34  // cudaErrorStubLibrary
)

// Is lets errors.Is(err, ErrNoDevice) match the runtime's own no-device codes.
func (e *Error) Is(target error) bool {
	if target != ErrNoDevice {
		return false
	}
	switch e.Status {
	case statusNoDevice, statusInsufficientDrive, statusStubLibrary:
		return true
	}
	return false
}

// Check turns a status from the shim or a launcher into an error: nil for
// success, an *Error naming op otherwise.
func Check(op string, status int) error {
	if status == 0 {
		return nil
	}
	s := C.int(status)
	return &Error{Op: op, Status: status, Name: C.GoString(C.kgen_error_name(s)), Msg: C.GoString(C.kgen_error_string(s))}
}
