package cuda

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"runtime"
	"sync"
	"testing"

	"github.com/kgen-gpu/kgen/internal/gputest"
)

// roundTrip allocates two buffers on d, fills, copies and reads them back
// through a stream of its own, checks the data and that the driver places
// both buffers on d, and frees everything. It returns the first problem.
func roundTrip(d *Device, words int, seed uint32) (err error) {
	fail := func(format string, args ...any) error {
		return fmt.Errorf("device %d, %d words, seed %d: %s", d.Ordinal(), words, seed, fmt.Sprintf(format, args...))
	}
	a, err := d.Alloc(4 * words)
	if err != nil {
		return err
	}
	defer func() { err = errors.Join(err, a.Free()) }()
	b, err := d.Alloc(4 * words)
	if err != nil {
		return err
	}
	defer func() { err = errors.Join(err, b.Free()) }()
	s, err := d.NewStream()
	if err != nil {
		return err
	}
	defer func() { err = errors.Join(err, s.Destroy()) }()
	start, err := d.NewEvent()
	if err != nil {
		return err
	}
	defer func() { err = errors.Join(err, start.Destroy()) }()
	end, err := d.NewEvent()
	if err != nil {
		return err
	}
	defer func() { err = errors.Join(err, end.Destroy()) }()

	for _, buf := range []*Buffer{a, b} {
		on, err := buf.residentDevice()
		if err != nil {
			return err
		}
		if on != d.Ordinal() {
			return fail("a buffer allocated for device %d lives on device %d", d.Ordinal(), on)
		}
	}
	host := make([]uint32, words)
	for i := range host {
		host[i] = seed*7919 + uint32(i)
	}
	half := words / 2
	if err := CopyFromHost(a, host[:half]); err != nil {
		return err
	}
	if err := start.Record(s); err != nil {
		return err
	}
	// b: seed everywhere, then a's first half copied over its second half.
	if err := b.Fill32(s, seed); err != nil {
		return err
	}
	if err := Copy(s, b, 4*(words-half), a, 0, 4*half); err != nil {
		return err
	}
	if err := end.Record(s); err != nil {
		return err
	}
	if err := end.Synchronize(); err != nil {
		return err
	}
	if err := s.Synchronize(); err != nil {
		return err
	}
	if _, err := Elapsed(start, end); err != nil {
		return err
	}
	got := make([]uint32, words)
	if err := CopyToHost(got, b); err != nil {
		return err
	}
	for i, v := range got {
		want := seed
		if i >= words-half {
			want = host[i-(words-half)]
		}
		if v != want {
			return fail("word %d = %d, want %d", i, v, want)
		}
	}
	return d.Synchronize()
}

// TestBuffersStreamsAndEvents runs the whole device API once on device 0.
func TestBuffersStreamsAndEvents(t *testing.T) {
	d := open(t, 0)
	for _, words := range []int{1, 2, 1000, 1 << 20} {
		if err := roundTrip(d, words, uint32(words)); err != nil {
			t.Fatal(err)
		}
	}
	// Work must stay on its device's streams.
	s, err := d.NewStream()
	if err != nil {
		t.Fatal(err)
	}
	other := &Stream{dev: &Device{ordinal: d.Ordinal() + 1}, h: s.h}
	buf, err := d.Alloc(64)
	if err != nil {
		t.Fatal(err)
	}
	if err := buf.Fill32(other, 0); err == nil {
		t.Error("Fill32 on another device's stream succeeded")
	}
	// A second handle on the same GPU shares its context, and so its streams.
	again := open(t, 0)
	if err := buf.Fill32(&Stream{dev: again, h: s.h}, 0); err != nil {
		t.Errorf("Fill32 on a stream of a second handle to the same GPU: %v", err)
	}
	if err := s.Destroy(); err != nil {
		t.Fatal(err)
	}
	if err := buf.Fill32(s, 0); !errors.Is(err, ErrClosed) {
		t.Errorf("Fill32 on a destroyed stream = %v, want ErrClosed", err)
	}
	if err := buf.Free(); err != nil {
		t.Fatal(err)
	}
	if err := buf.Free(); !errors.Is(err, ErrClosed) {
		t.Errorf("second Free = %v, want ErrClosed", err)
	}
}

// TestWorkStaysOnItsDevice is the check that each shim call selects its
// device itself: many goroutines, which the Go scheduler moves between OS
// threads at will, allocate, fill and copy on devices 0 and 1 in turn, and
// every buffer must be on the device it was allocated for, holding the data
// written to it. With a separate "set device" call before each operation,
// work lands on whichever device the thread last had current.
func TestWorkStaysOnItsDevice(t *testing.T) {
	n, err := Count()
	if err != nil {
		if !errors.Is(err, ErrNoDevice) {
			t.Fatalf("Count: %v", err)
		}
		gputest.Skip(t, "Count: %v", err)
	}
	if n < 2 {
		t.Skipf("SKIP (needs two GPUs, this machine has %d)", n)
	}
	devs := []*Device{open(t, 0), open(t, 1)}
	const goroutines, rounds = 32, 16
	var wg sync.WaitGroup
	for g := range goroutines {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for r := range rounds {
				// Three of four rounds on device 1, which no thread has current by default.
				d := devs[min(1, (g+r)%4)]
				if err := roundTrip(d, 1+g*97+r, uint32(g*rounds+r)); err != nil {
					t.Error(err)
					return
				}
				runtime.Gosched()
			}
		}()
	}
	wg.Wait()
}

