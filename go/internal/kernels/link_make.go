package kernels

// Flags for the non-Bazel build: the headers are found from the repo root and
// the kernels come from the library that `make lib` builds. Bazel excludes this
// file and links the cuda_library targets through cdeps instead.
//
// The CUDA runtime is linked statically, as in go/cuda/link_make.go: a binary
// using kgen must start on a host without libcudart.so.

// #cgo CFLAGS: -I${SRCDIR}/../../..
// #cgo LDFLAGS: -L${SRCDIR}/../../../build -lkgen -lcudart_static -ldl -lrt -lpthread -lstdc++ -lm
import "C"
