package main

import (
	"bytes"
	"encoding/csv"
	"encoding/xml"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kgen-gpu/kgen/go/gemm"
	"github.com/kgen-gpu/kgen/internal/compare"
)

// sampleReport has a row of each family, references and an engine row
// included, with names that need XML escaping.
func sampleReport() Report {
	return Report{
		Device: DeviceReport{Name: "NVIDIA H100 <SXM> & co", CC: 90, SMs: 132},
		Iters:  20,
		Rows: []Row{
			{Family: "sgemm", Kernel: "cublas_sgemm_nn", Shape: "4096x4096x4096", Layout: "nn", Method: "events", Launches: 1, Ms: 2.5, NoiseMs: 0.01, Rate: 55, Unit: "TFLOPS", VsRef: 1},
			{Family: "sgemm", Kernel: "engine(sgemm_nn_f32_b128x128x8_w32x64_t8x8_s2_o2)", Shape: "4096x4096x4096", Layout: "nn", Method: "events", Launches: 1, Ms: 2.6, NoiseMs: 0.02, Rate: 52.9, Unit: "TFLOPS", VsRef: 0.96, ErrRatio: 0.01},
			{Family: "sgemm", Kernel: "sgemm_nn_f32_b64x64x8_w32x32_t4x8_s2", Shape: "8192x128x8192", Layout: "tn", Method: "graph", Launches: 40, Ms: 0.05, Rate: 40, Unit: "TFLOPS", VsRef: 1.3},
			{Family: "gf256", Op: "encode", Kernel: "gf_nibble_v16_t256_r8", Shape: "10+4 65536B", Method: "events", Launches: 200, Ms: 0.004, Rate: 160, Unit: "GB/s", VsRef: 30, VsFloor: 0.5},
			{Family: "gf256", Op: "encode", Kernel: "copy-floor", Shape: "10+4 65536B", Method: "model", Ms: 0.002},
			{Family: "hgemv", Kernel: "hgemv_x", Shape: "4096x4096 m=1", Layout: "t", Method: "events", Launches: 80, Ms: 0.012, Rate: 2800, Unit: "GB/s", VsRef: 1.1, VsFloor: 0.8},
			{Family: "hgemm", Kernel: "hgemm_nn_f16accf32_b128x128x32_w64x64_s4", Shape: "1024x1024x1024", Layout: "nn", Method: "events", Launches: 12, Ms: 0.02, Rate: 100, Unit: "TFLOPS", VsRef: 0.7},
			{Family: "hgemm", Kernel: "hgemmh_nn_f16_b128x256x32_w64x64_s4", Shape: "1024x1024x1024", Layout: "nn", Method: "events", Launches: 12, Ms: 0.019, Rate: 105, Unit: "TFLOPS", VsRef: 0.74, Ref: "cublas_gemmex_acc16"},
		},
		Ablation: []Ablation{{Family: "sgemm", Shape: "4096x4096x4096", Layout: "nn", Best: "a", Param: "Stages", BestValue: "2", Value: "1", Kernel: "b", Ratio: 0.8}},
		Picks: []Pick{{Family: "sgemm", Shape: "4096x4096x4096", Layout: "nn", Engine: "a", EngineMs: 2.5, Fastest: "b", FastestMs: 2, Ratio: 1.25, Timed: 3},
			{Family: "gf256", Shape: "10+4 65536B", Engine: "c", EngineMs: 0.004, Fastest: "c", FastestMs: 0.004, Ratio: 1, Timed: 2}},
	}
}

func TestJSONRoundTrip(t *testing.T) {
	rep := sampleReport()
	path := filepath.Join(t.TempDir(), "r.json")
	require.NoError(t, writeJSON(path, rep))
	got, err := readJSON(path)
	require.NoError(t, err)
	assert.Equal(t, rep, got)
	_, err = readJSON(filepath.Join(t.TempDir(), "missing.json"))
	assert.Error(t, err)
}

