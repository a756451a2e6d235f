// Package tunefile reads the dispatch tables under kernels/tuning/ (written
// by `bench -tune`, format in kernels/README.md) and checks them against the
// instances the spec generates: a table that names a kernel the spec no
// longer has, or one of another family, layout or arch, fails generation
// with the file and line, as a spec mistake does.
package tunefile

import (
	"fmt"
	"math"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/kgen-gpu/kgen/gen/ir"
	"github.com/kgen-gpu/kgen/gen/spec"
	"github.com/kgen-gpu/kgen/internal/tuning"
)

// Dir is the directory of the tables, beside the spec.
const Dir = "tuning"

// File is one decoded table and the lines its parts came from.
type File struct {
	Path          string
	Table         tuning.Table
	Line          int     // of the top-level mapping
	GPULine       int     // of gpu
	ArchLine      int     // of arch
	GridLines     []int   // of each grid
	InstanceLines [][]int // of each instance of each grid
	PointLines    [][]int // of each point of each grid
}

// Load reads every *.yaml in the tuning directory beside specPath (both
// relative to root), in name order, and checks each against m. It returns
// the tables, or every problem of every file.
func Load(root, specPath string, m *ir.Module) ([]tuning.Table, error) {
	dir := path.Join(path.Dir(specPath), Dir)
	names, err := filepath.Glob(filepath.Join(root, filepath.FromSlash(dir), "*.yaml"))
	if err != nil {
		return nil, err
	}
	sort.Strings(names)
	var files []File
	var errs spec.ErrorList
	for _, full := range names {
		data, err := os.ReadFile(full)
		if err != nil {
			return nil, err
		}
		// A file with mistakes is still checked against the spec: Validate
		// skips the fields Parse found wrong, so nothing is reported twice.
		f, err := Parse(path.Join(dir, filepath.Base(full)), data)
		if err != nil {
			errs = append(errs, asList(err)...)
		}
		files = append(files, f)
	}
	errs = append(errs, Validate(files, m)...)
	if len(errs) > 0 {
		return nil, sorted(errs)
	}
	tables := make([]tuning.Table, len(files))
	for i, f := range files {
		tables[i] = f.Table
	}
	return tables, nil
}

// decoder collects positioned errors while walking one file's nodes.
type decoder struct {
	path string
	errs spec.ErrorList
}

func (d *decoder) errorf(line int, format string, args ...any) {
	d.errs = append(d.errs, &spec.Error{Path: d.path, Line: line, Msg: fmt.Sprintf(format, args...)})
}

// Parse decodes one table. Unknown, repeated and missing keys, values of the
// wrong kind and malformed shapes are errors; every one is reported.
func Parse(filePath string, data []byte) (File, error) {
	d := &decoder{path: filePath}
	f := File{Path: filePath}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		d.errorf(1, "not YAML: %v", err)
		return f, d.errs
	}
	if doc.Kind != yaml.DocumentNode || len(doc.Content) != 1 {
		d.errorf(1, "must hold one YAML mapping")
		return f, d.errs
	}
	top := doc.Content[0]
	f.Line = top.Line
	fields := d.fields(top, "table", []string{"version", "gpu", "arch", "driver", "nvcc", "date", "grids"}, nil)
	if v, ok := fields["version"]; ok && v.Value == "1" {
		d.errorf(v.Line, "version 1 tables hold only each point's fastest instance; measure again with bench -tune (version 2 holds every instance's time)")
	} else if ok && v.Value != "2" {
		d.errorf(v.Line, "version must be 2, got %.40q", v.Value)
	}
	t := &f.Table
	t.GPU, f.GPULine = d.str(fields["gpu"], "gpu"), line(fields["gpu"])
	if n := fields["gpu"]; n != nil && strings.TrimSpace(t.GPU) == "" {
		d.errorf(n.Line, "gpu must name the device, e.g. \"NVIDIA H100 80GB HBM3\"")
	}
	if n := fields["arch"]; n != nil {
		f.ArchLine = n.Line
		arch := d.str(n, "arch")
		for _, a := range ir.AllArches {
			if ir.Arches[a].Name == arch {
				t.Arch = ir.Arches[a].CC
			}
		}
		if t.Arch == 0 && arch != "" {
			d.errorf(n.Line, "arch: unknown arch %.40q; use one of %s", arch, strings.Join(ir.Names(ir.AllArches), ", "))
		}
	}
	t.Driver, t.NVCC, t.Date = d.str(fields["driver"], "driver"), d.str(fields["nvcc"], "nvcc"), d.str(fields["date"], "date")
	if n := fields["date"]; n != nil && !dateRE.MatchString(t.Date) {
		d.errorf(n.Line, "date must be YYYY-MM-DD, got %.40q", t.Date)
	}
	if n := fields["grids"]; n != nil && d.kind(n, yaml.SequenceNode, "grids", "a list") {
		for i, g := range n.Content {
			d.grid(&f, g, fmt.Sprintf("grid %d", i+1))
		}
	}
	if len(d.errs) > 0 {
		return f, d.errs
	}
	return f, nil
}

