package spec

import (
	"fmt"
	"slices"
	"strings"

	"github.com/kgen-gpu/kgen/gen/ir"
)

// dtypeOnArch reports whether kernels on dtype d can be built for arch a.
// Every arch in ir.Arches supports f32, f16 and gf256 today; an arch that
// does not (say, one without f16 arithmetic) gets a case here. It is a
// variable so that a test can exercise the error.
var dtypeOnArch = func(d ir.DType, a ir.Arch) bool { return true }

// checkTypes reports illegal and not yet implemented op, types and c_layout
// combinations, and says whether the family is of a kind this release emits
// (f32 gemm with a row-major C, gf256_matmul), whose tilings the rules of its
// kernel then check.
func checkTypes(c *collector, what string, f *Family) bool {
	if f.pos.opBad || f.pos.typesBad {
		return false // already reported; a guess here would only mislead
	}
	l := line(f.pos.types, f.Line)
	if _, ok := ir.Ops[f.Op]; !ok {
		c.errorf(f.Line, "%s: unknown op %d; use one of %s", what, f.Op, strings.Join(ir.Names(ir.AllOps), ", "))
		return false
	}
	if _, ok := ir.Layouts[f.CLayout]; !ok {
		c.errorf(f.Line, "%s: unknown c_layout %d; use one of %s", what, f.CLayout, strings.Join(ir.Names(ir.AllLayouts), ", "))
		return false
	}
	t := f.Types
	for _, d := range []ir.DType{t.A, t.B, t.C, t.Acc} {
		if _, ok := ir.DTypes[d]; !ok {
			c.errorf(l, "%s types: unknown dtype %d; use one of %s", what, d, strings.Join(ir.Names(ir.AllDTypes), ", "))
			return false
		}
	}
	problems := typeProblems(f.Op, t)
	for _, p := range problems {
		c.errorf(l, "%s types: %s", what, p)
	}
	if len(problems) > 0 {
		return false
	}
	dtypes := []ir.DType{t.A, t.C, t.Acc}
	slices.Sort(dtypes)
	dtypes = slices.Compact(dtypes) // b is a when legal
	for _, a := range f.Archs {
		for _, d := range dtypes {
			if !dtypeOnArch(d, a) {
				c.errorf(l, "%s types: %s is not supported on %s; remove %s from archs", what, d, a, a)
			}
		}
	}
	if f.Op == ir.GF256MatMul {
		return true
	}
	var missing []string
	switch {
	case f.Op == ir.GEMM && (t.A == ir.F32 || t.A == ir.F16):
	case f.Op == ir.GEMV && t.A == ir.F16 && t.Acc == ir.F32:
	case f.Op == ir.GEMV && t.A == ir.F16:
		missing = append(missing, "op gemv with acc "+t.Acc.String())
	default:
		missing = append(missing, fmt.Sprintf("op %s with %s operands", f.Op, t.A))
	}
	if t.C != t.A {
		missing = append(missing, fmt.Sprintf("c %s with %s operands", t.C, t.A))
	}
	if f.CLayout != ir.RowMajor {
		missing = append(missing, "c_layout "+f.CLayout.String())
	}
	if len(missing) > 0 {
		c.errorf(f.Line, "%s: %s is not implemented yet (this release emits op gemm with f32 or f16 operands, c of a's dtype and c_layout row; op gemv with f16 operands and f32 acc; and op gf256_matmul)", what, strings.Join(missing, " and "))
		return false
	}
	return true
}

// typeProblems says why t is not legal for op; it is empty when t is legal.
func typeProblems(op ir.Op, t Types) []string {
	var out []string
	switch op {
	case ir.GEMM, ir.GEMV:
		if t.A != ir.F32 && t.A != ir.F16 {
			out = append(out, fmt.Sprintf("a is %s but op %s takes f32 or f16 operands (gf256 needs op gf256_matmul)", t.A, op))
		}
		if t.B != t.A {
			out = append(out, fmt.Sprintf("b is %s but must be the same as a (%s)", t.B, t.A))
		}
		if t.C != t.A && t.C != ir.F32 {
			out = append(out, fmt.Sprintf("c is %s but must be a's dtype (%s) or f32", t.C, t.A))
		}
		if t.Acc != ir.F32 && !(t.Acc == ir.F16 && t.A == ir.F16) {
			out = append(out, fmt.Sprintf("acc is %s but must be f32 (or f16 when a is f16)", t.Acc))
		}
	case ir.GF256MatMul:
		for _, f := range []struct {
			name string
			d    ir.DType
		}{{"a", t.A}, {"b", t.B}, {"c", t.C}, {"acc", t.Acc}} {
			if f.d != ir.GF256 {
				out = append(out, fmt.Sprintf("%s is %s but op gf256_matmul takes gf256 for a, b, c and acc", f.name, f.d))
			}
		}
	}
	return out
}
