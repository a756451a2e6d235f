package rs

// GF(2^8) with the reducing polynomial x^8+x^4+x^3+x^2+1 (0x11d) and
// generator 2: the field klauspost/reedsolomon and Backblaze use, so that
// our matrices, and hence our parity bytes, are the same as theirs.

const gfPoly = 0x11d

var (
	// gfExp[i] = 2^i. It is 510 long so gfMul can index with logA+logB
	// (at most 508) without a modulo.
	gfExp [510]byte
	// gfLog[x] = i with 2^i = x, for x != 0; gfLog[0] is unused.
	gfLog [256]byte
)

func init() {
	x := 1
	for i := 0; i < 255; i++ {
		gfExp[i] = byte(x)
		gfExp[i+255] = byte(x)
		gfLog[x] = byte(i)
		x <<= 1
		if x&0x100 != 0 {
			x ^= gfPoly
		}
	}
}

// gfMul multiplies two field elements.
func gfMul(a, b byte) byte {
	if a == 0 || b == 0 {
		return 0
	}
	return gfExp[int(gfLog[a])+int(gfLog[b])]
}

// gfInv is the multiplicative inverse; the caller guarantees a != 0.
func gfInv(a byte) byte {
	return gfExp[255-int(gfLog[a])]
}

// gfPow is a^n for n >= 0, with 0^0 = 1 as the Vandermonde matrix needs
// (its row 0 is [1, 0, 0, ...]).
func gfPow(a byte, n int) byte {
	if n == 0 {
		return 1
	}
	if a == 0 {
		return 0
	}
	return gfExp[(int(gfLog[a])*n)%255]
}

// gfMulTable returns the 256-entry table x -> c*x, so a loop over a shard
// does one lookup per byte instead of two logs and an exp.
func gfMulTable(c byte) *[256]byte {
	var t [256]byte
	for x := 1; x < 256; x++ {
		t[x] = gfMul(c, byte(x))
	}
	return &t
}
