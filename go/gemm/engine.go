package gemm

import (
	"errors"
	"fmt"
	"reflect"
	"slices"
	"sort"
	"strings"
	"sync"
	"unsafe"

	"github.com/kgen-gpu/kgen/go/cuda"
	"github.com/kgen-gpu/kgen/go/internal/kernels"
	"github.com/kgen-gpu/kgen/internal/tuning"
)

// ErrUnsupportedArch means no kernels were built for the device's arch or
// for one its binaries run on.
var ErrUnsupportedArch = kernels.ErrUnsupportedArch

// DType is the element type of a GEMM's A, B and C: the API names it once,
// as the method (SGEMM, HGEMM) or the argument of GEMM.
type DType int

const (
	F32 DType = iota // float32; CUDA cores, fp32 accumulation
	F16              // IEEE half (github.com/x448/float16 on the host); tensor cores, fp32 accumulation
)

func (d DType) String() string {
	if d == F16 {
		return "f16"
	}
	return "f32"
}

// Size is the bytes of one element.
func (d DType) Size() int {
	if d == F16 {
		return 2
	}
	return 4
}

func dtypeOf(e kernels.DType) DType {
	if e == kernels.ElemF16 {
		return F16
	}
	return F32
}

// Instance describes one kernel the Engine can run.
type Instance struct {
	Name   string
	Family string // spec family, e.g. "sgemm"
	Elem   DType
	// Acc is the accumulators' type: F32, or F16 for an instance of an
	// fp16-accumulating family (hgemmh), which the engine chooses only for
	// GEMMAcc with acc F16.
	Acc            DType
	TensorCores    bool // mma.sync; Thread is unused
	Arch           int  // compute capability times ten that it was built for
	A, B           Order
	Block          [3]int // M, N, K
	Warp, Thread   [2]int // M, N
	Stages         int
	Threads        int
	SharedBytes    int
	MinBlocksPerSM int
	SplitK         int // most blocks sharing one C tile's k range (1: no split-K)
	// SplitFill marks an SGEMM instance whose launches split each C tile's
	// k range among 1 to SplitK blocks, the fewest whose launch, its
	// reduction counted, finishes first (kgen::fill_splits); its workspace
	// holds SplitK partial C's (fewer where K has fewer k tiles or 64 MiB
	// holds fewer).
	SplitFill bool
	// Pack marks an SGEMM instance that first transposes its k-contiguous
	// operands (A row-major, B column-major) into its workspace, then runs
	// the kernel of A column-major and B row-major on the copies: 4 x K x M
	// bytes of workspace for A, 4 x K x N for B, on the stream's workspace.
	Pack bool
	// TailSplit marks an SGEMM instance whose launches, on sm_90 and later,
	// split the tiles of the last, partly filled wave in k among the blocks
	// of thread-block clusters where that finishes sooner (kgen::tail_plan).
	TailSplit bool
	// StreamK marks an SGEMM instance whose launches run the tiles of a
	// one-wave problem, or of its last wave, by stream-K where they fill at
	// most 7/8 of the GPU, on problems of whole tiles and k tiles (a
	// workspace of partial tiles there, on the stream's workspace).
	StreamK bool
	// Reference marks an instance kept for comparison: the engine runs it
	// by name (SGEMMWith) only, never by its own choice, and tuning skips it.
	Reference bool
	// Ladder is the seed article's step of an SGEMM ladder instance
	// ("naive" ... "vectorized"); empty for kgen's own template.
	Ladder string
	// Spec is every parameter of the instance's tiling in the kernel table,
	// flattened (Block.M, Stages, ...), read by reflection so that a
	// parameter added to the spec appears here without code: the bench's
	// ablation table compares instances by it.
	Spec []Param
}

// Param is one spec parameter of an instance and its value, as text.
type Param struct{ Name, Value string }

// Engine runs GEMMs on one device with the kernels built for its arch. It
// may be used from several goroutines; Close releases its split-K
// workspaces.
type Engine struct {
	dev     *cuda.Device
	arch    int
	jit     bool
	kernels []kernels.GEMM             // built for arch, every element type, in table order
	ranked  map[rankKey][]kernels.GEMM // choose's candidates in ranking order (see newEngine)
	tune    *tuning.Table              // measured on this GPU for arch; nil: the heuristic alone

	// The families among each key's candidates, in ranking order: those
	// the table's predictions compete between (chooseFor).
	families map[rankKey][]string

	// choose's own choices (no instance named), by problem: a table's
	// prediction takes 20-55 us of CPU (more than a 1024^3 HGEMM takes on
	// an H100), and applications call a few shapes many times. At most
	// maxPicks entries; when full it starts over. Tests that swap tune
	// reset it (setTable).
	picksMu sync.RWMutex
	picks   map[pickKey]picked
	// Tune's choices, by problem: they take precedence over picks and stay
	// when picks starts over (one per problem the caller tuned); setTable
	// forgets them.
	tuned map[pickKey]picked

	// The table's predictors (tuning.NewPredictor), made on first use:
	// fitting a grid's timing models and pairing its points takes 0.5-1.3
	// ms (kernels/README.md). Reset by setTable.
	predMu sync.Mutex
	preds  map[predictorKey]*tuning.Predictor

	// Split-K partial sums and packed operands go to a workspace per
	// stream (nil: the default stream), grown on demand and reused (a
	// packing instance's holds its transposed operands: 4 x K x M bytes
	// for A, 4 x K x N for B, 256 MiB each at 8192^3). Launches on one
	// stream run in order, so no two kernels ever share one, and a launch
	// never allocates once the workspace is large enough. Keyed by *cuda.Stream, not its
	// handle, so that a destroyed stream's handle reused by a new stream
	// cannot share a workspace with work still queued.
	wsMu sync.Mutex
	ws   map[*cuda.Stream]*cuda.Buffer
}

