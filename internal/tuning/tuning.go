package tuning

import (
	"cmp"
	"math"
	"slices"
	"strings"
)

// Table is the dispatch measured on one GPU for the kernels of one arch.
type Table struct {
	GPU    string // the device's name as the driver reports it, e.g. "NVIDIA H100 80GB HBM3"
	Arch   int    // compute capability times ten of the kernels measured (not of the device, under PTX jit)
	Driver string // CUDA version the driver supports, e.g. "12.4"
	NVCC   string // toolkit that built the kernels, e.g. "nvcc 11.8.89"
	Date   string // day of the measurement, YYYY-MM-DD
	Grids  []Grid
}

// Grid is the measured dispatch of one family for one layout of A and B:
// the time of every instance at every point.
type Grid struct {
	Family    string   // spec family, e.g. "sgemm"
	Layout    string   // "nn", "nt", "tn" or "tt": A then B, n row-major, t column-major
	Instances []string // the instances measured, the columns of each point's Ms
	Points    []Point
	// SMs is the multiprocessor count of the device Predict predicts for,
	// which its timing model needs: not part of the table file, the engine
	// sets it from its device (a table is used on GPUs of the name it was
	// measured on). 0 counts as 1, a model without wave quantization.
	SMs int
}

// Point is one measured shape of a grid: C is M x N, the reduction K long.
type Point struct {
	M, N, K int
	// Ms is the median time in milliseconds of each of the grid's
	// Instances, in order; 0 where the instance was not measured (its
	// output failed the tuner's check there, or its launch failed).
	Ms []float64
}

// Best is the index in the grid's Instances of the fastest instance
// measured at p (the first of equal times), or -1 when none was.
func (p Point) Best() int {
	best := -1
	for i, ms := range p.Ms {
		if ms > 0 && (best < 0 || ms < p.Ms[best]) {
			best = i
		}
	}
	return best
}

// Grid returns t's grid of family and layout, or nil.
func (t *Table) Grid(family, layout string) *Grid {
	if t == nil {
		return nil
	}
	for i := range t.Grids {
		if t.Grids[i].Family == family && t.Grids[i].Layout == layout {
			return &t.Grids[i]
		}
	}
	return nil
}

// Find returns the table measured on the GPU called gpu for kernels of arch,
// or nil when there is none.
func Find(tables []Table, gpu string, arch int) *Table {
	for i := range tables {
		if tables[i].GPU == gpu && tables[i].Arch == arch {
			return &tables[i]
		}
	}
	return nil
}

// Neighbours is how many grid points Select predicts a time from: the
// nearest ones, so a shape between a small-K and a large-K point weighs
// both, while a far corner of the grid does not blur the prediction.
const Neighbours = 4

// Select is SelectAligned without alignment classes (align 1): every
// shape and point counts as aligned.
func Select(g *Grid, m, n, k int) (name string, ok bool) { return SelectAligned(g, m, n, k, 1) }

