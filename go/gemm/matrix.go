package gemm

import (
	"fmt"
	"math"
	"unsafe"

	"github.com/kgen-gpu/kgen/go/cuda"
)

// Order is a matrix's storage order.
type Order int

const (
	RowMajor Order = iota // element (i, j) at i*Stride + j
	ColMajor              // element (i, j) at j*Stride + i
)

func (o Order) String() string {
	switch o {
	case RowMajor:
		return "row-major"
	case ColMajor:
		return "column-major"
	}
	return fmt.Sprintf("Order(%d)", int(o))
}

// Matrix is a Rows x Cols matrix of elements in a device buffer.
type Matrix struct {
	Buf        *cuda.Buffer
	Offset     int // elements from the start of Buf to element (0, 0)
	Rows, Cols int
	Stride     int // leading dimension in elements; 0 means packed
	Order      Order
}

// T is the transpose of m as a view of the same memory.
func (m Matrix) T() Matrix {
	t := m
	t.Rows, t.Cols = m.Cols, m.Rows
	t.Order = RowMajor
	if m.Order == RowMajor {
		t.Order = ColMajor
	}
	return t
}

// inner is the length of a stored row (RowMajor) or column (ColMajor).
func (m Matrix) inner() int {
	if m.Order == ColMajor {
		return m.Rows
	}
	return m.Cols
}

func (m Matrix) outer() int {
	if m.Order == ColMajor {
		return m.Cols
	}
	return m.Rows
}

// LD is the leading dimension: Stride, or the packed one when Stride is 0.
func (m Matrix) LD() int {
	if m.Stride != 0 {
		return m.Stride
	}
	return max(m.inner(), 1)
}

// span is the number of elements from (0, 0) to the last element, inclusive.
func (m Matrix) span() int {
	if m.Rows == 0 || m.Cols == 0 {
		return 0
	}
	return (m.outer()-1)*m.LD() + m.inner()
}

// check validates m as operand name holding elements of elemBytes bytes.
func (m Matrix) check(name string, dev *cuda.Device, elemBytes int) error {
	switch {
	case m.Order != RowMajor && m.Order != ColMajor:
		return fmt.Errorf("gemm: %s: unknown order %v", name, m.Order)
	case m.Rows < 0 || m.Cols < 0:
		return fmt.Errorf("gemm: %s: negative shape %dx%d", name, m.Rows, m.Cols)
	case m.Rows > math.MaxInt32 || m.Cols > math.MaxInt32:
		return fmt.Errorf("gemm: %s: shape %dx%d exceeds the kernels' 32-bit dimensions", name, m.Rows, m.Cols)
	case m.Stride < 0:
		return fmt.Errorf("gemm: %s: negative stride %d", name, m.Stride)
	case m.Stride != 0 && m.Stride < max(m.inner(), 1):
		return fmt.Errorf("gemm: %s: stride %d is shorter than a stored %s of %d elements (%s)",
			name, m.Stride, map[Order]string{RowMajor: "row", ColMajor: "column"}[m.Order], m.inner(), m.Order)
	case m.Offset < 0:
		return fmt.Errorf("gemm: %s: negative offset %d", name, m.Offset)
	}
	if m.span() == 0 {
		return nil
	}
	if m.Buf == nil || m.Buf.Ptr() == nil {
		return fmt.Errorf("gemm: %s: nil or freed buffer for a %dx%d matrix", name, m.Rows, m.Cols)
	}
	if m.Buf.Device() != dev {
		return fmt.Errorf("gemm: %s: buffer belongs to another device", name)
	}
	have := m.Buf.Bytes() / elemBytes
	if need := m.Offset + m.span(); need > have {
		return fmt.Errorf("gemm: %s: a %dx%d %s matrix with stride %d at offset %d needs %d elements, the buffer holds %d",
			name, m.Rows, m.Cols, m.Order, m.LD(), m.Offset, need, have)
	}
	return nil
}

// bytesRange is the byte interval [lo, hi) of the buffer that m touches.
func (m Matrix) bytesRange(elemBytes int) (lo, hi int) {
	return m.Offset * elemBytes, (m.Offset + m.span()) * elemBytes
}

// overlaps reports whether c and x share any bytes of one buffer.
func overlaps(c, x Matrix, elemBytes int) bool {
	if c.Buf != x.Buf || c.span() == 0 || x.span() == 0 {
		return false
	}
	clo, chi := c.bytesRange(elemBytes)
	xlo, xhi := x.bytesRange(elemBytes)
	return clo < xhi && xlo < chi
}

// Validate checks m as operand name of elemBytes-byte elements on dev, as
// the engine does, for other packages that take Matrix operands (go/gemv).
func (m Matrix) Validate(name string, dev *cuda.Device, elemBytes int) error {
	return m.check(name, dev, elemBytes)
}

// Overlap reports whether a and b share any byte of one buffer.
func Overlap(a, b Matrix, elemBytes int) bool { return overlaps(a, b, elemBytes) }

// Addr is the device address of element (0, 0), nil for an empty matrix.
func (m Matrix) Addr(elemBytes int) unsafe.Pointer { return elem(m, elemBytes) }
