package cuda

// Flags for the non-Bazel build: the headers are found from the repo root and
// the runtime shim comes from the library that `make lib` builds. Bazel
// excludes this file and links the cuda_library targets through cdeps instead.
//
// The CUDA runtime is linked statically (it loads the driver, libcuda, with
// dlopen when first called), so that a binary using kgen starts on a host
// without libcudart.so and Open returns ErrNoDevice, instead of the loader
// killing the process before main.

// #cgo CFLAGS: -I${SRCDIR}/../..
// #cgo LDFLAGS: -L${SRCDIR}/../../build -lkgen -lcudart_static -ldl -lrt -lpthread -lstdc++ -lm
import "C"
