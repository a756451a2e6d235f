// Device scratch memory for split-K launches, safe under CUDA graph capture.
//
// A split-K launch needs memory of its own for partial sums and arrival
// tickets. Launches run eagerly share one buffer per (device, stream):
// launches on one stream never overlap, launches on two streams may. A
// launch captured into a graph gets a buffer per (capture, stream) instead,
// owned by the graph: a graph may be replayed on any stream, next to eager
// work on the stream it was captured from, and long after that stream's
// buffer has grown. The graph holds the buffer through a CUDA user object;
// when the graph and its executables are gone, the buffer returns to a pool
// that later captures draw from.
//
// Capture needs care because the stream must not be queried in ways capture
// forbids: cudaStreamGetId invalidates a capture (measured on an H100, CUDA
// 13.0), so a captured launch is keyed by its capture's id
// (cudaStreamGetCaptureInfo, which capture allows). A buffer first needed
// during capture is allocated with the thread's capture mode relaxed for that
// one cudaMalloc, and its head zeroed by a memset node captured before the
// launch, so every replay starts from zeroed tickets.
//
// Eager buffers grow by doubling and are never freed: a kernel in flight may
// still use an old one, and freeing would synchronize the device.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <map>
#include <mutex>
#include <thread>
#include <tuple>
#include <vector>

#include "kgen/launch.cuh"