// VectorElems is how many elements of dt make the kernels' 16-byte vector
// access: shapes whose dimensions are not multiples of it take slower
// element-wise paths, which the dispatch table treats as a class of its own
// (tuning.Predict).
func VectorElems(dt DType) int {
	if dt == F16 {
		return 8
	}
	return 4
}

// rankKey groups the instances that compete for one problem.
type rankKey struct {
	dt, acc DType
	a, b    Order
}

// New picks the kernels for dev's arch: those built for it exactly, else for
// the newest arch of the same major version whose machine code runs on it,
// else the newest arch carrying PTX that the driver can compile for it.
func New(dev *cuda.Device) (*Engine, error) {
	if dev == nil {
		return nil, errors.New("gemm: nil *cuda.Device")
	}
	return newEngine(dev, dev.Info().CC())
}

// newEngine is New for a device of compute capability cc; tests pass a nil
// device to check everything that runs before a launch.
func newEngine(dev *cuda.Device, cc int) (*Engine, error) {
	arch, jit, err := kernels.PickArch(cc, kernels.Targets)
	if err != nil {
		return nil, err
	}
	e := &Engine{dev: dev, arch: arch, jit: jit}
	e.kernels = kernels.ForArch(kernels.GEMMs, arch)
	// A copy in ranking order, so that choose, which runs on every call,
	// need not sort (that took ~3.5 us a call, a quarter of a 1024^3 HGEMM):
	// the instances of one element type and layout, all choose ever
	// compares, keep rank order among themselves.
	rankOf := func(k kernels.GEMM) int { return rank(k.Name, order(k.Tiling.A), order(k.Tiling.B)) }
	ranked := slices.Clone(e.kernels)
	sort.SliceStable(ranked, func(i, j int) bool { return rankOf(ranked[i]) < rankOf(ranked[j]) })
	e.ranked, e.families = map[rankKey][]kernels.GEMM{}, map[rankKey][]string{}
	for _, kern := range ranked {
		// The SGEMM ladder runs by name only. fp16-accumulating instances
		// compete only among themselves (GEMMAcc): SGEMM and HGEMM promise
		// fp32 accumulation.
		if !kern.Reference {
			key := rankKey{dtypeOf(kern.Tiling.Elem), dtypeOf(kern.Tiling.Acc), order(kern.Tiling.A), order(kern.Tiling.B)}
			e.ranked[key] = append(e.ranked[key], kern)
			if !slices.Contains(e.families[key], kern.Family) {
				e.families[key] = append(e.families[key], kern.Family)
			}
		}
	}
	e.setTable(tuning.Find(kernels.Tunings, dev.Info().Name, arch))
	return e, nil
}

// Tuned reports whether the engine dispatches by a table measured on a GPU
// of the device's name (bench -tune, kernels/tuning/), and the day it was
// measured.
func (e *Engine) Tuned() (date string, ok bool) {
	if e == nil || e.tune == nil {
		return "", false
	}
	return e.tune.Date, true
}

// TunedFamilies lists the families (sgemm, hgemm, ...) whose choices the
// device's table makes, in the table's order; the engine's rule chooses
// for the others. It is empty without a table (Tuned).
func (e *Engine) TunedFamilies() []string {
	if e == nil || e.tune == nil {
		return nil
	}
	var out []string
	for _, g := range e.tune.Grids {
		if !slices.Contains(out, g.Family) {
			out = append(out, g.Family)
		}
	}
	return out
}

// Arch is the compute capability (times ten) of the kernels in use, and
// whether they run through the driver's PTX compiler.
func (e *Engine) Arch() (cc int, jit bool) { return e.arch, e.jit }

// Instances lists the GEMM kernels of every element type available on the
// device. Each computes a row-major C; see SGEMMWith for a column-major one.
func (e *Engine) Instances() []Instance {
	if e == nil {
		return nil
	}
	return instances(e.kernels)
}

// BuiltInstances lists every GEMM kernel built into the binary, once per
// arch it was built for: what an Engine's Instances is chosen from.
func BuiltInstances() []Instance { return instances(kernels.GEMMs) }

// Of keeps the instances of element type dt.
func Of(dt DType, ins []Instance) []Instance {
	var out []Instance
	for _, in := range ins {
		if in.Elem == dt {
			out = append(out, in)
		}
	}
	return out
}

func instances(ks []kernels.GEMM) []Instance {
	out := make([]Instance, len(ks))
	for i, k := range ks {
		out[i] = Instance{
			Name: k.Name, Family: k.Family, Elem: dtypeOf(k.Tiling.Elem), Acc: dtypeOf(k.Tiling.Acc), TensorCores: k.Tiling.MMA, Arch: k.Arch, A: order(k.Tiling.A), B: order(k.Tiling.B),
			Block: [3]int{k.Tiling.Block.M, k.Tiling.Block.N, k.Tiling.Block.K}, Warp: [2]int{k.Tiling.Warp.M, k.Tiling.Warp.N},
			Thread: [2]int{k.Tiling.Thread.M, k.Tiling.Thread.N}, Stages: k.Tiling.Stages, Threads: k.Threads,
			SharedBytes: k.SharedBytes, MinBlocksPerSM: k.Tiling.MinBlocksPerSM, SplitK: max(1, k.Tiling.SplitK), SplitFill: k.Tiling.SplitFill,
			Pack: k.Tiling.Pack, TailSplit: k.Tiling.TailSplit, StreamK: k.Tiling.StreamK, Reference: k.Reference, Ladder: k.Tiling.Ladder,
			Spec: flatten("", reflect.ValueOf(k.Tiling), nil),
		}
	}
	return out
}

