// Command bench times every kernel built for this GPU against its reference
// in one run, and checks each kernel's output against that reference before
// timing it: a kernel whose output differs beyond its dtype's bound
// (internal/compare; GF(2^8) bit for bit) fails the run, naming the kernel,
// the problem and the worst element.
//
// The engine's own choice (the row engine(<instance it picked>), what users
// run) is timed at every problem; every SGEMM, HGEMM and HGEMV instance by
// name, at the problems -instances names (default 4096: GEMM 4096^3, where
// the SGEMM ladder runs too, and HGEMV N = K = 4096; all with -filter, or
// with -instances all), so that the default run takes minutes while every
// kernel is still checked and timed. GF(2^8) times every instance at each
// of its problems.
//
//   - sgemm: SGEMM instances and the engine's choice against cuBLAS SGEMM
//     (pedantic math: no TF32), per shape and layout: TFLOPS, percent of
//     the FP32 peak, ratio to cuBLAS;
//   - gf256: every GF(2^8) instance and the engine's choice on
//     device-resident Reed-Solomon encode of (4,2), (10,4), (17,3), (32,8) at
//     each -gf-sizes shard size, against the copy floor and
//     klauspost/reedsolomon on all CPU cores (parity checked bit for bit
//     against klauspost's); decode of 10+4 with four data shards lost; and
//     the host-to-host encode of rs.Encoder against klauspost alone;
//   - hgemv: fp16 GEMV instances and the engine's choice at K = N from
//     256 to 16384 and the LLM shapes, M = 1, 2, 4, 8, both layouts, weights
//     rotated past the L2, against cuBLAS GemmEx and the copy floor;
//   - hgemm: fp16 tensor-core GEMM instances and the engine's choice per
//     shape and layout against cuBLAS GemmEx (fp32 accumulation): TFLOPS, %
//     of the dense fp16 peak.
//
// Timing: CUDA events on one stream, after -warmup launches; each event pair
// spans at least -min-span-ms (short kernels run many times back to back
// between the events, so an idle GPU's launch latency does not count), and
// -iters pairs give the median and the noise (interquartile range) of each
// row. Where a kernel is that short, the engine's choice and the reference
// also get a "graph" row: the same launches replayed from a CUDA graph.
// Operand sets rotate so that small problems are not timed out of the L2.
// The device's FP32 lanes per SM, clock, SM count, peaks (FP32, fp16
// tensor, memory) come from its properties, the copy bandwidth is measured
// in the same run, and nvcc is the toolkit that built the kernels.
//
// Output: one line per row as it runs, then Markdown tables per family and
// an ablation table (for the fastest instance of each problem, every
// instance whose spec differs from it in exactly one parameter, with its
// ratio to it: what each technique is worth) and, where every instance ran
// at a problem, a dispatch table: the engine's pick against the fastest
// instance timed there, with a summary per family. With a terminal on
// stderr (or -progress) a progress line there says which section and
// kernel run, how far the section is and about how long is left.
//
//	bench [-families sgemm,gf256,hgemv,hgemm] [-sizes 1024,2048,4096,8192]
//	      [-shapes 4096x4096x4096,8192x128x8192] [-layouts nn,nt,tn,tt]
//	      [-gf-sizes 65536,...] [-gemv-shapes NxK,...] [-gemv-batches 1,2,4,8]
//	      [-iters 20] [-warmup 3] [-min-span-ms 1]
//	      [-filter RE] [-instances 4096 | all | none | n,MxNxK,NxK,...]
//	      [-json out.json] [-csv out.csv] [-svg out.svg]
//	      [-compare old.json [-noise-k 3] [-noise-min 3]] [-progress | -no-progress]
//	      [-rule] [-engine-tune N]
//
// -sizes are square shapes (M = N = K = n), -shapes MxNxK ones, run after
// them; both apply to sgemm and hgemm. -json writes every row (with its
// noise) and the ablation; -csv the rows; -svg one chart per family of each
// row's ratio to its reference. -compare reads a previous run's -json and
// prints every row's ratio to the same row there; a row of kgen's is a
// REGRESSION when it is slower by more than -noise-k times the larger noise
// of the two rows and by more than -noise-min percent, both in time and
// against its run's reference at the same problem (compareRows), and any
// regression makes the exit status 1 (after all output is written). -rule adds, where the engine's
// table picked a GEMM instance that its rule would not have, a row
// rule(<instance>) for the rule's pick: what the engine runs on a GPU without
// a table, and so what the table buys on this one. -engine-tune N adds a row
// engine_tuned(<instance>) for a second engine that ran gemm.Engine.Tune at
// the problem over the N instances its table predicts fastest (-1: every
// instance), judged in the dispatch table apart from the table's picks.
// Without a GPU the bench prints one line saying so and exits with status 1.
//
// With -tune it measures the GEMM families over a grid of shapes instead and
// writes this GPU's dispatch table (tune.go).
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"time"

	"github.com/kgen-gpu/kgen/go/cuda"
)

