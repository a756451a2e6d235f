package tuning

import (
	"bufio"
	"compress/gzip"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// fillTimes are runs of bench/harness/sgemm_fill.cu on the H100: every
// split count from 1 to 32 of the three fill tiles (128x128x16 in two FFMA
// orders, 256x128x16), nn and tn, at 18 shapes of session 22 (K 627 to
// 11585) and 21 of session 24 (most of them K 255 to 1145 on a larger C).
var fillTimes = []string{
	"../../bench/results/h100-2026-11-27-session22-call1-fill.csv.gz",
	"../../bench/results/h100-2026-11-27-session24-call1-fill.csv.gz",
}

// fillRun is one tile's times at one shape, by split count.
type fillRun struct {
	layout, tile      string
	bm, bn, bk        int
	m, n, k, tiles    int
	perSM, perSMEdges int // the split kernel's blocks per multiprocessor
	ms                map[int]float64
}

// edges reports whether the launcher runs the kernel with the element path
// on r's shape: a tile reaches past C, or an m/n-contiguous operand's rows
// (B row-major in nn and tn, A column-major in tn) are not 16-byte aligned
// (kgen::sgemm::launch's fast_rows).
func (r *fillRun) edges() bool {
	return r.m%r.bm != 0 || r.n%r.bn != 0 || r.n%4 != 0 || (r.layout[0] == 't' && r.m%4 != 0)
}

// readFillRuns reads a harness file: a header per build ("# nn
// 128x128x16_lc_fz: 132 SMs; blocks per SM: split 2 (edges 1), ...") and
// lines of layout,tile,M,N,K,tiles,splits,ms,graph_ms,x_cublas,reldiff.
func readFillRuns(t *testing.T, path string) []*fillRun {
	t.Helper()
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		t.Skipf("%s: not in this checkout", path)
	}
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	z, err := gzip.NewReader(f)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	perSM := map[string][2]int{}
	runs := map[string]*fillRun{}
	var order []string
	sc := bufio.NewScanner(z)
	for line := 1; sc.Scan(); line++ {
		text := sc.Text()
		if strings.HasPrefix(text, "#") {
			var layout, tile string
			var sms, split, edges int
			if _, err := fmt.Sscanf(text, "# %s %s %d SMs; blocks per SM: split %d (edges %d)", &layout, &tile, &sms, &split, &edges); err != nil {
				t.Fatalf("%s:%d: header %q: %v", path, line, text, err)
			}
			perSM[layout+" "+strings.TrimSuffix(tile, ":")] = [2]int{split, edges}
			continue
		}
		f := strings.Split(text, ",")
		if len(f) != 11 {
			t.Fatalf("%s:%d: %d fields, want 11", path, line, len(f))
		}
		nums := make([]int, 5)
		for i := range nums {
			if nums[i], err = strconv.Atoi(f[2+i]); err != nil {
				t.Fatalf("%s:%d: %v", path, line, err)
			}
		}
		ms, err := strconv.ParseFloat(f[7], 64)
		if err != nil {
			t.Fatalf("%s:%d: %v", path, line, err)
		}
		key := strings.Join(f[:5], ",")
		r := runs[key]
		if r == nil {
			occ, ok := perSM[f[0]+" "+f[1]]
			if !ok {
				t.Fatalf("%s:%d: no header for %s %s", path, line, f[0], f[1])
			}
			r = &fillRun{layout: f[0], tile: f[1], m: nums[0], n: nums[1], k: nums[2], tiles: nums[3],
				perSM: occ[0], perSMEdges: occ[1], ms: map[int]float64{}}
			if _, err := fmt.Sscanf(f[1], "%dx%dx%d", &r.bm, &r.bn, &r.bk); err != nil {
				t.Fatalf("%s:%d: tile %q: %v", path, line, f[1], err)
			}
			runs[key] = r
			order = append(order, key)
		}
		r.ms[nums[4]] = ms
	}
	if err := sc.Err(); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	out := make([]*fillRun, len(order))
	for i, key := range order {
		out[i] = runs[key]
	}
	return out
}

// TestFillSplitsOnMeasuredTimes replays FillSplits (the launcher's
// fill_splits) on the harness's times: at each tile and shape, the split
// count it takes against the fastest of those measured, with the
// multiprocessors and blocks per multiprocessor the launcher would see.
// Session 22's rule (without the reduction's cost) took 1.42x at worst, 17
// of 234 over 5%; the bounds are a little above what FillSplits reaches.
func TestFillSplitsOnMeasuredTimes(t *testing.T) {
	const maxWorst, maxOver = 1.11, 12
	var worst float64 = 1
	var worstAt string
	over, n := 0, 0
	var misses []string
	for _, path := range fillTimes {
		for _, r := range readFillRuns(t, path) {
			splits := make([]int, 0, len(r.ms))
			best := math.Inf(1)
			for s, ms := range r.ms {
				splits = append(splits, s)
				best = min(best, ms)
			}
			sort.Ints(splits)
			perSM := r.perSM
			if r.edges() {
				perSM = r.perSMEdges
			}
			pick := FillSplits(r.tiles, ceilDiv(r.k, r.bk), h100SMs, perSM, splits[len(splits)-1])
			ms, ok := r.ms[pick]
			if !ok {
				t.Fatalf("%s %s %dx%dx%d: picked %d splits, not measured (%v)", r.layout, r.tile, r.m, r.n, r.k, pick, splits)
			}
			ratio := ms / best
			n++
			at := fmt.Sprintf("%s %s %dx%dx%d: %d splits, %.3fx the fastest", r.layout, r.tile, r.m, r.n, r.k, pick, ratio)
			if ratio > 1.05 {
				over++
				misses = append(misses, at)
			}
			if ratio > worst {
				worst, worstAt = ratio, at
			}
		}
	}
	if worst > maxWorst {
		t.Errorf("worst pick %s, above %.2f", worstAt, maxWorst)
	}
	if over > maxOver {
		t.Errorf("%d of %d picks over 5%%, above %d", over, n, maxOver)
	}
	t.Logf("FillSplits on %d (tile, layout, shape): worst %s; over 5%%:\n%s", n, worstAt, strings.Join(misses, "\n"))
}
