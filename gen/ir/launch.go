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
		// Split-K partial sums (fp32, whatever the element type) go to a
		// workspace that the caller owns (and reuses), so a launch never
		// allocates.
		return append(blas(t, "b", "B", "c", "C"), Param{"workspace", "Workspace", "float*", "(*C.float)"},
			Param{"workspace_bytes", "WorkspaceBytes", "int64_t", "C.int64_t"})
	case GEMV:
		return blas(t, "x", "X", "y", "Y")
	case GF256MatMul:
		return []Param{
			{"coeffs", "Coeffs", "const uint8_t*", "(*C.uint8_t)"},
			{"rows", "Rows", "int", "C.int"},
			{"k", "K", "int", "C.int"},
			{"in", "In", "const uint8_t* const*", "(**C.uint8_t)"},
			{"out", "Out", "uint8_t* const*", "(**C.uint8_t)"},
			{"len", "Len", "int64_t", "C.int64_t"},
			{"accumulate", "Accumulate", "int", "C.int"},
			// 1: coeffs, in and out are host memory, which the launch
			// carries to the device in the kernel's parameters.
			{"host_arrays", "HostArrays", "int", "C.int"},
		}
	}
	return nil
}

// blas is the BLAS-style list shared by GEMM and GEMV: m, n, k, alpha, the
// first operand a and its leading dimension, the second (b or x), beta and
// the output (c or y), each with its leading dimension.
func blas(t Types, in, inField, out, outField string) []Param {
	elem, res := DTypes[t.A].CHeader, DTypes[t.C].CHeader
	return []Param{
		{"m", "M", "int", "C.int"},
		{"n", "N", "int", "C.int"},
		{"k", "K", "int", "C.int"},
		{"alpha", "Alpha", "float", "C.float"},
		{"a", "A", "const " + elem + "*", "(*C." + elem + ")"},
		{"lda", "LDA", "int64_t", "C.int64_t"},
		{in, inField, "const " + elem + "*", "(*C." + elem + ")"},
		{"ld" + in, "LD" + inField, "int64_t", "C.int64_t"},
		{"beta", "Beta", "float", "C.float"},
		{out, outField, res + "*", "(*C." + res + ")"},
		{"ld" + out, "LD" + outField, "int64_t", "C.int64_t"},
	}
}
