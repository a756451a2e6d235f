package cuda

// #include "kernels/runtime/kgen_runtime.h"
import "C"

import (
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
	dev, err := d.live("allocate")
	if err != nil {
		return nil, err
	}
	if bytes < 0 {
		return nil, fmt.Errorf("cuda: Alloc of %d bytes", bytes)
	}
	b := &Buffer{dev: d, bytes: bytes}
	if bytes == 0 {
		return b, nil
	}
	if err := Check(fmt.Sprintf("allocate %d bytes on device %d", bytes, d.ordinal), int(C.kgen_malloc(dev, &b.ptr, C.size_t(bytes)))); err != nil {
		return nil, err
	}
	return b, nil
}

// Ptr is the device address, for passing to kernels; nil for a nil, freed
// or empty buffer.
func (b *Buffer) Ptr() unsafe.Pointer {
	if b == nil {
		return nil
	}
	return b.ptr
}

// Bytes is the buffer's size, 0 for a nil or freed buffer.
func (b *Buffer) Bytes() int {
	if b == nil {
		return 0
	}
	return b.bytes
}

// Device is the device the buffer lives on, nil for a nil or freed buffer.
func (b *Buffer) Device() *Device {
	if b == nil {
		return nil
	}
	return b.dev
}

// Free releases the memory. Freeing twice is an error, not a crash.
func (b *Buffer) Free() error {
	const op = "free device memory"
	if b == nil {
		return errNil(op, "Buffer")
	}
	if b.dev == nil {
		return errGone(op, "buffer", "freed")
	}
	dev, err := b.dev.live(op)
	if err != nil {
		return err
	}
	p := b.ptr
	b.ptr, b.dev, b.bytes = nil, nil, 0
	if p == nil {
		return nil
	}
	return Check(op, int(C.kgen_free(dev, p)))
}

// check validates a copy of n bytes at byte offset off, and returns the
// ordinal of the buffer's device.
func (b *Buffer) check(op string, off, n int) (C.int, error) {
	if b == nil {
		return 0, errNil(op, "Buffer")
	}
	if b.dev == nil {
		return 0, errGone(op, "buffer", "freed")
	}
	if off < 0 || n < 0 || off > b.bytes || n > b.bytes-off {
		return 0, fmt.Errorf("cuda: %s: %d bytes at offset %d do not fit a %d-byte buffer", op, n, off, b.bytes)
	}
	return b.dev.live(op)
}

func (b *Buffer) at(off int) unsafe.Pointer { return unsafe.Add(b.ptr, off) }

// Scalar is what a host slice copied to or from device memory may hold:
// fixed-size numbers, which hold no Go pointers and whose size does not
// depend on the platform. ~uint16 admits an fp16 type defined on uint16.
type Scalar interface {
	~int8 | ~uint8 | ~int16 | ~uint16 | ~int32 | ~uint32 | ~int64 | ~uint64 |
		~float32 | ~float64 | ~complex64 | ~complex128
}

// CopyFromHost copies src into the start of the buffer and waits for it.
func CopyFromHost[T Scalar](b *Buffer, src []T) error { return CopyFromHostAt(b, 0, src) }

// CopyFromHostAt copies src into the buffer at byte offset off and waits.
func CopyFromHostAt[T Scalar](b *Buffer, off int, src []T) error {
	const op = "copy to device"
	n := len(src) * int(unsafe.Sizeof(*new(T)))
	dev, err := b.check(op, off, n)
	if err != nil || n == 0 {
		return err
	}
	return Check(op, int(C.kgen_memcpy_htod(dev, b.at(off), unsafe.Pointer(&src[0]), C.size_t(n), nil)))
}

// CopyToHost copies the start of the buffer into dst and waits for it.
func CopyToHost[T Scalar](dst []T, b *Buffer) error { return CopyToHostAt(dst, b, 0) }

// CopyToHostAt copies from byte offset off of the buffer into dst and waits.
func CopyToHostAt[T Scalar](dst []T, b *Buffer, off int) error {
	const op = "copy to host"
	n := len(dst) * int(unsafe.Sizeof(*new(T)))
	dev, err := b.check(op, off, n)
	if err != nil || n == 0 {
		return err
	}
	return Check(op, int(C.kgen_memcpy_dtoh(dev, unsafe.Pointer(&dst[0]), b.at(off), C.size_t(n), nil)))
}

