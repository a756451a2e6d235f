package main

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/kgen-gpu/kgen/internal/tuning"
)

// Report is the bench's machine-readable output (-json), and what -compare
// reads back.
type Report struct {
	Device    DeviceReport
	Iters     int
	Warmup    int
	MinSpanMs float64
	Rows      []Row
	Ablation  []Ablation `json:",omitempty"`
	Picks     []Pick     `json:",omitempty"`
}

// DeviceReport says where the numbers come from: the device's properties,
// the peaks derived from them, and the copy rates measured in the same run.
type DeviceReport struct {
	Name           string
	CC             int
	SMs            int
	ClockMHz       int
	FP32LanesPerSM int     // from the compute capability; 0 if unknown
	PeakTFLOPS     float64 // FP32: SMs x lanes x 2 flops x clock
	PeakF16TFLOPS  float64 // dense fp16 tensor cores, fp32 accumulation
	PeakMemGBs     float64 // from the memory clock and bus width
	CopyGBs        float64 // device-to-device copy measured, bytes read + written per second
	PinnedH2DGBs   float64 `json:",omitempty"` // measured by the gf256 section
	PinnedD2HGBs   float64 `json:",omitempty"`
	PinnedBothGBs  float64 `json:",omitempty"` // each way, both at once
	CPUCores       int
	L2MB           int
	Driver         string // CUDA version the driver supports
	Runtime        string
	NVCC           string   // the toolkit that built the kernels
	KernelArch     int      // arch of the kernels the engines chose
	JIT            bool     // true when they run from PTX
	Table          string   `json:",omitempty"` // the day this GPU's dispatch table was measured; "" without one
	TableFamilies  []string `json:",omitempty"` // the families it dispatches (the engine's rule chooses for the others)
}

// Row is one kernel (or reference) at one problem of one family.
type Row struct {
	Family   string // sgemm, gf256, hgemv, hgemm
	Op       string `json:",omitempty"` // gf256: encode, decode, host-encode
	Kernel   string // instance name, engine(<instance>), or a reference: cublas, klauspost, copy-floor, read-ceiling
	Shape    string // sgemm/hgemm MxNxK; hgemv NxK m=M; gf256 K+M, shard bytes
	Layout   string `json:",omitempty"` // nn, nt, tn, tt; hgemv n or t (A transposed)
	Method   string // events, graph, wall, or model (the copy floor)
	Launches int    // per event pair or graph
	Ms       float64
	NoiseMs  float64 // interquartile range of the repeats
	Rate     float64 // TFLOPS for GEMMs, GB/s otherwise
	Unit     string
	PctPeak  float64 `json:",omitempty"`
	VsRef    float64 `json:",omitempty"` // the reference's time / this time (cuBLAS, klauspost)
	// Ref names the reference of VsRef where it is not the family's own:
	// cuBLAS accumulating in fp16 for the HGEMM instances that do.
	Ref      string  `json:",omitempty"`
	VsFloor  float64 `json:",omitempty"` // the copy floor's time / this time
	ErrRatio float64 `json:",omitempty"` // worst |error| / its bound in the check (0: exact)
	GPUShare float64 `json:",omitempty"` // host-encode: bytes the GPU served / all
	// Ladder is the seed article's step (naive ... vectorized) of a row of
	// an SGEMM ladder instance; empty for every other row.
	Ladder string `json:",omitempty"`
}

// key identifies a row across runs: the engine's pick may change, so its
// rows match by their label alone ("engine", "engine_acc16").
func (r Row) key() string {
	k := r.Kernel
	if i := strings.IndexByte(k, '('); i > 0 && strings.HasPrefix(k, "engine") {
		k = k[:i]
	}
	return strings.Join([]string{r.Family, r.Op, k, r.Shape, r.Layout, r.Method}, "|")
}

// isRef reports whether the row is a reference, not one of kgen's kernels.
func (r Row) isRef() bool {
	for _, p := range []string{"cublas", "klauspost", "copy-floor", "read-ceiling"} {
		if strings.HasPrefix(r.Kernel, p) {
			return true
		}
	}
	return false
}

// printTable writes the rows of every family as Markdown tables.
func printTable(w io.Writer, rep Report) {
	fam := ""
	for _, r := range rep.Rows {
		if r.Family != fam {
			fam = r.Family
			fmt.Fprintf(w, "\n%s (median of %d; noise = IQR)\n| op | shape | layout | kernel | method | launches | ms | noise ms | rate | %% peak | x ref | x floor |\n|---|---|---|---|---|---|---|---|---|---|---|---|\n", fam, rep.Iters)
		}
		fmt.Fprintf(w, "| %s | %s | %s | %s | %s | %d | %.4f | %.4f | %.1f %s | %s | %s | %s |\n", r.Op, r.Shape, r.Layout, r.Kernel, r.Method,
			r.Launches, r.Ms, r.NoiseMs, r.Rate, r.Unit, optional(r.PctPeak, "%.1f"), vsRef(r), optional(r.VsFloor, "%.2f"))
	}
	printLadder(w, rep.Rows)
	printAblation(w, rep.Ablation)
	printPicks(w, rep.Picks)
}

// vsRef is a row's "x ref" cell, naming the reference where it is not the
// family's own.
func vsRef(r Row) string {
	if r.Ref == "" || r.VsRef == 0 {
		return optional(r.VsRef, "%.2f")
	}
	return fmt.Sprintf("%.2f (%s)", r.VsRef, r.Ref)
}

func optional(v float64, format string) string {
	if v == 0 {
		return ""
	}
	return fmt.Sprintf(format, v)
}

func writeJSON(path string, rep Report) error {
	data, err := json.MarshalIndent(rep, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, append(data, '\n'), 0o644)
}

// readJSON reads a report that writeJSON wrote, gzip-compressed where the
// name ends in .gz (as bench/results keeps them).
func readJSON(path string) (Report, error) {
	var rep Report
	err := tuning.ReadJSON(path, &rep)
	return rep, err
}

// csvHeader names writeCSV's columns, in order.
var csvHeader = []string{"family", "op", "kernel", "shape", "layout", "method", "launches", "ms", "noise_ms",
	"rate", "unit", "pct_peak", "vs_ref", "vs_floor", "err_ratio", "gpu_share", "ref"}

// writeCSV writes one line per row under csvHeader.
func writeCSV(w io.Writer, rows []Row) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(csvHeader); err != nil {
		return err
	}
	f := func(v float64) string { return strconv.FormatFloat(v, 'g', 6, 64) }
	for _, r := range rows {
		if err := cw.Write([]string{r.Family, r.Op, r.Kernel, r.Shape, r.Layout, r.Method, strconv.Itoa(r.Launches),
			f(r.Ms), f(r.NoiseMs), f(r.Rate), r.Unit, f(r.PctPeak), f(r.VsRef), f(r.VsFloor), f(r.ErrRatio), f(r.GPUShare), r.Ref}); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// writeFile writes what fill writes to path.
func writeFile(path string, fill func(io.Writer) error) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := fill(f); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
