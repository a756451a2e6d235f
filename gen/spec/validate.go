package spec

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/kgen-gpu/kgen/gen/ir"
)

// Validate checks the meaning of s: names, cross references, type legality,
// what this release implements and the tiling rules. Parse has already
// called it; gen/lower calls it again so that a hand-built Spec can never
// lower to an illegal kernel. The error is an ErrorList.
func (s *Spec) Validate() error { return s.validate().err() }

func (s *Spec) validate() ErrorList {
	c := &collector{path: s.Path}
	targets := map[ir.Arch]int{}
	for _, t := range s.Targets {
		checkTarget(c, t, targets)
	}
	names := map[string]int{}
	for i := range s.Families {
		checkFamily(c, &s.Families[i], i, targets, names)
	}
	return c.errs
}

func checkTarget(c *collector, t Target, seen map[ir.Arch]int) {
	if _, ok := ir.Arches[t.Arch]; !ok {
		c.errorf(t.Line, "target: unknown arch %d; use one of %s", t.Arch, strings.Join(ir.Names(ir.AllArches), ", "))
		return
	}
	what := "target " + t.Arch.String()
	if first, dup := seen[t.Arch]; dup {
		c.errorf(t.Line, "%s is listed twice (first on line %d); remove one", what, first)
	} else {
		seen[t.Arch] = t.Line
	}
	for i, f := range t.Flags {
		l := at(t.flagLines, i, t.Line)
		switch {
		case !strings.HasPrefix(f, "-"):
			c.errorf(l, "%s flags: %.40q must start with '-' (an nvcc option such as -maxrregcount=255)", what, f)
		case strings.ContainsFunc(f, func(r rune) bool { return r <= ' ' || r == 0x7f }):
			// Flags are copied into Makefiles and BUILD files, where
			// whitespace would split an option or smuggle in another.
			c.errorf(l, "%s flags: %.40q must not contain spaces or control characters; give each option as its own list item", what, f)
		}
	}
}

var familyName = regexp.MustCompile(`^[a-z][a-z0-9]*$`)

// familyLabel names family i in messages: by name once it has a usable one.
func familyLabel(f Family, i int) string {
	if familyName.MatchString(f.Name) {
		return fmt.Sprintf("family %q", f.Name)
	}
	return fmt.Sprintf("family %d", i+1)
}