func TestCSVHasEveryRowAndColumn(t *testing.T) {
	rep := sampleReport()
	var buf bytes.Buffer
	require.NoError(t, writeCSV(&buf, rep.Rows))
	recs, err := csv.NewReader(&buf).ReadAll()
	require.NoError(t, err)
	require.Len(t, recs, 1+len(rep.Rows))
	assert.Equal(t, csvHeader, recs[0])
	col := map[string]int{}
	for i, h := range recs[0] {
		col[h] = i
	}
	for i, r := range rep.Rows {
		rec := recs[i+1]
		assert.Equal(t, r.Kernel, rec[col["kernel"]])
		assert.Equal(t, r.Shape, rec[col["shape"]])
		assert.Equal(t, r.Method, rec[col["method"]])
		ms, err := strconv.ParseFloat(rec[col["ms"]], 64)
		require.NoError(t, err)
		assert.InDelta(t, r.Ms, ms, 1e-6*r.Ms)
		noise, err := strconv.ParseFloat(rec[col["noise_ms"]], 64)
		require.NoError(t, err)
		assert.InDelta(t, r.NoiseMs, noise, 1e-6*r.NoiseMs+1e-12)
		assert.Equal(t, r.Ref, rec[col["ref"]])
	}
}

// TestTableNamesAnotherReference checks that a row compared with another
// reference than its family's (fp16-accumulating HGEMM instances against
// cuBLAS accumulating in fp16) says which, and that the others do not.
func TestTableNamesAnotherReference(t *testing.T) {
	var buf bytes.Buffer
	printTable(&buf, sampleReport())
	var acc16, plain string
	for _, line := range strings.Split(buf.String(), "\n") {
		switch {
		case strings.Contains(line, "hgemmh_nn_f16_b128x256x32_w64x64_s4"):
			acc16 = line
		case strings.Contains(line, "hgemm_nn_f16accf32_b128x128x32_w64x64_s4"):
			plain = line
		}
	}
	assert.Contains(t, acc16, "| 0.74 (cublas_gemmex_acc16) |")
	assert.Contains(t, plain, "| 0.70 |")
	assert.NotContains(t, plain, "cublas_gemmex_acc16")
}

// TestChartIsWellFormedAndHasEveryRow parses the SVG as XML and looks for
// a bar label of every kernel row that has a ratio, one title per family,
// an axis per family and the 1.0 line in red.
func TestChartIsWellFormedAndHasEveryRow(t *testing.T) {
	rep := sampleReport()
	svg := chart(rep)
	dec := xml.NewDecoder(strings.NewReader(svg))
	var texts []string
	redLines, rects := 0, 0
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		require.NoError(t, err, "the SVG is not well-formed XML")
		switch el := tok.(type) {
		case xml.StartElement:
			if el.Name.Local == "rect" {
				rects++
			}
			for _, a := range el.Attr {
				if el.Name.Local == "line" && a.Name.Local == "stroke" && a.Value == "#c33" {
					redLines++
				}
			}
		case xml.CharData:
			texts = append(texts, string(el))
		}
	}
	all := strings.Join(texts, "\n")
	bars := 0
	for _, r := range rep.Rows {
		if r.isRef() || r.VsRef == 0 {
			assert.NotContains(t, all, r.Kernel+" "+r.Method, "references have no bar")
			continue
		}
		bars++
		assert.Contains(t, all, r.Kernel, "no bar label for %s", r.Kernel)
		assert.Contains(t, all, fmt.Sprintf("%.2fx", r.VsRef))
	}
	assert.Equal(t, bars+1, rects, "one bar per row plus the background")
	assert.Equal(t, 4, redLines, "a 1.0 line per family")
	assert.Contains(t, all, "NVIDIA H100 <SXM> & co")
	for _, f := range families {
		assert.Contains(t, all, f+" on ")
	}
	assert.Contains(t, all, "ratio to cuBLAS SGEMM")
}

func TestTickStep(t *testing.T) {
	for _, top := range []float64{1, 1.3, 2.7, 9, 31, 140} {
		s := tickStep(top)
		n := top / s
		assert.True(t, n >= 2 && n <= 5, "top %v: step %v gives %v ticks", top, s, n)
	}
}

