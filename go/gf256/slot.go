package gf256

import (
	"encoding/binary"
	"errors"
	"unsafe"

	"github.com/kgen-gpu/kgen/go/cuda"
)

// slotBytes holds the largest product's staging: k + rows shard pointers
// and rows x k coefficients.
const slotBytes = 8*2*MaxShards + MaxShards*MaxShards

// slot is the staging of one call: its shard pointers and coefficients, in
// pinned host memory and on the device, and an event the stream passes
// after the launch that reads them.
type slot struct {
	host *cuda.HostBuffer
	dev  *cuda.Buffer
	done *cuda.Event
	used bool // done was recorded at least once
}

// size is the bytes staged for k inputs and rows outputs.
func (*slot) size(k, rows int) int { return 8*(k+rows) + rows*k }

// stage writes the device addresses of in and out, then the coefficients,
// into the pinned block.
func (sl *slot) stage(coeffs []byte, in, out []Shard) {
	b := sl.host.Bytes()
	at := 0
	for _, list := range [][]Shard{in, out} {
		for _, s := range list {
			binary.LittleEndian.PutUint64(b[at:], uint64(uintptr(unsafe.Add(s.Buf.Ptr(), s.Off))))
			at += 8
		}
	}
	copy(b[at:], coeffs[:len(in)*len(out)])
}

func (sl *slot) free() error {
	return errors.Join(sl.done.Destroy(), sl.dev.Free(), sl.host.Free())
}

// take returns a slot whose last launch the device has passed.
func (e *Engine) take(k, rows int) (*slot, error) {
	e.mu.Lock()
	var sl *slot
	if n := len(e.free); n > 0 {
		sl, e.free = e.free[n-1], e.free[:n-1]
	}
	e.mu.Unlock()
	if sl == nil {
		return e.newSlot()
	}
	if sl.used {
		if err := sl.done.Synchronize(); err != nil {
			e.give(sl)
			return nil, err
		}
	}
	return sl, nil
}

func (e *Engine) give(sl *slot) {
	e.mu.Lock()
	e.free = append(e.free, sl)
	e.mu.Unlock()
}

func (e *Engine) newSlot() (*slot, error) {
	host, err := e.dev.AllocHost(slotBytes)
	if err != nil {
		return nil, err
	}
	dev, err := e.dev.Alloc(slotBytes)
	if err != nil {
		return nil, errors.Join(err, host.Free())
	}
	done, err := e.dev.NewEvent()
	if err != nil {
		return nil, errors.Join(err, dev.Free(), host.Free())
	}
	sl := &slot{host: host, dev: dev, done: done}
	e.mu.Lock()
	e.slots = append(e.slots, sl)
	e.mu.Unlock()
	return sl, nil
}
