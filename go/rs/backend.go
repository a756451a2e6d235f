package rs

import "fmt"

// MatMuler computes out[r] = XOR_j coeffs[r*k+j] * in[j] over whole shards
// (all of one length); accumulate XORs into out instead of overwriting it.
//
// Every Encoder operation is one such product: Encode multiplies the data
// by the parity rows, Reconstruct the surviving shards by rows of an
// inverted matrix, Update the changed data's deltas by parity columns.
// A backend must be safe for concurrent use. When it returns an error it
// may have written any part of out; the Encoder then redoes the product
// on the CPU (see dispatch.go for how accumulation survives that).
type MatMuler interface {
	MatMul(coeffs []byte, rows, k int, in, out [][]byte, accumulate bool) error
}

// gpuConstructor is the plug-in point for the GPU backend. The file that
// binds the CUDA kernels (gpu.go, built only where CUDA is) sets it from an
// init function. New calls it once per Encoder unless WithGPU(GPUOff):
//
//   - (b, bytesPerSecond, nil): use b, whose throughput in input bytes per
//     second for this shape sizes its share of each split product;
//   - (nil, 0, nil): no device here; run on the CPU, quietly;
//   - (nil, 0, err): a device was expected but failed to start; run on the
//     CPU (or fail New under GPURequired) and report err from UsesGPU.
//
// Every product the Encoder asks for has at most dataShards inputs and at
// most parityShards rows (Encode: parity rows; Reconstruct and DecodeIdx:
// one row per missing shard; EncodeIdx and Update: fewer inputs), so the
// backend can size device buffers once. If b also implements io.Closer,
// Encoder.Close closes it.
var gpuConstructor func(dataShards, parityShards int) (MatMuler, float64, error)

// checkMatMulArgs validates a product's shapes, so that a backend can
// return an error where indexing would panic.
func checkMatMulArgs(coeffs []byte, rows, k int, in, out [][]byte) error {
	switch {
	case rows < 0 || k < 0:
		return errorf(ErrInvalidInput, "MatMul: %d rows x %d columns", rows, k)
	case len(coeffs) < rows*k:
		return errorf(ErrInvalidInput, "MatMul: %d coefficients for %d x %d", len(coeffs), rows, k)
	case len(in) < k:
		return errorf(ErrInvalidInput, "MatMul: %d inputs for %d columns", len(in), k)
	case len(out) < rows:
		return errorf(ErrInvalidInput, "MatMul: %d outputs for %d rows", len(out), rows)
	}
	n := -1
	for i, s := range append(in[:k:k], out[:rows]...) {
		if n < 0 {
			n = len(s)
		} else if len(s) != n {
			return fmt.Errorf("rs: MatMul: shard %d of in+out is %d bytes, want %d: %w", i, len(s), n, ErrShardSize)
		}
	}
	return nil
}
