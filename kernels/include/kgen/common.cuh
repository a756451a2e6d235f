// Shared definitions for kgen's kernels: storage orders, error codes and the
// arch suffix of launcher symbols.
#pragma once

#include <cuda_runtime.h>
#include <stdint.h>

#include <atomic>

#include "kernels/runtime/kgen_status.h"

// Every instance is compiled once per target arch, with -DKGEN_ARCH=sm90 (and
// so on) naming it, so that the per-arch objects can link into one binary.
#ifndef KGEN_ARCH
#error "compile kgen kernels with -DKGEN_ARCH=<sm80|sm86|sm89|sm90> (see kernels/README.md)"
#endif
#define KGEN_CAT2(a, b) a##_##b
#define KGEN_CAT(a, b) KGEN_CAT2(a, b)
// KGEN_EXPORT(kgen_x) is the launcher symbol kgen_x_<arch>.
#define KGEN_EXPORT(name) KGEN_CAT(name, KGEN_ARCH)

// KGEN_BIND_DEVICE(d) makes device d current on the calling thread, in the
// same C call as the launch that follows: cgo may move a goroutine to
// another thread between two calls, so a separate "set device" call would
// not bind anything. It returns the cudaError_t from the launcher on failure.
#define KGEN_BIND_DEVICE(d)                    \
  do {                                         \
    cudaError_t kgen_bind_err_ = cudaSetDevice(d); \
    if (kgen_bind_err_ != cudaSuccess) return static_cast<int>(kgen_bind_err_); \
  } while (0)

namespace kgen {

// Order is the storage order of a matrix relative to its logical shape.
enum class Order { Row, Col };

__host__ __device__ constexpr int ceil_div(int a, int b) { return (a + b - 1) / b; }

// vector_ok reports whether float4 accesses at p + i*ld (i any row) are
// 16-byte aligned: the base must be, and so must every row's start.
__host__ __device__ inline bool vector_ok(const void* p, int64_t ld) {
  return (reinterpret_cast<uintptr_t>(p) % 16 == 0) && (ld % 4 == 0);
}

// once_per_device runs set (a callable returning cudaError_t) the first time
// it succeeds for Key on the current device, and returns its error: kernel
// attributes are per device, and setting them on every launch costs a driver
// call. Devices 0-63 are remembered; set runs on every call for others.
template <class Key, class F>
inline cudaError_t once_per_device(F set) {
  static std::atomic<bool> done[64];
  int device = 0;
  cudaError_t err = cudaGetDevice(&device);
  if (err != cudaSuccess) return err;
  const bool cache = device >= 0 && device < 64;
  if (cache && done[device].load(std::memory_order_acquire)) return cudaSuccess;
  err = set();
  if (err == cudaSuccess && cache) done[device].store(true, std::memory_order_release);
  return err;
}

}  // namespace kgen
