// Harness (session 41): does a one-wave launch lose to its blocks running in step? At 2048^3 the 128x128x16 tile runs
// 256 blocks, two an SM, all starting together: the two blocks of an SM reach their barriers and first fragment reads
// of each k tile at about the same time, where in a launch of several waves they drift apart. cuBLAS's 128x256 kernel
// (one block an SM) has no partner to collide with; kgen runs 2048^3 at 0.98x of it and 4096^3 at 1.01x. Here the
// spec's tile starts some of its blocks late by a few thousand cycles (a sleep at the top of the kernel, through an
// explicit specialisation of kgen::tile_origin for a Config of this file), so that an SM's two blocks run out of
// step: the blocks from the SM count on (blockIdx.x >= SMs, the second block of each SM where blocks are placed in
// index order) or every block that finds another of the launch already on its SM (a per-SM counter). Output as
// sgemm_mid.cu's. Build on the GPU machine from the repository root:
//   nvcc -O3 -std=c++17 -DKGEN_ARCH=sm90 -DLAYOUT=2 -I kernels/include -I . \
//     -gencode=arch=compute_90,code=sm_90 -o /tmp/desync bench/harness/sgemm_desync.cu -lcublas
#include <string.h>

#include <nv/target>

#include "bench/harness/sgemm_harness.h"

// The SM count (set once from the device's properties) and one counter of blocks started per SM.
__device__ int g_sms;
__device__ unsigned g_started[1024];

__device__ inline unsigned smid() {
  unsigned id;
  asm volatile("mov.u32 %0, %%smid;" : "=r"(id));
  return id;
}

// sleep_cycles idles the calling warp for about `cycles` SM cycles without issuing much.
__device__ inline void sleep_cycles(long long cycles) {
  const long long t0 = clock64();
  while (clock64() - t0 < cycles) __nanosleep(128);
}

// Late is the spec's 128x128x16 tile (SpecTile) whose blocks start DELAY cycles late: BY 0 from blockIdx.x >= SMs,
// BY 1 where the SM already holds a block of this launch (odd arrivals by the SM's counter).
template <int DELAY, int BY>
struct Late : SpecTile {};

template <int DELAY, int BY>
__device__ inline void start_late() {
  if (DELAY == 0) return;
  __shared__ unsigned arrival;
  if (BY == 0) {
    if (static_cast<int>(blockIdx.x) >= g_sms) sleep_cycles(DELAY);
    return;
  }
  if (threadIdx.x == 0) arrival = atomicAdd(&g_started[smid() % 1024], 1u);
  __syncthreads();
  if (arrival % 2 == 1) sleep_cycles(DELAY);
}

// kgen::tile_origin of Late: the late start first (the kernel calls it once, before any copy), then SpecTile's
// raster.
#define LATE_ORIGIN(DELAY, BY)                                                                                   \
  namespace kgen {                                                                                               \
  template <>                                                                                                    \
  __host__ __device__ inline void tile_origin<Late<DELAY, BY>>(unsigned tile, int tiles_m, int tiles_n, int& m0, \
                                                              int& n0) {                                         \
    NV_IF_TARGET(NV_IS_DEVICE, (start_late<DELAY, BY>();))                                                       \
    tile_origin<SpecTile>(tile, tiles_m, tiles_n, m0, n0);                                                       \
  }                                                                                                              \
  }

LATE_ORIGIN(0, 0)
LATE_ORIGIN(1300, 0)
LATE_ORIGIN(2600, 0)
LATE_ORIGIN(5200, 0)
LATE_ORIGIN(10400, 0)
LATE_ORIGIN(2600, 1)
LATE_ORIGIN(5200, 1)

using V = Variant;
#define LATE(name, D, B) \
  V { name, kgen::sgemm::launch<Late<D, B>>, nullptr }

static const V kVariants[] = {
    V{"128x128x16 lc fz s3 (spec)", kgen::sgemm::launch<SpecTile>, nullptr},
    LATE("late 0 (same raster)", 0, 0),
    LATE("late 1300 by index", 1300, 0),
    LATE("late 2600 by index", 2600, 0),
    LATE("late 5200 by index", 5200, 0),
    LATE("late 10400 by index", 10400, 0),
    LATE("late 2600 by SM", 2600, 1),
    LATE("late 5200 by SM", 5200, 1),
};
constexpr int kN = sizeof(kVariants) / sizeof(kVariants[0]);

int main(int argc, char** argv) {
  cudaDeviceProp prop;
  CK(cudaGetDeviceProperties(&prop, 0));
  CK(cudaMemcpyToSymbol(g_sms, &prop.multiProcessorCount, sizeof(int)));
  return run_shapes(argc, argv, kVariants, kN, 9, no_extra);
}
