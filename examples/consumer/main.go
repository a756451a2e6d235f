// Command consumer runs one SGEMM through kgen's Go API, as a module that
// depends on kgen would: C = A * B for small random matrices, checked against
// a plain Go loop.
package main

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"

	"github.com/kgen-gpu/kgen/go/cuda"
	"github.com/kgen-gpu/kgen/go/gemm"
)

const m, n, k = 256, 192, 128

func main() {
	if err := run(); err != nil {
		if errors.Is(err, cuda.ErrNoDevice) {
			fmt.Println("SKIP: no CUDA device; the SGEMM did not run")
			return
		}
		fmt.Fprintln(os.Stderr, "consumer:", err)
		os.Exit(1)
	}
}

func run() error {
	dev, err := cuda.Open(0)
	if err != nil {
		return err
	}
	defer dev.Close()

	rng := rand.New(rand.NewPCG(1, 2))
	a, b := random(rng, m*k), random(rng, k*n)
	da, err := upload(dev, a)
	if err != nil {
		return err
	}
	defer da.Free()
	db, err := upload(dev, b)
	if err != nil {
		return err
	}
	defer db.Free()
	dc, err := dev.Alloc(m * n * 4)
	if err != nil {
		return err
	}
	defer dc.Free()

	eng, err := gemm.New(dev)
	if err != nil {
		return err
	}
	defer eng.Close() // split-K workspaces, if a call needed one
	err = eng.SGEMM(nil, 1,
		gemm.Matrix{Buf: da, Rows: m, Cols: k},
		gemm.Matrix{Buf: db, Rows: k, Cols: n},
		0, gemm.Matrix{Buf: dc, Rows: m, Cols: n})
	if err != nil {
		return err
	}
	c := make([]float32, m*n)
	if err := cuda.CopyToHost(c, dc); err != nil {
		return err
	}

	worst := maxRelError(c, reference(a, b))
	fmt.Printf("SGEMM %dx%dx%d on %s: max relative error %.2g\n", m, n, k, dev.Info().Name, worst)
	if worst > 1e-4 {
		return fmt.Errorf("max relative error %.2g exceeds 1e-4", worst)
	}
	return nil
}

func random(rng *rand.Rand, size int) []float32 {
	v := make([]float32, size)
	for i := range v {
		v[i] = rng.Float32()*2 - 1
	}
	return v
}

func upload(dev *cuda.Device, v []float32) (*cuda.Buffer, error) {
	buf, err := dev.Alloc(len(v) * 4)
	if err != nil {
		return nil, err
	}
	if err := cuda.CopyFromHost(buf, v); err != nil {
		buf.Free()
		return nil, err
	}
	return buf, nil
}

// reference is row-major A (m x k) times B (k x n), accumulated in float64.
func reference(a, b []float32) []float64 {
	c := make([]float64, m*n)
	for i := range m {
		for p := range k {
			aip := float64(a[i*k+p])
			for j := range n {
				c[i*n+j] += aip * float64(b[p*n+j])
			}
		}
	}
	return c
}

// maxRelError compares against the reference relative to the largest |C| entry,
// which keeps entries near zero from dominating.
func maxRelError(got []float32, want []float64) float64 {
	scale, worst := 0.0, 0.0
	for _, w := range want {
		scale = math.Max(scale, math.Abs(w))
	}
	for i, w := range want {
		worst = math.Max(worst, math.Abs(float64(got[i])-w)/scale)
	}
	return worst
}
