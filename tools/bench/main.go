// Command bench times every kernel built for this GPU against its reference
// in one run, with CUDA events (median after warm-up, operands rotated past
// the L2):
//
//   - sgemm: every SGEMM instance against cuBLAS SGEMM (pedantic math: no
//     TF32): TFLOPS, percent of FP32 peak, ratio to cuBLAS;
//   - gf256: every GF(2^8) instance on device-resident Reed-Solomon encode
//     of (4,2), (10,4), (17,3), (32,8) at each shard size, against the
//     copy-bandwidth floor measured in the same run and klauspost/reedsolomon
//     on all CPU cores; decode of 10+4 with four data shards lost; and the
//     host-to-host encode of rs.Encoder (GPU pipeline beside the CPU) against
//     klauspost alone and the pinned copy bandwidth. Every kernel's parity is
//     checked against klauspost's before it is timed.
//   - hgemv: every fp16 GEMV instance and the engine's choice at K = N from
//     256 to 16384 and the LLM shapes, M = 1, 2, 4, 8, both layouts: 50
//     launches back to back per event pair, weights rotated past the L2,
//     against cuBLAS GemmEx timed the same way and the copy floor;
//   - hgemm: every fp16 tensor-core GEMM instance per layout at -sizes
//     against cuBLAS GemmEx (fp32 accumulation): TFLOPS, % of the dense
//     fp16 peak.
//
// A kernel whose output differs from its reference beyond its dtype's bound
// fails the run.
//
// It writes the results as JSON and the SGEMM ratios as an SVG chart.
//
// With -tune it measures the GEMM families over a grid of shapes instead and
// writes this GPU's dispatch table (tune.go).
//
//	bench [-families sgemm,gf256,hgemv,hgemm] [-sizes 1024,2048,4096,8192] [-gf-sizes 65536,...] [-iters 20] [-warmup 3] [-filter RE] [-json out.json] [-svg out.svg]
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"

	"github.com/kgen-gpu/kgen/go/cuda"
)

func main() {
	sizes := flag.String("sizes", "1024,2048,4096,8192", "square sizes n (M = N = K = n)")
	iters := flag.Int("iters", 20, "timed runs per kernel and size; the median is reported")
	warmup := flag.Int("warmup", 3, "untimed runs before timing")
	filter := flag.String("filter", "", "only instances whose name matches this regular expression")
	jsonOut := flag.String("json", "", "write the results as JSON here")
	svgOut := flag.String("svg", "", "write a bar chart of the ratios to cuBLAS here")
	families := flag.String("families", "sgemm,gf256,hgemv,hgemm", "sections to run: sgemm, gf256, hgemv, hgemm")
	gfSizes := flag.String("gf-sizes", "65536,1048576,16777216,67108864", "GF(2^8) shard sizes in bytes")
	flag.Parse()
	if *tuneFlag { // tune.go
		if err := runTune(*iters, *warmup, *filter); err != nil {
			fmt.Fprintln(os.Stderr, "bench -tune:", err)
			os.Exit(1)
		}
		return
	}
	if err := run(*sizes, *iters, *warmup, *filter, *jsonOut, *svgOut, *families, *gfSizes); err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(1)
	}
}

func run(sizeList string, iters, warmup int, filter, jsonOut, svgOut, families, gfSizeList string) error {
	ns, err := positiveInts("-sizes", sizeList)
	if err != nil {
		return err
	}
	gfSizes, err := positiveInts("-gf-sizes", gfSizeList)
	if err != nil {
		return err
	}
	want := map[string]bool{}
	for _, f := range strings.Split(families, ",") {
		switch f = strings.TrimSpace(f); f {
		case "sgemm", "gf256", "hgemv", "hgemm":
			want[f] = true
		default:
			return fmt.Errorf("-families: unknown section %q (sgemm, gf256, hgemv, hgemm)", f)
		}
	}
	if iters < 1 || warmup < 0 {
		return fmt.Errorf("-iters must be at least 1 and -warmup at least 0")
	}
	re, err := regexp.Compile(filter)
	if err != nil {
		return fmt.Errorf("-filter: %w", err)
	}
	b, err := newBencher(iters, warmup)
	if err != nil {
		return err
	}
	defer b.close()
	rep := Report{Device: b.deviceReport(), Iters: iters, Warmup: warmup}
	rep.Device.NVCC = "nvcc " + cuda.BuildToolkit() // the toolkit that built the kernels, not the one on PATH
	fmt.Printf("%s, sm_%d, %d SMs, driver %s, runtime %s, %s; FP32 peak %.1f TFLOPS\n",
		rep.Device.Name, rep.Device.CC, rep.Device.SMs, rep.Device.Driver, rep.Device.Runtime, rep.Device.NVCC, rep.Device.PeakTFLOPS)
	for _, n := range ns {
		if !want["sgemm"] {
			break
		}
		rows, err := b.size(n, re)
		if err != nil {
			return err
		}
		rep.Results = append(rep.Results, rows...)
	}
	if want["gf256"] {
		if rep.GF256, err = b.gfSection(gfSizes, re, runtime.NumCPU()); err != nil {
			return err
		}
	}
	if want["hgemv"] {
		copyGBs, err := b.copyRate()
		if err != nil {
			return err
		}
		fmt.Printf("HGEMV: device copy %.0f GB/s (read + written), %d launches per event pair\n", copyGBs, launchesPerEvent)
		if rep.HGEMV, err = b.hgemvSection(re, copyGBs); err != nil {
			return err
		}
	}
	if want["hgemm"] {
		if rep.HGEMM, err = b.hgemmSection(ns, re); err != nil {
			return err
		}
	}
	rep.Best = bestPerSize(rep.Results)
	printTable(os.Stdout, rep)
	if jsonOut != "" {
		if err := writeJSON(outputPath(jsonOut), rep); err != nil {
			return err
		}
	}
	if svgOut != "" {
		if err := os.WriteFile(outputPath(svgOut), []byte(chart(rep)), 0o644); err != nil {
			return err
		}
	}
	return nil
}

// positiveInts parses a comma-separated list of positive integers.
func positiveInts(flagName, list string) ([]int, error) {
	var out []int
	for _, f := range strings.Split(list, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n <= 0 {
			return nil, fmt.Errorf("%s: %q is not a positive integer", flagName, f)
		}
		out = append(out, n)
	}
	return out, nil
}

// outputPath resolves a relative output path against the directory the user
// ran the command in: `bazel run` starts the bench in its runfiles tree and
// names the user's directory in BUILD_WORKING_DIRECTORY.
func outputPath(p string) string {
	if wd := os.Getenv("BUILD_WORKING_DIRECTORY"); wd != "" && !filepath.IsAbs(p) {
		return filepath.Join(wd, p)
	}
	return p
}
