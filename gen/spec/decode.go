package spec

import (
	"fmt"
	"strings"

	"github.com/kgen-gpu/kgen/gen/ir"
	"gopkg.in/yaml.v3"
)

// spec decodes the document root. Whatever fails is reported and left out,
// so the returned Spec is only meaningful when no error was recorded.
func (d *decoder) spec(root *yaml.Node) *Spec {
	s := &Spec{Path: d.path}
	n := root
	if n.Kind == yaml.DocumentNode && len(n.Content) > 0 {
		n = n.Content[0]
	}
	keys := []string{"version", "targets", "families"}
	f, ok := d.fields(n, "the spec", keys, keys)
	if !ok {
		return s
	}
	if v := f["version"]; v != nil {
		if ver, ok := d.integer(v, "version"); ok {
			s.Version = ver
			if ver != Version {
				d.errorf(v.Line, "version %d is not supported; this kgen reads version: %d", ver, Version)
			}
		}
	}
	if v := f["targets"]; v != nil {
		items, _ := d.list(v, "targets", true)
		for i, item := range items {
			if t, ok := d.target(item, i); ok {
				s.Targets = append(s.Targets, t)
			}
		}
	}
	if v := f["families"]; v != nil {
		items, _ := d.list(v, "families", true)
		for i, item := range items {
			if fam, ok := d.family(item, i); ok {
				s.Families = append(s.Families, fam)
			}
		}
	}
	return s
}

func (d *decoder) target(n *yaml.Node, i int) (Target, bool) {
	what := fmt.Sprintf("target %d", i+1)
	t := Target{Line: n.Line}
	f, ok := d.fields(n, what, []string{"arch", "flags", "ptx"}, []string{"arch"})
	if !ok || f["arch"] == nil {
		return t, false
	}
	t.Arch, ok = enum(d, f["arch"], what+" arch", "arch", ir.AllArches, ir.ParseArch)
	if !ok {
		return t, false
	}
	what = "target " + t.Arch.String()
	if v := f["flags"]; v != nil {
		items, _ := d.list(v, what+" flags", false)
		for _, item := range items {
			if flag, ok := d.str(item, what+" flags"); ok {
				t.Flags = append(t.Flags, flag)
				t.flagLines = append(t.flagLines, item.Line)
			}
		}
	}
	if v := f["ptx"]; v != nil {
		t.PTX, _ = d.boolean(v, what+" ptx")
	}
	return t, true
}

