package gf256

import (
	"errors"
	"fmt"
	"sort"
	"sync"
	"unsafe"

	"github.com/kgen-gpu/kgen/go/cuda"
	"github.com/kgen-gpu/kgen/go/internal/kernels"
)

// MaxShards bounds the inputs and the outputs of one product: a GF(2^8)
// code has at most 256 shards.
const MaxShards = 256

// Shard is a byte range of a device buffer that starts at byte Off; the
// length is the product's.
type Shard struct {
	Buf *cuda.Buffer
	Off int
}

// Instance describes one kernel the Engine can run.
type Instance struct {
	Name           string
	Arch           int    // compute capability times ten it was built for
	Strategy       string // table, nibble, xorshift, naive or tiled
	BytesPerThread int
	Threads        int
	RowsPerBlock   int
	Stages         int // 0: inputs load into registers; else batches in a ring in shared memory
	SharedBytes    int
}

// Engine runs GF(2^8) products on one device. It is safe for concurrent
// use. A product of up to kernels.GF256InlineShards shards, inputs and
// outputs together, carries its coefficients and shard pointers in the
// launch itself; a larger one stages them in a slot of its
// own, copied to the device ahead of the kernel and reused only after the
// stream has passed the launch.
type Engine struct {
	dev     *cuda.Device
	arch    int
	jit     bool
	kernels []kernels.GF256

	// staged sends every product through a staging slot, even those whose
	// arrays a launch could carry: for benchmarks of the two paths.
	staged bool

	mu    sync.Mutex
	free  []*slot // given back, oldest first
	slots []*slot // every slot, for Close
}

// New picks the kernels built for dev's arch (see kernels.PickArch).
func New(dev *cuda.Device) (*Engine, error) {
	if dev == nil {
		return nil, errors.New("gf256: nil *cuda.Device")
	}
	arch, jit, err := kernels.PickArch(dev.Info().CC(), kernels.Targets)
	if err != nil {
		return nil, err
	}
	e := &Engine{dev: dev, arch: arch, jit: jit, kernels: kernels.ForArch(kernels.GF256s, arch)}
	if len(e.kernels) == 0 {
		return nil, fmt.Errorf("gf256: no GF(2^8) kernels built for sm_%d", arch)
	}
	sort.SliceStable(e.kernels, func(i, j int) bool { return rank(e.kernels[i]) < rank(e.kernels[j]) })
	return e, nil
}

// Device is the engine's device.
func (e *Engine) Device() *cuda.Device { return e.dev }

// Arch is the compute capability (times ten) of the kernels in use, and
// whether they run through the driver's PTX compiler.
func (e *Engine) Arch() (cc int, jit bool) { return e.arch, e.jit }

// Instances lists the kernels available, best-ranked first; a product's
// default is the best-ranked kernel whose rows per block fit its outputs.
func (e *Engine) Instances() []Instance {
	if e == nil {
		return nil
	}
	return describe(e.kernels)
}

func describe(ks []kernels.GF256) []Instance {
	out := make([]Instance, len(ks))
	for i, k := range ks {
		out[i] = Instance{Name: k.Name, Arch: k.Arch, Strategy: k.Config.Strategy.String(), BytesPerThread: k.Config.BytesPerThread,
			Threads: k.Threads, RowsPerBlock: k.Config.RowsPerBlock, Stages: k.Config.Stages, SharedBytes: k.SharedBytes}
	}
	return out
}

// BuiltInstances lists every GF(2^8) kernel built into the binary, once per
// arch it was built for: what an Engine's Instances is chosen from.
func BuiltInstances() []Instance { return describe(kernels.GF256s) }

// rank orders the kernels for the default choice, by the H100 measurements
// of 2026-11-23 (bench/results/h100-2026-11-23-gf256.md, and the harness
// sweep of 16 MiB shards behind the spec's gf comment): nibble was fastest
// for every (k, m) measured, ahead of xorshift and tables; the reference
// kernels come last. Within a strategy: wider accesses, then 512 threads
// (one block per SM with 64 bytes in flight per thread: 0.86x of the copy
// floor at 10+4 against 0.80x for 256), then an input ring in shared memory
// before registers (harness, 16 MiB: 10+4 0.81x against 0.77x, 4+2 0.76x
// against 0.70x, 17+3 even). Rows per block are not ranked here: choose
// fits them to the product.
func rank(k kernels.GF256) int {
	order := map[kernels.GF256Strategy]int{
		kernels.GFNibble: 0, kernels.GFXorShift: 1, kernels.GFTable: 2, kernels.GFTiledLogExp: 3, kernels.GFNaiveLogExp: 4,
	}
	sub := 0 // 0-3: within a strategy and width, which pick keeps together
	if k.Threads < 512 {
		sub += 2
	}
	if k.Config.Stages == 0 {
		sub++
	}
	return order[k.Config.Strategy]*100 + (16-k.Config.BytesPerThread)*4 + sub
}

// fit orders instances of one rank for a product of rows outputs: a block
// computes all its RowsPerBlock rows whether the product has them or not,
// and each group of rows re-reads the inputs, so the best is the fewest rows
// per block that still cover the product in one group; failing that, the
// most. On an H100 at 10+4 the 4-row kernel ran 1.6x the 8-row one, and at
// 32+8 the 8-row kernel 1.25x the 4-row one.
func fit(perBlock, rows int) int {
	if perBlock >= rows {
		return perBlock - rows
	}
	return MaxShards + rows - perBlock
}

