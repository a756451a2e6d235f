package tuning

import (
	"fmt"
	"strconv"
	"strings"
)

// Format writes t as the YAML of a kernels/tuning/ file (described in
// kernels/README.md): per grid the instances measured, numbered, then one
// flow mapping per point with a row of times in that order, so a grid reads
// as a table and a diff between two measurements shows the points that
// changed. A comment after each point names its fastest instance and the
// runner-up's time over it; kgen ignores it. Numbers are written exactly
// (strconv's shortest form), so reading the file back gives t again; the
// tuner rounds them before.
func Format(t Table) []byte {
	var b strings.Builder
	b.WriteString("# Dispatch table measured by `bench -tune` (tools/bench/tune.go); the format is\n")
	b.WriteString("# described in kernels/README.md. kgen compiles it into\n")
	b.WriteString("# go/internal/kernels/tuning_gen.go; edit by measuring again, not by hand.\n")
	b.WriteString("version: 2\n")
	fmt.Fprintf(&b, "gpu: %s\n", strconv.Quote(t.GPU))
	fmt.Fprintf(&b, "arch: sm_%d\n", t.Arch)
	fmt.Fprintf(&b, "driver: %s\n", strconv.Quote(t.Driver))
	fmt.Fprintf(&b, "nvcc: %s\n", strconv.Quote(t.NVCC))
	fmt.Fprintf(&b, "date: %s\n", strconv.Quote(t.Date))
	b.WriteString("grids:\n")
	for _, g := range t.Grids {
		fmt.Fprintf(&b, "  - family: %s\n    layout: %s\n", g.Family, g.Layout)
		b.WriteString("    instances: # the columns of each point's ms\n")
		for i, in := range g.Instances {
			fmt.Fprintf(&b, "      - %s # %d\n", in, i)
		}
		b.WriteString("    # shape [M, N, K]: the median ms of each instance above, in order (0: not measured)\n")
		b.WriteString("    points:\n")
		for _, p := range g.Points {
			ms := make([]string, len(p.Ms))
			for i, x := range p.Ms {
				ms[i] = num(x)
			}
			fmt.Fprintf(&b, "      - {shape: [%d, %d, %d], ms: [%s]}", p.M, p.N, p.K, strings.Join(ms, ", "))
			if best := p.Best(); best >= 0 && best < len(g.Instances) {
				fmt.Fprintf(&b, " # fastest %d %s", best, g.Instances[best])
				if r := runnerUp(p); r > 0 {
					fmt.Fprintf(&b, ", runner-up %.3fx", r)
				}
			}
			b.WriteString("\n")
		}
	}
	return []byte(b.String())
}

// runnerUp is the second fastest time at p over the fastest, 0 when fewer
// than two instances were measured.
func runnerUp(p Point) float64 {
	best := p.Best()
	second := 0.0
	for i, ms := range p.Ms {
		if i != best && ms > 0 && (second == 0 || ms < second) {
			second = ms
		}
	}
	if best < 0 || second == 0 {
		return 0
	}
	return second / p.Ms[best]
}

func num(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
