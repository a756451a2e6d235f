package cuda

// #include "kernels/runtime/kgen_runtime.h"
import "C"

import (
	"errors"
	"fmt"
	"math"
	"unsafe"
)

// Buffer is a block of device memory.
type Buffer struct {
	dev   *Device
	ptr   unsafe.Pointer
	bytes int
}

// Alloc allocates bytes of device memory. Zero bytes is allowed and gives a
// buffer with a nil pointer.
func (d *Device) Alloc(bytes int) (*Buffer, error) {
	if err := d.live(); err != nil {
		return nil, err
	}
	if bytes < 0 {
		return nil, fmt.Errorf("cuda: Alloc of %d bytes", bytes)
	}
	b := &Buffer{dev: d, bytes: bytes}
	if bytes == 0 {
		return b, nil
	}
	if err := Check(fmt.Sprintf("allocate %d bytes", bytes), int(C.kgen_malloc(&b.ptr, C.size_t(bytes)))); err != nil {
		return nil, err
	}
	return b, nil
}

// Ptr is the device address, for passing to kernels.
func (b *Buffer) Ptr() unsafe.Pointer { return b.ptr }

// Bytes is the buffer's size.
func (b *Buffer) Bytes() int { return b.bytes }

// Device is the device the buffer lives on.
func (b *Buffer) Device() *Device { return b.dev }

// Free releases the memory. Freeing twice is an error, not a crash.
func (b *Buffer) Free() error {
	if b == nil || b.dev == nil {
		return errors.New("cuda: Free of a nil or freed Buffer")
	}
	if err := b.dev.live(); err != nil {
		return err
	}
	p := b.ptr
	b.ptr, b.dev, b.bytes = nil, nil, 0
	if p == nil {
		return nil
	}
	return Check("free device memory", int(C.kgen_free(p)))
}

// check validates a copy of n bytes at byte offset off.
func (b *Buffer) check(op string, off, n int) error {
	if b == nil || b.dev == nil {
		return fmt.Errorf("cuda: %s: nil or freed Buffer", op)
	}
	if off < 0 || n < 0 || off > b.bytes || n > b.bytes-off {
		return fmt.Errorf("cuda: %s: %d bytes at offset %d do not fit a %d-byte buffer", op, n, off, b.bytes)
	}
	return b.dev.live()
}

func (b *Buffer) at(off int) unsafe.Pointer { return unsafe.Add(b.ptr, off) }

// CopyFromHost copies src into the start of the buffer and waits for it.
func CopyFromHost[T any](b *Buffer, src []T) error { return CopyFromHostAt(b, 0, src) }

// CopyFromHostAt copies src into the buffer at byte offset off and waits.
func CopyFromHostAt[T any](b *Buffer, off int, src []T) error {
	n := len(src) * int(unsafe.Sizeof(*new(T)))
	if err := b.check("copy to device", off, n); err != nil || n == 0 {
		return err
	}
	return Check("copy to device", int(C.kgen_memcpy_htod(b.at(off), unsafe.Pointer(&src[0]), C.size_t(n), nil)))
}

// CopyToHost copies the start of the buffer into dst and waits for it.
func CopyToHost[T any](dst []T, b *Buffer) error { return CopyToHostAt(dst, b, 0) }

// CopyToHostAt copies from byte offset off of the buffer into dst and waits.
func CopyToHostAt[T any](dst []T, b *Buffer, off int) error {
	n := len(dst) * int(unsafe.Sizeof(*new(T)))
	if err := b.check("copy to host", off, n); err != nil || n == 0 {
		return err
	}
	return Check("copy to host", int(C.kgen_memcpy_dtoh(unsafe.Pointer(&dst[0]), b.at(off), C.size_t(n), nil)))
}

// Copy copies n bytes between device buffers on stream s (nil: default).
func Copy(s *Stream, dst *Buffer, dstOff int, src *Buffer, srcOff int, n int) error {
	if err := dst.check("copy on device", dstOff, n); err != nil {
		return err
	}
	if err := src.check("copy on device", srcOff, n); err != nil || n == 0 {
		return err
	}
	return Check("copy on device", int(C.kgen_memcpy_dtod(dst.at(dstOff), src.at(srcOff), C.size_t(n), s.handle())))
}

// Fill32 sets every whole 32-bit word of the buffer to v on stream s.
func (b *Buffer) Fill32(s *Stream, v uint32) error {
	if err := b.check("fill", 0, b.bytes); err != nil {
		return err
	}
	return Check("fill", int(C.kgen_fill_u32(b.ptr, C.uint32_t(v), C.size_t(b.bytes/4), s.handle())))
}

// PoisonFloat32 fills the buffer with quiet NaNs, so that any element a kernel
// fails to write shows up in a check.
func (b *Buffer) PoisonFloat32(s *Stream) error {
	return b.Fill32(s, math.Float32bits(float32(math.NaN())))
}
