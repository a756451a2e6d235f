# The non-Bazel build: nvcc builds the kernels into build/libkgen.a, then the
# Go toolchain builds and tests everything against it.
#
#   make test    build the kernels, then run every test, verbosely (GPU tests skip, visibly,
#                without a GPU; with one, the cuBLAS cross-checks run too)
#   make bench   build the kernels, then time them against cuBLAS (needs a GPU)
#
# CUDA_HOME picks the toolkit: /usr/local/cuda when it exists, else the one
# nvcc is found in (Debian's nvidia-cuda-toolkit lives in /usr).

NVCC ?= nvcc
CUDA_HOME ?= $(if $(wildcard /usr/local/cuda/bin/nvcc),/usr/local/cuda,$(patsubst %/bin/nvcc,%,$(shell command -v $(NVCC) 2>/dev/null)))
GO ?= go

KGEN_BUILD := build
KGEN_NVCC_FLAGS := -O3 -std=c++17 -Xcompiler -fPIC -I kernels/include -I .
KGEN_HEADERS := $(wildcard kernels/include/kgen/*.cuh) $(wildcard kernels/runtime/*.h) kernels/generated/kgen_kernels.h

include kernels/generated/kernels.mk

KGEN_RUNTIME_OBJS := $(KGEN_BUILD)/runtime/kgen_runtime.o
KGEN_CUBLAS_OBJS := $(KGEN_BUILD)/runtime/kgen_cublas.o

# cgo links against the toolkit's libraries; Debian's sit on the default path.
export CGO_LDFLAGS := $(if $(wildcard $(CUDA_HOME)/lib64),-L$(CUDA_HOME)/lib64) $(CGO_LDFLAGS)

# The cuBLAS cross-checks use gorgonia.org/cu, whose init exits without a GPU:
# they are compiled in (build tag cublas) only where nvidia-smi sees a GPU.
HAVE_GPU := $(shell nvidia-smi -L 2>/dev/null | grep -q '^GPU' && echo yes)
GO_TEST_TAGS := $(if $(HAVE_GPU),-tags cublas)

.PHONY: all lib test host-test bench generate check-cuda clean

all: lib

# nvcc missing: as root on Debian or Ubuntu, install the distribution's
# toolkit (saying so); anywhere else, say how and stop.
check-cuda:
	@command -v $(NVCC) >/dev/null 2>&1 || { \
	  if [ "$$(id -u)" = 0 ] && grep -qsE '^ID(_LIKE)?=.*(debian|ubuntu)' /etc/os-release; then \
	    echo "make: nvcc not found; installing the CUDA toolkit (package nvidia-cuda-toolkit: nvcc, cudart, cuBLAS, headers) with tools/install-cuda.sh"; \
	    bash tools/install-cuda.sh; \
	  else \
	    echo "error: nvcc not found. kgen needs the CUDA toolkit (11.8 or newer) to build its kernels."; \
	    echo "  Debian/Ubuntu: sudo bash tools/install-cuda.sh   (installs nvidia-cuda-toolkit; make does it itself when run as root)"; \
	    echo "  elsewhere: install the CUDA toolkit and put nvcc on PATH, or set NVCC=/path/to/nvcc"; \
	    exit 1; \
	  fi; }

lib: check-cuda $(KGEN_BUILD)/libkgen.a $(KGEN_BUILD)/libkgen_cublas.a

# Order-only: under make -j no nvcc starts before check-cuda has installed it.
$(KGEN_KERNEL_OBJS) $(KGEN_RUNTIME_OBJS) $(KGEN_CUBLAS_OBJS): | check-cuda

$(KGEN_BUILD)/libkgen.a: $(KGEN_KERNEL_OBJS) $(KGEN_RUNTIME_OBJS)
	@rm -f $@
	ar rcs $@ $^

$(KGEN_BUILD)/libkgen_cublas.a: $(KGEN_CUBLAS_OBJS)
	@rm -f $@
	ar rcs $@ $^

$(KGEN_BUILD)/runtime/%.o: kernels/runtime/%.cu $(KGEN_HEADERS)
	@mkdir -p $(@D)
	$(NVCC) $(KGEN_NVCC_FLAGS) $(KGEN_GENCODE_ALL) -c $< -o $@

# The kernel templates' host checks, no GPU needed: the GF(2^8) kernels' and
# the HGEMV kernels' per-thread code emulated on the host against references
# (the tensor-core HGEMV's MMAs from their PTX fragment layout), the HGEMM kernel's swizzles, fragment layouts and tile coverage,
# the SGEMM kernels' shifted store of C (store_c_shifted) over an emulated warp, and
# the launcher's tail plan (kgen::tail_plan) on the cases measured on H100 and H200.
host-test: check-cuda
	for t in gf256 hgemm hgemv hgemv_mma sgemm tail_plan; do NVCC=$(NVCC) sh kernels/tests/run_host_test.sh $${t}_host_test || exit 1; done

test: lib host-test
	$(GO) test $(GO_TEST_TAGS) -v ./...

bench: lib
	$(GO) run ./tools/bench $(BENCH_FLAGS)

generate:
	$(GO) run ./gen/cmd/kgen -spec kernels/spec.yaml

clean:
	rm -rf $(KGEN_BUILD)