func TestCompareFlagsOnlyChangesBeyondTheNoise(t *testing.T) {
	rule := noiseRule{K: 3, MinPct: 3}
	base := Row{Family: "sgemm", Kernel: "k", Shape: "s", Layout: "nn", Method: "events"}
	with := func(kernel string, ms, noise float64) Row {
		r := base
		r.Kernel, r.Ms, r.NoiseMs = kernel, ms, noise
		return r
	}
	old := []Row{
		with("noisy", 1, 0.05), with("quiet", 1, 0.001), with("tiny", 1, 0), with("faster", 1, 0.001),
		with("engine(x)", 1, 0.001), with("gone", 1, 0), {Family: "gf256", Kernel: "copy-floor", Method: "model", Ms: 1},
	}
	cur := []Row{
		with("noisy", 1.10, 0.05),    // 10% slower, but noise 0.05 x 3 = 0.15: not a regression
		with("quiet", 1.10, 0.001),   // 10% slower, beyond noise and 3%: regression
		with("tiny", 1.02, 0),        // beyond zero noise but under 3%: not
		with("faster", 0.5, 0.001),   // faster: never
		with("engine(y)", 1.2, 0.01), // the engine's pick changed: still the engine row, regression
		with("new", 1, 0),            // not in the old run
		{Family: "gf256", Kernel: "copy-floor", Method: "model", Ms: 2},
	}
	cs := compareRows(old, cur, rule)
	got := map[string]bool{}
	speed := map[string]float64{}
	for _, c := range cs {
		got[c.Row.Kernel] = c.Regression
		speed[c.Row.Kernel] = c.Speedup
	}
	assert.Equal(t, map[string]bool{"noisy": false, "quiet": true, "tiny": false, "faster": false, "engine(y)": true}, got)
	assert.InDelta(t, 2.0, speed["faster"], 1e-12)
	assert.InDelta(t, 1/1.2, speed["engine(y)"], 1e-12)
	var buf bytes.Buffer
	assert.Equal(t, 2, printChanges(&buf, cs, rule, len(cur)-len(cs)))
	assert.Contains(t, buf.String(), "REGRESSION")
	assert.Contains(t, buf.String(), "5 rows compared, 2 regressions, 2 rows")
	assert.InDelta(t, math.Pow(1/1.1*1/1.1*1/1.02*2/1.2, 1.0/5), meanSpeedup(cs), 1e-12)
	// The larger of the two noises counts: a noisy new run is not flagged.
	assert.False(t, rule.regressed(1, 0, 1.1, 0.05))
	assert.True(t, rule.regressed(1, 0, 1.1, 0.01))
}

func TestCompareMeasuresKernelsAgainstTheirReference(t *testing.T) {
	rule := noiseRule{K: 3, MinPct: 3}
	// One problem's cuBLAS row and a kgen row of it; VsRef as the bench
	// sets it.
	pair := func(shape string, refMs, refNoise, ms float64) []Row {
		ref := Row{Family: "sgemm", Kernel: "cublas_sgemm_nn", Shape: shape, Layout: "nn", Method: "events", Ms: refMs, NoiseMs: refNoise, VsRef: 1}
		k := ref
		k.Kernel, k.Ms, k.NoiseMs, k.VsRef = "engine(x)", ms, 0.001, refMs/ms
		return []Row{ref, k}
	}
	// GF(2^8): the reference is the CPU's; the copy floor is the GPU's.
	gf := func(ms, floorMs, cpuMs float64) []Row {
		return []Row{
			{Family: "gf256", Op: "encode", Kernel: "klauspost", Shape: "10+4", Method: "wall", Ms: cpuMs, NoiseMs: 0.001, VsRef: 1},
			{Family: "gf256", Op: "encode", Kernel: "gf256_x", Shape: "10+4", Method: "events", Ms: ms, NoiseMs: 0.001, VsRef: cpuMs / ms, VsFloor: floorMs / ms},
		}
	}
	old := slices.Concat(pair("drift", 1, 0.001, 0.9), pair("slowed", 1, 0.001, 0.9), pair("noisyref", 1, 0.05, 0.9), gf(1, 0.5, 10))
	cur := slices.Concat(
		pair("drift", 1.1, 0.001, 0.99), // kernel and cuBLAS 10% slower: the machine, not a regression
		pair("slowed", 1, 0.001, 0.99),  // kernel 10% slower, cuBLAS not: regression
		pair("noisyref", 1, 0.05, 0.99), // the same, but against a reference that noisy it can't tell: not
		gf(1.1, 0.5, 20))                // 10% slower against an unchanged copy floor, the CPU's twice as slow: regression
	cs := compareRows(old, cur, rule)
	require.Len(t, cs, 8)
	got := map[string]bool{}
	for _, c := range cs {
		got[c.Row.Shape+" "+c.Row.Kernel] = c.Regression
		if c.Row.isRef() {
			assert.Zero(t, c.VsYardstick, "%s %s", c.Row.Shape, c.Row.Kernel)
		}
	}
	assert.Equal(t, map[string]bool{
		"drift cublas_sgemm_nn": false, "drift engine(x)": false,
		"slowed cublas_sgemm_nn": false, "slowed engine(x)": true,
		"noisyref cublas_sgemm_nn": false, "noisyref engine(x)": false,
		"10+4 klauspost": false, "10+4 gf256_x": true,
	}, got)
	// Against its reference the drifted kernel did not move; the slowed one
	// lost 10%.
	assert.InDelta(t, 1.0, cs[1].VsYardstick, 1e-12)
	assert.InDelta(t, 0.9/0.99, cs[3].VsYardstick, 1e-12)
	assert.InDelta(t, 1/1.1, cs[7].VsYardstick, 1e-12)
	// By time alone, every kgen row here is slower beyond its own noise.
	for _, i := range []int{1, 3, 5, 7} {
		assert.True(t, rule.regressed(cs[i].OldMs, 0.001, cs[i].Row.Ms, 0.001), cs[i].Row.Shape)
	}
	var buf bytes.Buffer
	assert.Equal(t, 2, printChanges(&buf, cs, rule, 0))
	assert.Contains(t, buf.String(), "8 rows compared, 2 regressions")
	assert.Contains(t, buf.String(), "kgen's 4 rows")
	assert.Contains(t, buf.String(), "the references' 4 rows")
}