// SelectAligned returns the instance predicted fastest for M x N x K
// (dimensions below 1 count as 1); ok is false for a grid without a
// measured point. A shape is aligned when M, N and K are multiples of
// align: the element count of a kernel's vector access (16 bytes: 4 floats,
// 8 halves), below which the GEMM kernels take their element-wise path.
//
// At a measured shape it is the measured fastest. Elsewhere each instance's
// time comes from a timing model of its tiling (fitModels) fitted to the
// grid's aligned points, corrected by how fast the instance ran against
// that model near the shape: its efficiency, the model's time over the
// measured one at a point, is interpolated from the Neighbours nearest
// aligned points (Distance; equally distant points all count; all points
// when none is aligned) by inverse squared distance weights in log space, a
// weighted geometric mean, and the model's time at the shape over that
// efficiency is the prediction. The model carries what interpolating
// flops per millisecond between the points missed: wave quantization on the
// GPU's multiprocessors (Grid.SMs), tiles that reach past the matrix, and
// split-K's splits and reduction, all of which jump between neighbouring
// shapes (on an H100, interpolated flops picked SGEMM kernels up to 1.65x
// and HGEMM kernels up to 2.1x slower than the fastest between the grid
// shapes). For a shape that is not aligned, each instance's time is then
// multiplied by its measured cost of misalignment: its efficiency at the
// nearest aligned point over that at each unaligned point of the grid, a
// geometric mean weighted as above by each unaligned point's distance to
// the shape. (On an H100 that cost is 1.0-1.6x for SGEMM, up to 12x for
// HGEMM, and differs between instances, so interpolating across the two
// classes picked kernels up to 1.67x slower than the fastest; bench/
// results/h100-2026-11-23-session3.md. The full grid measures 13 such
// shapes since session 34, 2 before.) A packing instance (Tiling.Pack)
// multiplies copies of its operands whose rows are always aligned, so it
// takes that cost where the shape is not whole tiles of it, aligned or
// not, and nowhere else: there it runs its edge kernel, which is what its
// times at the unaligned points measure (on an H200, 1.09-1.20x slower than
// the unpacked kernel at aligned shapes such as 5000^3 and 8000x8000x128,
// where it was picked before; bench/results/h200-2026-11-30-session51.md).
// Where the grid measures MinEdgePoints aligned shapes ragged for an
// instance's block tile (raggedFor), those are a class of their own for the
// tile's instances: they interpolate their efficiency from the other
// aligned points, and at a ragged aligned shape each is charged its edge
// kernel's measured cost, as above from the ragged points and their nearest
// whole-tile ones (on an H200 tn's 128x128 rows_zigzag tile by columns ran
// 7-17% slower there than the quads_zigzag one, which moves its edge tiles,
// and was picked from its whole-tile neighbours;
// bench/results/h200-2026-11-30-session52.md).
// An instance that splits its last
// wave's tiles or streams them (Tiling.Tail, Tiling.Stream) but whose plan
// does not take the shape (Tiling.plans) runs its twin's launch and gets
// its twin's time. Only instances measured at every
// one of the neighbours compete, as one that failed its check near the
// shape may be wrong at it; if none was, the nearest point's fastest is
// taken. Outside the grid's range of M, N or K the dimension counts as the
// edge of the range for the efficiency (not for the model). Ties go to the
// earlier instance, so the choice never depends on the order of points.
func SelectAligned(g *Grid, m, n, k, align int) (name string, ok bool) {
	name, _, ok = Predict(g, m, n, k, align)
	return name, ok
}

// Predict is SelectAligned with the time it predicts for the instance it
// returns, in milliseconds: the measured time at a grid shape, else the
// model's time over the interpolated efficiency times the misalignment
// cost (with no instance measured at every neighbour, the nearest point's
// fastest at that point's efficiency). Predictions from different grids of
// one table can be compared: each is a median time of the same bench on the
// same GPU, which is how the engine chooses between families. It fits the
// grid's timing models on every call (0.5-1.3 ms for the H100's and the
// H200's SGEMM grids on a 2-core machine); a Predictor fits them once.
func Predict(g *Grid, m, n, k, align int) (name string, ms float64, ok bool) {
	return NewPredictor(g, align).Predict(m, n, k)
}

// Predictor is Predict for one grid and alignment quantum with the grid's
// timing models fitted once, to predict many shapes: the engine keeps one
// per grid it dispatches by. It is safe for concurrent use.
type Predictor struct {
	g               Grid
	align           int
	pool, unaligned []Point // the aligned points with a time (all of them when none is aligned), and the others
	models          []timeModel
	twins           []int      // each instance's twin, or -1 (twins)
	odd             []oddPoint // the unaligned points and their twins in pool
	// effs are each grid point's efficiencies, by shape: computed once, as
	// a prediction needs hundreds of them (every instance's at the
	// neighbours and at each unaligned or ragged point and its twin).
	effs map[[3]int][]float64
	// edges are, by block tile (BM, BN), the pool split for instances of
	// that tile where the grid measures MinEdgePoints shapes that are
	// ragged for it (raggedFor): absent where it does not.
	edges map[[2]int]edgeClass
}