func main() {
	cfg, err := parseArgs(flag.CommandLine, os.Args[1:])
	if err == nil && *tuneFlag { // tune.go
		if err := runTune(cfg.iters, cfg.warmup, cfg.filter.String()); err != nil {
			fmt.Fprintln(os.Stderr, "bench -tune:", err)
			os.Exit(1)
		}
		return
	}
	if err == nil {
		err = run(cfg, os.Stdout)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(1)
	}
}

// errNoGPU is run's error where there is no GPU to time.
var errNoGPU = errors.New("no CUDA GPU found; the bench needs one")

// run runs the sections cfg asks for, writing results to stdout and the
// files cfg names.
func run(cfg config, stdout io.Writer) error {
	var old *Report
	if cfg.compareTo != "" {
		// Read it first: a bad file should not cost a whole run.
		o, err := readJSON(outputPath(cfg.compareTo))
		if err != nil {
			return fmt.Errorf("-compare: %w", err)
		}
		if len(o.Rows) == 0 {
			return fmt.Errorf("-compare: %s has no rows (is it the -json of this bench, not of an older one?)", cfg.compareTo)
		}
		old = &o
	}
	b, err := newBencher(cfg, stdout)
	if errors.Is(err, cuda.ErrNoDevice) {
		return fmt.Errorf("%w (%v)", errNoGPU, err)
	}
	if err != nil {
		return err
	}
	defer b.close()
	rep := Report{Device: b.deviceReport(), Iters: cfg.iters, Warmup: cfg.warmup, MinSpanMs: cfg.minSpanMs}
	if rep.Device.CopyGBs, err = b.copyRate(); err != nil {
		return err
	}
	d := rep.Device
	b.printf("%s, sm_%d, %d SMs x %d FP32 lanes at %d MHz, driver %s, runtime %s, kernels built by %s\n",
		d.Name, d.CC, d.SMs, d.FP32LanesPerSM, d.ClockMHz, d.Driver, d.Runtime, d.NVCC)
	b.printf("peaks from the properties: FP32 %.1f TFLOPS, fp16 tensor %.0f TFLOPS, memory %.0f GB/s; device copy measured: %.0f GB/s (read + written)\n",
		d.PeakTFLOPS, d.PeakF16TFLOPS, d.PeakMemGBs, d.CopyGBs)
	families, _ := tuneFamilyList("", b.eng.Instances()) // every family the engine picks from; no error for ""
	b.printf("%s\n", dispatchLine(d.Name, d.Table, d.TableFamilies, families))
	sections := []struct {
		name string
		run  func() error
	}{
		{"sgemm", func() error { return b.gemmSection(sgemmFamily, &rep) }},
		{"gf256", func() error { return b.gfSection(&rep, runtime.NumCPU()) }},
		{"hgemv", func() error { return b.hgemvSection(&rep) }},
		{"hgemm", func() error { return b.gemmSection(hgemmFamily, &rep) }},
	}
	for _, s := range sections {
		if cfg.families[s.name] {
			start, rows := time.Now(), len(rep.Rows)
			if err := s.run(); err != nil {
				return err
			}
			b.printf("%s: %d rows in %s\n", s.name, len(rep.Rows)-rows, time.Since(start).Round(time.Second))
		}
	}
	b.prog.clear()
	b.prog.on = false
	printTable(stdout, rep)
	if err := writeOutputs(cfg, rep); err != nil {
		return err
	}
	if old != nil {
		rule := noiseRule{K: cfg.noiseK, MinPct: cfg.noiseMin}
		cs := compareRows(old.Rows, rep.Rows, rule)
		if n := printChanges(stdout, cs, rule, len(rep.Rows)-len(cs)); n > 0 {
			_, kgen := splitRefs(cs)
			return fmt.Errorf("%d rows regressed against %s (geometric mean of kgen's rows' ratios %.3f)", n, cfg.compareTo, meanSpeedup(kgen))
		}
	}
	return nil
}

// writeOutputs writes the -json, -csv and -svg files.
func writeOutputs(cfg config, rep Report) error {
	if cfg.jsonOut != "" {
		if err := writeJSON(outputPath(cfg.jsonOut), rep); err != nil {
			return err
		}
	}
	if cfg.csvOut != "" {
		if err := writeFile(outputPath(cfg.csvOut), func(w io.Writer) error { return writeCSV(w, rep.Rows) }); err != nil {
			return err
		}
	}
	if cfg.svgOut != "" {
		return os.WriteFile(outputPath(cfg.svgOut), []byte(chart(rep)), 0o644)
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
