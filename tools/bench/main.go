// Command bench times every SGEMM instance built for this GPU against cuBLAS
// SGEMM (pedantic math: no TF32) in one run, with CUDA events, and prints
// TFLOPS, percent of FP32 peak and the ratio to cuBLAS. It also writes the
// results as JSON and a bar chart as SVG.
//
//	bench [-sizes 1024,2048,4096,8192] [-iters 20] [-warmup 3] [-filter RE] [-json out.json] [-svg out.svg]
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
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
	flag.Parse()
	if err := run(*sizes, *iters, *warmup, *filter, *jsonOut, *svgOut); err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(1)
	}
}

func run(sizeList string, iters, warmup int, filter, jsonOut, svgOut string) error {
	var ns []int
	for _, f := range strings.Split(sizeList, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n <= 0 {
			return fmt.Errorf("-sizes: %q is not a positive integer", f)
		}
		ns = append(ns, n)
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
		rows, err := b.size(n, re)
		if err != nil {
			return err
		}
		rep.Results = append(rep.Results, rows...)
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

// outputPath resolves a relative output path against the directory the user
// ran the command in: `bazel run` starts the bench in its runfiles tree and
// names the user's directory in BUILD_WORKING_DIRECTORY.
func outputPath(p string) string {
	if wd := os.Getenv("BUILD_WORKING_DIRECTORY"); wd != "" && !filepath.IsAbs(p) {
		return filepath.Join(wd, p)
	}
	return p
}
