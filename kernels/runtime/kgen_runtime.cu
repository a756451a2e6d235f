// Implementation of kgen_runtime.h over the CUDA runtime API.
#include <cuda_runtime.h>

#include <cstdint>
#include <cstring>

#include "kernels/runtime/kgen_runtime.h"
#include "kgen/launch.cuh"
#include "kgen/scratch.cuh"

namespace {

int status(cudaError_t e) { return static_cast<int>(e); }

__global__ void fill_u32(uint32_t* dst, uint32_t value, size_t count) {
  for (size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x; i < count;
       i += static_cast<size_t>(gridDim.x) * blockDim.x) {
    dst[i] = value;
  }
}

// read_sweep reads the n16 16-byte words at src (and, in block 0, the
// tail's `tail` bytes after them, zero-padded to whole 32-bit words) and
// stores the XOR of the 32-bit words each block read in sink[blockIdx.x]. The
// grid sweeps the buffer in step: each pass, consecutive threads of
// consecutive blocks read consecutive words, four passes' loads in flight per
// thread, with streaming (evict-first) loads. Plain stores to a word per
// block, not atomics: thousands of atomics on one word at the end of the
// sweep took about 4 us on an H100. On sm_90 the kernel starts early behind
// the kernel ahead (kgen_read_sweep launches it so) and waits for it before
// its first read, as kgen's gemv kernels do.
__global__ void __launch_bounds__(256) read_sweep(const uint4* __restrict__ src, size_t n16, int tail,
                                                  uint32_t* sink) {
  kgen::allow_early_start();
  kgen::wait_prior_grids();
  constexpr int kUnroll = 4;
  __shared__ uint32_t warps[8];
  const size_t stride = static_cast<size_t>(gridDim.x) * blockDim.x;
  size_t i = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  uint32_t acc = 0;
  for (; i + (kUnroll - 1) * stride < n16; i += kUnroll * stride) {
    uint4 v[kUnroll];
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) v[u] = __ldcs(src + i + u * stride);
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) acc ^= v[u].x ^ v[u].y ^ v[u].z ^ v[u].w;
  }
  for (; i < n16; i += stride) {
    const uint4 v = __ldcs(src + i);
    acc ^= v.x ^ v.y ^ v.z ^ v.w;
  }
  if (blockIdx.x == 0 && threadIdx.x < static_cast<unsigned>(tail)) {
    const uint8_t* t = reinterpret_cast<const uint8_t*>(src + n16);
    acc ^= static_cast<uint32_t>(t[threadIdx.x]) << (8 * (threadIdx.x % 4));
  }
  for (int o = 16; o > 0; o /= 2) acc ^= __shfl_xor_sync(0xffffffffu, acc, o);
  if (threadIdx.x % 32 == 0) warps[threadIdx.x / 32] = acc;
  __syncthreads();
  if (threadIdx.x == 0) {
    for (int w = 1; w < 8; ++w) acc ^= warps[w];
    sink[blockIdx.x] = acc;
  }
}

int attr(int* out, cudaDeviceAttr a, int device) { return status(cudaDeviceGetAttribute(out, a, device)); }

// query_failed is the status for a cached attribute (kgen/launch.cuh) that
// came back unusable: the query's error, or cudaErrorInvalidDevice when the
// driver gave no positive value without one.
int query_failed() {
  const int e = status(cudaGetLastError());
  return e != 0 ? e : status(cudaErrorInvalidDevice);
}

// on makes device current on this thread and then runs f, all inside the one
// C call that the Go side makes: see kgen_runtime.h for why.
template <class F>
int on(int device, F f) {
  int s = status(cudaSetDevice(device));
  return s != 0 ? s : f();
}

cudaStream_t stream_of(void* s) { return static_cast<cudaStream_t>(s); }
cudaEvent_t event_of(void* e) { return static_cast<cudaEvent_t>(e); }

