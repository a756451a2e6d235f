package rs

// The encoding matrix is (k+m) x k with the identity on top, so data shards
// pass through unchanged and shard i = row i * data. These builders match
// klauspost/reedsolomon's choice for each option byte for byte; the tests in
// identity_test.go hold them to it.

// matrixKind names the construction, one per klauspost option.
type matrixKind int

const (
	matrixVandermonde matrixKind = iota // klauspost's default
	matrixCauchy                        // WithCauchyMatrix
	matrixPAR1                          // WithPAR1Matrix
)

// codingMatrix builds the (k+m) x k encoding matrix for the configuration,
// honouring klauspost's precedence: custom matrix, then the one-parity XOR
// matrix, then the named construction. m > 0 and k+m <= 256 are checked by
// the caller; a short custom matrix is an error.
func codingMatrix(k, m int, c *config) (matrix, error) {
	var parity matrix
	switch {
	case c.customMatrix != nil:
		p, err := customParity(k, m, c.customMatrix)
		if err != nil {
			return nil, err
		}
		parity = p
	case c.fastOneParity && m == 1:
		parity = newMatrix(1, k)
		for j := range parity[0] {
			parity[0][j] = 1
		}
	case c.kind == matrixCauchy:
		parity = cauchyParity(k, m)
	case c.kind == matrixPAR1:
		parity = par1Parity(k, m)
	default:
		return vandermondeSystematic(k, m)
	}
	return append(identity(k), parity...), nil
}

// vandermondeSystematic takes the Vandermonde matrix V[r][c] = r^c, which
// has every k rows independent, and multiplies it by the inverse of its top
// square: the top becomes the identity and the independence is kept.
func vandermondeSystematic(k, m int) (matrix, error) {
	v := newMatrix(k+m, k)
	for r := range v {
		for c := range v[r] {
			v[r][c] = gfPow(byte(r), c)
		}
	}
	topInv, err := v[:k].invert()
	if err != nil {
		return nil, err // cannot happen: distinct r give a Vandermonde square
	}
	return v.mul(topInv), nil
}

// cauchyParity is 1 / (r xor c) for parity row r in [k, k+m): r != c, so it
// never divides by zero, and every square submatrix of a Cauchy matrix is
// invertible.
func cauchyParity(k, m int) matrix {
	p := newMatrix(m, k)
	for i := range p {
		for c := range p[i] {
			p[i][c] = gfInv(byte((k + i) ^ c))
		}
	}
	return p
}

// par1Parity is PAR1's (c+1)^i for parity row i. PAR1's scheme is known to
// leave some loss patterns unrecoverable; it is here for compatibility only.
func par1Parity(k, m int) matrix {
	p := newMatrix(m, k)
	for i := range p {
		for c := range p[i] {
			p[i][c] = gfPow(byte(c+1), i)
		}
	}
	return p
}

// customParity copies the first m rows and k columns of a caller's matrix,
// so later changes to it cannot alter the encoder.
func customParity(k, m int, custom [][]byte) (matrix, error) {
	if len(custom) < m {
		return nil, errorf(ErrInvalidMatrix, "custom matrix has %d rows, want at least %d (one per parity shard)", len(custom), m)
	}
	p := newMatrix(m, k)
	for i := range p {
		if len(custom[i]) < k {
			return nil, errorf(ErrInvalidMatrix, "custom matrix row %d has %d columns, want at least %d (one per data shard)", i, len(custom[i]), k)
		}
		copy(p[i], custom[i])
	}
	return p, nil
}