// MatMul computes out[r] = XOR over j of coeffs[r*len(in)+j] * in[j] over n
// bytes of every shard, on stream s (nil: the device's default stream). With
// accumulate it XORs the product into out instead. It returns when the work
// is queued. coeffs is read before MatMul returns.
func (e *Engine) MatMul(s *cuda.Stream, coeffs []byte, in, out []Shard, n int, accumulate bool) error {
	return e.MatMulWith("", s, coeffs, in, out, n, accumulate)
}

// MatMulWith is MatMul with the instance named name ("" for the default).
func (e *Engine) MatMulWith(name string, s *cuda.Stream, coeffs []byte, in, out []Shard, n int, accumulate bool) error {
	if e == nil {
		return errors.New("gf256: nil *Engine")
	}
	if err := e.validate(s, coeffs, in, out, n); err != nil {
		return err
	}
	k, err := e.choose(name, len(out))
	if err != nil {
		return err
	}
	if len(out) == 0 || n == 0 {
		return nil
	}
	if !e.staged && kernels.GF256FitsInline(len(out), len(in)) {
		return e.launchInline(k, s, coeffs, in, out, n, accumulate)
	}
	sl, err := e.take()
	if err != nil {
		return err
	}
	sl.stage(coeffs, in, out)
	if err := cuda.CopyToDeviceAsync(s, sl.dev, 0, sl.host, 0, sl.size(len(in), len(out))); err != nil {
		e.give(sl)
		return err
	}
	p := kernels.GF256Params{
		Device: e.dev.Ordinal(), Rows: len(out), K: len(in), Len: int64(n),
		In: sl.dev.Ptr(), Out: unsafe.Add(sl.dev.Ptr(), 8*len(in)), Coeffs: unsafe.Add(sl.dev.Ptr(), 8*(len(in)+len(out))),
		Stream: s.Handle(),
	}
	if accumulate {
		p.Accumulate = 1
	}
	launchErr := cuda.Check(k.Name, k.Launch(&p))
	recordErr := sl.done.Record(s)
	sl.used = sl.used || recordErr == nil
	e.give(sl)
	if launchErr != nil {
		return launchErr
	}
	return recordErr
}

// launchInline launches k with the shard pointers and coefficients in Go
// memory, which the launcher copies into the kernel's parameters: no staging
// slot and no copy queued ahead of the kernel.
func (e *Engine) launchInline(k kernels.GF256, s *cuda.Stream, coeffs []byte, in, out []Shard, n int, accumulate bool) error {
	var ptrs [kernels.GF256InlineShards]uintptr
	for j, sh := range in {
		ptrs[j] = uintptr(unsafe.Add(sh.Buf.Ptr(), sh.Off))
	}
	for r, sh := range out {
		ptrs[len(in)+r] = uintptr(unsafe.Add(sh.Buf.Ptr(), sh.Off))
	}
	p := kernels.GF256Params{
		Device: e.dev.Ordinal(), Rows: len(out), K: len(in), Len: int64(n),
		In: unsafe.Pointer(&ptrs[0]), Out: unsafe.Pointer(&ptrs[len(in)]), Coeffs: unsafe.Pointer(unsafe.SliceData(coeffs)),
		HostArrays: 1, Stream: s.Handle(),
	}
	if accumulate {
		p.Accumulate = 1
	}
	return cuda.Check(k.Name, k.Launch(&p))
}

// choose finds the instance named name, or the engine's first choice for
// rows outputs: the best-ranked strategy and access width, then the rows per
// block that fit (see fit), then rank again.
func (e *Engine) choose(name string, rows int) (kernels.GF256, error) {
	if name == "" {
		return pick(e.kernels, rows), nil
	}
	k, ok := kernels.Named(e.kernels, name)
	if !ok {
		return k, fmt.Errorf("gf256: no instance %q on sm_%d", name, e.arch)
	}
	return k, nil
}

// Pick names the instance the engine runs for a product of rows output
// rows when no instance is named: what users get.
func (e *Engine) Pick(rows int) (string, error) {
	if e == nil {
		return "", errors.New("gf256: nil *Engine")
	}
	if rows < 1 {
		return "", fmt.Errorf("gf256: %d output rows; need at least 1", rows)
	}
	k, err := e.choose("", rows)
	return k.Name, err
}

// Close waits for the engine's launches to be done with their staging
// memory, then frees it; the device stays open.
func (e *Engine) Close() error {
	if e == nil {
		return errors.New("gf256: nil *Engine")
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	var errs []error
	for _, sl := range e.slots {
		if sl.used { // its last launch may still read the slot
			errs = append(errs, sl.done.Synchronize())
		}
		errs = append(errs, sl.free())
	}
	e.slots, e.free = nil, nil
	return errors.Join(errs...)
}

// pick is choose's default: ks is sorted by rank, and only the instances of
// the first one's strategy and width compete on rows per block.
func pick(ks []kernels.GF256, rows int) kernels.GF256 {
	best := ks[0]
	for _, k := range ks[1:] {
		if rank(k)/4 != rank(ks[0])/4 {
			break
		}
		if fit(k.Config.RowsPerBlock, rows) < fit(best.Config.RowsPerBlock, rows) {
			best = k
		}
	}
	return best
}