// Copy copies n bytes between device buffers of one device on stream s (nil:
// the device's default stream).
func Copy(s *Stream, dst *Buffer, dstOff int, src *Buffer, srcOff int, n int) error {
	const op = "copy on device"
	dev, err := dst.check(op, dstOff, n)
	if err != nil {
		return err
	}
	if _, err := src.check(op, srcOff, n); err != nil {
		return err
	}
	if src.dev != dst.dev {
		return fmt.Errorf("cuda: %s: source is on device %d, destination on device %d", op, src.dev.ordinal, dst.dev.ordinal)
	}
	h, err := streamOn(op, s, dst.dev)
	if err != nil || n == 0 {
		return err
	}
	return Check(op, int(C.kgen_memcpy_dtod(dev, dst.at(dstOff), src.at(srcOff), C.size_t(n), h)))
}

// Sweep reads n bytes of src from byte offset off on stream s (nil: the
// device's default stream) with every multiprocessor, as fast as a kernel can
// stream device memory: the read ceiling the bench sets beside memory-bound
// kernels (tools/bench). 8 blocks of 256 threads per SM sweep the bytes in
// step, 16 bytes a load, and on sm_90 the sweep starts early behind the
// kernel ahead and waits for it, as kgen's gemv kernels do. off must be a
// multiple of 16. Block b stores the XOR of the 32-bit little-endian words it
// read (the last one zero-padded) in word b of sink, a buffer on the same
// device of at least SweepSinkBytes(n) bytes: zeroed before, the XOR of its
// words is the XOR of all the words read.
func Sweep(s *Stream, src *Buffer, off, n int, sink *Buffer) error {
	const op = "sweep"
	dev, err := src.check(op, off, n)
	if err != nil {
		return err
	}
	if _, err := sink.check(op, 0, 0); err != nil {
		return err
	}
	if src.dev != sink.dev {
		return fmt.Errorf("cuda: %s: source is on device %d, sink on device %d", op, src.dev.ordinal, sink.dev.ordinal)
	}
	if off%16 != 0 {
		return fmt.Errorf("cuda: %s: offset %d is not a multiple of 16 bytes", op, off)
	}
	need, err := src.dev.SweepSinkBytes(n)
	if err != nil {
		return err
	}
	if sink.Bytes() < need {
		return fmt.Errorf("cuda: %s: a sink of %d bytes is short: reading %d bytes needs %d", op, sink.Bytes(), n, need)
	}
	h, err := streamOn(op, s, src.dev)
	if err != nil || n == 0 {
		return err
	}
	return Check(op, int(C.kgen_read_sweep(dev, src.at(off), C.size_t(n), (*C.uint32_t)(sink.ptr), C.size_t(sink.Bytes()/4), h)))
}

// SweepSinkBytes is the size of the sink Sweep needs to read n bytes on d: a
// word for each of its blocks.
func (d *Device) SweepSinkBytes(n int) (int, error) {
	const op = "sweep sink size"
	dev, err := d.live(op)
	if err != nil {
		return 0, err
	}
	if n < 0 {
		return 0, fmt.Errorf("cuda: %s: %d bytes", op, n)
	}
	var blocks C.size_t
	if err := Check(op, int(C.kgen_read_sweep_blocks(dev, C.size_t(n), &blocks))); err != nil {
		return 0, err
	}
	return 4 * int(blocks), nil
}

// Fill32 sets every whole 32-bit word of the buffer to v on stream s (nil:
// the device's default stream).
func (b *Buffer) Fill32(s *Stream, v uint32) error {
	const op = "fill"
	dev, err := b.check(op, 0, b.Bytes())
	if err != nil {
		return err
	}
	h, err := streamOn(op, s, b.dev)
	if err != nil {
		return err
	}
	return Check(op, int(C.kgen_fill_u32(dev, b.ptr, C.uint32_t(v), C.size_t(b.bytes/4), h)))
}

// PoisonFloat32 fills the buffer with quiet NaNs, so that any element a kernel
// fails to write shows up in a check.
func (b *Buffer) PoisonFloat32(s *Stream) error {
	return b.Fill32(s, math.Float32bits(float32(math.NaN())))
}

// residentDevice asks the driver which device the buffer's memory is on: the
// check, in tests, that work landed on the device it was meant for.
func (b *Buffer) residentDevice() (int, error) {
	const op = "read pointer attributes"
	if _, err := b.check(op, 0, 0); err != nil {
		return -1, err
	}
	var d C.int
	if err := Check(op, int(C.kgen_pointer_device(b.ptr, &d))); err != nil {
		return -1, err
	}
	return int(d), nil
}