// flatten appends the leaf fields of v, named by their path from prefix.
func flatten(prefix string, v reflect.Value, out []Param) []Param {
	if v.Kind() != reflect.Struct {
		return append(out, Param{Name: prefix, Value: fmt.Sprint(v.Interface())})
	}
	for i := range v.NumField() {
		if f := v.Type().Field(i); f.IsExported() {
			out = flatten(strings.TrimPrefix(prefix+"."+f.Name, "."), v.Field(i), out)
		}
	}
	return out
}

func order(l kernels.Layout) Order {
	if l == kernels.ColMajor {
		return ColMajor
	}
	return RowMajor
}

// SGEMM computes C = alpha * A * B + beta * C in fp32 on stream s (nil: the
// default stream), with the instance that suits the shape. A is M x K, B is
// K x N, C is M x N; each may be row- or column-major with any stride. With
// beta == 0, C is not read. The call returns when the kernel is queued.
func (e *Engine) SGEMM(s *cuda.Stream, alpha float32, a, b Matrix, beta float32, c Matrix) error {
	return e.gemmWith(F32, F32, "", s, alpha, a, b, beta, c)
}

// HGEMM is SGEMM for fp16 A, B and C (alpha and beta stay fp32, products
// accumulate in fp32 on tensor cores, C is rounded once).
func (e *Engine) HGEMM(s *cuda.Stream, alpha float32, a, b Matrix, beta float32, c Matrix) error {
	return e.gemmWith(F16, F32, "", s, alpha, a, b, beta, c)
}

// GEMM is SGEMM or HGEMM, by dt.
func (e *Engine) GEMM(dt DType, s *cuda.Stream, alpha float32, a, b Matrix, beta float32, c Matrix) error {
	return e.gemmWith(dt, F32, "", s, alpha, a, b, beta, c)
}

// GEMMAcc is GEMM with the products accumulated in acc: F32 is GEMM itself;
// F16, for fp16 A, B and C only, chooses among the fp16-accumulating
// instances (family hgemmh) instead, by a dispatch table's grid for that
// family where the device's table has one (the H100's does) and by the
// shape rule otherwise. Summing in fp16 trades accuracy for speed on large
// problems: each element's rounding error grows as 2^-11 sqrt(K) of the
// magnitudes of its products, against 2^-24 sqrt(K) in fp32, and a partial
// sum beyond 65504 overflows to infinity. alpha and beta are applied in fp32.
func (e *Engine) GEMMAcc(dt, acc DType, s *cuda.Stream, alpha float32, a, b Matrix, beta float32, c Matrix) error {
	if err := checkAcc(dt, acc); err != nil {
		return err
	}
	return e.gemmWith(dt, acc, "", s, alpha, a, b, beta, c)
}

// checkAcc accepts the accumulator types GEMMAcc and PickAcc serve for dt.
func checkAcc(dt, acc DType) error {
	switch {
	case dt != F32 && dt != F16:
		return fmt.Errorf("gemm: unknown element type DType(%d)", int(dt))
	case acc != F32 && acc != F16:
		return fmt.Errorf("gemm: unknown accumulator type DType(%d)", int(acc))
	case acc == F16 && dt != F16:
		return fmt.Errorf("gemm: an %s GEMM accumulates in f32 only, not %s", dt, acc)
	}
	return nil
}

// SGEMMWith is SGEMM with the instance named by name, for tests and benches:
// the named tiling is the one that runs, or the call fails.
//
// Every instance writes a row-major C. A column-major C is run as its
// row-major transpose, C^T = B^T * A^T, whose operands are B^T and A^T. A
// name from Instances whose layouts are the caller's A and B then runs as its
// twin, the instance of the same tiling that takes B^T and A^T (_tt_ for
// _nn_); a name that already takes B^T and A^T runs as it is. The error for
// an instance of other layouts names the layouts the problem needs and the
// instance with the same tiling that has them.
func (e *Engine) SGEMMWith(name string, s *cuda.Stream, alpha float32, a, b Matrix, beta float32, c Matrix) error {
	return e.GEMMWith(F32, name, s, alpha, a, b, beta, c)
}

// HGEMMWith is HGEMM with the instance named name, as SGEMMWith says.
func (e *Engine) HGEMMWith(name string, s *cuda.Stream, alpha float32, a, b Matrix, beta float32, c Matrix) error {
	return e.GEMMWith(F16, name, s, alpha, a, b, beta, c)
}

// GEMMWith is GEMM with the instance named name, as SGEMMWith says.
func (e *Engine) GEMMWith(dt DType, name string, s *cuda.Stream, alpha float32, a, b Matrix, beta float32, c Matrix) error {
	if name == "" {
		return errors.New("gemm: GEMMWith needs an instance name")
	}
	return e.gemmWith(dt, F32, name, s, alpha, a, b, beta, c)
}

// gemmWith runs the instance named name, or for an empty name the one
// choose picks among those accumulating in acc.
func (e *Engine) gemmWith(dt, acc DType, name string, s *cuda.Stream, alpha float32, a, b Matrix, beta float32, c Matrix) error {
	if e == nil {
		return errors.New("gemm: nil *Engine")
	}
	if err := e.validate(dt, s, a, b, c); err != nil {
		return err
	}
	swapped := c.Order == ColMajor
	if swapped {
		// A column-major C is a row-major C^T, and C^T = B^T * A^T.
		userA, userB := a.Order, b.Order
		a, b, c = b.T(), a.T(), c.T()
		name = e.twin(name, userA, userB, a.Order, b.Order)
	}
	k, _, err := e.choose(dt, acc, name, a.Order, b.Order, c.Rows, c.Cols, a.Cols)
	if err != nil {
		return e.explain(err, name, a.Order, b.Order, swapped)
	}
	return e.launch(k, dt, s, alpha, a, b, beta, c)
}

