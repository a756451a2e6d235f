package cublasref

// Flags for the non-Bazel build (Bazel excludes this file and uses cdeps).

// #cgo CFLAGS: -I${SRCDIR}/../..
// #cgo LDFLAGS: -L${SRCDIR}/../../build -lkgen_cublas -lcublas -lcudart -lstdc++
import "C"
