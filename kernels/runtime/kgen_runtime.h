/* kgen's CUDA runtime shim: the few runtime calls the Go libraries need,
   behind a plain-C API with no CUDA types, so that cgo never includes CUDA
   headers (and so never depends on which toolkit's headers are installed).
   Every function returns a status from kgen_status.h.

   Every function that works on a device takes its ordinal first and makes it
   current itself, inside the one C call: a goroutine can move to another OS
   thread between two cgo calls, so a separate "set device" call would leave
   the work on whatever device that other thread has current. */
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
  int memory_clock_khz;       /* peak memory clock; 0 where the runtime no longer reports it */
  int memory_bus_bits;        /* global memory bus width */
} kgen_device_info;

int kgen_device_count(int* count);
/* Also makes the device current, so that a device that cannot be used fails here. */
int kgen_device_info_get(int device, kgen_device_info* info);
int kgen_device_synchronize(int device);
const char* kgen_error_name(int status);
const char* kgen_error_string(int status);

int kgen_malloc(int device, void** ptr, size_t bytes);
int kgen_free(int device, void* ptr);
/* The host copies wait for the copy; stream NULL is the device's default stream. */
int kgen_memcpy_htod(int device, void* dst, const void* src, size_t bytes, void* stream);
int kgen_memcpy_dtoh(int device, void* dst, const void* src, size_t bytes, void* stream);
int kgen_memcpy_dtod(int device, void* dst, const void* src, size_t bytes, void* stream);
/* kgen_fill_u32 writes value to count 32-bit words: used to poison outputs with NaN. */
int kgen_fill_u32(int device, void* dst, uint32_t value, size_t count, void* stream);
/* kgen_read_sweep reads bytes of device memory at src (16-byte aligned, else
   cudaErrorInvalidValue) with every SM, as fast as a kernel can stream
   memory: the bench's read ceiling. Block b of the sweep stores the XOR of
   the 32-bit little-endian words it read (the last one zero-padded) in
   sink[b], a device array of sink_words words, at least the blocks that
   kgen_read_sweep_blocks gives for bytes (else cudaErrorInvalidValue); the
   XOR of sink's words, zeroed before, is the XOR of all the words. */
int kgen_read_sweep_blocks(int device, size_t bytes, size_t* blocks);
int kgen_read_sweep(int device, const void* src, size_t bytes, uint32_t* sink, size_t sink_words, void* stream);
/* The device whose memory ptr points into, or -1 for memory that is not device memory. */
int kgen_pointer_device(const void* ptr, int* device);

int kgen_stream_create(int device, void** stream);
int kgen_stream_destroy(int device, void* stream);
int kgen_stream_synchronize(int device, void* stream);

int kgen_event_create(int device, void** event);
int kgen_event_destroy(int device, void* event);
int kgen_event_record(int device, void* event, void* stream);
int kgen_event_synchronize(int device, void* event);
/* *done = 1 when the device has passed the event's work (or it was never
   recorded), 0 while it is queued; does not wait. */
int kgen_event_query(int device, void* event, int* done);
int kgen_event_elapsed_ms(int device, float* ms, void* start, void* end);

/* CUDA graphs, for timing short kernels without launch overhead. Capture
   runs in relaxed mode: the goroutine that captures may move to another OS
   thread between cgo calls, which the global and thread-local modes would
   take for a race. kgen_stream_end_capture always ends the capture (so the
   stream is usable again) and instantiates what it caught into *exec; the
   graph itself is freed before it returns. */
int kgen_stream_begin_capture(int device, void* stream);
int kgen_stream_end_capture(int device, void* stream, void** exec);
/* *capturing = 1 while stream is being captured into a graph (or its
   capture was invalidated and not yet ended), else 0. */
int kgen_stream_capturing(int device, void* stream, int* capturing);
int kgen_graph_launch(int device, void* exec, void* stream);
int kgen_graph_exec_destroy(int device, void* exec);
/* Scratch memory for a split-K launch that stream is capturing into a graph
   (kgen/scratch.cuh): *ptr gets at least bytes of device memory, 256-byte
   aligned, that the graph owns (it returns to a pool when the graph and its
   executables are destroyed), or NULL when stream is not capturing. */
int kgen_capture_scratch(int device, void* stream, size_t bytes, void** ptr);

/* Page-locked host memory, which copies to and from the device read and
   write directly (and asynchronously); device only selects the context. */
int kgen_host_alloc(int device, void** ptr, size_t bytes);
int kgen_host_free(int device, void* ptr);
/* Copies that are queued on stream and return at once; the host side must
   be page-locked (kgen_host_alloc) and stay untouched until the stream gets
   there. */
int kgen_memcpy_htod_async(int device, void* dst, const void* src, size_t bytes, void* stream);
int kgen_memcpy_dtoh_async(int device, void* dst, const void* src, size_t bytes, void* stream);

/* The CUDA toolkit that compiled kgen's runtime and kernels, from nvcc's own
   macros: "11.8.89". Needs no device. */
const char* kgen_build_toolkit(void);

#ifdef __cplusplus
}
#endif

#endif
