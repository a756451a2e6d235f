// Implementation of kgen_runtime.h over the CUDA runtime API.
#include <cuda_runtime.h>

#include <cstring>

#include "kernels/runtime/kgen_runtime.h"

namespace {

int status(cudaError_t e) { return static_cast<int>(e); }

__global__ void fill_u32(uint32_t* dst, uint32_t value, size_t count) {
  for (size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x; i < count;
       i += static_cast<size_t>(gridDim.x) * blockDim.x) {
    dst[i] = value;
  }
}

int attr(int* out, cudaDeviceAttr a, int device) { return status(cudaDeviceGetAttribute(out, a, device)); }

}  // namespace

extern "C" {

int kgen_device_count(int* count) {
  *count = 0;
  return status(cudaGetDeviceCount(count));
}

int kgen_device_info_get(int device, kgen_device_info* info) {
  std::memset(info, 0, sizeof(*info));
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
  if ((s = status(cudaDriverGetVersion(&info->driver_version))) != 0) return s;
  return status(cudaRuntimeGetVersion(&info->runtime_version));
}

int kgen_set_device(int device) { return status(cudaSetDevice(device)); }
int kgen_device_synchronize(void) { return status(cudaDeviceSynchronize()); }

const char* kgen_error_name(int s) {
  switch (s) {
    case KGEN_ERR_NEGATIVE_DIM: return "KGEN_ERR_NEGATIVE_DIM";
    case KGEN_ERR_LEADING_DIM: return "KGEN_ERR_LEADING_DIM";
    case KGEN_ERR_NULL_POINTER: return "KGEN_ERR_NULL_POINTER";
    case KGEN_ERR_GRID_TOO_LARGE: return "KGEN_ERR_GRID_TOO_LARGE";
    default: return s < 0 ? "KGEN_ERR_UNKNOWN" : cudaGetErrorName(static_cast<cudaError_t>(s));
  }
}

const char* kgen_error_string(int s) {
  switch (s) {
    case KGEN_ERR_NEGATIVE_DIM: return "a dimension is negative";
    case KGEN_ERR_LEADING_DIM: return "a leading dimension is smaller than the stored row length";
    case KGEN_ERR_NULL_POINTER: return "a matrix pointer is NULL";
    case KGEN_ERR_GRID_TOO_LARGE: return "the problem needs more blocks than one grid holds";
    default: return s < 0 ? "unknown kgen status" : cudaGetErrorString(static_cast<cudaError_t>(s));
  }
}

int kgen_malloc(void** ptr, size_t bytes) {
  *ptr = nullptr;
  return status(cudaMalloc(ptr, bytes));
}
int kgen_free(void* ptr) { return status(cudaFree(ptr)); }

int kgen_memcpy_htod(void* dst, const void* src, size_t bytes, void* stream) {
  cudaStream_t s = static_cast<cudaStream_t>(stream);
  int r = status(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyHostToDevice, s));
  return r != 0 ? r : status(cudaStreamSynchronize(s));
}
int kgen_memcpy_dtoh(void* dst, const void* src, size_t bytes, void* stream) {
  cudaStream_t s = static_cast<cudaStream_t>(stream);
  int r = status(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToHost, s));
  return r != 0 ? r : status(cudaStreamSynchronize(s));
}
int kgen_memcpy_dtod(void* dst, const void* src, size_t bytes, void* stream) {
  return status(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToDevice, static_cast<cudaStream_t>(stream)));
}

int kgen_fill_u32(void* dst, uint32_t value, size_t count, void* stream) {
  if (count == 0) return 0;
  size_t blocks = (count + 255) / 256;
  if (blocks > 65535) blocks = 65535;
  fill_u32<<<static_cast<unsigned>(blocks), 256, 0, static_cast<cudaStream_t>(stream)>>>(
      static_cast<uint32_t*>(dst), value, count);
  return status(cudaGetLastError());
}

int kgen_stream_create(void** stream) {
  cudaStream_t s = nullptr;
  int r = status(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  *stream = s;
  return r;
}
int kgen_stream_destroy(void* stream) { return status(cudaStreamDestroy(static_cast<cudaStream_t>(stream))); }
int kgen_stream_synchronize(void* stream) {
  return status(cudaStreamSynchronize(static_cast<cudaStream_t>(stream)));
}

int kgen_event_create(void** event) {
  cudaEvent_t e = nullptr;
  int r = status(cudaEventCreate(&e));
  *event = e;
  return r;
}
int kgen_event_destroy(void* event) { return status(cudaEventDestroy(static_cast<cudaEvent_t>(event))); }
int kgen_event_record(void* event, void* stream) {
  return status(cudaEventRecord(static_cast<cudaEvent_t>(event), static_cast<cudaStream_t>(stream)));
}
int kgen_event_synchronize(void* event) { return status(cudaEventSynchronize(static_cast<cudaEvent_t>(event))); }
int kgen_event_elapsed_ms(float* ms, void* start, void* end) {
  return status(cudaEventElapsedTime(ms, static_cast<cudaEvent_t>(start), static_cast<cudaEvent_t>(end)));
}

}  // extern "C"
