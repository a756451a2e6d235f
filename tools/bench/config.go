package main

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/kgen-gpu/kgen/go/gemm"
)

// families are the bench's sections, in the order they run.
var families = []string{"sgemm", "gf256", "hgemv", "hgemm"}

// config is the parsed command line.
type config struct {
	shapes     []shape // -sizes (squares) then -shapes
	layouts    [][2]gemm.Order
	families   map[string]bool
	gfSizes    []int
	gemvShapes [][2]int // HGEMV (N, K)
	gemvM      []int    // HGEMV right-hand vectors
	iters      int
	warmup     int
	minSpanMs  float64 // each event pair spans at least this
	filter     *regexp.Regexp
	instances  instanceSet // where every instance is timed, besides the engine's choice
	ladderN    int         // the size n of the SGEMM ladder's n x n x n problem; 0: no ladder
	jsonOut    string
	csvOut     string
	svgOut     string
	compareTo  string
	noiseK     float64
	noiseMin   float64 // percent
	progress   bool
	noProgress bool
	rule       bool // also time the rule's pick where the table chose another
	engineTune int  // GEMM: also run an engine tuned (gemm.Engine.Tune) over this many candidates; 0: not
}

// parseArgs reads the bench's flags from args into fs (main passes
// flag.CommandLine, so that flags other files register there, such as
// -tune, are parsed with them).
func parseArgs(fs *flag.FlagSet, args []string) (config, error) {
	var c config
	sizes := fs.String("sizes", "1024,2048,4096,8192", "square GEMM sizes n (M = N = K = n); \"\" for none")
	shapes := fs.String("shapes", "", "GEMM shapes MxNxK, comma-separated, after -sizes (e.g. 4096x4096x4096,8192x128x8192); a shape given twice runs once")
	layouts := fs.String("layouts", "nn,nt,tn,tt", "GEMM layouts of A and B (n: row-major, t: column-major)")
	fams := fs.String("families", strings.Join(families, ","), "sections to run: sgemm, gf256, hgemv, hgemm")
	gfSizes := fs.String("gf-sizes", "65536,1048576,16777216,67108864", "GF(2^8) shard sizes in bytes")
	gemvShapes := fs.String("gemv-shapes", "", "HGEMV shapes NxK, comma-separated (default: K = N from 256 to 16384, then the LLM shapes)")
	gemvM := fs.String("gemv-batches", "1,2,4,8", "HGEMV numbers of right-hand vectors M")
	fs.IntVar(&c.iters, "iters", 20, "timed event pairs per row; the median is reported")
	fs.IntVar(&c.warmup, "warmup", 3, "untimed launches before timing")
	fs.Float64Var(&c.minSpanMs, "min-span-ms", 1, "launch enough times between one pair of events to span this many ms")
	filter := fs.String("filter", "", "only instances whose name matches this regular expression")
	instances := fs.String("instances", "4096", "where every SGEMM, HGEMM and HGEMV instance (that -filter keeps) is timed besides the engine's choice and the reference, which run at every problem: "+
		"sizes n (GEMM n x n x n, HGEMV N = K = n), GEMM shapes MxNxK, HGEMV shapes NxK, comma-separated, among the run's problems; all; or none (default 4096, all when -filter is given)")
	fs.IntVar(&c.ladderN, "ladder-n", 4096, "time the reference instances (the seed article's SGEMM ladder) at n x n x n, nn, only; 0: not at all")
	fs.StringVar(&c.jsonOut, "json", "", "write every row as JSON here")
	fs.StringVar(&c.csvOut, "csv", "", "write every row as CSV here")
	fs.StringVar(&c.svgOut, "svg", "", "write a chart per family of each row's ratio to its reference here")
	fs.StringVar(&c.compareTo, "compare", "", "a previous run's -json file (or it gzipped, .json.gz): print every row's ratio to it and flag kgen's rows that regressed")
	fs.Float64Var(&c.noiseK, "noise-k", 3, "-compare: a regression is slower by more than this many times the rows' noise (IQR)")
	fs.Float64Var(&c.noiseMin, "noise-min", 3, "-compare: ... and by more than this many percent")
	fs.BoolVar(&c.progress, "progress", false, "print a progress line on stderr even when it is not a terminal")
	fs.BoolVar(&c.noProgress, "no-progress", false, "never print the progress line")
	fs.BoolVar(&c.rule, "rule", false, "GEMM: also time the instance the engine's rule picks (what it runs on a GPU without a table) where the table picked another")
	fs.IntVar(&c.engineTune, "engine-tune", 0, "GEMM: also time, as the row engine_tuned(<instance>), an engine that first ran gemm.Engine.Tune at the problem over the instances its table predicts fastest, this many (-1: every instance; 0: not); with -instances, its pick is judged too")
	if err := fs.Parse(args); err != nil {
		return c, err
	}
	if fs.NArg() > 0 {
		return c, fmt.Errorf("unexpected arguments %q (flags only)", fs.Args())
	}
	var err error
	if c.shapes, err = parseShapes(*sizes, *shapes); err != nil {
		return c, err
	}
	if c.layouts, err = parseLayouts(*layouts); err != nil {
		return c, err
	}
	if c.families, err = parseFamilies(*fams); err != nil {
		return c, err
	}
	if c.gfSizes, err = positiveInts("-gf-sizes", *gfSizes); err != nil {
		return c, err
	}
	c.gemvShapes = hgemvShapes
	if strings.TrimSpace(*gemvShapes) != "" {
		if c.gemvShapes, err = parseGemvShapes(*gemvShapes); err != nil {
			return c, err
		}
	}
	if c.gemvM, err = positiveInts("-gemv-batches", *gemvM); err != nil {
		return c, err
	}
	if c.ladderN < 0 {
		return c, errors.New("-ladder-n must be at least 0 (0: no ladder)")
	}
	if c.iters < 1 || c.warmup < 0 || !(c.minSpanMs >= 0) {
		return c, errors.New("-iters must be at least 1, -warmup and -min-span-ms at least 0")
	}
	if c.engineTune < -1 {
		return c, errors.New("-engine-tune must be -1 (every instance), 0 (off) or a count of candidates")
	}
	if !(c.noiseK >= 0) || !(c.noiseMin >= 0) {
		return c, errors.New("-noise-k and -noise-min must be at least 0")
	}
	if c.filter, err = regexp.Compile(*filter); err != nil {
		return c, fmt.Errorf("-filter: %w", err)
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	if set["filter"] && !set["instances"] {
		*instances = "all" // instances picked by name run at every problem
	}
	if c.instances, err = parseInstances(*instances); err != nil {
		return c, err
	}
	if set["instances"] && !c.instances.matchesAny(c) {
		return c, fmt.Errorf("-instances %q names none of the run's problems (-sizes, -shapes, -gemv-shapes of the families that run)", *instances)
	}
	if (c.families["sgemm"] || c.families["hgemm"]) && len(c.shapes) == 0 {
		return c, errors.New("sgemm and hgemm need a shape: -sizes or -shapes")
	}
	return c, nil
}

// parseShapes is the squares of sizes then the MxNxK shapes of list, each
// shape once, where it first appears (-sizes 1024 with -shapes
// 1024x1024x1024 times 1024^3 once).
func parseShapes(sizes, list string) ([]shape, error) {
	var out shapeList
	if strings.TrimSpace(sizes) != "" {
		ns, err := positiveInts("-sizes", sizes)
		if err != nil {
			return nil, err
		}
		for _, n := range ns {
			out.add(shape{n, n, n})
		}
	}
	if err := out.addList("-shapes", list); err != nil {
		return nil, err
	}
	return out.list, nil
}

// addList adds the MxNxK shapes of list, comma-separated (empty: none),
// that flag named, each once.
func (l *shapeList) addList(flag, list string) error {
	if strings.TrimSpace(list) == "" {
		return nil
	}
	for _, f := range strings.Split(list, ",") {
		f = strings.TrimSpace(f)
		d, ok := dims(strings.ToLower(f), 3)
		if !ok {
			return fmt.Errorf("%s: %q is not MxNxK with three positive integers", flag, f)
		}
		l.add(shape{d[0], d[1], d[2]})
	}
	return nil
}

// dims reads want positive integers joined by "x" ("4096x4096x128").
func dims(f string, want int) ([]int, bool) {
	parts := strings.Split(f, "x")
	if len(parts) != want {
		return nil, false
	}
	out := make([]int, want)
	for i, p := range parts {
		n, err := strconv.Atoi(p)
		if err != nil || n <= 0 {
			return nil, false
		}
		out[i] = n
	}
	return out, true
}

// layoutPairs are the four storage orders of A and B: nn, nt, tn, tt.
var layoutPairs = [][2]gemm.Order{{gemm.RowMajor, gemm.RowMajor}, {gemm.RowMajor, gemm.ColMajor}, {gemm.ColMajor, gemm.RowMajor}, {gemm.ColMajor, gemm.ColMajor}}

// layoutOrders maps a layout's letter to the storage order of its operand.
var layoutOrders = map[byte]gemm.Order{'n': gemm.RowMajor, 't': gemm.ColMajor}

// parseLayouts reads nn, nt, tn and tt (A's letter, then B's), once each.
func parseLayouts(list string) ([][2]gemm.Order, error) {
	var out [][2]gemm.Order
	seen := map[string]bool{}
	for _, f := range strings.Split(list, ",") {
		f = strings.ToLower(strings.TrimSpace(f))
		if len(f) != 2 {
			return nil, fmt.Errorf("-layouts: %q is not one of nn, nt, tn, tt", f)
		}
		a, okA := layoutOrders[f[0]]
		b, okB := layoutOrders[f[1]]
		if !okA || !okB {
			return nil, fmt.Errorf("-layouts: %q is not one of nn, nt, tn, tt", f)
		}
		if seen[f] {
			return nil, fmt.Errorf("-layouts: %s given twice", f)
		}
		seen[f] = true
		out = append(out, [2]gemm.Order{a, b})
	}
	return out, nil
}

// parseFamilies reads a comma-separated subset of families.
func parseFamilies(list string) (map[string]bool, error) {
	want := map[string]bool{}
	for _, f := range strings.Split(list, ",") {
		f = strings.TrimSpace(f)
		if !slices.Contains(families, f) {
			return nil, fmt.Errorf("-families: unknown section %q (%s)", f, strings.Join(families, ", "))
		}
		want[f] = true
	}
	return want, nil
}

// instanceSet is where every instance is timed: at every problem, or at
// the GEMM shapes and HGEMV (N, K) shapes it names.
type instanceSet struct {
	all  bool
	gemm []shape
	gemv [][2]int
}

// parseInstances reads -instances: all, none, or sizes n (n x n x n for
// the GEMMs, N = K = n for HGEMV), MxNxK and NxK shapes.
func parseInstances(list string) (instanceSet, error) {
	var s instanceSet
	switch strings.ToLower(strings.TrimSpace(list)) {
	case "all":
		return instanceSet{all: true}, nil
	case "none":
		return s, nil
	}
	for _, f := range strings.Split(list, ",") {
		f = strings.ToLower(strings.TrimSpace(f))
		if d, ok := dims(f, 1); ok {
			s.gemm = append(s.gemm, shape{d[0], d[0], d[0]})
			s.gemv = append(s.gemv, [2]int{d[0], d[0]})
		} else if d, ok := dims(f, 2); ok {
			s.gemv = append(s.gemv, [2]int{d[0], d[1]})
		} else if d, ok := dims(f, 3); ok {
			s.gemm = append(s.gemm, shape{d[0], d[1], d[2]})
		} else {
			return s, fmt.Errorf("-instances: %q is not a size n, a shape MxNxK or NxK of positive integers, all or none", f)
		}
	}
	return s, nil
}

// atGEMM reports whether every GEMM instance is timed at sh.
func (s instanceSet) atGEMM(sh shape) bool { return s.all || slices.Contains(s.gemm, sh) }

// atGEMV reports whether every HGEMV instance is timed at N x K.
func (s instanceSet) atGEMV(n, k int) bool { return s.all || slices.Contains(s.gemv, [2]int{n, k}) }

// matchesAny reports whether s holds at least one problem that c runs.
func (s instanceSet) matchesAny(c config) bool {
	if s.all || len(s.gemm)+len(s.gemv) == 0 { // all, or none
		return true
	}
	inGEMM := (c.families["sgemm"] || c.families["hgemm"]) && slices.ContainsFunc(c.shapes, s.atGEMM)
	inGEMV := c.families["hgemv"] && slices.ContainsFunc(c.gemvShapes, func(nk [2]int) bool { return s.atGEMV(nk[0], nk[1]) })
	return inGEMM || inGEMV
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

// stderrIsTerminal reports whether stderr is a character device, where a
// progress line that rewrites itself reads well.
func stderrIsTerminal() bool {
	fi, err := os.Stderr.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

// parseGemvShapes reads "NxK,NxK,...".
func parseGemvShapes(list string) ([][2]int, error) {
	var out [][2]int
	for _, f := range strings.Split(list, ",") {
		d, ok := dims(strings.TrimSpace(f), 2)
		if !ok {
			return nil, fmt.Errorf("-gemv-shapes: %q is not NxK with N, K >= 1", f)
		}
		out = append(out, [2]int{d[0], d[1]})
	}
	return out, nil
}