// MinEdgePoints is how many aligned grid shapes that are not whole tiles
// of an instance (raggedFor) Predict needs to predict its edge kernel's
// cost from them. On the H200's session 51 times, whose grid had one
// (1000x3000x500) for the 128x128 tiles, that one shape's cost made the
// picks at 3000^3 and 5000^3 in nn, nt and tt 1.08-1.10x the fastest
// instead of 1.00x: a cost measured at one shape is that shape's.
const MinEdgePoints = 3

// edgeClass is the pool of a block tile's instances with the points
// ragged for the tile set apart: ragged, where they ran their edge kernel,
// each paired with its twin among the others (the whole ones), from which
// the instances interpolate their efficiency (as all instances do from the
// aligned points, the unaligned ones apart); odd are the unaligned points
// with their twins among the whole ones.
type edgeClass struct{ ragged, odd []oddPoint }

// raggedFor reports whether an M x N C is ragged for a tile of bm x bn: at
// least one tile each way but not whole tiles, so that the kernels run
// their edge kernel over every tile (or move the edge tiles inside C).
// Smaller shapes are one partial tile each way, which the timing model's
// tiles reaching past C describe.
func raggedFor(bm, bn, m, n int) bool {
	return m >= bm && n >= bn && (m%bm != 0 || n%bn != 0)
}

// NewPredictor sorts g's measured points by alignment to align and fits
// the timing models of g's instances to the aligned ones (see
// SelectAligned). A nil g predicts nothing.
func NewPredictor(g *Grid, align int) *Predictor {
	p := &Predictor{align: max(align, 1)}
	if g == nil {
		return p
	}
	p.g = *g
	for _, q := range g.Points {
		switch {
		case q.Best() < 0 || len(q.Ms) != len(g.Instances):
			// nothing measured there, or a malformed row (kgen rejects those)
		case p.aligned(q.M, q.N, q.K):
			p.pool = append(p.pool, q)
		default:
			p.unaligned = append(p.unaligned, q)
		}
	}
	if len(p.pool) == 0 {
		p.pool, p.unaligned = p.unaligned, nil
	}
	p.models = fitModels(&p.g, p.pool)
	p.twins = twins(g.Instances)
	p.effs = map[[3]int][]float64{}
	for _, q := range append(slices.Clone(p.pool), p.unaligned...) {
		e := make([]float64, len(q.Ms))
		for i := range e {
			e[i] = p.efficiency(q, i)
		}
		p.effs[[3]int{q.M, q.N, q.K}] = e
	}
	p.odd = p.twinned(p.unaligned, p.pool)
	p.edges = map[[2]int]edgeClass{}
	for _, m := range p.models {
		tile := [2]int{m.tiling.BM, m.tiling.BN}
		if _, done := p.edges[tile]; done {
			continue
		}
		var whole, ragged []Point
		for _, q := range p.pool {
			if raggedFor(tile[0], tile[1], q.M, q.N) {
				ragged = append(ragged, q)
			} else {
				whole = append(whole, q)
			}
		}
		if len(ragged) >= MinEdgePoints && len(whole) > 0 {
			p.edges[tile] = edgeClass{p.twinned(ragged, whole), p.twinned(p.unaligned, whole)}
		}
	}
	return p
}

func (p *Predictor) aligned(m, n, k int) bool {
	return m%p.align == 0 && n%p.align == 0 && k%p.align == 0
}

// efficiency is instance i's model time over its measured time at q: its
// speed relative to its model there (at a grid point, computed once).
func (p *Predictor) efficiency(q Point, i int) float64 {
	if e, ok := p.effs[[3]int{q.M, q.N, q.K}]; ok {
		return e[i]
	}
	return p.models[i].ms(p.g.SMs, q.M, q.N, q.K) / q.Ms[i]
}

// Predict is the package's Predict on the predictor's grid and alignment.
func (p *Predictor) Predict(m, n, k int) (name string, ms float64, ok bool) {
	m, n, k = max(m, 1), max(n, 1), max(k, 1)
	if q, ok := p.measuredAt(m, n, k); ok {
		return p.g.Instances[q.Best()], q.Ms[q.Best()], true
	}
	if len(p.pool) == 0 {
		return "", 0, false
	}
	times, ns := p.times(m, n, k)
	best, bestMs := -1, 0.0
	for i, ms := range times {
		if ms > 0 && (best < 0 || ms < bestMs) {
			best, bestMs = i, ms
		}
	}
	if best < 0 {
		best, bestMs = p.fallback(ns, m, n, k)
	}
	return p.g.Instances[best], bestMs, true
}

