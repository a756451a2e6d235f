package cuda

// #include "kernels/runtime/kgen_runtime.h"
import "C"

import (
	"errors"
	"fmt"
	"sync"
)

// BuildToolkit is the version of the CUDA toolkit (nvcc) that compiled
// kgen's runtime and kernels into this binary, e.g. "11.8.89"; it needs no
// device.
func BuildToolkit() string { return C.GoString(C.kgen_build_toolkit()) }

// Count returns the number of CUDA devices. It returns an error matching
// ErrNoDevice when there is no device or no driver.
func Count() (int, error) {
	var n C.int
	if err := Check("count devices", int(C.kgen_device_count(&n))); err != nil {
		if errors.Is(err, ErrNoDevice) {
			return 0, fmt.Errorf("%w: %v", ErrNoDevice, err)
		}
		return 0, err
	}
	return int(n), nil
}

// Info describes a device.
type Info struct {
	Name            string
	Major, Minor    int // compute capability
	Multiprocessors int
	ClockKHz        int // peak SM clock, 0 if the runtime does not report it
	L2Bytes         int
	SmemOptIn       int // shared memory a block may opt in to
	DriverVersion   int // e.g. 13000 for CUDA 13.0
	RuntimeVersion  int
	TotalMemory     int64
	MemoryClockKHz  int // peak memory clock, 0 if the runtime does not report it
	MemoryBusBits   int // global memory bus width
}

// PeakMemoryGBs is the memory's theoretical bandwidth in GB/s from its
// clock and bus width (two transfers per clock, as cudaDeviceProp's own
// example computes it), 0 where the clock is not reported.
func (i Info) PeakMemoryGBs() float64 {
	return 2 * float64(i.MemoryClockKHz) * 1e3 * float64(i.MemoryBusBits) / 8 / 1e9
}

// CC is the compute capability times ten, e.g. 90 for sm_90.
func (i Info) CC() int { return i.Major*10 + i.Minor }

// Device is an opened CUDA device.
type Device struct {
	ordinal int
	info    Info

	mu     sync.Mutex
	closed bool
}

// Open selects device ordinal and reads its properties. With no GPU or driver
// it returns an error matching ErrNoDevice.
func Open(ordinal int) (*Device, error) {
	n, err := Count()
	if err != nil {
		return nil, err
	}
	if n == 0 {
		return nil, ErrNoDevice
	}
	if ordinal < 0 || ordinal >= n {
		return nil, fmt.Errorf("cuda: device %d does not exist (%d devices)", ordinal, n)
	}
	d := &Device{ordinal: ordinal}
	var ci C.kgen_device_info
	if err := Check(fmt.Sprintf("open device %d", ordinal), int(C.kgen_device_info_get(C.int(ordinal), &ci))); err != nil {
		return nil, err
	}
	d.info = Info{
		Name: C.GoString(&ci.name[0]), Major: int(ci.major), Minor: int(ci.minor),
		Multiprocessors: int(ci.multiprocessors), ClockKHz: int(ci.clock_khz), L2Bytes: int(ci.l2_bytes),
		SmemOptIn: int(ci.smem_per_block_optin), DriverVersion: int(ci.driver_version),
		RuntimeVersion: int(ci.runtime_version), TotalMemory: int64(ci.total_memory),
		MemoryClockKHz: int(ci.memory_clock_khz), MemoryBusBits: int(ci.memory_bus_bits),
	}
	return d, nil
}

// Ordinal is the device's index, -1 for a nil *Device.
func (d *Device) Ordinal() int {
	if d == nil {
		return -1
	}
	return d.ordinal
}

// Info returns the device's properties, the zero Info for a nil *Device.
func (d *Device) Info() Info {
	if d == nil {
		return Info{}
	}
	return d.info
}

// Synchronize waits for all work on the device.
func (d *Device) Synchronize() error {
	dev, err := d.live("synchronize device")
	if err != nil {
		return err
	}
	return Check("synchronize device", int(C.kgen_device_synchronize(dev)))
}

// Close marks the device closed. Buffers, streams and events must be freed
// by their owners; the CUDA context stays for the process. Closing twice is
// an error.
func (d *Device) Close() error {
	if d == nil {
		return errNil("close device", "Device")
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.closed {
		return errGone("close device", "device", "closed")
	}
	d.closed = true
	return nil
}

// live is the ordinal to pass to the shim, which makes the device current
// inside the same C call. It fails if d is nil or closed.
func (d *Device) live(op string) (C.int, error) {
	if d == nil {
		return 0, errNil(op, "Device")
	}
	d.mu.Lock()
	closed := d.closed
	d.mu.Unlock()
	if closed {
		return 0, errGone(op, "device", "closed")
	}
	return C.int(d.ordinal), nil
}

// errNil is the error of op on a nil *typ.
func errNil(op, typ string) error { return fmt.Errorf("cuda: %s: nil *%s", op, typ) }

// errGone is the error of op on a value that was freed, destroyed or closed.
func errGone(op, what, how string) error {
	return fmt.Errorf("cuda: %s: %s already %s: %w", op, what, how, ErrClosed)
}
