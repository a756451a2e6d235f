/* kgen's CUDA runtime shim: the few runtime calls the Go libraries need,
   behind a plain-C API with no CUDA types, so that cgo never includes CUDA
   headers (and so never depends on which toolkit's headers are installed).
   Every function returns a status from kgen_status.h. */
#ifndef KGEN_RUNTIME_H
#define KGEN_RUNTIME_H

#include <stddef.h>
#include <stdint.h>

#include "kernels/runtime/kgen_status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
  char name[256];
  int major, minor;           /* compute capability */
  int multiprocessors;
  int clock_khz;              /* peak SM clock; 0 where the runtime no longer reports it */
  int l2_bytes;
  int smem_per_block_optin;   /* bytes of shared memory a block may opt in to */
  int driver_version;         /* e.g. 13000 */
  int runtime_version;
  int64_t total_memory;
} kgen_device_info;

int kgen_device_count(int* count);
int kgen_device_info_get(int device, kgen_device_info* info);
int kgen_set_device(int device);
int kgen_device_synchronize(void);
const char* kgen_error_name(int status);
const char* kgen_error_string(int status);

int kgen_malloc(void** ptr, size_t bytes);
int kgen_free(void* ptr);
int kgen_memcpy_htod(void* dst, const void* src, size_t bytes, void* stream);
int kgen_memcpy_dtoh(void* dst, const void* src, size_t bytes, void* stream);
int kgen_memcpy_dtod(void* dst, const void* src, size_t bytes, void* stream);
/* kgen_fill_u32 writes value to count 32-bit words: used to poison outputs with NaN. */
int kgen_fill_u32(void* dst, uint32_t value, size_t count, void* stream);

int kgen_stream_create(void** stream);
int kgen_stream_destroy(void* stream);
int kgen_stream_synchronize(void* stream);

int kgen_event_create(void** event);
int kgen_event_destroy(void* event);
int kgen_event_record(void* event, void* stream);
int kgen_event_synchronize(void* event);
int kgen_event_elapsed_ms(float* ms, void* start, void* end);

#ifdef __cplusplus
}
#endif

#endif