func (d *decoder) family(n *yaml.Node, i int) (Family, bool) {
	fam := Family{Line: n.Line, Name: peekName(n)}
	what := familyLabel(fam, i) // so that errors in keys before name use it
	fam.Name = ""
	keys := []string{"name", "op", "types", "layouts", "c_layout", "archs", "tilings", "reference"}
	f, ok := d.fields(n, what, keys, []string{"name", "op", "types", "archs", "tilings"})
	if !ok {
		return fam, false
	}
	fam.pos.nameBad = true
	if v := f["name"]; v != nil {
		fam.pos.name = v.Line
		fam.Name, ok = d.str(v, what+" name")
		fam.pos.nameBad = !ok
		what = familyLabel(fam, i) // validate checks the syntax
	}
	fam.pos.opBad = f["op"] == nil
	if v := f["op"]; v != nil {
		fam.Op, ok = enum(d, v, what+" op", "op", ir.AllOps, ir.ParseOp)
		fam.pos.opBad = !ok
	}
	fam.pos.typesBad = true
	if v := f["types"]; v != nil {
		fam.pos.types = v.Line
		fam.Types, ok = d.types(v, what+" types")
		fam.pos.typesBad = !ok
	}
	gf := !fam.pos.opBad && fam.Op == ir.GF256MatMul
	if !gf && !fam.pos.opBad && f["layouts"] == nil {
		d.errorf(n.Line, "%s: missing required key %q", what, "layouts")
	}
	if v := f["c_layout"]; v != nil {
		fam.pos.cLayout = v.Line
		fam.CLayout, ok = enum(d, v, what+" c_layout", "layout", ir.AllLayouts, ir.ParseLayout)
		fam.pos.opBad = fam.pos.opBad || !ok
	}
	if v := f["layouts"]; v != nil {
		fam.pos.layouts = v.Line
		items, _ := d.list(v, what+" layouts", true)
		for _, item := range items {
			p, ok := LayoutPair{}, false
			if !fam.pos.opBad && fam.Op == ir.GEMV {
				p.A, ok = d.layoutLetter(item, what+" layouts")
			} else {
				p, ok = d.layoutPair(item, what+" layouts")
			}
			if ok {
				fam.Layouts = append(fam.Layouts, p)
				fam.pos.layout = append(fam.pos.layout, item.Line)
			}
		}
	}
	if v := f["reference"]; v != nil {
		fam.Reference, _ = d.boolean(v, what+" reference")
	}
	if v := f["archs"]; v != nil {
		items, _ := d.list(v, what+" archs", true)
		for _, item := range items {
			if a, ok := enum(d, item, what+" archs", "arch", ir.AllArches, ir.ParseArch); ok {
				fam.Archs = append(fam.Archs, a)
				fam.pos.arch = append(fam.pos.arch, item.Line)
			}
		}
	}
	if v := f["tilings"]; v != nil {
		items, _ := d.list(v, what+" tilings", true)
		for j, item := range items {
			tw := fmt.Sprintf("%s tiling %d", what, j+1)
			switch {
			case gf:
				fam.GF256 = append(fam.GF256, d.gf256Tiling(item, tw))
			case hasKey(item, "ladder"):
				fam.Tilings = append(fam.Tilings, d.ladderTiling(item, tw))
			case !fam.pos.opBad && fam.Op == ir.GEMV && hasKey(item, "mma"):
				fam.Gemv = append(fam.Gemv, d.gemvMMATiling(item, tw))
			case !fam.pos.opBad && fam.Op == ir.GEMV:
				fam.Gemv = append(fam.Gemv, d.gemvTiling(item, tw))
			case !fam.pos.typesBad && fam.Types.A == ir.F16:
				fam.Tilings = append(fam.Tilings, d.mmaTiling(item, tw))
			default:
				fam.Tilings = append(fam.Tilings, d.tiling(item, tw))
			}
		}
	}
	return fam, true
}

// hasKey reports whether n is a mapping with the key k.
func hasKey(n *yaml.Node, k string) bool {
	if n.Kind != yaml.MappingNode {
		return false
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == k {
			return true
		}
	}
	return false
}

// peekName returns the value of the key "name" if n is a mapping that has
// one, without reporting anything: fields does that.
func peekName(n *yaml.Node) string {
	if n.Kind != yaml.MappingNode {
		return ""
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if k, v := n.Content[i], n.Content[i+1]; k.Value == "name" && v.Kind == yaml.ScalarNode {
			return v.Value
		}
	}
	return ""
}

func (d *decoder) types(n *yaml.Node, what string) (Types, bool) {
	var t Types
	keys := []string{"a", "b", "c", "acc"}
	f, ok := d.fields(n, what, keys, keys)
	if !ok {
		return t, false
	}
	all := true
	for _, k := range keys {
		v := f[k]
		if v == nil {
			all = false
			continue
		}
		dt, ok := enum(d, v, what+" "+k, "dtype", ir.AllDTypes, ir.ParseDType)
		all = all && ok
		switch k {
		case "a":
			t.A = dt
		case "b":
			t.B = dt
		case "c":
			t.C = dt
		case "acc":
			t.Acc = dt
		}
	}
	return t, all
}

// layoutLetter decodes the layout of a gemv family's A: "n" (row-major,
// each output's weights contiguous) or "t" (its transpose).
func (d *decoder) layoutLetter(n *yaml.Node, what string) (ir.Layout, bool) {
	s, ok := d.str(n, what)
	if !ok {
		return 0, false
	}
	for _, l := range ir.AllLayouts {
		if ir.Layouts[l].Letter == s {
			return l, true
		}
	}
	d.errorf(n.Line, "%s: unknown layout %.40q; a gemv family gives A's layout alone: n (A is N x K row-major) or t (its transpose)", what, s)
	return 0, false
}