// launch queues instance k on s for operands already validated, C
// row-major (gemmWith's swap done): nothing for an empty C.
func (e *Engine) launch(k kernels.GEMM, dt DType, s *cuda.Stream, alpha float32, a, b Matrix, beta float32, c Matrix) error {
	if c.Rows == 0 || c.Cols == 0 {
		return nil
	}
	var err error
	p := kernels.GEMMParams{
		Device: e.dev.Ordinal(), M: c.Rows, N: c.Cols, K: a.Cols, Alpha: alpha, Beta: beta,
		A: elem(a, dt.Size()), LDA: a.LD(), B: elem(b, dt.Size()), LDB: b.LD(), C: elem(c, dt.Size()), LDC: c.LD(), Stream: s.Handle(),
	}
	if need := kernels.GEMMWorkspaceBytes(k, c.Rows, c.Cols, a.Cols); need > 0 {
		if p.Workspace, p.WorkspaceBytes, err = e.workspace(s, need); err != nil {
			return err
		}
	}
	return cuda.Check(k.Name, k.Launch(&p))
}

// workspace returns device memory of at least bytes for split-K launches on
// stream s, growing the stream's buffer when it is too small. Freeing the old
// buffer waits for the device (cudaFree does), so no queued kernel still
// writes it. A launch captured into a graph takes the graph's own scratch
// instead (cuda.Stream.CaptureScratch): the graph may be replayed after this
// buffer was freed, and on other streams than s.
func (e *Engine) workspace(s *cuda.Stream, bytes int) (unsafe.Pointer, int, error) {
	if s != nil { // the default stream is never captured
		if p, ok, err := s.CaptureScratch(bytes); err != nil || ok {
			if err != nil {
				return nil, 0, fmt.Errorf("gemm: split-K workspace in a graph capture: %w", err)
			}
			return p, bytes, nil
		}
	}
	e.wsMu.Lock()
	defer e.wsMu.Unlock()
	if b := e.ws[s]; b != nil {
		if b.Bytes() >= bytes {
			return b.Ptr(), b.Bytes(), nil
		}
		delete(e.ws, s)
		if err := b.Free(); err != nil {
			return nil, 0, fmt.Errorf("gemm: freeing the split-K workspace: %w", err)
		}
	}
	b, err := e.dev.Alloc(bytes)
	if err != nil {
		return nil, 0, fmt.Errorf("gemm: allocating a %d-byte split-K workspace: %w", bytes, err)
	}
	if e.ws == nil {
		e.ws = map[*cuda.Stream]*cuda.Buffer{}
	}
	e.ws[s] = b
	return b.Ptr(), b.Bytes(), nil
}

// Close frees the Engine's split-K workspaces, after the device has finished
// the work queued on them. The Engine stays usable: a later split-K launch
// allocates again.
func (e *Engine) Close() error {
	if e == nil {
		return errors.New("gemm: nil *Engine")
	}
	e.wsMu.Lock()
	defer e.wsMu.Unlock()
	var errs []error
	for s, b := range e.ws {
		errs = append(errs, b.Free())
		delete(e.ws, s)
	}
	return errors.Join(errs...)
}

func (e *Engine) validate(dt DType, s *cuda.Stream, a, b, c Matrix) error {
	size := dt.Size()
	switch {
	case s == nil: // the device's default stream
	case s.Handle() == nil:
		return errors.New("gemm: the stream was destroyed")
	case s.Device() != e.dev:
		return errors.New("gemm: the stream belongs to another device")
	}
	for _, op := range []struct {
		name string
		m    Matrix
	}{{"A", a}, {"B", b}, {"C", c}} {
		if err := op.m.check(op.name, e.dev, size); err != nil {
			return err
		}
	}
	switch {
	case a.Cols != b.Rows:
		return fmt.Errorf("gemm: A is %dx%d and B is %dx%d: A's columns must equal B's rows", a.Rows, a.Cols, b.Rows, b.Cols)
	case c.Rows != a.Rows || c.Cols != b.Cols:
		return fmt.Errorf("gemm: C is %dx%d, but A (%dx%d) times B (%dx%d) is %dx%d",
			c.Rows, c.Cols, a.Rows, a.Cols, b.Rows, b.Cols, a.Rows, b.Cols)
	case overlaps(c, a, size):
		return errors.New("gemm: C overlaps A in the same buffer")
	case overlaps(c, b, size):
		return errors.New("gemm: C overlaps B in the same buffer")
	}
	return nil
}

// elem is the device address of m's element (0, 0), for elements of size
// bytes.
func elem(m Matrix, size int) unsafe.Pointer {
	if m.Buf == nil || m.span() == 0 {
		return nil
	}
	return unsafe.Add(m.Buf.Ptr(), m.Offset*size)
}

// Source says what chose the instance a GEMM runs.
type Source int

const (
	Heuristic Source = iota // the shape rule over the ranking (pickTiling)
	Table                   // the table measured on this GPU (bench -tune)
	Named                   // the caller named it (SGEMMWith, ...)
	Tuned                   // timed on the caller's operands (Engine.Tune)
)

func (s Source) String() string {
	switch s {
	case Table:
		return "table"
	case Named:
		return "named"
	case Tuned:
		return "tuned"
	}
	return "heuristic"
}

