// Launching kgen's kernels: cached device attributes and programmatic
// dependent launch. No KGEN_ARCH is needed here, so the runtime shim
// (kernels/runtime/kgen_runtime.cu), built once for every arch, uses it too.
#pragma once

#include <cuda_runtime.h>
#include <stdint.h>

#include <atomic>

namespace kgen {

// per_device returns query(), a value >= 0 or -1 on failure, cached per
// device (0-63; others query on every call) once it succeeds; failures are
// asked again. Key names the cache: one per Key and query, of Slots values
// a device, slot (0 to Slots - 1; others query on every call) choosing one
// where a query takes an argument. The queries are driver calls, and
// launches of small problems take a few microseconds.
template <class Key, int Slots = 1, class Query>
inline int per_device(int device, Query query, int slot = 0) {
  static std::atomic<int> cache[64][Slots];  // 0: not known; else 1 + the value
  const bool cached = device >= 0 && device < 64 && slot >= 0 && slot < Slots;
  if (cached) {
    const int v = cache[device][slot].load(std::memory_order_relaxed);
    if (v > 0) return v - 1;
  }
  const int v = query();
  if (v >= 0 && cached) cache[device][slot].store(v + 1, std::memory_order_relaxed);
  return v < 0 ? -1 : v;
}

// cluster_y_attribute groups every cluster_y blocks along grid y into a
// thread-block cluster (sm_90 and later), for launches and occupancy queries.
inline cudaLaunchAttribute cluster_y_attribute(unsigned cluster_y) {
  cudaLaunchAttribute attr = {};
  attr.id = cudaLaunchAttributeClusterDimension;
  attr.val.clusterDim.x = 1;
  attr.val.clusterDim.y = cluster_y;
  attr.val.clusterDim.z = 1;
  return attr;
}

// device_attribute is attribute A of device, cached (per_device). It
// returns -1 when the query fails (the error stays for cudaGetLastError) or
// gives no positive value.
template <cudaDeviceAttr A>
inline int device_attribute(int device) {
  struct Key;
  return per_device<Key>(device, [device] {
    int n = 0;
    return cudaDeviceGetAttribute(&n, A, device) == cudaSuccess && n > 0 ? n : -1;
  });
}

// sm_count is the device's multiprocessor count, cc_major its compute
// capability's major version; -1 on failure.
inline int sm_count(int device) { return device_attribute<cudaDevAttrMultiProcessorCount>(device); }
inline int cc_major(int device) { return device_attribute<cudaDevAttrComputeCapabilityMajor>(device); }

// Programmatic dependent launch (sm_90 and later). A kernel launched early
// may begin while the kernel before it on the stream is still finishing:
// its blocks are scheduled as that kernel's blocks leave the SMs, and do
// their set-up then. Such a kernel must call wait_prior_grids() before its
// first access to global memory (reads too: earlier work may still write
// what it reads, or read what it overwrites); it returns once every earlier
// grid on the stream has finished and its writes are visible.
// allow_early_start() lets the next kernel on the stream, if it was launched
// early, start now. On earlier archs all three do nothing special.
__device__ __forceinline__ void wait_prior_grids() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.wait;" ::: "memory");
#endif
}
__device__ __forceinline__ void allow_early_start() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
#endif
}

// prefetch_l2 asks L2 for the 128-byte line that holds p. It returns no
// data, so a kernel launched early may call it before wait_prior_grids():
// L2 is where every SM's writes land, so loads after the wait still see
// what earlier work wrote to that line. Nothing before sm_90.
__device__ __forceinline__ void prefetch_l2(const void* p) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("prefetch.global.L2 [%0];" ::"l"(p));
#endif
}

// warm_l2 prefetches (prefetch_l2) every line that holds a byte of rows
// rows of row_bytes bytes each, from p and ld_bytes apart, over the block's
// threads (thread tid of threads takes every threads-th line). A kernel
// launched early calls it before wait_prior_grids() for the first bytes it
// will read, so that those reads overlap the end of the kernel before it
// instead of following it. Every address it prefetches is one of those
// bytes (any alignment).
__device__ __forceinline__ void warm_l2(const void* p, int64_t ld_bytes, int rows, int row_bytes, int tid,
                                        int threads) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  if (rows <= 0 || row_bytes <= 0) return;
  // A row that does not start a line spans one line more.
  const int lines = (row_bytes + 127) / 128 + (((reinterpret_cast<uintptr_t>(p) | ld_bytes) & 127) != 0);
  for (int i = tid; i < rows * lines; i += threads) {
    const uintptr_t row = reinterpret_cast<uintptr_t>(p) + static_cast<int64_t>(i / lines) * ld_bytes;
    const uintptr_t line = (row & ~uintptr_t{127}) + 128 * (i % lines);
    prefetch_l2(reinterpret_cast<const void*>(line < row ? row : line < row + row_bytes ? line : row + row_bytes - 1));
  }
#endif
}

// launch_in_clusters is kernel<<<grid, block, smem, stream>>>(args...) with
// launch attributes: early adds programmatic serialization (only for a
// kernel that waits: its code for sm_90 or later), and cluster_y > 1 groups
// every cluster_y blocks along grid y into a thread-block cluster (sm_90 and
// later; grid y a multiple of it). It returns the launch's error and clears
// it from the thread's last error, as cudaGetLastError after <<<>>> does.
template <class... KernelParams, class... Args>
inline cudaError_t launch_in_clusters(bool early, unsigned cluster_y, void (*kernel)(KernelParams...), dim3 grid,
                                      dim3 block, size_t smem, cudaStream_t stream, Args&&... args) {
  cudaLaunchConfig_t cfg = {};
  cfg.gridDim = grid;
  cfg.blockDim = block;
  cfg.dynamicSmemBytes = smem;
  cfg.stream = stream;
  cudaLaunchAttribute attr[2];
  unsigned n = 0;
  if (early) {
    attr[n].id = cudaLaunchAttributeProgrammaticStreamSerialization;
    attr[n].val.programmaticStreamSerializationAllowed = 1;
    ++n;
  }
  if (cluster_y > 1) attr[n++] = cluster_y_attribute(cluster_y);
  cfg.attrs = attr;
  cfg.numAttrs = n;
  const cudaError_t err = cudaLaunchKernelEx(&cfg, kernel, static_cast<Args&&>(args)...);
  const cudaError_t last = cudaGetLastError();
  return err != cudaSuccess ? err : last;
}

// launch_maybe_early is launch_in_clusters without clusters.
template <class... KernelParams, class... Args>
inline cudaError_t launch_maybe_early(bool early, void (*kernel)(KernelParams...), dim3 grid, dim3 block, size_t smem,
                                      cudaStream_t stream, Args&&... args) {
  return launch_in_clusters(early, 1, kernel, grid, block, smem, stream, static_cast<Args&&>(args)...);
}

}  // namespace kgen
