package rs

import "errors"

// matrix is a dense GF(2^8) matrix, one slice per row. Matrices here are
// at most 256 x 256, so clarity wins over speed.
type matrix [][]byte

// errSingular means a square submatrix has no inverse. With the default and
// Cauchy matrices every k rows are independent, so it only happens for the
// PAR1 matrix (a known flaw of that scheme) or a custom matrix.
var errSingular = errors.New("rs: decoding matrix is singular; the shards present cannot recover the rest with this coding matrix")

func newMatrix(rows, cols int) matrix {
	m := make(matrix, rows)
	for i := range m {
		m[i] = make([]byte, cols)
	}
	return m
}

func identity(n int) matrix {
	m := newMatrix(n, n)
	for i := range m {
		m[i][i] = 1
	}
	return m
}

// mul is the product m * b.
func (m matrix) mul(b matrix) matrix {
	out := newMatrix(len(m), len(b[0]))
	for r, row := range m {
		for i, a := range row {
			if a == 0 {
				continue
			}
			for c, x := range b[i] {
				out[r][c] ^= gfMul(a, x)
			}
		}
	}
	return out
}

// invert returns the inverse of the square matrix m by Gauss-Jordan
// elimination; m is left unchanged. The inverse is unique, so any correct
// elimination order gives the same bytes as klauspost's.
func (m matrix) invert() (matrix, error) {
	n := len(m)
	a := newMatrix(n, n)
	for i := range m {
		copy(a[i], m[i])
	}
	inv := identity(n)
	for col := 0; col < n; col++ {
		pivot := col
		for pivot < n && a[pivot][col] == 0 {
			pivot++
		}
		if pivot == n {
			return nil, errSingular
		}
		a[col], a[pivot] = a[pivot], a[col]
		inv[col], inv[pivot] = inv[pivot], inv[col]
		scale := gfInv(a[col][col])
		scaleRow(a[col], scale)
		scaleRow(inv[col], scale)
		for r := 0; r < n; r++ {
			if f := a[r][col]; r != col && f != 0 {
				addScaledRow(a[r], a[col], f)
				addScaledRow(inv[r], inv[col], f)
			}
		}
	}
	return inv, nil
}

func scaleRow(row []byte, c byte) {
	for i := range row {
		row[i] = gfMul(row[i], c)
	}
}

// addScaledRow does dst += c * src.
func addScaledRow(dst, src []byte, c byte) {
	for i := range dst {
		dst[i] ^= gfMul(c, src[i])
	}
}

// mulRowMatrix is the row vector product row * m.
func mulRowMatrix(row []byte, m matrix) []byte {
	return matrix{row}.mul(m)[0]
}

// flatten lays rows out row-major, the coefficient layout MatMuler takes.
func flatten(rows [][]byte) []byte {
	if len(rows) == 0 {
		return nil
	}
	out := make([]byte, 0, len(rows)*len(rows[0]))
	for _, r := range rows {
		out = append(out, r...)
	}
	return out
}
