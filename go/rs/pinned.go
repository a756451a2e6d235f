package rs

import (
	"errors"
	"sort"
	"sync"
	"unsafe"

	"github.com/klauspost/reedsolomon"

	"github.com/kgen-gpu/kgen/go/cuda"
)

// PinnedShards are shards in page-locked host memory, made by AllocPinned.
// An Encoder's GPU share reads and writes them with the copy engines
// directly, where shards in ordinary memory are first copied by the CPU
// into pinned staging buffers: on an H100 host those copies competed with
// the CPU's own share for memory bandwidth, and splitting ordinary shards
// with the GPU ran no faster than the CPU alone (0.98x at 10+4, 16 MiB).
type PinnedShards struct {
	// Shards are shards of the requested size, each 64-byte aligned, to be
	// filled and passed to an Encoder like klauspost's AllocAligned's. They
	// must not be used after Free.
	Shards [][]byte

	buf *cuda.HostBuffer // nil when no GPU was there to pin with
}

// AllocPinned allocates shards shards of each bytes (negative sizes count
// as zero) in page-locked memory of the process's GPU, the one Encoders
// use. Without a GPU it allocates ordinary aligned memory, so code that
// uses it runs everywhere. Pinned memory is a scarce system resource and
// slow to allocate (tens of milliseconds per GiB): allocate once, reuse,
// and Free.
func AllocPinned(shards, each int) (*PinnedShards, error) {
	shards, each = max(shards, 0), max(each, 0)
	eng, err := sharedEngine()
	if err != nil {
		return nil, err
	}
	if eng == nil || shards*each == 0 {
		s := reedsolomon.AllocAligned(shards, each)
		for i := range s {
			s[i] = s[i][:each:each] // as the pinned shards: none reaches the next
		}
		return &PinnedShards{Shards: s}, nil
	}
	return allocPinned(eng.Device(), shards, each)
}

func allocPinned(dev *cuda.Device, shards, each int) (*PinnedShards, error) {
	stride := (each + 63) &^ 63
	buf, err := dev.AllocHost(shards*stride + 64)
	if err != nil {
		return nil, err
	}
	mem := buf.Bytes()
	base := int(-uintptr(unsafe.Pointer(unsafe.SliceData(mem))) & 63) // pinned memory is page-aligned; be sure
	p := &PinnedShards{Shards: make([][]byte, shards), buf: buf}
	for i := range p.Shards {
		off := base + i*stride
		p.Shards[i] = mem[off : off+each : off+each]
	}
	pinned.add(buf)
	return p, nil
}

// Free releases the memory. Calls that use the shards must have returned.
func (p *PinnedShards) Free() error {
	if p == nil {
		return errors.New("rs: PinnedShards.Free: nil *PinnedShards")
	}
	p.Shards = nil
	if p.buf == nil {
		return nil
	}
	pinned.remove(p.buf)
	err := p.buf.Free()
	p.buf = nil
	return err
}

// pinned is every live AllocPinned buffer, so that the pipeline can find
// the buffer (and offset) behind a shard: a slice does not say whether its
// memory is pinned.
var pinned pinnedSet

type pinnedSet struct {
	mu    sync.RWMutex
	spans []pinnedSpan // sorted by start
}

type pinnedSpan struct {
	start, end uintptr
	buf        *cuda.HostBuffer
}

func spanOf(buf *cuda.HostBuffer) pinnedSpan {
	b := buf.Bytes()
	start := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
	return pinnedSpan{start: start, end: start + uintptr(len(b)), buf: buf}
}

func (s *pinnedSet) add(buf *cuda.HostBuffer) {
	sp := spanOf(buf)
	s.mu.Lock()
	defer s.mu.Unlock()
	i := sort.Search(len(s.spans), func(i int) bool { return s.spans[i].start >= sp.start })
	s.spans = append(s.spans, pinnedSpan{})
	copy(s.spans[i+1:], s.spans[i:])
	s.spans[i] = sp
}

func (s *pinnedSet) remove(buf *cuda.HostBuffer) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for i, sp := range s.spans {
		if sp.buf == buf {
			s.spans = append(s.spans[:i], s.spans[i+1:]...)
			return
		}
	}
}

// at returns the pinned buffer that holds all of b, and b's offset in it.
func (s *pinnedSet) at(b []byte) (*cuda.HostBuffer, int, bool) {
	if len(b) == 0 {
		return nil, 0, false
	}
	start := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
	end := start + uintptr(len(b))
	s.mu.RLock()
	defer s.mu.RUnlock()
	i := sort.Search(len(s.spans), func(i int) bool { return s.spans[i].end > start })
	if i == len(s.spans) || s.spans[i].start > start || end > s.spans[i].end {
		return nil, 0, false
	}
	return s.spans[i].buf, int(start - s.spans[i].start), true
}

// allPinned reports whether every shard lies in pinned memory.
func allPinned(shards [][]byte) bool {
	for _, b := range shards {
		if _, _, ok := pinned.at(b); !ok {
			return false
		}
	}
	return true
}
