package cuda

// #include "kernels/runtime/kgen_runtime.h"
import "C"

import (
	"fmt"
	"unsafe"
)

// HostBuffer is page-locked ("pinned") host memory: copies between it and
// a device run at full bus speed and can be queued on a stream while the
// host works on, which is how host-to-host pipelines overlap transfers with
// kernels.
type HostBuffer struct {
	dev   *Device
	ptr   unsafe.Pointer
	bytes int
}

// AllocHost allocates bytes of page-locked host memory (usable with every
// device).
func (d *Device) AllocHost(bytes int) (*HostBuffer, error) {
	dev, err := d.live("allocate host memory")
	if err != nil {
		return nil, err
	}
	if bytes < 0 {
		return nil, fmt.Errorf("cuda: AllocHost of %d bytes", bytes)
	}
	h := &HostBuffer{dev: d, bytes: bytes}
	if bytes == 0 {
		return h, nil
	}
	if err := Check(fmt.Sprintf("allocate %d bytes of pinned host memory", bytes), int(C.kgen_host_alloc(dev, &h.ptr, C.size_t(bytes)))); err != nil {
		return nil, err
	}
	return h, nil
}

// Bytes is the memory as a byte slice (nil for a nil, freed or empty
// buffer). It must not be used after Free, nor while a queued copy uses it.
func (h *HostBuffer) Bytes() []byte {
	if h == nil || h.ptr == nil {
		return nil
	}
	return unsafe.Slice((*byte)(h.ptr), h.bytes)
}

// Free releases the memory; the buffer is unusable afterwards.
func (h *HostBuffer) Free() error {
	const op = "free host memory"
	if h == nil {
		return errNil(op, "HostBuffer")
	}
	if h.ptr == nil {
		if h.bytes == 0 && h.dev != nil {
			h.dev = nil
			return nil
		}
		return errGone(op, "host buffer", "freed")
	}
	dev, err := h.dev.live(op)
	if err != nil {
		return err
	}
	p := h.ptr
	h.ptr, h.dev = nil, nil
	return Check(op, int(C.kgen_host_free(dev, p)))
}

func (h *HostBuffer) check(op string, off, n int) error {
	switch {
	case h == nil:
		return errNil(op, "HostBuffer")
	case h.dev == nil:
		return errGone(op, "host buffer", "freed")
	case off < 0 || n < 0 || off > h.bytes || n > h.bytes-off:
		return fmt.Errorf("cuda: %s: bytes [%d, %d) outside a %d-byte host buffer", op, off, off+n, h.bytes)
	}
	return nil
}

// CopyToDeviceAsync queues a copy of n bytes from src at srcOff to dst at
// dstOff on stream s (nil: the device's default stream) and returns at once.
func CopyToDeviceAsync(s *Stream, dst *Buffer, dstOff int, src *HostBuffer, srcOff, n int) error {
	const op = "queue copy to device"
	dev, err := dst.check(op, dstOff, n)
	if err != nil {
		return err
	}
	if err := src.check(op, srcOff, n); err != nil {
		return err
	}
	h, err := streamOn(op, s, dst.dev)
	if err != nil || n == 0 {
		return err
	}
	return Check(op, int(C.kgen_memcpy_htod_async(dev, dst.at(dstOff), unsafe.Add(src.ptr, srcOff), C.size_t(n), h)))
}

// CopyToHostAsync queues a copy of n bytes from src at srcOff to dst at
// dstOff on stream s and returns at once.
func CopyToHostAsync(s *Stream, dst *HostBuffer, dstOff int, src *Buffer, srcOff, n int) error {
	const op = "queue copy to host"
	dev, err := src.check(op, srcOff, n)
	if err != nil {
		return err
	}
	if err := dst.check(op, dstOff, n); err != nil {
		return err
	}
	h, err := streamOn(op, s, src.dev)
	if err != nil || n == 0 {
		return err
	}
	return Check(op, int(C.kgen_memcpy_dtoh_async(dev, unsafe.Add(dst.ptr, dstOff), src.at(srcOff), C.size_t(n), h)))
}