// fallback is the pick where no instance has a prediction (none measured at
// every neighbour): the nearest point's fastest, at its efficiency there.
func (p *Predictor) fallback(ns []near, m, n, k int) (int, float64) {
	q := ns[0].p
	best := q.Best()
	return best, p.models[best].ms(p.g.SMs, m, n, k) / p.efficiency(q, best)
}

// Prediction is one instance's time at a shape, in milliseconds: measured
// where the grid measured the shape, else predicted (Predict).
type Prediction struct {
	Name string
	Ms   float64
}

// Ranking is every instance the predictor can time at M x N x K, fastest
// first (ties in the grid's instance order): the measured times at a grid
// shape, else the model's predictions (an instance not measured at every
// neighbour has none and is left out). Its first is Predict's pick, except
// where Predict falls back to the nearest point's fastest for want of any
// prediction: then Ranking is that one alone. Empty for a nil grid.
func (p *Predictor) Ranking(m, n, k int) []Prediction {
	m, n, k = max(m, 1), max(n, 1), max(k, 1)
	var times []float64
	var ns []near
	switch q, ok := p.measuredAt(m, n, k); {
	case ok:
		times = q.Ms
	case len(p.pool) == 0:
		return nil
	default:
		times, ns = p.times(m, n, k)
	}
	var out []Prediction
	for i, ms := range times {
		if ms > 0 {
			out = append(out, Prediction{p.g.Instances[i], ms})
		}
	}
	if len(out) == 0 { // nothing predicted (a measured shape always has times)
		i, ms := p.fallback(ns, m, n, k)
		return []Prediction{{p.g.Instances[i], ms}}
	}
	slices.SortStableFunc(out, func(a, b Prediction) int { return cmp.Compare(a.Ms, b.Ms) })
	return out
}

// measuredAt is the grid's point at M x N x K, where it measured that shape.
func (p *Predictor) measuredAt(m, n, k int) (Point, bool) {
	for _, class := range [][]Point{p.pool, p.unaligned} {
		for _, q := range class {
			if q.M == m && q.N == n && q.K == k {
				return q, true
			}
		}
	}
	return Point{}, false
}

// times is every instance's predicted time at M x N x K, a shape the grid
// did not measure (0 where it predicts none: an instance not measured at
// every neighbour), and the neighbours of the shape among the aligned
// points. The pool is not empty.
func (p *Predictor) times(m, n, k int) ([]float64, []near) {
	aligned := p.aligned(m, n, k)
	// Each pool the instances interpolate from (the aligned points, or an
	// edge class's whole ones): its neighbours of the shape and its
	// unaligned and ragged points weighted for it, once a selection.
	type from struct {
		ns          []near
		odd, ragged []oddPoint
	}
	// An edge class's neighbours are the nearest of the aligned points
	// that are whole tiles of it, in the aligned points' range.
	all := byDistance(p.pool, m, n, k)
	pools := map[[2]int]*from{}
	poolOf := func(tile [2]int) *from {
		f := pools[tile]
		if f == nil {
			if c, split := p.edges[tile]; split {
				var whole []near
				for _, q := range all {
					if !raggedFor(tile[0], tile[1], q.p.M, q.p.N) {
						whole = append(whole, q)
					}
				}
				f = &from{closest(whole), weighed(c.odd, m, n, k), weighed(c.ragged, m, n, k)}
			} else {
				f = &from{ns: closest(all), odd: weighed(p.odd, m, n, k)}
			}
			pools[tile] = f
		}
		return f
	}
	ns := poolOf([2]int{}).ns
	times := make([]float64, len(p.g.Instances)) // 0: not predicted
	for i := range p.g.Instances {
		t := p.models[i].tiling
		tile := [2]int{t.BM, t.BN}
		_, split := p.edges[tile]
		if !split {
			tile = [2]int{}
		}
		f := poolOf(tile)
		e, ok := interpolate(f.ns, i, p.efficiency)
		if !ok {
			continue
		}
		cost := 1.0
		switch {
		case split && aligned && raggedFor(t.BM, t.BN, m, n):
			// Its edge kernel's cost, measured at the shapes ragged for
			// its tile against their nearest whole ones.
			cost = misalignment(f.ragged, i)
		case !t.Pack:
			if !aligned {
				cost = misalignment(f.odd, i)
			}
		case m%t.BM != 0 || n%t.BN != 0:
			// A packing instance multiplies copies whose rows are always
			// aligned: it runs its edge kernel where the shape is not
			// whole tiles, aligned or not, which its times at the
			// unaligned points measure.
			cost = misalignment(f.odd, i)
		}
		times[i] = p.models[i].ms(p.g.SMs, m, n, k) / e * cost
	}
	planned := slices.Clone(times)
	for i, ms := range planned {
		// Where a tail-splitting or stream-K instance launches no plan, it
		// runs its twin's launch: its time is the twin's, not one
		// interpolated from neighbours where its plan ran. (One not
		// measured at every neighbour stays out, as above.)
		if j := p.twins[i]; ms > 0 && j >= 0 && planned[j] > 0 && !p.models[i].tiling.plans(p.g.SMs, p.models[i].o, m, n, k) {
			times[i] = planned[j]
		}
	}
	return times, ns
}