// Choice is the instance a GEMM runs and what chose it.
type Choice struct {
	Name      string
	Source    Source
	Heuristic string // what the heuristic alone would run, for comparison
}

// Pick says which instance a GEMM of element type dt runs for a row-major
// M x N C, A (M x K) of order a and B (K x N) of order b. A column-major C
// runs as C^T = B^T * A^T: ask for N x M, B^T's order as a, A^T's as b.
func (e *Engine) Pick(dt DType, a, b Order, m, n, k int) (Choice, error) {
	return e.PickAcc(dt, F32, a, b, m, n, k)
}

// PickAcc is Pick for GEMMAcc: the instance accumulating in acc that a GEMM
// of element type dt runs.
func (e *Engine) PickAcc(dt, acc DType, a, b Order, m, n, k int) (Choice, error) {
	if e == nil {
		return Choice{}, errors.New("gemm: nil *Engine")
	}
	if m < 0 || n < 0 || k < 0 {
		return Choice{}, fmt.Errorf("gemm: negative shape %dx%dx%d", m, n, k)
	}
	if err := checkAcc(dt, acc); err != nil {
		return Choice{}, err
	}
	kern, c, err := e.choose(dt, acc, "", a, b, m, n, k)
	c.Name = kern.Name
	return c, err
}

// choose finds the instance named name, or for an empty name the one
// accumulating in acc that suits the problem: when the device's measured
// table has a grid for the heuristic's family and the layouts, the instance
// tuning.Predict predicts fastest at M x N x K over the grids of every
// candidate family the table has (HGEMM: hgemm and hgemmk); otherwise the
// heuristic: the first tiling in ranking order that gives every
// multiprocessor at least one block, else the one giving the most blocks.
// Instances that accumulate in fp16 (hgemmh) are
// candidates only for acc F16, reference instances (the SGEMM ladder) only
// by name.
func (e *Engine) choose(dt, acc DType, name string, a, b Order, m, n, k int) (kernels.GEMM, Choice, error) {
	if name != "" {
		i := slices.IndexFunc(e.kernels, func(kern kernels.GEMM) bool {
			return kern.Name == name && dtypeOf(kern.Tiling.Elem) == dt && order(kern.Tiling.A) == a && order(kern.Tiling.B) == b
		})
		if i < 0 {
			return kernels.GEMM{}, Choice{}, fmt.Errorf("gemm: no %s instance %q on sm_%d", dt, name, e.arch)
		}
		return e.kernels[i], Choice{Name: name, Source: Named}, nil
	}
	return e.chooseCached(dt, acc, a, b, m, n, k)
}

// pickKey is a problem as choose sees it; picked is its answer.
type pickKey struct {
	dt, acc DType
	a, b    Order
	m, n, k int
}

type picked struct {
	kern   kernels.GEMM
	choice Choice
}

// maxPicks bounds the engine's memo of choices.
const maxPicks = 4096

// chooseCached is chooseFor on the device, memoized in e.picks.
func (e *Engine) chooseCached(dt, acc DType, a, b Order, m, n, k int) (kernels.GEMM, Choice, error) {
	key := pickKey{dt, acc, a, b, m, n, k}
	e.picksMu.RLock()
	p, ok := e.tuned[key]
	if !ok {
		p, ok = e.picks[key]
	}
	e.picksMu.RUnlock()
	if ok {
		return p.kern, p.choice, nil
	}
	kern, c, err := e.chooseFor(e.dev.Info().Multiprocessors, dt, acc, a, b, m, n, k)
	if err != nil {
		return kern, c, err
	}
	e.picksMu.Lock()
	if e.picks == nil || len(e.picks) >= maxPicks {
		e.picks = make(map[pickKey]picked)
	}
	e.picks[key] = picked{kern, c}
	e.picksMu.Unlock()
	return kern, c, nil
}

// setTable makes t the engine's dispatch table and forgets the choices and
// predictors made by the one before, Tune's too.
func (e *Engine) setTable(t *tuning.Table) {
	e.picksMu.Lock()
	e.predMu.Lock()
	e.tune, e.picks, e.tuned, e.preds = t, nil, nil, nil
	e.predMu.Unlock()
	e.picksMu.Unlock()
}

// predictorKey is a grid of the table as predicted for one device.
type predictorKey struct {
	family, layout string
	sms, align     int
}

// predictor is the predictor of the table's grid of family and layout on
// a device of sms multiprocessors (the table's times are of a GPU of the
// device's name, so of the same count unless it is partitioned), nil when
// the table has no such grid.
func (e *Engine) predictor(family, layout string, sms, align int) *tuning.Predictor {
	g := e.tune.Grid(family, layout)
	if g == nil {
		return nil
	}
	key := predictorKey{family, layout, sms, align}
	e.predMu.Lock()
	defer e.predMu.Unlock()
	if p, ok := e.preds[key]; ok {
		return p
	}
	onDevice := *g
	onDevice.SMs = sms
	p := tuning.NewPredictor(&onDevice, align)
	if e.preds == nil {
		e.preds = map[predictorKey]*tuning.Predictor{}
	}
	e.preds[key] = p
	return p
}