func checkFamily(c *collector, f *Family, i int, targets map[ir.Arch]int, names map[string]int) {
	what := familyLabel(*f, i)
	switch {
	case f.pos.nameBad:
	case !familyName.MatchString(f.Name):
		c.errorf(line(f.pos.name, f.Line), "%s: name %.40q must match [a-z][a-z0-9]* (it starts every kernel's C symbol and Go name)", what, f.Name)
	default:
		if first, dup := names[f.Name]; dup {
			c.errorf(f.Line, "%s: another family on line %d has this name; family names must be unique", what, first)
		} else {
			names[f.Name] = f.Line
		}
	}
	checkLayouts(c, what, f)
	checkArchs(c, what, f, targets)
	implemented := checkTypes(c, what, f)
	switch {
	case f.pos.opBad:
	case f.Op == ir.GF256MatMul:
		checkGF256Family(c, what, f, implemented)
	case !implemented:
	case f.Op == ir.GEMV:
		transposed := slices.ContainsFunc(f.Layouts, func(p LayoutPair) bool { return p.A == ir.ColMajor })
		rowMajor := slices.ContainsFunc(f.Layouts, func(p LayoutPair) bool { return p.A == ir.RowMajor })
		for j, t := range f.Gemv {
			switch {
			case t.bad:
			case t.MMA:
				checkGemvMMATiling(c, fmt.Sprintf("%s tiling %d", what, j+1), t, f.Archs, rowMajor, transposed)
			default:
				checkGemvTiling(c, fmt.Sprintf("%s tiling %d", what, j+1), t, f.Archs, rowMajor, transposed)
			}
		}
	default:
		for j, t := range f.Tilings {
			switch {
			case t.bad:
			case t.Ladder != ir.LadderNone:
				checkLadderTiling(c, fmt.Sprintf("%s tiling %d", what, j+1), t, f)
			case t.MMA:
				checkMMATiling(c, fmt.Sprintf("%s tiling %d", what, j+1), t, f.Archs, f.Types.Acc)
			default:
				checkF32Tiling(c, fmt.Sprintf("%s tiling %d", what, j+1), t, f.Archs)
				if t.Pack && !slices.ContainsFunc(f.Layouts, LayoutPair.KContiguous) {
					c.errorf(t.Line, "%s tiling %d: pack transposes k-contiguous operands (A row-major, B column-major), and the family's layouts have none; remove pack or add layout nn, nt or tt", what, j+1)
				}
				if t.Sync == ir.SyncMbarrier && !slices.ContainsFunc(f.Layouts, LayoutPair.KContiguous) {
					c.errorf(t.Line, "%s tiling %d: sync mbarrier applies to the layouts with a k-contiguous operand (A row-major, B column-major), and the family's layouts have none (tn keeps the barrier); remove sync or add layout nn, nt or tt", what, j+1)
				}
			}
		}
	}
	checkDuplicates(c, what, f.Tilings, func(t Tiling) (Tiling, int, bool) { k := t; k.Line = 0; return k, t.Line, t.bad })
	checkDuplicates(c, what, f.Gemv, func(t GemvTiling) (GemvTiling, int, bool) { k := t; k.Line = 0; return k, t.Line, t.bad })
	checkDuplicates(c, what, f.GF256, func(t GF256Tiling) (GF256Tiling, int, bool) { k := t; k.Line = 0; return k, t.Line, t.bad })
}

func checkLayouts(c *collector, what string, f *Family) {
	seen := map[LayoutPair]int{}
	for i, p := range f.Layouts {
		l := at(f.pos.layout, i, f.Line)
		if _, ok := ir.Layouts[p.A]; !ok {
			c.errorf(l, "%s layouts: unknown layout of A (%d)", what, p.A)
			continue
		}
		if _, ok := ir.Layouts[p.B]; !ok {
			c.errorf(l, "%s layouts: unknown layout of B (%d)", what, p.B)
			continue
		}
		if first, dup := seen[p]; dup {
			c.errorf(l, "%s layouts: %s is listed twice (first on line %d); remove one", what, p, first)
		} else {
			seen[p] = l
		}
	}
}

func checkArchs(c *collector, what string, f *Family, targets map[ir.Arch]int) {
	seen := map[ir.Arch]int{}
	for i, a := range f.Archs {
		l := at(f.pos.arch, i, f.Line)
		if _, ok := ir.Arches[a]; !ok {
			c.errorf(l, "%s archs: unknown arch %d; use one of %s", what, a, strings.Join(ir.Names(ir.AllArches), ", "))
			continue
		}
		if first, dup := seen[a]; dup {
			c.errorf(l, "%s archs: %s is listed twice (first on line %d); remove one", what, a, first)
			continue
		}
		seen[a] = l
		if _, ok := targets[a]; !ok {
			c.errorf(l, "%s archs: %s is not one of the targets; add it to targets or remove it here", what, a)
		}
	}
}

// checkDuplicates rejects a tiling listed twice: both would lower to
// instances of the same name, i.e. the same kernel built twice. key returns
// a tiling without its position, its line, and whether it failed to decode.
func checkDuplicates[T any, K comparable](c *collector, what string, tilings []T, key func(T) (K, int, bool)) {
	first := map[K]int{}
	for j, t := range tilings {
		k, l, bad := key(t)
		if bad {
			continue
		}
		if i, dup := first[k]; dup {
			_, li, _ := key(tilings[i])
			c.errorf(l, "%s tiling %d: same as tiling %d (line %d), so both would generate the same kernels; remove one", what, j+1, i+1, li)
		} else {
			first[k] = j
		}
	}
}
