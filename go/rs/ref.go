package rs

// MatMulRef is the slow, exact reference product for tests of GPU kernels
// and backends: out[r] = XOR over j of coeffs[r*k+j] * in[j], byte by byte,
// in GF(2^8) with polynomial 0x11d; with accumulate it XORs into out
// instead of overwriting it. It uses nothing but this package's field
// tables, so it shares no code with any backend it checks.
//
// All shards must have one length, len(coeffs) >= rows*k, len(in) >= k and
// len(out) >= rows; it panics otherwise, as a test helper may.
func MatMulRef(coeffs []byte, rows, k int, in, out [][]byte, accumulate bool) {
	if err := checkMatMulArgs(coeffs, rows, k, in, out); err != nil {
		panic(err)
	}
	for r := 0; r < rows; r++ {
		dst := out[r]
		if !accumulate {
			clear(dst)
		}
		for j := 0; j < k; j++ {
			c := coeffs[r*k+j]
			if c == 0 {
				continue
			}
			t := gfMulTable(c)
			for i, x := range in[j] {
				dst[i] ^= t[x]
			}
		}
	}
}