// efficiency is an instance's speed relative to its model at a point
// (Predictor.efficiency).
type efficiency func(q Point, i int) float64

// near is a point and its distance to the shape asked for.
type near struct {
	p Point
	d float64
}

// nearest returns the Neighbours points of pts nearest M x N x K, each
// dimension first clamped to the points' range (beyond it, inverse-distance
// weights would flatten to a plain mean of the nearest points, while the
// edge says most), with every point as distant as the last one taken.
func nearest(pts []Point, m, n, k int) []near { return closest(byDistance(pts, m, n, k)) }

// byDistance is every point of pts with its distance to M x N x K (clamped
// as nearest says), nearest first (ties by shape).
func byDistance(pts []Point, m, n, k int) []near {
	m, n, k = clamped(pts, m, n, k)
	ns := make([]near, 0, len(pts))
	for _, p := range pts {
		ns = append(ns, near{p, Distance(p, m, n, k)})
	}
	slices.SortStableFunc(ns, compareNear)
	return ns
}

// compareNear orders byDistance's points: nearer first, then by shape.
func compareNear(a, b near) int {
	switch {
	case a.d != b.d:
		return cmp.Compare(a.d, b.d)
	case lessShape(a.p, b.p):
		return -1
	case lessShape(b.p, a.p):
		return 1
	}
	return 0
}

// nearestOne is the first point of byDistance: the nearest, found in one
// pass. pts is not empty.
func nearestOne(pts []Point, m, n, k int) Point {
	m, n, k = clamped(pts, m, n, k)
	best := near{pts[0], Distance(pts[0], m, n, k)}
	for _, p := range pts[1:] {
		if q := (near{p, Distance(p, m, n, k)}); compareNear(q, best) < 0 {
			best = q
		}
	}
	return best.p
}

// clamped is M, N and K each clamped to the range of pts's.
func clamped(pts []Point, m, n, k int) (int, int, int) {
	lo, hi := [3]int{math.MaxInt, math.MaxInt, math.MaxInt}, [3]int{}
	for _, p := range pts {
		for i, d := range [3]int{p.M, p.N, p.K} {
			lo[i], hi[i] = min(lo[i], d), max(hi[i], d)
		}
	}
	return min(max(m, lo[0]), hi[0]), min(max(n, lo[1]), hi[1]), min(max(k, lo[2]), hi[2])
}

// closest is the first Neighbours of ns, in byDistance's order, and every
// point after them as distant as the last.
func closest(ns []near) []near {
	cut := min(Neighbours, len(ns))
	for cut < len(ns) && ns[cut].d == ns[cut-1].d {
		cut++
	}
	return ns[:cut]
}

