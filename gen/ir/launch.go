package ir

// Param is one argument of a launcher, between the device ordinal (every
// launcher's first argument: the C side binds the device) and the stream
// (its last). The C header, the CUDA sources and the cgo bindings are all
// printed from the same list, so they cannot disagree.
type Param struct {
	Name  string // C parameter name
	Field string // field of the Go parameter struct (go/internal/kernels)
	C     string // C type, as the header spells it
	Cgo   string // conversion of the Go field to the C type, e.g. "C.int" or "(*C.float)"
}

// Signature is the launcher parameter list of op with types t.
func Signature(op Op, t Types) []Param {
	switch op {
	case GEMM:
		elem := DTypes[t.A].CHeader
		out := DTypes[t.C].CHeader
		return []Param{
			{"m", "M", "int", "C.int"},
			{"n", "N", "int", "C.int"},
			{"k", "K", "int", "C.int"},
			{"alpha", "Alpha", "float", "C.float"},
			{"a", "A", "const " + elem + "*", "(*C." + elem + ")"},
			{"lda", "LDA", "int64_t", "C.int64_t"},
			{"b", "B", "const " + elem + "*", "(*C." + elem + ")"},
			{"ldb", "LDB", "int64_t", "C.int64_t"},
			{"beta", "Beta", "float", "C.float"},
			{"c", "C", out + "*", "(*C." + out + ")"},
			{"ldc", "LDC", "int64_t", "C.int64_t"},
		}
	case GEMV:
		elem := DTypes[t.A].CHeader
		out := DTypes[t.C].CHeader
		return []Param{
			{"m", "M", "int", "C.int"},
			{"n", "N", "int", "C.int"},
			{"k", "K", "int", "C.int"},
			{"alpha", "Alpha", "float", "C.float"},
			{"a", "A", "const " + elem + "*", "(*C." + elem + ")"},
			{"lda", "LDA", "int64_t", "C.int64_t"},
			{"x", "X", "const " + elem + "*", "(*C." + elem + ")"},
			{"ldx", "LDX", "int64_t", "C.int64_t"},
			{"beta", "Beta", "float", "C.float"},
			{"y", "Y", out + "*", "(*C." + out + ")"},
			{"ldy", "LDY", "int64_t", "C.int64_t"},
		}
	case GF256MatMul:
		return []Param{
			{"coeffs", "Coeffs", "const uint8_t*", "(*C.uint8_t)"},
			{"rows", "Rows", "int", "C.int"},
			{"k", "K", "int", "C.int"},
			{"in", "In", "const uint8_t* const*", "(**C.uint8_t)"},
			{"out", "Out", "uint8_t* const*", "(**C.uint8_t)"},
			{"len", "Len", "int64_t", "C.int64_t"},
			{"accumulate", "Accumulate", "int", "C.int"},
		}
	}
	return nil
}
