package tuning

import (
	"fmt"
	"strconv"
	"strings"
)

// Format writes t as the YAML of a kernels/tuning/ file (described in
// kernels/README.md): one flow mapping per point, so a grid reads as a
// table and a diff between two measurements shows the points that changed.
// Numbers are written exactly (strconv's shortest form), so reading the
// file back gives t again; the tuner rounds them before.
func Format(t Table) []byte {
	var b strings.Builder
	b.WriteString("# Dispatch table measured by `bench -tune` (tools/bench/tune.go); the format is\n")
	b.WriteString("# described in kernels/README.md. kgen compiles it into\n")
	b.WriteString("# go/internal/kernels/tuning_gen.go; edit by measuring again, not by hand.\n")
	b.WriteString("version: 1\n")
	fmt.Fprintf(&b, "gpu: %s\n", strconv.Quote(t.GPU))
	fmt.Fprintf(&b, "arch: sm_%d\n", t.Arch)
	fmt.Fprintf(&b, "driver: %s\n", strconv.Quote(t.Driver))
	fmt.Fprintf(&b, "nvcc: %s\n", strconv.Quote(t.NVCC))
	fmt.Fprintf(&b, "date: %s\n", strconv.Quote(t.Date))
	b.WriteString("grids:\n")
	for _, g := range t.Grids {
		fmt.Fprintf(&b, "  - family: %s\n    layout: %s\n", g.Family, g.Layout)
		b.WriteString("    # shape [M, N, K]: the fastest instance, its median ms, the runner-up's time over the fastest's\n")
		b.WriteString("    points:\n")
		for _, p := range g.Points {
			fmt.Fprintf(&b, "      - {shape: [%d, %d, %d], best: %s, ms: %s, runner_up: %s}\n",
				p.M, p.N, p.K, p.Best, num(p.Ms), num(p.RunnerUp))
		}
	}
	return []byte(b.String())
}

func num(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
