package cuda

// #include "kernels/runtime/kgen_runtime.h"
import "C"

import (
	"errors"
	"fmt"
	"sync"
)

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
	if err := d.use(); err != nil {
		return nil, err
	}
	var ci C.kgen_device_info
	if err := Check("read device properties", int(C.kgen_device_info_get(C.int(ordinal), &ci))); err != nil {
		return nil, err
	}
	d.info = Info{
		Name: C.GoString(&ci.name[0]), Major: int(ci.major), Minor: int(ci.minor),
		Multiprocessors: int(ci.multiprocessors), ClockKHz: int(ci.clock_khz), L2Bytes: int(ci.l2_bytes),
		SmemOptIn: int(ci.smem_per_block_optin), DriverVersion: int(ci.driver_version),
		RuntimeVersion: int(ci.runtime_version), TotalMemory: int64(ci.total_memory),
	}
	return d, nil
}

// use makes the device current on the calling thread.
func (d *Device) use() error {
	return Check(fmt.Sprintf("select device %d", d.ordinal), int(C.kgen_set_device(C.int(d.ordinal))))
}

// Ordinal is the device's index.
func (d *Device) Ordinal() int { return d.ordinal }

// Info returns the device's properties.
func (d *Device) Info() Info { return d.info }

// Synchronize waits for all work on the device.
func (d *Device) Synchronize() error {
	if err := d.live(); err != nil {
		return err
	}
	return Check("synchronize device", int(C.kgen_device_synchronize()))
}

// Close marks the device closed. Buffers, streams and events must be freed
// by their owners; the CUDA context stays for the process.
func (d *Device) Close() error {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.closed = true
	return nil
}

// live makes d current and fails if d is nil or closed.
func (d *Device) live() error {
	if d == nil {
		return errors.New("cuda: nil *Device")
	}
	d.mu.Lock()
	closed := d.closed
	d.mu.Unlock()
	if closed {
		return ErrClosed
	}
	return d.use()
}