// layoutPair decodes "nt": the letter of A's layout, then B's.
func (d *decoder) layoutPair(n *yaml.Node, what string) (LayoutPair, bool) {
	s, ok := d.str(n, what)
	if !ok {
		return LayoutPair{}, false
	}
	for _, a := range ir.AllLayouts {
		for _, b := range ir.AllLayouts {
			if p := (LayoutPair{a, b}); p.String() == s {
				return p, true
			}
		}
	}
	d.errorf(n.Line, "%s: unknown layout %.40q; use two letters, A's then B's, each n (row-major) or t (column-major): nn, nt, tn or tt", what, s)
	return LayoutPair{}, false
}

func (d *decoder) tiling(n *yaml.Node, what string) Tiling {
	t := Tiling{Line: n.Line, MinBlocksSM: 1, SplitK: 1, bad: true}
	keys := []string{"block", "warp", "thread", "stages", "vector", "min_blocks_per_sm", "split_k", "split_reduce", "split_count", "lanes", "fma", "sync", "tail", "pack"}
	if hasKey(n, "strategy") {
		d.errorf(n.Line, "%s: strategy is a key of a gf256_matmul tiling; a gemm tiling takes %s", what, strings.Join(keys, ", "))
		return t
	}
	f, ok := d.fields(n, what, keys, keys[:5])
	if !ok {
		return t
	}
	good := true
	for _, k := range keys[:5] {
		good = good && f[k] != nil
	}
	good = d.tileFields(f, what, &t) && good
	if v := f["thread"]; v != nil {
		th, ok := d.ints(v, what+" thread", "M", "N")
		if good = good && ok; ok {
			t.Thread = ir.Tile{M: th[0], N: th[1]}
		}
	}
	if v := f["split_reduce"]; v != nil {
		t.SplitReduce, ok = enum(d, v, what+" split_reduce", "split reduction", ir.AllSplitReduces, ir.ParseSplitReduce)
		good = good && ok
	}
	if v := f["split_count"]; v != nil {
		t.SplitCount, ok = enum(d, v, what+" split_count", "split count", ir.AllSplitCounts, ir.ParseSplitCount)
		good = good && ok
	}
	if v := f["lanes"]; v != nil {
		t.LaneMap, ok = enum(d, v, what+" lanes", "lane map", ir.AllLaneMaps, ir.ParseLaneMap)
		good = good && ok
	}
	if v := f["fma"]; v != nil {
		t.FMAOrder, ok = enum(d, v, what+" fma", "FFMA order", ir.AllFMAOrders, ir.ParseFMAOrder)
		good = good && ok
	}
	if v := f["sync"]; v != nil {
		t.Sync, ok = enum(d, v, what+" sync", "ring synchronisation", ir.AllSyncs, ir.ParseSync)
		good = good && ok
	}
	if v := f["tail"]; v != nil {
		t.Tail, ok = enum(d, v, what+" tail", "tail", ir.AllTails, ir.ParseTail)
		good = good && ok
	}
	if v := f["pack"]; v != nil {
		t.Pack, ok = d.boolean(v, what+" pack")
		good = good && ok
	}
	if v := f["vector"]; v != nil {
		vf, ok := d.fields(v, what+" vector", []string{"global", "shared"}, []string{"global", "shared"})
		good = good && ok && vf["global"] != nil && vf["shared"] != nil
		if g := vf["global"]; g != nil {
			t.VecGlobal, ok = d.integer(g, what+" vector global")
			good = good && ok
		}
		if s := vf["shared"]; s != nil {
			t.VecShared, ok = d.integer(s, what+" vector shared")
			good = good && ok
		}
	}
	t.bad = !good
	return t
}

