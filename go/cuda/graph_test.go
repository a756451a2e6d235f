package cuda

import (
	"errors"
	"testing"
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