namespace kgen {

// Scratch is one launch's memory: a head that reads zero at the start of
// every launch (tickets: each launch leaves them zero again) and a body.
struct Scratch {
  void* head = nullptr;
  void* body = nullptr;
  size_t head_bytes = 0, body_bytes = 0;
};

namespace scratch_detail {

// Key names a buffer: the device; whether it serves a capture; the stream's
// id (CUDA 12: cudaStreamGetId, else its handle) or the capture's id; the
// stream handle for a capture (several streams may join one capture); the
// host thread for the default streams, since the per-thread default stream
// is a different stream in each thread.
using Key = std::tuple<int, bool, uint64_t, uintptr_t, std::thread::id>;

// Block is a capture's buffer, as the graph's destructor hands it back.
struct Block {
  Key key;
  int device;
  void* mem;
  size_t bytes;
};

struct State {
  std::mutex mu;  // held while a buffer is looked up or made
  std::map<Key, Scratch> live;
  std::vector<Block> pool;  // buffers of destroyed graphs, free to reuse
  // Blocks whose graphs were destroyed, from CUDA's destructor thread. Its
  // own lock, never held across a CUDA call, so a destructor cannot wait on
  // a thread that waits on CUDA.
  std::mutex retired_mu;
  std::vector<Block*> retired;
};

inline State& state() {
  static auto* s = new State;  // never destroyed: no CUDA calls at exit
  return *s;
}

// retire is the user object's destructor: it must not call CUDA.
inline void CUDART_CB retire(void* p) {
  State& s = state();
  std::lock_guard<std::mutex> lock(s.retired_mu);
  s.retired.push_back(static_cast<Block*>(p));
}

// collect moves retired blocks to the pool and forgets their keys. Called
// with s.mu held.
inline void collect(State& s) {
  std::vector<Block*> done;
  {
    std::lock_guard<std::mutex> lock(s.retired_mu);
    done.swap(s.retired);
  }
  for (Block* b : done) {
    auto it = s.live.find(b->key);
    if (it != s.live.end() && it->second.head == b->mem) s.live.erase(it);
    s.pool.push_back(*b);
    delete b;
  }
}

inline cudaError_t capture_info(cudaStream_t stream, cudaStreamCaptureStatus* cs, unsigned long long* id,
                                cudaGraph_t* graph) {
#if CUDART_VERSION >= 12000
  return cudaStreamGetCaptureInfo(stream, cs, id, graph);
#else
  return cudaStreamGetCaptureInfo_v2(stream, cs, id, graph);
#endif
}

// malloc_relaxed is cudaMalloc with the calling thread's capture mode
// relaxed, so that it is allowed while a stream captures in global mode.
inline cudaError_t malloc_relaxed(void** mem, size_t bytes) {
  cudaStreamCaptureMode mode = cudaStreamCaptureModeRelaxed;
  cudaError_t err = cudaThreadExchangeStreamCaptureMode(&mode);
  if (err != cudaSuccess) return err;
  err = cudaMalloc(mem, bytes);
  cudaThreadExchangeStreamCaptureMode(&mode);
  return err;
}

// captured_block returns a buffer of at least bytes for a capture into graph,
// from the pool or new, and hands the graph a reference that returns it to
// the pool when the graph is gone.
inline cudaError_t captured_block(State& s, const Key& key, int device, size_t bytes, cudaGraph_t graph, void** mem) {
  Block b{key, device, nullptr, 0};
  for (size_t i = 0; i < s.pool.size(); ++i) {
    if (s.pool[i].device == device && s.pool[i].bytes >= bytes) {
      b.mem = s.pool[i].mem, b.bytes = s.pool[i].bytes;
      s.pool.erase(s.pool.begin() + static_cast<std::ptrdiff_t>(i));
      break;
    }
  }
  if (b.mem == nullptr) {
    cudaError_t err = malloc_relaxed(&b.mem, bytes);
    if (err != cudaSuccess) return err;
    b.bytes = bytes;
  }
  auto* owned = new Block(b);
  cudaUserObject_t obj;
  cudaError_t err = cudaUserObjectCreate(&obj, owned, retire, 1, cudaUserObjectNoDestructorSync);
  if (err != cudaSuccess) {
    delete owned;
    s.pool.push_back(b);
    return err;
  }
  err = cudaGraphRetainUserObject(graph, obj, 1, cudaGraphUserObjectMove);
  if (err != cudaSuccess) {
    cudaUserObjectRelease(obj, 1);  // runs retire: the block goes back to the pool
    return err;
  }
  *mem = b.mem;
  return cudaSuccess;
}

}  // namespace scratch_detail

// scratch_for returns memory for a split-K launch on stream (current device)
// with a head of at least head_bytes that reads zero when the launch starts
// and a body of at least body_bytes. It returns KGEN_OK (0) or a
// cudaError_t. The body starts 256-byte aligned. With captured_only, a
// stream that is not capturing gets an empty Scratch (a caller that keeps its
// own buffer for eager launches, go/gemm's Engine).
inline int scratch_for(cudaStream_t stream, size_t head_bytes, size_t body_bytes, Scratch* out,
                       bool captured_only = false) {
  using namespace scratch_detail;
  int device = 0;
  cudaError_t err = cudaGetDevice(&device);
  if (err != cudaSuccess) return static_cast<int>(err);
  cudaStreamCaptureStatus cs = cudaStreamCaptureStatusNone;
  unsigned long long capture = 0;
  cudaGraph_t graph = nullptr;
  err = capture_info(stream, &cs, &capture, &graph);
  if (err != cudaSuccess) return static_cast<int>(err);
  if (cs == cudaStreamCaptureStatusInvalidated) return static_cast<int>(cudaErrorStreamCaptureInvalidated);
  const bool captured = cs == cudaStreamCaptureStatusActive;
  if (captured_only && !captured) {
    *out = Scratch{};
    return 0;
  }
  const bool per_thread = stream == nullptr || stream == cudaStreamLegacy || stream == cudaStreamPerThread;
  uint64_t id = captured ? capture : reinterpret_cast<uintptr_t>(stream);
#if CUDART_VERSION >= 12000
  unsigned long long sid = 0;
  if (!captured && !per_thread && cudaStreamGetId(stream, &sid) == cudaSuccess) id = sid | (1ull << 63);
#endif
  const Key key{device, captured, id, captured ? reinterpret_cast<uintptr_t>(stream) : 0,
                per_thread ? std::this_thread::get_id() : std::thread::id()};
  State& s = state();
  std::lock_guard<std::mutex> lock(s.mu);
  collect(s);
  Scratch& w = s.live[key];
  if (w.head_bytes >= head_bytes && w.body_bytes >= body_bytes) {
    *out = w;
    return 0;
  }
  // Grow by doubling; the head rounds to 256 bytes so the body stays aligned.
  const size_t head = ((head_bytes > 2 * w.head_bytes ? head_bytes : 2 * w.head_bytes) + 255) / 256 * 256;
  const size_t body = body_bytes > 2 * w.body_bytes ? body_bytes : 2 * w.body_bytes;
  void* mem = nullptr;
  if (captured) {
    err = captured_block(s, key, device, head + body, graph, &mem);
  } else {
    const bool pools = device_attribute<cudaDevAttrMemoryPoolsSupported>(device) > 0;
    err = pools ? cudaMallocAsync(&mem, head + body, stream) : cudaMalloc(&mem, head + body);
  }
  if (err != cudaSuccess) return static_cast<int>(err);
  if (head > 0) {
    err = cudaMemsetAsync(mem, 0, head, stream);  // in a capture: a memset node, run by every replay
    if (err != cudaSuccess) return static_cast<int>(err);
  }
  w.head = mem;
  w.body = static_cast<char*>(mem) + head;
  w.head_bytes = head;
  w.body_bytes = body;
  *out = w;
  return 0;
}

}  // namespace kgen
