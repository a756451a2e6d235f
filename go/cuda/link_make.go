package cuda

// Flags for the non-Bazel build: the headers are found from the repo root and
// the runtime shim comes from the library that `make lib` builds. Bazel
// excludes this file and links the cuda_library targets through cdeps instead.

// #cgo CFLAGS: -I${SRCDIR}/../..
// #cgo LDFLAGS: -L${SRCDIR}/../../build -lkgen -lcudart -lstdc++ -lm
import "C"