// TestPinnedAsyncRoundTrip queues host -> device -> host copies through
// pinned memory on a stream, at odd offsets and lengths, and checks every
// byte and the guard bytes around the destination range.
func TestPinnedAsyncRoundTrip(t *testing.T) {
	d := open(t, 0)
	s, err := d.NewStream()
	if err != nil {
		t.Fatal(err)
	}
	defer s.Destroy()
	const n = 1<<20 + 3
	src, err := d.AllocHost(n + 7)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Free()
	dst, err := d.AllocHost(n + 16)
	if err != nil {
		t.Fatal(err)
	}
	defer dst.Free()
	dev, err := d.Alloc(n + 5)
	if err != nil {
		t.Fatal(err)
	}
	defer dev.Free()
	for i := range src.Bytes() {
		src.Bytes()[i] = byte(i*7 + 3)
	}
	guard := dst.Bytes()
	for i := range guard {
		guard[i] = 0xA5
	}
	if err := CopyToDeviceAsync(s, dev, 5, src, 7, n); err != nil {
		t.Fatal(err)
	}
	if err := CopyToHostAsync(s, dst, 8, dev, 5, n); err != nil {
		t.Fatal(err)
	}
	if err := s.Synchronize(); err != nil {
		t.Fatal(err)
	}
	got := dst.Bytes()
	for i := 0; i < n; i++ {
		if got[8+i] != src.Bytes()[7+i] {
			t.Fatalf("byte %d = %d, want %d", i, got[8+i], src.Bytes()[7+i])
		}
	}
	for _, i := range []int{0, 7, 8 + n, n + 15} {
		if got[i] != 0xA5 {
			t.Fatalf("guard byte %d overwritten: %#x", i, got[i])
		}
	}
	if err := CopyToDeviceAsync(s, dev, 6, src, 0, n); err == nil {
		t.Error("a copy past the device buffer's end was queued")
	}
}

// TestSweepXorsEveryWord checks that Sweep reads every byte it is given, and
// only those: the XOR of the words of its sink, zeroed before, against the
// XOR of random data's 32-bit words (the last one zero-padded) from several
// offsets and lengths, tails of 1 to 15 bytes included; the bytes around each
// range are random too, so reading one of them changes the answer. The sink
// has a poisoned word past the part Sweep may use, which must stay.
func TestSweepXorsEveryWord(t *testing.T) {
	d := open(t, 0)
	const size = 3<<20 + 64
	host := make([]byte, size)
	rng := rand.New(rand.NewPCG(7, 11))
	for i := range host {
		host[i] = byte(rng.Uint32())
	}
	src, err := d.Alloc(size)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Free()
	if err := CopyFromHost(src, host); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ off, n int }{{0, size}, {16, 1}, {32, 15}, {48, 17}, {64, 4096}, {16, 3 << 20}, {4096, 1<<20 + 13}, {0, 0}} {
		want := uint32(0)
		for i := 0; i < c.n; i++ {
			want ^= uint32(host[c.off+i]) << (8 * (i % 4))
		}
		need, err := d.SweepSinkBytes(c.n)
		if err != nil {
			t.Fatal(err)
		}
		sink, err := d.Alloc(need + 4)
		if err != nil {
			t.Fatal(err)
		}
		words := make([]uint32, need/4+1)
		words[len(words)-1] = 0xdeadbeef
		if err := CopyFromHost(sink, words); err != nil {
			t.Fatal(err)
		}
		if err := Sweep(nil, src, c.off, c.n, sink); err != nil {
			t.Fatalf("Sweep(%d bytes at %d): %v", c.n, c.off, err)
		}
		if err := CopyToHost(words, sink); err != nil {
			t.Fatal(err)
		}
		got := uint32(0)
		for _, w := range words[:len(words)-1] {
			got ^= w
		}
		if got != want {
			t.Errorf("Sweep(%d bytes at %d): the sink's words XOR to %#x, want %#x", c.n, c.off, got, want)
		}
		if words[len(words)-1] != 0xdeadbeef {
			t.Errorf("Sweep(%d bytes at %d) wrote past its %d-byte sink", c.n, c.off, need)
		}
		if err := sink.Free(); err != nil {
			t.Fatal(err)
		}
	}
	short, err := d.Alloc(4)
	if err != nil {
		t.Fatal(err)
	}
	defer short.Free()
	if err := Sweep(nil, src, 0, size, short); err == nil {
		t.Error("Sweep of 3 MiB into a one-word sink succeeded")
	}
	if err := Sweep(nil, src, 8, 16, short); err == nil {
		t.Error("Sweep at offset 8 (not 16-byte aligned) succeeded")
	}
	if err := Sweep(nil, src, 16, size, short); err == nil {
		t.Error("Sweep past the end of the buffer succeeded")
	}
}