// TestCompareOnTwoMachines replays -compare on two default runs of the same
// kernels on two H200s (sessions 49 and 50): the references moved, and by
// time alone dozens of rows of kgen's would be flagged with them.
func TestCompareOnTwoMachines(t *testing.T) {
	old, err := readJSON("../../bench/results/h200-2026-11-30-session49-call2-default.json.gz")
	require.NoError(t, err)
	cur, err := readJSON("../../bench/results/h200-2026-11-30-session50-call2-default.json.gz")
	require.NoError(t, err)
	rule := noiseRule{K: 3, MinPct: 3}
	cs := compareRows(old.Rows, cur.Rows, rule)
	require.NotEmpty(t, cs)
	was := map[string]Row{}
	for _, r := range old.Rows {
		was[r.key()] = r
	}
	byTime, flagged, refsMoved := 0, 0, 0
	for _, c := range cs {
		if c.Row.isRef() {
			assert.False(t, c.Regression)
			if rule.regressed(c.OldMs, 0, c.Row.Ms, 0) {
				refsMoved++
			}
			continue
		}
		assert.NotZero(t, c.VsYardstick, "%s %s %s: no reference", c.Row.Family, c.Row.Shape, c.Row.Kernel)
		if c.Regression {
			flagged++
		}
		if rule.regressed(c.OldMs, was[c.Row.key()].NoiseMs, c.Row.Ms, c.Row.NoiseMs) {
			byTime++
		}
	}
	t.Logf("%d rows: %d references slower by > 3%%; kgen's rows slower beyond the noise %d by time, %d also against the reference", len(cs), refsMoved, byTime, flagged)
	assert.Greater(t, refsMoved, 0)
	assert.Less(t, flagged, byTime)
}

func TestMedianIQR(t *testing.T) {
	med, iqr := medianIQR([]float64{5, 1, 4, 2, 3})
	assert.Equal(t, 3.0, med)
	assert.Equal(t, 2.0, iqr) // quartiles 2 and 4
	med, iqr = medianIQR([]float64{1, 2, 3, 4})
	assert.Equal(t, 2.5, med)
	assert.Equal(t, 1.5, iqr) // 1.75 and 3.25
	med, iqr = medianIQR([]float64{7})
	assert.Equal(t, 7.0, med)
	assert.Equal(t, 0.0, iqr)
	med, _ = medianIQR(nil)
	assert.Equal(t, 0.0, med)
}

func TestFormatProgress(t *testing.T) {
	line := formatProgress("sgemm", "4096x4096x4096 nn sgemm_x", 3, 12, 0.25, 30*time.Second)
	assert.Equal(t, "[sgemm 3/12 25%] 30s, about 1m30s left: 4096x4096x4096 nn sgemm_x", line)
	assert.Equal(t, "[gf256 0/8 0%] 0s, time left unknown", formatProgress("gf256", "", 0, 8, 0, 0))
	long := formatProgress("hgemv", strings.Repeat("k", 300), 1, 2, 0.5, time.Second)
	assert.Len(t, long, 160)
	assert.True(t, strings.HasSuffix(long, "..."))

	// Drawn only when on; cleared before stdout lines.
	var buf bytes.Buffer
	p := newProgress(&buf, false)
	p.section("sgemm", 2)
	p.step()
	assert.Empty(t, buf.String())
	p = newProgress(&buf, true)
	now := time.Unix(0, 0)
	p.now = func() time.Time { return now }
	p.section("sgemm", 2)
	now = now.Add(10 * time.Second)
	p.step()
	p.clear()
	assert.Equal(t, "\r\033[K[sgemm 0/2 0%] 0s, time left unknown\r\033[K[sgemm 1/2 50%] 10s, about 10s left\r\033[K", buf.String())

	// Steps of unequal work: the time left follows the work left.
	buf.Reset()
	p.sectionWork("sgemm", []float64{1, 1, 8})
	now = now.Add(5 * time.Second)
	p.step()
	now = now.Add(5 * time.Second)
	p.step()
	p.clear()
	assert.Equal(t, "\r\033[K[sgemm 0/3 0%] 0s, time left unknown\r\033[K[sgemm 1/3 10%] 5s, about 45s left"+
		"\r\033[K[sgemm 2/3 20%] 10s, about 40s left\r\033[K", buf.String())
}

