// Package cublasref runs cuBLAS SGEMM in pedantic math mode (no TF32) through
// kgen's own C shim, kernels/runtime/kgen_cublas.h, so that the bench can
// compare with cuBLAS without gorgonia.org/cu (whose init exits the process
// where there is no GPU).
package cublasref

// #include "kernels/runtime/kgen_cublas.h"
import "C"

import (
	"errors"
	"fmt"
	"unsafe"
)

// Handle is a cuBLAS handle bound to a stream.
type Handle struct{ h unsafe.Pointer }

func check(op string, s C.int) error {
	if s == 0 {
		return nil
	}
	return fmt.Errorf("cublas: %s: %s", op, C.GoString(C.kgen_cublas_status_string(s)))
}

// New creates a handle on stream (nil: the default stream), in pedantic math.
func New(stream unsafe.Pointer) (*Handle, error) {
	h := &Handle{}
	if err := check("create", C.kgen_cublas_create(&h.h, stream)); err != nil {
		return nil, err
	}
	return h, nil
}

// NewDefault creates a handle in cuBLAS's default math mode, where GemmEx may
// use tensor cores: the reference for fp16.
func NewDefault(stream unsafe.Pointer) (*Handle, error) {
	h := &Handle{}
	if err := check("create", C.kgen_cublas_create_default(&h.h, stream)); err != nil {
		return nil, err
	}
	return h, nil
}

// Close destroys the handle.
func (h *Handle) Close() error {
	if h == nil || h.h == nil {
		return errors.New("cublas: Close of a nil or closed handle")
	}
	p := h.h
	h.h = nil
	return check("destroy", C.kgen_cublas_destroy(p))
}

// SGEMM computes row-major C = alpha * A * B + beta * C, with A (M x K) and
// B (K x N) row-major or, where aCol / bCol, column-major.
func (h *Handle) SGEMM(aCol, bCol bool, m, n, k int, alpha float32, a unsafe.Pointer, lda int,
	b unsafe.Pointer, ldb int, beta float32, c unsafe.Pointer, ldc int) error {
	return check("sgemm", C.kgen_cublas_sgemm(h.h, cbool(aCol), cbool(bCol), C.int(m), C.int(n), C.int(k), C.float(alpha),
		(*C.float)(a), C.int64_t(lda), (*C.float)(b), C.int64_t(ldb), C.float(beta), (*C.float)(c), C.int64_t(ldc)))
}

// GemmExF16 computes row-major C = alpha * A * B + beta * C with fp16 A, B
// and C through cublasGemmEx, accumulating in fp32 (or fp16 with acc16).
func (h *Handle) GemmExF16(aCol, bCol bool, m, n, k int, alpha float32, a unsafe.Pointer, lda int,
	b unsafe.Pointer, ldb int, beta float32, c unsafe.Pointer, ldc int, acc16 bool) error {
	return check("gemmex f16", C.kgen_cublas_gemmex_f16(h.h, cbool(aCol), cbool(bCol), C.int(m), C.int(n), C.int(k), C.float(alpha),
		a, C.int64_t(lda), b, C.int64_t(ldb), C.float(beta), c, C.int64_t(ldc), cbool(acc16)))
}

func cbool(b bool) C.int {
	if b {
		return 1
	}
	return 0
}