// chooseFor is choose's own choice on a device of sms multiprocessors (the
// tests replay it for a GPU they do not have).
func (e *Engine) chooseFor(sms int, dt, acc DType, a, b Order, m, n, k int) (kernels.GEMM, Choice, error) {
	key := rankKey{dt, acc, a, b}
	cands := e.ranked[key]
	if len(cands) == 0 {
		return kernels.GEMM{}, Choice{}, fmt.Errorf("gemm: no %s kernel accumulating in %s for A %s and B %s on sm_%d", dt, acc, a, b, e.arch)
	}
	h := pickTiling(cands, m, n, k, sms)
	c := Choice{Name: h.Name, Source: Heuristic, Heuristic: h.Name}
	layout := tuning.Layout(a == ColMajor, b == ColMajor)
	if e.tune.Grid(h.Family, layout) == nil {
		return h, c, nil
	}
	// The rule's family is measured: every measured family among the
	// candidates competes on its predicted time (families in ranking order,
	// so a tie goes to the first).
	best, bestMs := "", 0.0
	for _, fam := range e.families[key] {
		p := e.predictor(fam, layout, sms, VectorElems(dt))
		if p == nil {
			continue
		}
		if name, ms, ok := p.Predict(m, n, k); ok && (best == "" || ms < bestMs) {
			best, bestMs = name, ms
		}
	}
	if i := slices.IndexFunc(cands, func(g kernels.GEMM) bool { return g.Name == best }); i >= 0 {
		c.Name, c.Source = best, Table
		return cands[i], c, nil
	}
	return h, c, nil // a table naming a kernel this binary lacks: kgen checks that, so not reached
}

// explain replaces choose's error for an instance name that exists but takes
// other layouts than the operands a and b that the kernel is given (after
// the swap for a column-major C) with one that says which layouts are needed
// and names the instance of the same tiling that takes them.
func (e *Engine) explain(err error, name string, a, b Order, swapped bool) error {
	i := slices.IndexFunc(e.kernels, func(k kernels.GEMM) bool { return k.Name == name })
	if name == "" || i < 0 {
		return err
	}
	named := e.kernels[i]
	need := fmt.Sprintf("A is %s and B is %s", a, b)
	if swapped {
		need = fmt.Sprintf("C is column-major, so the kernel computes the row-major C^T = B^T * A^T, "+
			"whose operands are B^T (%s) and A^T (%s)", a, b)
	}
	msg := fmt.Sprintf("gemm: instance %s takes A %s and B %s, but %s", name, order(named.Tiling.A), order(named.Tiling.B), need)
	found := false
	for _, k := range e.kernels {
		if order(k.Tiling.A) == a && order(k.Tiling.B) == b && sameTiling(k, named) {
			msg += fmt.Sprintf(": %s has the same tiling and takes A %s and B %s", k.Name, a, b)
			found = true
		}
	}
	if !found && named.Tiling.Pack && a == ColMajor && b == RowMajor {
		// Packing makes a problem A column-major and B row-major; one
		// already so has nothing to pack.
		msg += ": with A column-major and B row-major there is no k-contiguous operand to pack, so no packing instance takes them"
		unpacked := named
		unpacked.Tiling.Pack = false
		for _, k := range e.kernels {
			if order(k.Tiling.A) == a && order(k.Tiling.B) == b && sameTiling(k, unpacked) {
				msg += fmt.Sprintf("; %s is the kernel it would run", k.Name)
			}
		}
	}
	return errors.New(msg)
}

// twin maps a name read from Instances for the user's layouts (A userA, B
// userB) to the instance of the same tiling that takes the swapped problem's
// operands (a, b), so that the name a user picked for a problem runs it
// whatever C's order. Any other name is returned as it is.
func (e *Engine) twin(name string, userA, userB, a, b Order) string {
	i := slices.IndexFunc(e.kernels, func(k kernels.GEMM) bool { return k.Name == name })
	if name == "" || i < 0 {
		return name
	}
	named := e.kernels[i]
	if order(named.Tiling.A) != userA || order(named.Tiling.B) != userB || (userA == a && userB == b) {
		return name
	}
	for _, k := range e.kernels {
		if order(k.Tiling.A) == a && order(k.Tiling.B) == b && sameTiling(k, named) {
			return k.Name
		}
	}
	return name
}

// sameTiling reports whether x and y differ at most in name, layouts and
// what the layouts decide of a tiling: whether its ring synchronises
// through mbarriers (only where an operand is k-contiguous; kernels/
// README.md, "sync"), and so the shared memory of those barriers.
func sameTiling(x, y kernels.GEMM) bool {
	x.Tiling.A, x.Tiling.B, x.Tiling.C, x.Tiling.Sync = 0, 0, 0, ""
	y.Tiling.A, y.Tiling.B, y.Tiling.C, y.Tiling.Sync = 0, 0, 0, ""
	return x.Tiling == y.Tiling && x.Family == y.Family && x.Threads == y.Threads
}

