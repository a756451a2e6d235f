package main

import (
	"fmt"
	"io"
	"reflect"
	"slices"
	"sort"

	"github.com/kgen-gpu/kgen/go/gemm"
)

// Ablation is one line of the ablation table: an instance that differs
// from the fastest instance of its family at one problem in exactly one
// spec parameter, and what that costs: what the technique the parameter
// switches is worth.
type Ablation struct {
	Family, Shape, Layout string
	Best                  string
	Param                 string // the parameter that differs
	BestValue, Value      string
	Kernel                string
	Ratio                 float64 // best time / this instance's time: below 1 is slower
}

// candidate is one timed instance with its spec parameters.
type candidate struct {
	Name   string
	Params []gemm.Param
	Ms     float64
}

// ablate finds the fastest of cands and lists every other candidate whose
// parameters differ from its in exactly one (by name; a parameter only one
// of them has counts as a difference), slowest ratio last.
func ablate(family, shape, layout string, cands []candidate) []Ablation {
	if len(cands) < 2 {
		return nil
	}
	best := cands[0]
	for _, c := range cands[1:] {
		if c.Ms < best.Ms {
			best = c
		}
	}
	bp := paramMap(best.Params)
	var out []Ablation
	for _, c := range cands {
		if c.Name == best.Name {
			continue
		}
		cp := paramMap(c.Params)
		var diff []string
		for name, v := range bp {
			if w, ok := cp[name]; !ok || w != v {
				diff = append(diff, name)
			}
		}
		for name := range cp {
			if _, ok := bp[name]; !ok {
				diff = append(diff, name)
			}
		}
		if len(diff) != 1 {
			continue
		}
		out = append(out, Ablation{Family: family, Shape: shape, Layout: layout, Best: best.Name, Param: diff[0],
			BestValue: bp[diff[0]], Value: cp[diff[0]], Kernel: c.Name, Ratio: best.Ms / c.Ms})
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Param != out[j].Param {
			return out[i].Param < out[j].Param
		}
		return out[i].Ratio > out[j].Ratio
	})
	return out
}

func paramMap(ps []gemm.Param) map[string]string {
	m := make(map[string]string, len(ps))
	for _, p := range ps {
		m[p.Name] = p.Value
	}
	return m
}

// printAblation writes the ablation table.
func printAblation(w io.Writer, as []Ablation) {
	if len(as) == 0 {
		return
	}
	fmt.Fprintf(w, "\nAblation: instances one spec parameter away from the fastest (x = fastest time / this time)\n")
	fmt.Fprintf(w, "| family | shape | layout | fastest | parameter | its value | changed to | instance | x |\n|---|---|---|---|---|---|---|---|---|\n")
	for _, a := range as {
		fmt.Fprintf(w, "| %s | %s | %s | %s | %s | %s | %s | %s | %.3f |\n", a.Family, a.Shape, a.Layout, a.Best, a.Param, a.BestValue, a.Value, a.Kernel, a.Ratio)
	}
}

// structParams lists the exported fields of an instance description (a
// gemv.Instance, a gf256.Instance) but skip, as parameters: the tables
// those families' instances come from have no nested tilings.
func structParams(v any, skip ...string) []gemm.Param {
	rv := reflect.ValueOf(v)
	var out []gemm.Param
	for i := range rv.NumField() {
		f := rv.Type().Field(i)
		if f.IsExported() && !slices.Contains(skip, f.Name) {
			out = append(out, gemm.Param{Name: f.Name, Value: fmt.Sprint(rv.Field(i).Interface())})
		}
	}
	return out
}
