package tuning

import (
	"math"
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

// Grid is the measured dispatch of one family for one layout of A and B.
type Grid struct {
	Family string // spec family, e.g. "sgemm"
	Layout string // "nn", "nt", "tn" or "tt": A then B, n row-major, t column-major
	Points []Point
}

// Point is one measured shape of a grid: C is M x N, the reduction K long.
type Point struct {
	M, N, K  int
	Best     string  // the fastest instance
	Ms       float64 // its median time in milliseconds
	RunnerUp float64 // the second fastest instance's time over Best's; 0 when only one ran
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

// Select picks the grid point whose shape is nearest to M x N x K: the
// smallest Euclidean distance between the shapes' log2 dimensions, so that
// 2048 is as far from 1024 as from 4096 and each dimension counts the same.
// A shape outside the grid takes its nearest edge. Exact ties (a shape at
// the geometric midpoint of two points) go to the point that bounds the
// shape from above in every dimension, then to the smaller shape, so the
// choice never depends on the order of points. Dimensions below 1 count as
// 1. ok is false for an empty grid.
func Select(points []Point, m, n, k int) (p Point, ok bool) {
	best := -1
	var bestD float64
	for i, q := range points {
		d := Distance(q, m, n, k)
		if best < 0 || d < bestD || (d == bestD && better(q, points[best], m, n, k)) {
			best, bestD = i, d
		}
	}
	if best < 0 {
		return Point{}, false
	}
	return points[best], true
}

// Distance is Select's distance between a point's shape and M x N x K.
func Distance(p Point, m, n, k int) float64 {
	dm, dn, dk := lg(p.M)-lg(m), lg(p.N)-lg(n), lg(p.K)-lg(k)
	return math.Sqrt(dm*dm + dn*dn + dk*dk)
}

// better breaks a distance tie between q and r for the shape m x n x k.
func better(q, r Point, m, n, k int) bool {
	qb, rb := bounds(q, m, n, k), bounds(r, m, n, k)
	if qb != rb {
		return qb
	}
	if q.M != r.M {
		return q.M < r.M
	}
	if q.N != r.N {
		return q.N < r.N
	}
	return q.K < r.K
}

func bounds(p Point, m, n, k int) bool { return p.M >= m && p.N >= n && p.K >= k }

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