// interpolate is instance i's efficiency predicted from ns, or false when
// it was not measured at all of them. A neighbour at distance 0 (a clamped
// shape on a point) decides alone.
func interpolate(ns []near, i int, eff efficiency) (float64, bool) {
	var sw, slog float64
	for _, q := range ns {
		if q.p.Ms[i] <= 0 {
			return 0, false
		}
	}
	for _, q := range ns {
		e := math.Log(eff(q.p, i))
		if q.d == 0 {
			return math.Exp(e), true
		}
		w := 1 / (q.d * q.d)
		sw += w
		slog += w * e
	}
	return math.Exp(slog / sw), true
}

// oddPoint is an unaligned grid point (or one ragged for a tile), the
// log of each instance's cost there against the aligned (whole-tile) point
// nearest it, its twin (NaN where either did not measure the instance),
// and its weight for the shape asked for.
type oddPoint struct {
	u      Point
	lnCost []float64
	w      float64
}

// twinned pairs every point of odd with its twin, the point of pool
// nearest it: each instance's cost there is its efficiency at the twin over
// that at the point. Once per predictor; unweighted.
func (p *Predictor) twinned(odd, pool []Point) []oddPoint {
	out := make([]oddPoint, 0, len(odd))
	for _, u := range odd {
		twin := nearestOne(pool, u.M, u.N, u.K)
		o := oddPoint{u: u, lnCost: make([]float64, len(u.Ms))}
		for i := range o.lnCost {
			o.lnCost[i] = math.NaN()
			if u.Ms[i] > 0 && twin.Ms[i] > 0 {
				o.lnCost[i] = math.Log(p.efficiency(twin, i) / p.efficiency(u, i))
			}
		}
		out = append(out, o)
	}
	return out
}

// weighed is pairs weighted by inverse squared distance to M x N x K: once
// per selection, for all instances.
func weighed(pairs []oddPoint, m, n, k int) []oddPoint {
	out := slices.Clone(pairs)
	for i := range out {
		d := max(Distance(out[i].u, m, n, k), 1e-9)
		out[i].w = 1 / (d * d)
	}
	return out
}

// misalignment is instance i's measured slowdown on shapes that are not
// aligned (see SelectAligned), from odd: 1 when odd is empty or no
// unaligned point and its twin both measured the instance.
func misalignment(odd []oddPoint, i int) float64 {
	var sw, slog float64
	for _, o := range odd {
		if math.IsNaN(o.lnCost[i]) {
			continue
		}
		sw += o.w
		slog += o.w * o.lnCost[i]
	}
	if sw == 0 {
		return 1
	}
	return math.Exp(slog / sw)
}

// Distance is Select's distance between a point's shape and M x N x K: the
// Euclidean distance between the shapes' log2 dimensions, so that 2048 is
// as far from 1024 as from 4096 and each dimension counts the same.
func Distance(p Point, m, n, k int) float64 {
	dm, dn, dk := lg(p.M)-lg(m), lg(p.N)-lg(n), lg(p.K)-lg(k)
	return math.Sqrt(dm*dm + dn*dn + dk*dk)
}

// lessShape orders points by M, N, then K.
func lessShape(q, r Point) bool {
	if q.M != r.M {
		return q.M < r.M
	}
	if q.N != r.N {
		return q.N < r.N
	}
	return q.K < r.K
}

func lg(x int) float64 { return math.Log2(float64(max(x, 1))) }

// Slug is the file name stem of gpu's table: lower case, each run of other
// characters than letters and digits one "-", e.g. "nvidia-h100-80gb-hbm3".
func Slug(gpu string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(gpu) {
		if ('a' <= r && r <= 'z') || ('0' <= r && r <= '9') {
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			b.WriteRune(r)
			dash = false
			continue
		}
		dash = true
	}
	return b.String()
}

// Layout is the two-letter name of the layouts of A and B: n for
// row-major, t for column-major.
func Layout(aColMajor, bColMajor bool) string {
	l := func(col bool) string {
		if col {
			return "t"
		}
		return "n"
	}
	return l(aColMajor) + l(bColMajor)
}
