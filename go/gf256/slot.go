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

// maxSlots is how many slots an Engine makes before a call waits for the
// device: enough for back-to-back calls to keep several launches queued.
const maxSlots = 8

// take returns a slot whose last launch the device has passed. It tries the
// slot given back longest ago; while that one's launch is still queued it
// makes another slot, up to maxSlots, and only then waits. Taking the newest
// slot instead, or waiting at once, would make each call of a loop wait for
// the previous launch, leaving the GPU idle while the host stages the next.
func (e *Engine) take() (*slot, error) {
	e.mu.Lock()
	var sl *slot
	if len(e.free) > 0 {
		sl, e.free = e.free[0], e.free[1:]
	}
	grow := len(e.slots) < maxSlots
	e.mu.Unlock()
	if sl == nil {
		return e.newSlot()
	}
	if !sl.used {
		return sl, nil
	}
	done, err := sl.done.Done()
	if err == nil && !done && grow {
		e.putBack(sl)
		return e.newSlot()
	}
	if err == nil && !done {
		err = sl.done.Synchronize()
	}
	if err != nil {
		e.putBack(sl)
		return nil, err
	}
	return sl, nil
}

// putBack returns a slot that take did not use to the front of the free
// list, where it stays the oldest.
func (e *Engine) putBack(sl *slot) {
	e.mu.Lock()
	e.free = append([]*slot{sl}, e.free...)
	e.mu.Unlock()
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