// copy_and_wait is a host copy: it returns when the copy is done.
int copy_and_wait(int device, void* dst, const void* src, size_t bytes, cudaMemcpyKind kind, void* stream) {
  return on(device, [&] {
    int r = status(cudaMemcpyAsync(dst, src, bytes, kind, stream_of(stream)));
    return r != 0 ? r : status(cudaStreamSynchronize(stream_of(stream)));
  });
}

}  // namespace

extern "C" {

int kgen_device_count(int* count) {
  *count = 0;
  return status(cudaGetDeviceCount(count));
}

int kgen_device_info_get(int device, kgen_device_info* info) {
  std::memset(info, 0, sizeof(*info));
  return on(device, [&] {
    cudaDeviceProp prop;
    int s = status(cudaGetDeviceProperties(&prop, device));
    if (s != 0) return s;
    std::strncpy(info->name, prop.name, sizeof(info->name) - 1);
    info->major = prop.major;
    info->minor = prop.minor;
    info->multiprocessors = prop.multiProcessorCount;
    info->l2_bytes = prop.l2CacheSize;
    info->smem_per_block_optin = static_cast<int>(prop.sharedMemPerBlockOptin);
    info->total_memory = static_cast<int64_t>(prop.totalGlobalMem);
    if (attr(&info->clock_khz, cudaDevAttrClockRate, device) != 0) {
      info->clock_khz = 0;
      cudaGetLastError();  // the attribute is optional: clear its error
    }
    if (attr(&info->memory_clock_khz, cudaDevAttrMemoryClockRate, device) != 0) {
      info->memory_clock_khz = 0;
      cudaGetLastError();  // optional too
    }
    if ((s = attr(&info->memory_bus_bits, cudaDevAttrGlobalMemoryBusWidth, device)) != 0) return s;
    if ((s = status(cudaDriverGetVersion(&info->driver_version))) != 0) return s;
    return status(cudaRuntimeGetVersion(&info->runtime_version));
  });
}

int kgen_device_synchronize(int device) {
  return on(device, [] { return status(cudaDeviceSynchronize()); });
}

const char* kgen_error_name(int s) {
  switch (s) {
    case KGEN_ERR_NEGATIVE_DIM: return "KGEN_ERR_NEGATIVE_DIM";
    case KGEN_ERR_LEADING_DIM: return "KGEN_ERR_LEADING_DIM";
    case KGEN_ERR_NULL_POINTER: return "KGEN_ERR_NULL_POINTER";
    case KGEN_ERR_GRID_TOO_LARGE: return "KGEN_ERR_GRID_TOO_LARGE";
    case KGEN_ERR_WORKSPACE: return "KGEN_ERR_WORKSPACE";
    case KGEN_ERR_INLINE_LIMIT: return "KGEN_ERR_INLINE_LIMIT";
    default: return s < 0 ? "KGEN_ERR_UNKNOWN" : cudaGetErrorName(static_cast<cudaError_t>(s));
  }
}

const char* kgen_error_string(int s) {
  switch (s) {
    case KGEN_ERR_NEGATIVE_DIM: return "a dimension is negative";
    case KGEN_ERR_LEADING_DIM: return "a leading dimension is smaller than the stored row length";
    case KGEN_ERR_NULL_POINTER: return "a matrix pointer is NULL";
    case KGEN_ERR_GRID_TOO_LARGE: return "the problem needs more blocks than one grid holds";
    case KGEN_ERR_WORKSPACE: return "the split-K workspace is missing, too small or not 16-byte aligned";
    case KGEN_ERR_INLINE_LIMIT:
      return "more shards given in host memory than a launch carries (KGEN_GF256_INLINE_SHARDS)";
    default: return s < 0 ? "unknown kgen status" : cudaGetErrorString(static_cast<cudaError_t>(s));
  }
}

int kgen_malloc(int device, void** ptr, size_t bytes) {
  *ptr = nullptr;
  return on(device, [&] { return status(cudaMalloc(ptr, bytes)); });
}
int kgen_free(int device, void* ptr) {
  return on(device, [&] { return status(cudaFree(ptr)); });
}

int kgen_memcpy_htod(int device, void* dst, const void* src, size_t bytes, void* stream) {
  return copy_and_wait(device, dst, src, bytes, cudaMemcpyHostToDevice, stream);
}
int kgen_memcpy_dtoh(int device, void* dst, const void* src, size_t bytes, void* stream) {
  return copy_and_wait(device, dst, src, bytes, cudaMemcpyDeviceToHost, stream);
}
int kgen_memcpy_dtod(int device, void* dst, const void* src, size_t bytes, void* stream) {
  return on(device, [&] {
    return status(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToDevice, stream_of(stream)));
  });
}

