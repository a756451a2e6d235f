// Package gemm multiplies matrices in device memory with kgen's generated
// kernels: C = alpha * A * B + beta * C.
//
// Matrices are views of device buffers with a shape, a storage order and a
// leading dimension, so transposes are views too (Matrix.T). An Engine picks
// the kernels built for its device's arch and, per call, the instance whose
// tiling suits the shape: from the dispatch table measured on a GPU of the
// device's name (bench -tune, kernels/tuning/) when there is one, else by a
// rule on the shape; Engine.Pick says which and why. Engine.Tune measures
// instead of predicting for one problem: it times the instances the table
// predicts fastest on the caller's operands and makes the fastest the
// engine's choice for that shape and layout from then on. Every argument is
// validated before anything runs; errors name the operand and the problem.
// Nothing here panics or exits.
//
// SGEMM and HGEMM accumulate in fp32. Instances of a family that
// accumulates in fp16 (hgemmh in kernels/spec.yaml; Instance.Acc is F16)
// are faster on large problems and less accurate; the engine chooses among
// them only when asked, GEMMAcc(F16, F16, ...) (PickAcc says which), and
// runs them by name (HGEMMWith).
//
// Some instances need device memory besides the operands: split-K ones for
// partial sums, and packing SGEMM instances (Instance.Pack; names ending in
// _pk) for copies of the k-contiguous operands, 4 x K x M bytes for a
// row-major A and 4 x K x N for a column-major B (256 MiB for each 8192 x
// 8192 operand). The Engine keeps one such workspace per stream, grown on
// demand and reused, until Close; a launch captured into a CUDA graph takes
// scratch the graph owns. Without a dispatch table for the device the
// engine never packs.
package gemm
