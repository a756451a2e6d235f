package cuda

// #include "kernels/runtime/kgen_runtime.h"
import "C"

import (
	"errors"
	"fmt"
	"unsafe"
)

// Graph is an instantiated CUDA graph: work captured once from a stream and
// replayed with one launch, which costs one launch's latency however many
// kernels it holds. The bench uses it to time short kernels without the
// host's launch overhead in between.
type Graph struct {
	dev *Device
	h   unsafe.Pointer // cudaGraphExec_t
}

// Capture records the work f queues on s into a graph instead of running
// it, and instantiates the graph. f must queue work only on s (work on other
// streams runs as usual, and work on the legacy default stream is an
// error while s captures), and must not wait for the device. The capture
// ends whatever f returns, so s stays usable; f's error is returned first.
func (s *Stream) Capture(f func() error) (*Graph, error) {
	const op = "capture stream"
	dev, err := s.live(op)
	if err != nil {
		return nil, err
	}
	if f == nil {
		return nil, errors.New("cuda: capture stream: nil function")
	}
	if err := Check(op, int(C.kgen_stream_begin_capture(dev, s.h))); err != nil {
		return nil, err
	}
	ferr := f()
	g := &Graph{dev: s.dev}
	eerr := Check("end capture", int(C.kgen_stream_end_capture(dev, s.h, &g.h)))
	if ferr != nil || eerr != nil {
		if g.h != nil {
			g.Destroy()
		}
		return nil, errors.Join(ferr, eerr)
	}
	return g, nil
}

// Capturing reports whether s is being captured into a graph (Capture),
// where work queued on it is recorded, not run, and nothing may wait for
// it. (The default stream, which a nil *Stream stands for elsewhere, is
// never captured; asked of a nil *Stream, it is an error, as every method.)
func (s *Stream) Capturing() (bool, error) {
	const op = "query capture"
	dev, err := s.live(op)
	if err != nil {
		return false, err
	}
	var capturing C.int
	err = Check(op, int(C.kgen_stream_capturing(dev, s.h, &capturing)))
	return err == nil && capturing != 0, err
}

// live is the ordinal of g's device; it fails if g is nil or destroyed.
func (g *Graph) live(op string) (C.int, error) {
	if g == nil {
		return 0, errNil(op, "Graph")
	}
	if g.h == nil {
		return 0, errGone(op, "graph", "destroyed")
	}
	return g.dev.live(op)
}

// Launch queues the graph's work on s (nil: the device's default stream).
func (g *Graph) Launch(s *Stream) error {
	const op = "launch graph"
	dev, err := g.live(op)
	if err != nil {
		return err
	}
	h, err := streamOn(op, s, g.dev)
	if err != nil {
		return err
	}
	return Check(op, int(C.kgen_graph_launch(dev, g.h, h)))
}

// Destroy releases the graph. Destroying twice is an error, not a crash.
func (g *Graph) Destroy() error {
	const op = "destroy graph"
	dev, err := g.live(op)
	if err != nil {
		return err
	}
	h := g.h
	g.h = nil
	return Check(op, int(C.kgen_graph_exec_destroy(dev, h)))
}

// CaptureScratch returns device memory of at least bytes that work queued
// on s while s is being captured into a graph may use as scratch (split-K
// partial sums), and true; or nil and false when s is not capturing. The
// memory belongs to the graph being captured and is reused after the graph
// and every Graph instantiated from it are destroyed, so a graph never
// shares scratch with work run outside it (kernels/include/kgen/scratch.cuh).
func (s *Stream) CaptureScratch(bytes int) (unsafe.Pointer, bool, error) {
	const op = "capture scratch"
	dev, err := s.live(op)
	if err != nil {
		return nil, false, err
	}
	if bytes < 0 {
		return nil, false, fmt.Errorf("cuda: %s: %d bytes", op, bytes)
	}
	var p unsafe.Pointer
	if err := Check(op, int(C.kgen_capture_scratch(dev, s.h, C.size_t(bytes), &p))); err != nil {
		return nil, false, err
	}
	return p, p != nil, nil
}
