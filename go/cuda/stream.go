package cuda

// #include "kernels/runtime/kgen_runtime.h"
import "C"

import (
	"errors"
	"unsafe"
)

// Stream is a CUDA stream. A nil *Stream means the default stream wherever
// a stream is taken.
type Stream struct {
	dev *Device
	h   unsafe.Pointer
}

// NewStream creates a non-blocking stream.
func (d *Device) NewStream() (*Stream, error) {
	if err := d.live(); err != nil {
		return nil, err
	}
	s := &Stream{dev: d}
	if err := Check("create stream", int(C.kgen_stream_create(&s.h))); err != nil {
		return nil, err
	}
	return s, nil
}

// Handle is the cudaStream_t, nil for the default stream.
func (s *Stream) Handle() unsafe.Pointer { return s.handle() }

func (s *Stream) handle() unsafe.Pointer {
	if s == nil {
		return nil
	}
	return s.h
}

// Synchronize waits for the stream's work.
func (s *Stream) Synchronize() error {
	return Check("synchronize stream", int(C.kgen_stream_synchronize(s.handle())))
}

// Destroy releases the stream.
func (s *Stream) Destroy() error {
	if s == nil || s.h == nil {
		return errors.New("cuda: Destroy of a nil or destroyed Stream")
	}
	h := s.h
	s.h = nil
	return Check("destroy stream", int(C.kgen_stream_destroy(h)))
}

// Event is a CUDA event, for timing work on a stream.
type Event struct{ h unsafe.Pointer }

// NewEvent creates an event.
func (d *Device) NewEvent() (*Event, error) {
	if err := d.live(); err != nil {
		return nil, err
	}
	e := &Event{}
	if err := Check("create event", int(C.kgen_event_create(&e.h))); err != nil {
		return nil, err
	}
	return e, nil
}

// Record records the event on stream s.
func (e *Event) Record(s *Stream) error {
	return Check("record event", int(C.kgen_event_record(e.h, s.handle())))
}

// Synchronize waits for the event.
func (e *Event) Synchronize() error {
	return Check("synchronize event", int(C.kgen_event_synchronize(e.h)))
}

// Elapsed returns the milliseconds between start and end, both recorded.
func Elapsed(start, end *Event) (float32, error) {
	var ms C.float
	err := Check("read event time", int(C.kgen_event_elapsed_ms(&ms, start.h, end.h)))
	return float32(ms), err
}

// Destroy releases the event.
func (e *Event) Destroy() error {
	if e == nil || e.h == nil {
		return errors.New("cuda: Destroy of a nil or destroyed Event")
	}
	h := e.h
	e.h = nil
	return Check("destroy event", int(C.kgen_event_destroy(h)))
}