// pickTiling applies the shape rule to candidates already in ranking order.
// Without split-K: the first tiling whose blocks reach 3/4 of the
// multiprocessors (a 1024 x 1024 C in 128 blocks of 128x64 beat 256 of 64x64
// on the H100), else the one giving the most blocks. When that leaves the GPU
// short of two blocks per multiprocessor, a split-K tiling also divides the
// k range if K is long (at least 16 x min(m, n)) or, on CUDA cores, if the
// blocks hold fewer than 6 warps per multiprocessor (1024 x 1024 x 1024: 128 blocks of 4 warps,
// where 4 splits of 128x128 tiles ran 1.01-1.12x faster on the H100); in the
// latter case only tilings whose splits each keep at least 256 of K, so that
// the partial sums stay small next to the FMAs. Of those, the one whose
// blocks x splits reach the multiprocessors with the least work to reduce,
// else the one with the most; it is taken if it runs more blocks. Before
// that, where the plain tiling leaves the GPU short of two blocks per
// multiprocessor, an instance whose launches choose their own split count
// (SplitFill, the first in ranking order) runs instead if its tiling has at
// least minFillTiles tiles and its launch would split (tuning.FillSplits,
// the launcher's rule, at fillBlocksPerSM, or fillEdgeBlocksPerSM where
// C's dimensions are not multiples of its tile's): it splits as the GPU at hand
// needs (kgen::fill_splits counts its multiprocessors and the blocks each
// holds). Where that launch would split 2 ways, a split-K instance of the
// same tile in 2 splits summed in a cluster (ClusterReduce) runs instead:
// the same blocks without the workspace and the second kernel (on an H100
// 1.04-1.28x faster in every layout at 293x1799x416, 991x1983x1402,
// 1000x3000x500 and 1774^3, the tunes of sessions 23 and 24). Packing
// instances (Pack) are left to a measured table: whether the transposes pay
// depends on the GPU and the shape (on an H100, from about 3072^3); so are
// instances that split their last wave in clusters (TailSplit) or run it by
// stream-K (StreamK), whose gain depends on how the tiles fall into waves
// on the GPU at hand.
func pickTiling(cands []kernels.GEMM, m, n, k, sms int) kernels.GEMM {
	blocks := func(t kernels.GEMM) int { return ceilDiv(m, t.Tiling.Block.M) * ceilDiv(n, t.Tiling.Block.N) }
	splits := func(t kernels.GEMM) int { return kernels.GEMMSplits(t.Tiling, m, n, k) }
	work := func(t kernels.GEMM) int { return blocks(t) * splits(t) }
	var plain, split, fill []kernels.GEMM
	for _, c := range cands {
		switch {
		case c.Tiling.Pack, c.Tiling.TailSplit, c.Tiling.StreamK:
			continue
		case c.Tiling.SplitFill:
			fill = append(fill, c)
			continue
		}
		if c.Tiling.SplitK > 1 {
			split = append(split, c)
		} else {
			plain = append(plain, c)
		}
	}
	if len(plain)+len(split) == 0 { // only packing or fill instances: the first ranked
		return cands[0]
	}
	if len(plain) == 0 { // only split-K instances: rank them like the others
		plain, split = split, nil
	}
	best := plain[0]
	for _, c := range plain {
		if 4*blocks(c) >= 3*sms {
			best = c
			break
		}
		if blocks(c) > blocks(best) {
			best = c
		}
	}
	if len(fill) > 0 && blocks(best) < 2*sms && blocks(fill[0]) >= minFillTiles {
		f := fill[0]
		perSM := fillBlocksPerSM
		if m%f.Tiling.Block.M != 0 || n%f.Tiling.Block.N != 0 {
			perSM = fillEdgeBlocksPerSM
		}
		if s := tuning.FillSplits(blocks(f), ceilDiv(k, f.Tiling.Block.K), sms, perSM, splits(f)); s > 1 {
			for _, c := range split {
				if s == 2 && c.Tiling.ClusterReduce && splits(c) == 2 && c.Tiling.Block == f.Tiling.Block {
					return c
				}
			}
			return f
		}
	}
	long := k >= 16*min(m, n)
	thin := blocks(best)*best.Threads < 6*32*sms
	if best.Tiling.MMA {
		// Tensor-core tiles split for occupancy only when their blocks
		// leave most SMs idle and K is not short: on an H100 1024^3 ran
		// fastest unsplit (hgemmk's 128 blocks of 4 warps, 2.2-2.4x ahead
		// of 4 splits of 128x128), 172x225x1383 (12 blocks) 4.3-5.4x
		// faster in 32 splits of K = 43, 128^3 fastest unsplit (bench/
		// results/h100-2026-11-24-session15.md).
		thin = 2*blocks(best) < sms && k >= 1024
	}
	if blocks(best) >= 2*sms || !(long || thin) {
		return best
	}
	var pick *kernels.GEMM
	for i, c := range split {
		if !long && !c.Tiling.MMA && splits(c)*minSplitDepth > k {
			continue
		}
		w := work(c)
		switch {
		case pick == nil:
			pick = &split[i]
		case work(*pick) >= sms:
			if w >= sms && w < work(*pick) {
				pick = &split[i]
			}
		case w > work(*pick):
			pick = &split[i]
		}
	}
	if pick != nil && work(*pick) > blocks(best) {
		return *pick
	}
	return best
}

// minSplitDepth is the least K per split that pickTiling accepts when it
// splits for occupancy rather than for a long K.
const minSplitDepth = 256

// fillBlocksPerSM is the blocks per multiprocessor pickTiling expects of
// the first ranked fill tiling, 128x128x16 of 256 threads: its 50 KB of
// shared memory and at most 128 registers a thread (116-128 from ptxas 13.0
// on sm_90) let two share a multiprocessor on every arch from sm_80. The
// launch counts the real figure (kgen::fill_splits); the rule only asks
// whether the launch would split at all, since the fill kernel unsplit ran
// 5-10% behind the plain one on an H100 (2048^3, 2048x2048x512).
const fillBlocksPerSM = 2

// fillEdgeBlocksPerSM is what pickTiling counts instead where C's
// dimensions are not multiples of the fill tile's, so that its launch runs
// the kernel with edge tiles. Counting 2 there, the rule took the fill
// tile in 4 or 5 splits at 886^3 and 1023^3, where its 2 splits summed in a
// cluster ran 1.11-1.28x faster in every layout of the H100's tunes of
// sessions 22 to 24; counting 1, it takes those, and at 1000x3000x500
// still the cluster twin (replayed: TestSGEMMRuleOnMeasuredTimes).
const fillEdgeBlocksPerSM = 1

// minFillTiles is the fewest C tiles for which pickTiling takes an
// instance that splits to fill the GPU: on fewer, a smaller tile in many
// splits runs more blocks (on an H100, 64x64x65536 ran 11-13x faster in
// 128 splits of 64x64 than in 32 of 128x128; at 4 tiles, 256x256x4096, the
// 128x128 tile in 32 splits ran 1.7-1.9x faster than 64x64 in 128).
const minFillTiles = 4

