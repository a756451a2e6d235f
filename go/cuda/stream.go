package cuda

// #include "kernels/runtime/kgen_runtime.h"
import "C"

import (
	"fmt"
	"unsafe"
)

// Stream is a CUDA stream of one device. A nil *Stream means that device's
// default stream wherever a stream is taken as an argument; its own methods
// need a stream that exists.
type Stream struct {
	dev *Device
	h   unsafe.Pointer
}

// NewStream creates a non-blocking stream.
func (d *Device) NewStream() (*Stream, error) {
	const op = "create stream"
	dev, err := d.live(op)
	if err != nil {
		return nil, err
	}
	s := &Stream{dev: d}
	if err := Check(op, int(C.kgen_stream_create(dev, &s.h))); err != nil {
		return nil, err
	}
	return s, nil
}

// Handle is the cudaStream_t: nil for the default stream (a nil *Stream),
// and for a destroyed one.
func (s *Stream) Handle() unsafe.Pointer {
	if s == nil {
		return nil
	}
	return s.h
}

// Device is the device the stream belongs to, nil for a nil or destroyed
// stream.
func (s *Stream) Device() *Device {
	if s == nil || s.h == nil {
		return nil
	}
	return s.dev
}

// live is the ordinal of s's device; it fails if s is nil or destroyed.
func (s *Stream) live(op string) (C.int, error) {
	if s == nil {
		return 0, errNil(op, "Stream")
	}
	if s.h == nil {
		return 0, errGone(op, "stream", "destroyed")
	}
	return s.dev.live(op)
}

// streamOn is the handle to pass for work on device d: nil for the default
// stream. A destroyed stream, or one of another GPU, is an error. Two
// Devices opened on one ordinal share the GPU's primary context, so a stream
// made through either serves work of both.
func streamOn(op string, s *Stream, d *Device) (unsafe.Pointer, error) {
	if s == nil {
		return nil, nil
	}
	if s.h == nil {
		return nil, errGone(op, "stream", "destroyed")
	}
	if s.dev.Ordinal() != d.Ordinal() {
		return nil, fmt.Errorf("cuda: %s: the stream is on device %d, the work on device %d", op, s.dev.Ordinal(), d.Ordinal())
	}
	return s.h, nil
}

// Synchronize waits for the stream's work.
func (s *Stream) Synchronize() error {
	const op = "synchronize stream"
	dev, err := s.live(op)
	if err != nil {
		return err
	}
	return Check(op, int(C.kgen_stream_synchronize(dev, s.h)))
}

// Destroy releases the stream. Destroying twice is an error, not a crash.
func (s *Stream) Destroy() error {
	const op = "destroy stream"
	dev, err := s.live(op)
	if err != nil {
		return err
	}
	h := s.h
	s.h = nil
	return Check(op, int(C.kgen_stream_destroy(dev, h)))
}

// Event is a CUDA event of one device, for timing work on its streams.
type Event struct {
	dev *Device
	h   unsafe.Pointer
}

// NewEvent creates an event.
func (d *Device) NewEvent() (*Event, error) {
	const op = "create event"
	dev, err := d.live(op)
	if err != nil {
		return nil, err
	}
	e := &Event{dev: d}
	if err := Check(op, int(C.kgen_event_create(dev, &e.h))); err != nil {
		return nil, err
	}
	return e, nil
}

// live is the ordinal of e's device; it fails if e is nil or destroyed.
func (e *Event) live(op string) (C.int, error) {
	if e == nil {
		return 0, errNil(op, "Event")
	}
	if e.h == nil {
		return 0, errGone(op, "event", "destroyed")
	}
	return e.dev.live(op)
}

// Record records the event on stream s (nil: the default stream of the
// event's device).
func (e *Event) Record(s *Stream) error {
	const op = "record event"
	dev, err := e.live(op)
	if err != nil {
		return err
	}
	h, err := streamOn(op, s, e.dev)
	if err != nil {
		return err
	}
	return Check(op, int(C.kgen_event_record(dev, e.h, h)))
}

// Synchronize waits for the event.
func (e *Event) Synchronize() error {
	const op = "synchronize event"
	dev, err := e.live(op)
	if err != nil {
		return err
	}
	return Check(op, int(C.kgen_event_synchronize(dev, e.h)))
}

// Done reports, without waiting, whether the device has passed the work
// recorded before the event (true also for an event never recorded).
func (e *Event) Done() (bool, error) {
	const op = "query event"
	dev, err := e.live(op)
	if err != nil {
		return false, err
	}
	var done C.int
	err = Check(op, int(C.kgen_event_query(dev, e.h, &done)))
	return err == nil && done != 0, err
}

// Elapsed returns the milliseconds between start and end, both recorded on
// one device.
func Elapsed(start, end *Event) (float32, error) {
	const op = "read event time"
	dev, err := start.live(op)
	if err != nil {
		return 0, err
	}
	if _, err := end.live(op); err != nil {
		return 0, err
	}
	if start.dev != end.dev {
		return 0, fmt.Errorf("cuda: %s: start is on device %d, end on device %d", op, start.dev.ordinal, end.dev.ordinal)
	}
	var ms C.float
	err = Check(op, int(C.kgen_event_elapsed_ms(dev, &ms, start.h, end.h)))
	return float32(ms), err
}

// Destroy releases the event. Destroying twice is an error, not a crash.
func (e *Event) Destroy() error {
	const op = "destroy event"
	dev, err := e.live(op)
	if err != nil {
		return err
	}
	h := e.h
	e.h = nil
	return Check(op, int(C.kgen_event_destroy(dev, h)))
}
