// Package hgemvtest checks every fp16 GEMV instance on the GPU against a
// float64 reference: odd and degenerate shapes, batches of 1 to 8 vectors,
// both layouts of A, misaligned pointers and padded leading dimensions,
// +-65504, subnormals and zeros in the inputs, overflow to +-Inf, y poisoned
// with NaN where beta is 0, guard values around y. Without a GPU the tests
// skip, visibly.
package hgemvtest
