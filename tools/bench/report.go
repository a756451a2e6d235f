package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
)

// Report is the bench's machine-readable output.
type Report struct {
	Device  DeviceReport
	Iters   int
	Warmup  int
	Results []Result
	Best    []Best        // per size: the fastest instance against the fastest cuBLAS layout
	GF256   *GFReport     `json:",omitempty"`
	HGEMV   []HGEMVResult `json:",omitempty"`
	HGEMM   []HGEMMResult `json:",omitempty"`
}

// DeviceReport says where the numbers come from.
type DeviceReport struct {
	Name       string
	CC         int
	SMs        int
	ClockMHz   int
	L2MB       int
	Driver     string // CUDA version the driver supports
	Runtime    string
	NVCC       string
	KernelArch int  // arch of the kernels the engine chose
	JIT        bool // true when they run from PTX
	PeakTFLOPS float64
}

// Result is one kernel at one size.
type Result struct {
	Kernel     string
	N          int
	Ms         float64 // median
	TFLOPS     float64
	PctPeak    float64
	Ratio      float64 // cuBLAS time / this time, for the same layout
	MaxRelDiff float64 `json:",omitempty"` // against cuBLAS, relative to max |C|
}

// Best is the summary row of one size.
type Best struct {
	N            int
	Kernel       string
	TFLOPS       float64
	CuBLASTFLOPS float64 // cuBLAS with the same layout
	Ratio        float64
}

func bestPerSize(rs []Result) []Best {
	cublas := map[string]float64{} // layout and size -> TFLOPS
	key := func(layout string, n int) string { return fmt.Sprintf("%s/%d", layout, n) }
	for _, r := range rs {
		if l, ok := strings.CutPrefix(r.Kernel, "cublas_sgemm_"); ok {
			cublas[key(l, r.N)] = r.TFLOPS
		}
	}
	best := map[int]Best{}
	for _, r := range rs {
		if strings.HasPrefix(r.Kernel, "cublas_") {
			continue
		}
		if b, ok := best[r.N]; !ok || r.TFLOPS > b.TFLOPS {
			layout := strings.SplitN(r.Kernel, "_", 3)[1]
			best[r.N] = Best{N: r.N, Kernel: r.Kernel, TFLOPS: r.TFLOPS, CuBLASTFLOPS: cublas[key(layout, r.N)], Ratio: r.Ratio}
		}
	}
	var out []Best
	for _, b := range best {
		out = append(out, b)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].N < out[j].N })
	return out
}

func printTable(w io.Writer, rep Report) {
	fmt.Fprintf(w, "\n| n | kernel | ms (median of %d) | TFLOPS | %% of FP32 peak | x cuBLAS |\n|---|---|---|---|---|---|\n", rep.Iters)
	for _, r := range rep.Results {
		fmt.Fprintf(w, "| %d | %s | %.3f | %.1f | %.1f | %.2f |\n", r.N, r.Kernel, r.Ms, r.TFLOPS, r.PctPeak, r.Ratio)
	}
	fmt.Fprintf(w, "\nBest instance per size:\n| n | kernel | TFLOPS | cuBLAS TFLOPS | x cuBLAS |\n|---|---|---|---|---|\n")
	for _, b := range rep.Best {
		fmt.Fprintf(w, "| %d | %s | %.1f | %.1f | %.2f |\n", b.N, b.Kernel, b.TFLOPS, b.CuBLASTFLOPS, b.Ratio)
	}
}

func writeJSON(path string, rep Report) error {
	data, err := json.MarshalIndent(rep, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, append(data, '\n'), 0o644)
}

// chart draws, per size, a bar for each kernel's ratio to cuBLAS, as SVG.
func chart(rep Report) string {
	const barH, gap, left, width = 14, 4, 420, 360
	var rows []Result
	for _, r := range rep.Results {
		if !strings.HasPrefix(r.Kernel, "cublas_") {
			rows = append(rows, r)
		}
	}
	maxRatio := 1.0
	for _, r := range rows {
		maxRatio = max(maxRatio, r.Ratio)
	}
	h := 40 + len(rows)*(barH+gap)
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" font-family="sans-serif" font-size="11">`+"\n", left+width+80, h)
	fmt.Fprintf(&b, `<text x="4" y="16" font-size="13">SGEMM vs cuBLAS on %s (ratio of cuBLAS time to kernel time; line = 1.0)</text>`+"\n", rep.Device.Name)
	one := left + int(float64(width)/maxRatio)
	for i, r := range rows {
		y := 30 + i*(barH+gap)
		w := int(float64(width) * r.Ratio / maxRatio)
		fmt.Fprintf(&b, `<text x="4" y="%d">n=%d %s</text>`, y+barH-3, r.N, r.Kernel)
		fmt.Fprintf(&b, `<rect x="%d" y="%d" width="%d" height="%d" fill="#4a7ebb"/>`, left, y, w, barH)
		fmt.Fprintf(&b, `<text x="%d" y="%d">%.2fx (%.1f TF)</text>`+"\n", left+w+4, y+barH-3, r.Ratio, r.TFLOPS)
	}
	fmt.Fprintf(&b, `<line x1="%d" y1="24" x2="%d" y2="%d" stroke="#c33"/>`+"\n", one, one, h)
	b.WriteString("</svg>\n")
	return b.String()
}