int kgen_host_alloc(int device, void** ptr, size_t bytes) {
  return on(device, [&] { return status(cudaHostAlloc(ptr, bytes, cudaHostAllocPortable)); });
}
int kgen_host_free(int device, void* ptr) {
  return on(device, [&] { return status(cudaFreeHost(ptr)); });
}
int kgen_memcpy_htod_async(int device, void* dst, const void* src, size_t bytes, void* stream) {
  return on(device, [&] { return status(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyHostToDevice, stream_of(stream))); });
}
int kgen_memcpy_dtoh_async(int device, void* dst, const void* src, size_t bytes, void* stream) {
  return on(device, [&] { return status(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToHost, stream_of(stream))); });
}

int kgen_fill_u32(int device, void* dst, uint32_t value, size_t count, void* stream) {
  if (count == 0) return 0;
  return on(device, [&] {
    size_t blocks = (count + 255) / 256;
    if (blocks > 65535) blocks = 65535;
    fill_u32<<<static_cast<unsigned>(blocks), 256, 0, stream_of(stream)>>>(static_cast<uint32_t*>(dst), value, count);
    return status(cudaGetLastError());
  });
}

int kgen_read_sweep_blocks(int device, size_t bytes, size_t* blocks) {
  const int sms = kgen::sm_count(device);
  if (sms < 1) return query_failed();
  // 8 blocks of 256 threads per SM (a harness on an H100 read 32 MiB to
  // 128 MiB fastest so: bench/results/h100-2026-11-24-session7.md), no
  // more blocks than there are 16-byte words, at least one.
  size_t b = (bytes / 16 + 255) / 256;
  if (b > 8 * static_cast<size_t>(sms)) b = 8 * static_cast<size_t>(sms);
  *blocks = b < 1 ? 1 : b;
  return 0;
}

int kgen_read_sweep(int device, const void* src, size_t bytes, uint32_t* sink, size_t sink_words, void* stream) {
  if (reinterpret_cast<uintptr_t>(src) % 16 != 0) return status(cudaErrorInvalidValue);  // Go checks first, with a message
  if (bytes == 0) return 0;
  return on(device, [&] {
    size_t blocks = 0;
    int r = kgen_read_sweep_blocks(device, bytes, &blocks);
    if (r != 0) return r;
    const int major = kgen::cc_major(device);
    if (major < 1) return query_failed();
    if (sink_words < blocks) return status(cudaErrorInvalidValue);  // Go sizes the sink by kgen_read_sweep_blocks
    // The kernel waits on sm_90 and later only: start it early there.
    return status(kgen::launch_maybe_early(major >= 9, read_sweep, dim3(static_cast<unsigned>(blocks)), dim3(256), 0,
                                           stream_of(stream), static_cast<const uint4*>(src), bytes / 16,
                                           static_cast<int>(bytes % 16), sink));
  });
}

int kgen_pointer_device(const void* ptr, int* device) {
  *device = -1;
  cudaPointerAttributes a;
  int s = status(cudaPointerGetAttributes(&a, ptr));
  if (s != 0) {
    cudaGetLastError();  // not a sticky error: clear it so that the next call does not report it
    return s;
  }
  if (a.type == cudaMemoryTypeDevice || a.type == cudaMemoryTypeManaged) *device = a.device;
  return 0;
}