func TestAblateKeepsOneParameterNeighbours(t *testing.T) {
	ps := func(kv ...string) []gemm.Param {
		var out []gemm.Param
		for i := 0; i < len(kv); i += 2 {
			out = append(out, gemm.Param{Name: kv[i], Value: kv[i+1]})
		}
		return out
	}
	cands := []candidate{
		{Name: "slow2", Params: ps("Block.K", "8", "Stages", "1", "Swizzle", "true"), Ms: 2},
		{Name: "best", Params: ps("Block.K", "8", "Stages", "2", "Swizzle", "true"), Ms: 1},
		{Name: "noswz", Params: ps("Block.K", "8", "Stages", "2", "Swizzle", "false"), Ms: 1.25},
		{Name: "two", Params: ps("Block.K", "16", "Stages", "1", "Swizzle", "true"), Ms: 1.1},
		{Name: "same", Params: ps("Block.K", "8", "Stages", "2", "Swizzle", "true"), Ms: 1.5},
		{Name: "extra", Params: ps("Block.K", "8", "Stages", "2", "Swizzle", "true", "New", "x"), Ms: 4},
	}
	got := ablate("sgemm", "s", "nn", cands)
	var lines []string
	for _, a := range got {
		assert.Equal(t, "best", a.Best)
		lines = append(lines, fmt.Sprintf("%s %s:%s->%s %.2f", a.Kernel, a.Param, a.BestValue, a.Value, a.Ratio))
	}
	assert.Equal(t, []string{"extra New:->x 0.25", "slow2 Stages:2->1 0.50", "noswz Swizzle:true->false 0.80"}, lines)
	assert.Nil(t, ablate("sgemm", "s", "nn", cands[:1]))
	var buf bytes.Buffer
	printAblation(&buf, got)
	assert.Contains(t, buf.String(), "| sgemm | s | nn | best | Stages | 2 | 1 | slow2 | 0.500 |")
}

// TestAblationSeesRealSpecParameters runs ablate over the SGEMM instances
// of the table for one arch with made-up times where the first-ranked
// tiling is fastest: every line must differ from it in one parameter of
// its Spec, checked here against the Spec lists themselves.
func TestAblationSeesRealSpecParameters(t *testing.T) {
	var cands []candidate
	spec := map[string][]gemm.Param{}
	for _, in := range gemm.Of(gemm.F32, gemm.BuiltInstances()) {
		if in.Arch != 90 || in.A != gemm.RowMajor || in.B != gemm.RowMajor || in.Reference {
			continue // the bench's ablation compares kgen's own instances
		}
		ms := 2.0
		if strings.HasSuffix(in.Name, "_b128x128x8_w32x64_t8x8_s2_o2") {
			ms = 1
		}
		cands = append(cands, candidate{Name: in.Name, Params: in.Spec, Ms: ms + float64(len(cands))*1e-3})
		spec[in.Name] = in.Spec
	}
	require.NotEmpty(t, cands)
	lines := ablate("sgemm", "s", "nn", cands)
	// The table has the first-ranked tiling without its second block per
	// SM: at least that neighbour must be found.
	assert.NotEmpty(t, lines)
	for _, a := range lines {
		t.Logf("%s: %s %s -> %s", a.Kernel, a.Param, a.BestValue, a.Value)
		best, other := paramMap(spec[a.Best]), paramMap(spec[a.Kernel])
		n := 0
		for k, v := range best {
			if other[k] != v {
				n++
				assert.Equal(t, a.Param, k)
			}
		}
		assert.Equal(t, 1, n, "%s vs %s", a.Best, a.Kernel)
	}
}