// tileFields decodes what every gemm tiling has: block, warp, stages and
// min_blocks_per_sm. It reports whether those present decoded.
func (d *decoder) tileFields(f map[string]*yaml.Node, what string, t *Tiling) bool {
	good := true
	if v := f["block"]; v != nil {
		b, ok := d.ints(v, what+" block", "M", "N", "K")
		if good = good && ok; ok {
			t.Block = ir.Tile{M: b[0], N: b[1], K: b[2]}
		}
	}
	if v := f["warp"]; v != nil {
		w, ok := d.ints(v, what+" warp", "M", "N")
		if good = good && ok; ok {
			t.Warp = ir.Tile{M: w[0], N: w[1]}
		}
	}
	for _, fld := range []struct {
		key string
		dst *int
	}{{"stages", &t.Stages}, {"min_blocks_per_sm", &t.MinBlocksSM}, {"split_k", &t.SplitK}} {
		if v := f[fld.key]; v != nil {
			n, ok := d.integer(v, what+" "+fld.key)
			*fld.dst, good = n, good && ok
		}
	}
	return good
}

func (d *decoder) gf256Tiling(n *yaml.Node, what string) GF256Tiling {
	t := GF256Tiling{Line: n.Line, bad: true}
	keys := []string{"strategy", "bytes_per_thread", "threads", "rows_per_block"}
	if hasKey(n, "block") {
		d.errorf(n.Line, "%s: block, warp and thread are keys of a gemm tiling; op gf256_matmul takes %s (and stages)", what, strings.Join(keys, ", "))
		return t
	}
	f, ok := d.fields(n, what, append(keys, "stages"), keys)
	if !ok {
		return t
	}
	good := true
	for _, k := range keys {
		good = good && f[k] != nil
	}
	if v := f["strategy"]; v != nil {
		t.Strategy, ok = enum(d, v, what+" strategy", "strategy", ir.AllGF256Strategies, ir.ParseGF256Strategy)
		good = good && ok
	}
	for _, fld := range []struct {
		key string
		dst *int
	}{{"bytes_per_thread", &t.BytesPerThread}, {"threads", &t.Threads}, {"rows_per_block", &t.RowsPerBlock}, {"stages", &t.Stages}} {
		if v := f[fld.key]; v != nil {
			*fld.dst, ok = d.integer(v, what+" "+fld.key)
			good = good && ok
		}
	}
	t.bad = !good
	return t
}

// mmaTiling decodes a tiling of an f16 gemm family (tensor cores): block and
// warp tiles, the pipeline depth and split-K; the instruction shape is fixed.
func (d *decoder) mmaTiling(n *yaml.Node, what string) Tiling {
	t := Tiling{Line: n.Line, MinBlocksSM: 1, SplitK: 1, bad: true, MMA: true}
	keys := []string{"block", "warp", "stages", "min_blocks_per_sm", "split_k"}
	if hasKey(n, "thread") || hasKey(n, "vector") {
		d.errorf(n.Line, "%s: thread and vector are keys of the f32 CUDA-core kernel; an f16 gemm tiling (tensor cores, mma m16n8k16) takes %s", what, strings.Join(keys, ", "))
		return t
	}
	f, ok := d.fields(n, what, keys, keys[:3])
	if !ok {
		return t
	}
	good := f["block"] != nil && f["warp"] != nil && f["stages"] != nil
	t.bad = !(d.tileFields(f, what, &t) && good)
	return t
}

// gemvTiling decodes a tiling of a gemv family.
func (d *decoder) gemvTiling(n *yaml.Node, what string) GemvTiling {
	t := GemvTiling{Line: n.Line, SplitK: 1, RowsPerThread: 1, bad: true}
	keys := []string{"threads_per_output", "outputs_per_block", "vector", "x_in_shared", "x_f32", "rows_per_thread", "split_k",
		"threads", "max_batch"}
	if hasKey(n, "block") || hasKey(n, "strategy") {
		d.errorf(n.Line, "%s: a gemv tiling takes %s", what, strings.Join(keys, ", "))
		return t
	}
	f, ok := d.fields(n, what, keys, []string{"threads_per_output", "outputs_per_block", "vector", "threads", "max_batch"})
	if !ok {
		return t
	}
	good := true
	for _, k := range []string{"threads_per_output", "outputs_per_block", "vector", "threads", "max_batch"} {
		good = good && f[k] != nil
	}
	for _, fld := range []struct {
		key string
		dst *int
	}{{"threads_per_output", &t.ThreadsPerOutput}, {"outputs_per_block", &t.OutputsPerBlock}, {"vector", &t.Vector},
		{"split_k", &t.SplitK}, {"threads", &t.Threads}, {"max_batch", &t.MaxBatch}, {"rows_per_thread", &t.RowsPerThread}} {
		if v := f[fld.key]; v != nil {
			*fld.dst, ok = d.integer(v, what+" "+fld.key)
			good = good && ok
		}
	}
	for _, fld := range []struct {
		key string
		dst *bool
	}{{"x_in_shared", &t.XShared}, {"x_f32", &t.XF32}} {
		if v := f[fld.key]; v != nil {
			*fld.dst, ok = d.boolean(v, what+" "+fld.key)
			good = good && ok
		}
	}
	t.bad = !good
	return t
}

