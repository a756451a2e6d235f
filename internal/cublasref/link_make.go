package cublasref

// Flags for the non-Bazel build (Bazel excludes this file and uses cdeps).
// cuBLAS stays a shared library (only the bench and tests use it); the CUDA
// runtime is static, as in go/cuda/link_make.go.

// #cgo CFLAGS: -I${SRCDIR}/../..
// #cgo LDFLAGS: -L${SRCDIR}/../../build -lkgen_cublas -lcublas -lcudart_static -ldl -lrt -lpthread -lstdc++
import "C"