// ranking orders tilings by the standalone harness on an H100 (kernels/
// README.md, "sgemm tilings"): the 128x128x16 tile by columns in
// rows_zigzag leads at n >= 2048 in every layout since session 23 (in nn,
// nt and tt with its ring through mbarriers: 0.98-1.02x cuBLAS at 2048,
// ahead of 128x256x16 and 256x128x16 in each; in tn 0.98x against 0.96x,
// session 13's FFMA orders); then the cp.async 128x256x16 tile, fastest
// before, and 128x128x16 (with lanes by column, 2-4% faster than by row in
// nn, nt and tt: session 8's harness); at n = 1024 pickTiling reaches
// 128x64x8 by the block count and then the 4-split 128x128x8 tile by the
// warp count; the register pipeline (stages 2) last. Tilings not listed
// rank after these, in name order.
var ranking = []string{
	"_b128x128x16_w32x64_t8x8_s3_lc_fz",
	"_b128x256x16_w64x64_t8x16_s3",
	"_b128x128x16_w32x64_t8x8_s3_lc",
	"_b128x128x16_w32x64_t8x8_s3",
	"_b256x128x16_w64x64_t8x16_s3", // ahead only in tt (session 8): the table picks it there
	"_b128x64x8_w64x32_t8x8_s4_o3",
	"_b64x64x8_w32x32_t4x8_s4_o4",
	"_b128x128x8_w32x64_t8x8_s4_o2_k4_lc",
	"_b128x128x16_w32x64_t8x8_s2",
	// Splits that fill the GPU, ranked among themselves (pickTiling takes
	// the first): the 128x128 tile in rows_zigzag, then in quads_zigzag,
	// which swap places in layout nt (rank). Replayed on the H100's
	// session 22 tune the first left 90 of 212 shapes over 5% of the
	// fastest, the second 110 (SGEMM's rule: TestSGEMMRuleOnMeasuredTimes).
	"_b128x128x16_w32x64_t8x8_s3_k32f_lc_fz",
	"_b128x128x16_w32x64_t8x8_s3_k32f_lc_fq",
	// fp16 (hgemm), from the H100 bench of 2026-11-23 (bench/results/
	// h100-2026-11-23-final.md): at n >= 2048 the 256x128 and 128x256 tiles
	// at one block per SM beat 128x128 by 2-7% in every layout (the table
	// order put 128x128 first); at n = 1024 the fill rule reaches 64x64.
	// Block K 64 (family hgemmk, sm_80 and sm_90 only) first: in the H100
	// bench of session 7 (bench/results/h100-2026-11-24-session7.md) 3-5%
	// ahead of block K 32 in tn and tt, level in nn and nt (within 1-2%).
	"_b256x128x64_w64x64_s3",
	"_b128x256x64_w64x64_s3",
	// At n = 1024 (1024 / 128 x 1024 / 64 = 128 blocks) the 128x64 tile in
	// 6 stages of block K 64 ran 1.6-1.7x faster than the 64x64 tile the fill
	// rule reached before (session 8's harness, operands cold).
	"_b128x64x64_w64x32_s6",
	// fp16 accumulation (hgemmh, GEMMAcc): 128x64 warp tiles, two blocks an
	// SM, ran 4096^3 and 8192^3 3% faster than 128x256 in 4 stages on an
	// H100 (bench/results/h100-2026-11-24-session12.md), the size fp16
	// accumulation is for; 5-15% slower at 1024 and 2048.
	"_b256x128x32_w128x64_s4_o2",
	"_b256x128x32_w64x64_s4",
	"_b128x256x32_w64x64_s3",
	"_b128x128x32_w64x64_s4",
	"_b64x64x32_w32x32_s3",
}

// mbarrierSuffix ends the name of an SGEMM instance whose cp.async ring
// synchronises through mbarriers (gen/ir's Syncs).
const mbarrierSuffix = "_mb"

// fillZigzag is the position in ranking of the first ranked fill tiling;
// its quads_zigzag twin follows it.
var fillZigzag = slices.Index(ranking, "_b128x128x16_w32x64_t8x8_s3_k32f_lc_fz")

// rank is the position of the instance's tiling in ranking for operands a
// and b. With B column-major the 128x128x16 tile with lanes by column beat
// 128x256x16 at every n on an H100: in nt, where both operands go through
// 4-byte copies, 0.93-0.94x cuBLAS against 0.84-0.86x; in tt 0.98-1.00x
// against 0.96-0.98x (session 8's harness). There the two swap places
// (second and third, behind the tile in rows_zigzag). In nt the fill tile
// in quads_zigzag ran 2% faster than in rows_zigzag (geometric mean over
// the 53 shapes of the H100's tunes of sessions 23 and 24; up to 9% where
// the rule takes it, 128x8192x8192, 512x512x8192, 1024^3): there the two
// fill tilings swap places.
func rank(name string, a, b Order) int {
	// The ring's synchronisation (kernels/README.md, "sync") follows the
	// layout: an instance ranks as its tiling does.
	name = strings.TrimSuffix(name, mbarrierSuffix)
	for i, suffix := range ranking {
		if strings.HasSuffix(name, suffix) {
			switch {
			case b == ColMajor && (i == 1 || i == 2):
				return 3 - i
			case a == RowMajor && b == ColMajor && (i == fillZigzag || i == fillZigzag+1):
				return 2*fillZigzag + 1 - i
			}
			return i
		}
	}
	return len(ranking)
}

func ceilDiv(a, b int) int { return (a + b - 1) / b }
