package tuning

import (
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"sort"
	"strings"
)

// RawPoint is one record of the file `bench -tune -tune-raw` writes: every
// instance's time at one shape, for one family and layout.
type RawPoint struct {
	Family, Layout string
	M, N, K        int
	Grid           bool               // a grid shape (else one between them)
	Ms             map[string]float64 // median milliseconds per instance
}

// ReadRaw reads a -tune-raw file, gzip-compressed when its name ends in
// ".gz" (as the committed ones are), to study selectors offline.
func ReadRaw(path string) ([]RawPoint, error) {
	var pts []RawPoint
	if err := ReadJSON(path, &pts); err != nil {
		return nil, err
	}
	return pts, nil
}

// ReadJSON decodes the JSON file at path into v, gunzipping it first where
// the name ends in ".gz" (as bench/results keeps its files). A file that
// cannot be opened gives os.Open's error; one that cannot be read or holds
// more than one value, an error naming the path.
func ReadJSON(path string, v any) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	var r io.Reader = f
	if strings.HasSuffix(path, ".gz") {
		z, err := gzip.NewReader(f)
		if err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		defer z.Close()
		r = z
	}
	dec := json.NewDecoder(r)
	if err := dec.Decode(v); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	if dec.More() {
		return fmt.Errorf("%s: data after the JSON value", path)
	}
	return nil
}

// GridOf is the grid of a dispatch table, as bench -tune writes it, from the
// grid shapes of pts, which are one family's in one layout: instances in
// name order, times kept to four significant digits, 0 where an instance
// was not measured.
func GridOf(pts []RawPoint) Grid {
	if len(pts) == 0 {
		return Grid{}
	}
	g := Grid{Family: pts[0].Family, Layout: pts[0].Layout}
	seen := map[string]bool{}
	for _, p := range pts {
		for name := range p.Ms {
			if p.Grid && !seen[name] {
				seen[name] = true
				g.Instances = append(g.Instances, name)
			}
		}
	}
	sort.Strings(g.Instances)
	for _, p := range pts {
		if !p.Grid || len(p.Ms) == 0 {
			continue
		}
		q := Point{M: p.M, N: p.N, K: p.K, Ms: make([]float64, len(g.Instances))}
		for i, name := range g.Instances {
			q.Ms[i] = round4(p.Ms[name])
		}
		g.Points = append(g.Points, q)
	}
	return g
}

func round4(x float64) float64 {
	if x <= 0 {
		return x
	}
	scale := math.Pow(10, 4-math.Ceil(math.Log10(x)))
	return math.Round(x*scale) / scale
}
