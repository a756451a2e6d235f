package main

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"math"
	"slices"
	"strings"
)

// refName is what each family's ratio is to.
var refName = map[string]string{"sgemm": "cuBLAS SGEMM", "hgemm": "cuBLAS GemmEx", "hgemv": "cuBLAS GemmEx", "gf256": "klauspost on all CPU cores"}

// chart draws one horizontal bar chart per family of every kernel row's
// ratio to its reference (rows without one, and the references, are left
// out), with a ratio axis, its ticks and the 1.0 line, as one SVG.
func chart(rep Report) string {
	const barH, gap, left, width, right = 14, 3, 520, 420, 110
	var body strings.Builder
	y := 10
	for _, fam := range families {
		var rows []Row
		maxRatio := 1.0
		for _, r := range rep.Rows {
			if r.Family == fam && !r.isRef() && r.VsRef > 0 {
				rows = append(rows, r)
				maxRatio = max(maxRatio, r.VsRef)
			}
		}
		if len(rows) == 0 {
			continue
		}
		step := tickStep(maxRatio)
		top := math.Ceil(maxRatio/step) * step
		x := func(v float64) int { return left + int(float64(width)*v/top) }
		fmt.Fprintf(&body, `<text x="4" y="%d" font-size="13" font-weight="bold">%s on %s: %s time / kernel time (right of the red line: faster)</text>`+"\n",
			y+14, esc(fam), esc(rep.Device.Name), esc(refName[fam]))
		y += 24
		axisTop := y
		for i, r := range rows {
			by := y + i*(barH+gap)
			label := strings.Join(slices.DeleteFunc([]string{r.Op, r.Shape, r.Layout, r.Kernel, r.Method}, func(s string) bool { return s == "" }), " ")
			fmt.Fprintf(&body, `<text x="%d" y="%d" text-anchor="end">%s</text>`, left-6, by+barH-3, esc(label))
			fmt.Fprintf(&body, `<rect x="%d" y="%d" width="%d" height="%d" fill="#4a7ebb"/>`, left, by, x(r.VsRef)-left, barH)
			fmt.Fprintf(&body, `<text x="%d" y="%d">%.2fx (%.3g %s)</text>`+"\n", x(r.VsRef)+4, by+barH-3, r.VsRef, r.Rate, esc(r.Unit))
		}
		y += len(rows) * (barH + gap)
		// The axis: a baseline with ticks, the 1.0 line, and its name.
		fmt.Fprintf(&body, `<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="#000"/>`+"\n", left, y+2, left+width, y+2)
		fmt.Fprintf(&body, `<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="#000"/>`+"\n", left, axisTop, left, y+2)
		for v := 0.0; v <= top+step/2; v += step {
			fmt.Fprintf(&body, `<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="#000"/><text x="%d" y="%d" text-anchor="middle">%.3g</text>`+"\n",
				x(v), y+2, x(v), y+6, x(v), y+18, v)
		}
		fmt.Fprintf(&body, `<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="#c33" stroke-width="1.5"/>`+"\n", x(1), axisTop-4, x(1), y+2)
		fmt.Fprintf(&body, `<text x="%d" y="%d" text-anchor="middle">ratio to %s (1.0 = as fast)</text>`+"\n", left+width/2, y+34, esc(refName[fam]))
		y += 50
	}
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" font-family="sans-serif" font-size="11">`+"\n", left+width+right, y)
	b.WriteString(`<rect width="100%" height="100%" fill="#fff"/>` + "\n")
	b.WriteString(body.String())
	b.WriteString("</svg>\n")
	return b.String()
}

// tickStep is a round step giving about five ticks up to top.
func tickStep(top float64) float64 {
	raw := top / 5
	mag := math.Pow(10, math.Floor(math.Log10(raw)))
	for _, m := range []float64{1, 2, 2.5, 5, 10} {
		if m*mag >= raw {
			return m * mag
		}
	}
	return 10 * mag
}

// esc escapes text for XML.
func esc(s string) string {
	var b bytes.Buffer
	xml.EscapeText(&b, []byte(s))
	return b.String()
}
