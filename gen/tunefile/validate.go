package tunefile

import (
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/kgen-gpu/kgen/gen/ir"
	"github.com/kgen-gpu/kgen/gen/spec"
	"github.com/kgen-gpu/kgen/internal/tuning"
)

// Validate checks decoded files against the instances of m: the arch is a
// target; each grid's family is a gemm family of the spec with the grid's
// layout; each of its instances is one of that family and layout built
// for the table's arch; no (GPU, arch), grid or shape appears twice; a file
// is named after its GPU.
func Validate(files []File, m *ir.Module) spec.ErrorList {
	var errs spec.ErrorList
	errorf := func(f File, line int, format string, args ...any) {
		errs = append(errs, &spec.Error{Path: f.Path, Line: line, Msg: fmt.Sprintf(format, args...)})
	}
	seen := map[string]string{} // GPU and arch -> file
	for _, f := range files {
		t := f.Table
		stem := strings.TrimSuffix(path.Base(f.Path), ".yaml")
		if slug := tuning.Slug(t.GPU); t.GPU != "" && stem != slug && stem != fmt.Sprintf("%s-sm_%d", slug, t.Arch) {
			errorf(f, f.GPULine, "a table for gpu %q goes in %s.yaml (or %s-sm_%d.yaml beside another arch's)", t.GPU, slug, slug, t.Arch)
		}
		key := fmt.Sprintf("%s/sm_%d", t.GPU, t.Arch)
		if first, dup := seen[key]; dup && t.GPU != "" && t.Arch != 0 {
			errorf(f, f.GPULine, "gpu %q and arch sm_%d already have a table in %s; keep one", t.GPU, t.Arch, first)
		}
		seen[key] = f.Path
		arch, targeted := archOf(m, t.Arch)
		if t.Arch != 0 && !targeted {
			errorf(f, f.ArchLine, "arch sm_%d is not a target of %s", t.Arch, m.SpecPath)
			continue // every instance check would fail for the same reason
		}
		grids := map[string]int{}
		for gi, g := range t.Grids {
			gl := f.GridLines[gi]
			if first, dup := grids[g.Family+"/"+g.Layout]; dup {
				errorf(f, gl, "family %s layout %s has a grid already (line %d); keep one", g.Family, g.Layout, first)
			}
			grids[g.Family+"/"+g.Layout] = gl
			if !checkGrid(m, g, func(format string, args ...any) { errorf(f, gl, format, args...) }) {
				continue
			}
			for ii, name := range g.Instances {
				if name == "" {
					continue // reported by Parse
				}
				if msg := checkInstance(m, name, g, arch); msg != "" {
					errorf(f, f.InstanceLines[gi][ii], "%s", msg)
				}
			}
			shapes := map[[3]int]int{}
			for pi, p := range g.Points {
				pl := f.PointLines[gi][pi]
				s := [3]int{p.M, p.N, p.K}
				if first, dup := shapes[s]; dup && p.M > 0 && p.N > 0 && p.K > 0 {
					errorf(f, pl, "shape [%d, %d, %d] is measured twice in this grid (first on line %d); keep one", p.M, p.N, p.K, first)
				}
				shapes[s] = pl
			}
		}
	}
	return errs
}

// archOf finds the target of compute capability cc.
func archOf(m *ir.Module, cc int) (ir.Arch, bool) {
	for _, t := range m.Targets {
		if ir.Arches[t.Arch].CC == cc {
			return t.Arch, true
		}
	}
	return 0, false
}

var layouts = []string{"nn", "nt", "tn", "tt"}

// checkGrid reports a family that is not a gemm family of the spec, is a
// reference family, or does not have the grid's layout.
func checkGrid(m *ir.Module, g tuning.Grid, errorf func(string, ...any)) bool {
	if g.Family == "" || g.Layout == "" {
		return false // reported by Parse
	}
	valid := false
	for _, l := range layouts {
		valid = valid || l == g.Layout
	}
	if !valid {
		errorf("layout %q: use one of %s", g.Layout, strings.Join(layouts, ", "))
		return false
	}
	var has []string
	found := false
	for _, in := range m.Instances {
		if in.Family != g.Family {
			continue
		}
		found = true
		if in.Reference {
			errorf("family %s is a reference family (reference: true), which the engine never dispatches; remove the grid", g.Family)
			return false
		}
		if p := in.Gemm(); p != nil && layoutOf(p) == g.Layout {
			return true
		} else if p != nil && !slices.Contains(has, layoutOf(p)) {
			has = append(has, layoutOf(p))
		}
	}
	switch {
	case !found:
		errorf("family %q is not in %s", g.Family, m.SpecPath)
	case len(has) == 0:
		errorf("family %q is not a gemm family: only GEMMs are dispatched by a table", g.Family)
	default:
		errorf("family %s has no layout %s (it has %s)", g.Family, g.Layout, strings.Join(has, ", "))
	}
	return false
}

// checkInstance says what is wrong with naming instance name in grid g of
// a table for arch, or "" when nothing is.
func checkInstance(m *ir.Module, name string, g tuning.Grid, arch ir.Arch) string {
	for _, in := range m.Instances {
		if in.Name != name {
			continue
		}
		p := in.Gemm()
		switch {
		case p == nil || in.Family != g.Family:
			return fmt.Sprintf("instance %s is of family %s, not %s", name, in.Family, g.Family)
		case layoutOf(p) != g.Layout:
			return fmt.Sprintf("instance %s takes layout %s, not the grid's %s", name, layoutOf(p), g.Layout)
		case p.CLayout != ir.RowMajor:
			return fmt.Sprintf("instance %s writes a column-major C; the engine dispatches row-major C only", name)
		}
		for _, a := range in.Archs {
			if a == arch {
				return ""
			}
		}
		return fmt.Sprintf("instance %s is not built for %s (it is for %s)", name, arch, strings.Join(ir.Names(in.Archs), ", "))
	}
	return fmt.Sprintf("unknown instance %s: %s generates no kernel of that name", name, m.SpecPath)
}

func layoutOf(p *ir.GemmParams) string {
	return ir.Layouts[p.ALayout].Letter + ir.Layouts[p.BLayout].Letter
}