func TestStructParams(t *testing.T) {
	type inst struct {
		Name    string
		Vector  int
		XShared bool
		hidden  int
	}
	got := structParams(inst{Name: "n", Vector: 8, XShared: true, hidden: 1}, "Name")
	assert.Equal(t, []gemm.Param{{Name: "Vector", Value: "8"}, {Name: "XShared", Value: "true"}}, got)
}

// TestCheckBoundsAndNamesTheWorstElement builds a product on the host,
// computes it in float64 and in float32 (a stand-in for a kernel and its
// reference), and checks that honest results pass while a wrong element,
// a NaN and a wrong shape fail, naming the element.
func TestCheckBoundsAndNamesTheWorstElement(t *testing.T) {
	const m, n, k = 7, 35, 4097
	rng := rand.New(rand.NewPCG(1, 2))
	a, b := make([]float32, m*k), make([]float32, k*n)
	for i := range a {
		a[i] = float32(rng.Float64()*2 - 1)
	}
	for i := range b {
		b[i] = float32(rng.Float64()*2 - 1)
	}
	exact, f32 := make([]float32, m*n), make([]float32, m*n)
	for i := range m {
		for j := range n {
			var s64 float64
			var s32 float32
			for l := range k {
				s64 += float64(a[i*k+l]) * float64(b[l*n+j])
				s32 += a[i*k+l] * b[l*n+j]
			}
			exact[i*n+j], f32[i*n+j] = float32(s64), s32
		}
	}
	p := newProduct(m, n, k, func(i, l int) float32 { return a[i*k+l] }, func(l, j int) float32 { return b[l*n+j] }, 1)
	worst, err := p.check(compare.F32, f32, exact)
	require.NoError(t, err)
	assert.True(t, worst > 0 && worst < 1, "worst %v", worst)

	bad := append([]float32(nil), f32...)
	bad[3*n+17] += 0.5 // the bound here is about 0.06: 2 x 4 sqrt(K) u x 1 x K/2
	_, err = p.check(compare.F32, bad, exact)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "C[3,17]")

	bad[3*n+17] = f32[3*n+17]
	bad[6*n+34] = float32(math.NaN())
	worst, err = p.check(compare.F32, bad, exact)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "C[6,34]")
	assert.True(t, math.IsInf(worst, 1))

	_, err = p.check(compare.F32, f32[:10], exact)
	assert.Error(t, err)
}

func TestCheckTypeFollowsTheAccumulation(t *testing.T) {
	assert.Equal(t, compare.F32, checkType(sgemmFamily, false))
	assert.Equal(t, compare.F16, checkType(hgemmFamily, false))
	assert.Equal(t, compare.F16Acc16, checkType(hgemmFamily, true))
}

func TestRowKeyIgnoresTheEnginesPick(t *testing.T) {
	r := Row{Family: "hgemm", Kernel: "engine_acc16(hgemmh_nn_f16_a)", Shape: "4096x4096x4096", Layout: "nn", Method: "events"}
	other := r
	other.Kernel = "engine_acc16(hgemmh_nn_f16_b)"
	assert.Equal(t, r.key(), other.key(), "the fp16 engine's row across a change of its pick")
	fp32 := r
	fp32.Kernel = "engine(hgemmh_nn_f16_a)"
	assert.NotEqual(t, r.key(), fp32.key(), "the two engines are different rows")
	named := r
	named.Kernel = "hgemmh_nn_f16_a"
	assert.NotEqual(t, r.key(), named.key(), "an instance's own row is not the engine's")
}

// TestGemvRowSumsReadEachLayout: the HGEMV check's sums, made in storage
// order once per shape, are the column sums of op(A)^T that newProduct
// reads element by element, in both layouts.
func TestGemvRowSumsReadEachLayout(t *testing.T) {
	const n, k = 7, 13
	host := randomValues(rand.New(rand.NewPCG(3, 4)), n*k)
	for _, tr := range []bool{false, true} {
		a := gemm.Matrix{Rows: n, Cols: k}
		if tr {
			a.Order = gemm.ColMajor
		}
		opA := at(host, a)
		want := newProduct(1, n, k, func(int, int) float32 { return 1 }, func(l, j int) float32 { return opA(j, l) }, 1).colSumB
		assert.InDeltaSlice(t, want, gemvRowSums(host, n, k, tr), 1e-12, "transposed %v", tr)
	}
	assert.NotEqual(t, gemvRowSums(host, n, k, false), gemvRowSums(host, n, k, true), "the layouts read different rows")
}
