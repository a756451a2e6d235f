// Harness (session 29): stream-K for the 128x128x16 tile (kgen::sgemm::launch_stream, Config's TAIL kTailStream)
// against the same tile whole and with its last wave split in clusters, and cuBLAS. A one-wave problem leaves
// multiprocessors short: 1536^3's 144 tiles of 128x128 fill 144 of an H100's 264 block slots (two an SM); whole tiles
// cannot balance that, and splits of whole tiles (the tail clusters, split-K) only move the quantisation. Stream-K
// gives each of G resident blocks an equal share of the tiles' (tile, k tile) iterations (kgen/sgemm.cuh says how).
//
// Variants, the tile by column in rows_zigzag (the ring of the spec's 128x128x16 tiles: mbarriers but in tn):
//   dp            every tile whole (one block each)
//   dp tail       the tail instance: the last partial wave split in clusters where kgen::tail_plan says
//   sk            the stream-K instance: every tile, or those of the last partial wave after the others whole,
//                 where they fill at most 7/8 of the GPU; else as dp
// Calls 1-3 of session 29 ran this harness's prototype (e2d8ded: its own kernel, the block that starts a tile owning
// it); sgemm_stream_ab.cu runs that against the library's.
// Stream-K takes whole tiles and k tiles only (M, N multiples of 128, K of 16). One layout per build (-DLAYOUT 0-3: nn nt tn tt); every variant checked against cuBLAS first (largest
// difference relative to the largest |C|, C poisoned with NaNs before), then timed in interleaved rounds
// (bench/harness/timing.h) over operand sets rotated past the 50 MB L2. CSV: layout,M,N,K,variant,ms,graph_ms,
// x_cublas,reldiff. Shapes from the first argument; a second argument "check" only checks (compute-sanitizer).
// Build on the GPU machine from the repository root (bench/harness/sgemm_stream.sh builds and runs every layout):
//   nvcc -O3 -std=c++17 -DKGEN_ARCH=sm90 -DLAYOUT=1 -I kernels/include -I . \
//     -gencode=arch=compute_90,code=sm_90 -o /tmp/sgemm_stream bench/harness/sgemm_stream.cu -lcublas
#include <string.h>

#include <vector>

#include "bench/harness/sgemm_harness.h"

using kgen::Order;

// The spec's 128x128x16 tile by column in rows_zigzag, tail T (kgen::sgemm::kTailWhole, kTailCluster, kTailStream).
template <int T>
using Big = kgen::sgemm::Config<128, 128, 16, 32, 64, 8, 8, 1, true, kA, kB, 3, 1, 1, 1, false, false, kRing, T>;
using K = Big<kgen::sgemm::kTailWhole>;

using V = Variant;

static std::vector<V> variants() {
  return {
      V{"dp", kgen::sgemm::launch<K>, kgen::workspace_bytes<K>},
      V{"dp tail", kgen::sgemm::launch<Big<kgen::sgemm::kTailCluster>>, kgen::workspace_bytes<Big<kgen::sgemm::kTailCluster>>},
      V{"sk", kgen::sgemm::launch<Big<kgen::sgemm::kTailStream>>, kgen::workspace_bytes<Big<kgen::sgemm::kTailStream>>},
  };
}

int main(int argc, char** argv) {
  using S = Big<kgen::sgemm::kTailStream>;
  CK(kgen::sgemm::prepare<S>());
  int dev = 0;
  CK(cudaGetDevice(&dev));
  printf("# %s: %d SMs, %d blocks of the stream kernel an SM\n", kLayout, kgen::sm_count(dev),
         kgen::blocks_per_sm<kgen::sgemm::StreamKey<S>>(dev, kgen::sgemm::stream_kernel<S>, S::kThreads, S::kSmemBytes));
  const std::vector<V> vs = variants();
  return run_shapes(argc, argv, vs.data(), static_cast<int>(vs.size()), 9, no_extra);
}