var dateRE = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}$`)

func (d *decoder) grid(f *File, n *yaml.Node, what string) {
	fields := d.fields(n, what, []string{"family", "layout", "instances", "points"}, nil)
	g := tuning.Grid{Family: d.str(fields["family"], what+" family"), Layout: d.str(fields["layout"], what+" layout")}
	var instLines, lines []int
	instOK := false
	if in := fields["instances"]; in != nil && d.kind(in, yaml.SequenceNode, what+" instances", "a list of instance names") {
		instOK = true
		if len(in.Content) == 0 {
			d.errorf(in.Line, "%s instances must not be empty", what)
		}
		seen := map[string]int{}
		for i, x := range in.Content {
			name := d.str(x, fmt.Sprintf("%s instance %d", what, i+1))
			if first, dup := seen[name]; dup && name != "" {
				d.errorf(x.Line, "%s: instance %s is listed twice (first on line %d); keep one", what, name, first)
			}
			seen[name] = x.Line
			g.Instances = append(g.Instances, name)
			instLines = append(instLines, x.Line)
		}
	}
	if p := fields["points"]; p != nil && d.kind(p, yaml.SequenceNode, what+" points", "a list") {
		if len(p.Content) == 0 {
			d.errorf(p.Line, "%s points must not be empty", what)
		}
		for i, pn := range p.Content {
			width := -1 // unknown: the instances are missing or malformed, already reported
			if instOK {
				width = len(g.Instances)
			}
			g.Points = append(g.Points, d.point(pn, fmt.Sprintf("%s point %d", what, i+1), width))
			lines = append(lines, pn.Line)
		}
	}
	f.Table.Grids = append(f.Table.Grids, g)
	f.GridLines = append(f.GridLines, n.Line)
	f.InstanceLines = append(f.InstanceLines, instLines)
	f.PointLines = append(f.PointLines, lines)
}

// point decodes one point whose ms row must hold width times (any number
// when width is negative).
func (d *decoder) point(n *yaml.Node, what string, width int) tuning.Point {
	fields := d.fields(n, what, []string{"shape", "ms"}, nil)
	var p tuning.Point
	if s := fields["shape"]; s != nil && d.kind(s, yaml.SequenceNode, what+" shape", "a list [M, N, K]") {
		if len(s.Content) != 3 {
			d.errorf(s.Line, "%s shape must be [M, N, K], got %d items", what, len(s.Content))
		} else {
			dims := []*int{&p.M, &p.N, &p.K}
			for i, name := range []string{"M", "N", "K"} {
				v, err := strconv.Atoi(s.Content[i].Value)
				if s.Content[i].Kind != yaml.ScalarNode || s.Content[i].ShortTag() != "!!int" || err != nil || v < 1 {
					d.errorf(s.Content[i].Line, "%s shape %s must be a positive integer, got %.40q", what, name, s.Content[i].Value)
					continue
				}
				*dims[i] = v
			}
		}
	}
	if ms := fields["ms"]; ms != nil && d.kind(ms, yaml.SequenceNode, what+" ms", "a list of times, one per instance") {
		if width >= 0 && len(ms.Content) != width {
			d.errorf(ms.Line, "%s ms has %d times for the grid's %d instances: one per instance, 0 where one was not measured", what, len(ms.Content), width)
		}
		measured := false
		for i, x := range ms.Content {
			v := d.number(x, fmt.Sprintf("%s ms %d", what, i+1))
			if !(v >= 0) || math.IsInf(v, 1) {
				d.errorf(x.Line, "%s ms %d must be a time in milliseconds, or 0 where the instance was not measured; got %.40q", what, i+1, x.Value)
				v = 0
			}
			measured = measured || v > 0
			p.Ms = append(p.Ms, v)
		}
		if !measured && len(ms.Content) > 0 {
			d.errorf(ms.Line, "%s has no measured time: leave the shape out", what)
		}
	}
	return p
}

// fields returns the value node of each key of mapping n; unknown, repeated
// and missing required keys are errors.
func (d *decoder) fields(n *yaml.Node, what string, known, required []string) map[string]*yaml.Node {
	out := map[string]*yaml.Node{}
	if !d.kind(n, yaml.MappingNode, what, "a mapping (key: value)") {
		return out
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k := n.Content[i]
		switch {
		case !slices.Contains(known, k.Value):
			d.errorf(k.Line, "%s: unknown key %.40q; the keys are %s", what, k.Value, strings.Join(known, ", "))
		case out[k.Value] != nil:
			d.errorf(k.Line, "%s: key %q is repeated (first on line %d); keep one", what, k.Value, out[k.Value].Line)
		default:
			out[k.Value] = n.Content[i+1]
		}
	}
	if required == nil {
		required = known
	}
	for _, r := range required {
		if out[r] == nil {
			d.errorf(n.Line, "%s: missing required key %q", what, r)
		}
	}
	return out
}

func (d *decoder) kind(n *yaml.Node, k yaml.Kind, what, want string) bool {
	if n.Kind == k {
		return true
	}
	if n.Kind == yaml.AliasNode {
		d.errorf(n.Line, "%s: anchors and aliases are not supported; write the value out", what)
		return false
	}
	d.errorf(n.Line, "%s must be %s", what, want)
	return false
}

// str is n's string; nil (a missing key, already reported) is "".
func (d *decoder) str(n *yaml.Node, what string) string {
	if n == nil {
		return ""
	}
	if !d.kind(n, yaml.ScalarNode, what, "a string") || n.ShortTag() != "!!str" {
		if n.Kind == yaml.ScalarNode {
			d.errorf(n.Line, "%s must be a string, got %.40q (quote it)", what, n.Value)
		}
		return ""
	}
	return n.Value
}

func (d *decoder) number(n *yaml.Node, what string) float64 {
	if n == nil {
		return 0
	}
	tag := n.ShortTag()
	v, err := strconv.ParseFloat(n.Value, 64)
	if n.Kind != yaml.ScalarNode || (tag != "!!int" && tag != "!!float") || err != nil {
		d.errorf(n.Line, "%s must be a number, got %.40q", what, n.Value)
		return 0
	}
	return v
}

func line(n *yaml.Node) int {
	if n == nil {
		return 0
	}
	return n.Line
}

func asList(err error) spec.ErrorList {
	if l, ok := err.(spec.ErrorList); ok {
		return l
	}
	return spec.ErrorList{&spec.Error{Msg: err.Error()}}
}

// sorted orders errors by file, line and message.
func sorted(l spec.ErrorList) spec.ErrorList {
	sort.SliceStable(l, func(i, j int) bool {
		if l[i].Path != l[j].Path {
			return l[i].Path < l[j].Path
		}
		if l[i].Line != l[j].Line {
			return l[i].Line < l[j].Line
		}
		return l[i].Msg < l[j].Msg
	})
	return l
}