// gemvMMATiling decodes a tensor-core tiling of a gemv family (key mma):
// warps, tiles per warp and max_batch, all required, exactly one of unroll
// (A through registers) and stages (A staged through shared memory,
// kgen/hgemv_mma_s.cuh and hgemv_mma_ts.cuh), and split_k (default 1).
func (d *decoder) gemvMMATiling(n *yaml.Node, what string) GemvTiling {
	t := GemvTiling{Line: n.Line, MMA: true, SplitK: 1, RowsPerThread: 1, bad: true}
	required := []string{"mma", "warps", "tiles", "max_batch"}
	f, ok := d.fields(n, what, []string{"mma", "warps", "tiles", "unroll", "max_batch", "split_k", "stages"}, required)
	if !ok {
		return t
	}
	good := true
	for _, k := range required {
		good = good && f[k] != nil
	}
	t.stagesGiven = f["stages"] != nil
	switch u, s := f["unroll"], f["stages"]; {
	case u != nil && s != nil:
		d.errorf(s.Line, "%s: stages and unroll exclude each other: stages copies A through a ring of that many stages in shared memory (kgen/hgemv_mma_s.cuh, hgemv_mma_ts.cuh), unroll keeps that many steps of A in flight in registers (kgen/hgemv_mma.cuh); keep one", what)
		good = false
	case u == nil && s == nil:
		d.errorf(n.Line, "%s: missing required key \"unroll\" (steps of A in flight in registers), or \"stages\" to stage A through shared memory", what)
		good = false
	}
	if v := f["mma"]; v != nil {
		mma, ok := d.boolean(v, what+" mma")
		if ok && !mma {
			d.errorf(v.Line, "%s: mma: false is not a tiling; drop the key and give a CUDA-core gemv tiling (threads_per_output, ...)", what)
		}
		good = good && ok && mma
	}
	for _, fld := range []struct {
		key string
		dst *int
	}{{"warps", &t.Warps}, {"tiles", &t.Tiles}, {"unroll", &t.Unroll}, {"stages", &t.Stages}, {"max_batch", &t.MaxBatch}, {"split_k", &t.SplitK}} {
		if v := f[fld.key]; v != nil {
			*fld.dst, ok = d.integer(v, what+" "+fld.key)
			good = good && ok
		}
	}
	t.Threads = 32 * t.Warps
	t.bad = !good
	return t
}

// ladderTiling decodes a tiling of the seed article's SGEMM ladder: the
// step, its block tile and, from blocktile1d on, its thread tile. Validation
// says which steps take which keys.
func (d *decoder) ladderTiling(n *yaml.Node, what string) Tiling {
	t := Tiling{Line: n.Line, MinBlocksSM: 1, SplitK: 1, Thread: ir.Tile{M: 1, N: 1}, bad: true}
	keys := []string{"ladder", "block", "thread"}
	f, ok := d.fields(n, what, keys, keys[:2])
	if !ok {
		return t
	}
	good := f["ladder"] != nil && f["block"] != nil
	if v := f["ladder"]; v != nil {
		t.Ladder, ok = enum(d, v, what+" ladder", "ladder step", ir.AllLadderSteps, ir.ParseLadderStep)
		good = good && ok
	}
	good = d.tileFields(f, what, &t) && good
	if v := f["thread"]; v != nil {
		th, ok := d.ints(v, what+" thread", "M", "N")
		if good = good && ok; ok {
			t.Thread = ir.Tile{M: th[0], N: th[1]}
		}
		t.threadGiven = true
	}
	t.bad = !good
	return t
}
