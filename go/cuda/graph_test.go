package cuda

import (
	"errors"
	"testing"
	"unsafe"
)

// TestGraphReplaysCapturedWork captures two fills of a buffer on a stream,
// checks that capturing ran nothing, then launches the graph (twice, the
// second time after poisoning the buffer) and checks the last fill landed.
func TestGraphReplaysCapturedWork(t *testing.T) {
	d := open(t, 0)
	s, err := d.NewStream()
	if err != nil {
		t.Fatal(err)
	}
	defer s.Destroy()
	const words = 1 << 16
	buf, err := d.Alloc(4 * words)
	if err != nil {
		t.Fatal(err)
	}
	defer buf.Free()
	read := func() []uint32 {
		t.Helper()
		if err := s.Synchronize(); err != nil {
			t.Fatal(err)
		}
		got := make([]uint32, words)
		if err := CopyToHost(got, buf); err != nil {
			t.Fatal(err)
		}
		return got
	}
	expect := func(what string, want uint32) {
		t.Helper()
		for i, v := range read() {
			if v != want {
				t.Fatalf("%s: word %d = %#x, want %#x", what, i, v, want)
			}
		}
	}
	if err := buf.Fill32(s, 0xdead); err != nil {
		t.Fatal(err)
	}
	expect("before capture", 0xdead)
	g, err := s.Capture(func() error {
		return errors.Join(buf.Fill32(s, 1), buf.Fill32(s, 0x5eed))
	})
	if err != nil {
		t.Fatal(err)
	}
	expect("after capture, before launch", 0xdead)
	for range 2 {
		if err := buf.Fill32(s, 0xdead); err != nil {
			t.Fatal(err)
		}
		if err := g.Launch(s); err != nil {
			t.Fatal(err)
		}
		expect("after launch", 0x5eed)
	}
	if err := g.Destroy(); err != nil {
		t.Fatal(err)
	}
	if err := g.Launch(s); !errors.Is(err, ErrClosed) {
		t.Errorf("Launch of a destroyed graph = %v, want ErrClosed", err)
	}
	// A failing capture returns the function's error and leaves the stream
	// usable.
	boom := errors.New("boom")
	if g, err := s.Capture(func() error { return boom }); !errors.Is(err, boom) || g != nil {
		t.Errorf("Capture of a failing function = %v, %v; want nil, boom", g, err)
	}
	if err := buf.Fill32(s, 3); err != nil {
		t.Fatal(err)
	}
	expect("stream after a failed capture", 3)
}

// TestCaptureScratch checks the scratch a captured split-K launch takes: none
// outside a capture, and inside one memory that is aligned, the same for two
// launches of one capture, and not shared by two graphs alive at once.
func TestCaptureScratch(t *testing.T) {
	d := open(t, 0)
	s, err := d.NewStream()
	if err != nil {
		t.Fatal(err)
	}
	defer s.Destroy()
	if p, ok, err := s.CaptureScratch(1 << 20); err != nil || ok || p != nil {
		t.Fatalf("CaptureScratch outside a capture = %v, %v, %v; want nil, false, nil", p, ok, err)
	}
	if _, _, err := s.CaptureScratch(-1); err == nil {
		t.Error("CaptureScratch(-1) succeeded")
	}
	capture := func() (*Graph, uintptr) {
		t.Helper()
		var first, second unsafe.Pointer
		g, err := s.Capture(func() error {
			var ok1, ok2 bool
			var err1, err2 error
			first, ok1, err1 = s.CaptureScratch(1 << 20)
			second, ok2, err2 = s.CaptureScratch(4096)
			if !ok1 || !ok2 {
				return errors.New("CaptureScratch inside a capture reported no capture")
			}
			return errors.Join(err1, err2)
		})
		if err != nil {
			t.Fatal(err)
		}
		if first == nil || uintptr(first)%256 != 0 || second != first {
			t.Fatalf("scratch in a capture: %p then %p; want one 256-byte aligned pointer", first, second)
		}
		return g, uintptr(first)
	}
	g1, p1 := capture()
	g2, p2 := capture()
	if p1 == p2 {
		t.Errorf("two live graphs share scratch at %#x", p1)
	}
	for _, g := range []*Graph{g1, g2} {
		if err := g.Launch(s); err != nil {
			t.Fatal(err)
		}
		if err := g.Destroy(); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Synchronize(); err != nil {
		t.Fatal(err)
	}
}

// TestCapturing checks that a stream says it is capturing inside Capture
// and only there.
func TestCapturing(t *testing.T) {
	d := open(t, 0)
	s, err := d.NewStream()
	if err != nil {
		t.Fatal(err)
	}
	defer s.Destroy()
	if c, err := s.Capturing(); err != nil || c {
		t.Fatalf("Capturing outside a capture = %v, %v; want false, nil", c, err)
	}
	var inside bool
	g, err := s.Capture(func() error {
		var err error
		inside, err = s.Capturing()
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	defer g.Destroy()
	if !inside {
		t.Error("Capturing inside a capture = false")
	}
	if c, err := s.Capturing(); err != nil || c {
		t.Fatalf("Capturing after the capture = %v, %v; want false, nil", c, err)
	}
}