int kgen_stream_create(int device, void** stream) {
  *stream = nullptr;
  return on(device, [&] {
    cudaStream_t s = nullptr;
    int r = status(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    *stream = s;
    return r;
  });
}
int kgen_stream_destroy(int device, void* stream) {
  return on(device, [&] { return status(cudaStreamDestroy(stream_of(stream))); });
}
int kgen_stream_synchronize(int device, void* stream) {
  return on(device, [&] { return status(cudaStreamSynchronize(stream_of(stream))); });
}

int kgen_stream_begin_capture(int device, void* stream) {
  return on(device, [&] { return status(cudaStreamBeginCapture(stream_of(stream), cudaStreamCaptureModeRelaxed)); });
}
int kgen_stream_end_capture(int device, void* stream, void** exec) {
  *exec = nullptr;
  return on(device, [&] {
    cudaGraph_t g = nullptr;
    int r = status(cudaStreamEndCapture(stream_of(stream), &g));
    if (r != 0) {
      if (g != nullptr) cudaGraphDestroy(g);
      // A launch refused during capture leaves its error as the thread's
      // last error, which the next kernel launch's cudaGetLastError would
      // report as its own: the capture failed, the stream is usable again.
      (void)cudaGetLastError();
      return r;
    }
    cudaGraphExec_t e = nullptr;
    r = status(cudaGraphInstantiateWithFlags(&e, g, 0));
    cudaGraphDestroy(g);
    *exec = e;
    return r;
  });
}
int kgen_stream_capturing(int device, void* stream, int* capturing) {
  *capturing = 0;
  return on(device, [&] {
    cudaStreamCaptureStatus st = cudaStreamCaptureStatusNone;
    const int r = status(cudaStreamIsCapturing(stream_of(stream), &st));
    *capturing = st != cudaStreamCaptureStatusNone;
    return r;
  });
}
int kgen_graph_launch(int device, void* exec, void* stream) {
  return on(device, [&] { return status(cudaGraphLaunch(static_cast<cudaGraphExec_t>(exec), stream_of(stream))); });
}
int kgen_graph_exec_destroy(int device, void* exec) {
  return on(device, [&] { return status(cudaGraphExecDestroy(static_cast<cudaGraphExec_t>(exec))); });
}
int kgen_capture_scratch(int device, void* stream, size_t bytes, void** ptr) {
  *ptr = nullptr;
  return on(device, [&] {
    kgen::Scratch s;
    const int r = kgen::scratch_for(stream_of(stream), 0, bytes, &s, /*captured_only=*/true);
    if (r == 0) *ptr = s.body;
    return r;
  });
}

int kgen_event_create(int device, void** event) {
  *event = nullptr;
  return on(device, [&] {
    cudaEvent_t e = nullptr;
    int r = status(cudaEventCreate(&e));
    *event = e;
    return r;
  });
}
int kgen_event_destroy(int device, void* event) {
  return on(device, [&] { return status(cudaEventDestroy(event_of(event))); });
}
int kgen_event_record(int device, void* event, void* stream) {
  return on(device, [&] { return status(cudaEventRecord(event_of(event), stream_of(stream))); });
}
int kgen_event_synchronize(int device, void* event) {
  return on(device, [&] { return status(cudaEventSynchronize(event_of(event))); });
}
int kgen_event_query(int device, void* event, int* done) {
  *done = 0;
  return on(device, [&] {
    const cudaError_t e = cudaEventQuery(event_of(event));
    if (e == cudaErrorNotReady) {
      // Not an error: the work before the event is still queued. Clear it
      // from this thread's last error so the next launch check does not
      // report it.
      if (cudaPeekAtLastError() == cudaErrorNotReady) (void)cudaGetLastError();
      return 0;
    }
    *done = e == cudaSuccess;
    return status(e);
  });
}
int kgen_event_elapsed_ms(int device, float* ms, void* start, void* end) {
  *ms = 0;
  return on(device, [&] { return status(cudaEventElapsedTime(ms, event_of(start), event_of(end))); });
}

}  // extern "C"

#define KGEN_STR2(x) #x
#define KGEN_STR(x) KGEN_STR2(x)

extern "C" const char* kgen_build_toolkit(void) {
  return KGEN_STR(__CUDACC_VER_MAJOR__) "." KGEN_STR(__CUDACC_VER_MINOR__) "." KGEN_STR(__CUDACC_VER_BUILD__);
}
