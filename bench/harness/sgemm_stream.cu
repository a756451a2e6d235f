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

struct V {
  const char* name;
  Launch f;
  WsBytes ws;
};

static std::vector<V> variants() {
  return {
      V{"dp", kgen::sgemm::launch<K>, kgen::workspace_bytes<K>},
      V{"dp tail", kgen::sgemm::launch<Big<kgen::sgemm::kTailCluster>>, kgen::workspace_bytes<Big<kgen::sgemm::kTailCluster>>},
      V{"sk", kgen::sgemm::launch<Big<kgen::sgemm::kTailStream>>, kgen::workspace_bytes<Big<kgen::sgemm::kTailStream>>},
  };
}

static cudaStream_t g_st;

int main(int argc, char** argv) {
  if (argc < 2) {
    printf("usage: %s MxNxK[,...] [check]\n", argv[0]);
    return 2;
  }
  const bool check_only = argc > 2 && strcmp(argv[2], "check") == 0;  // no timing (compute-sanitizer)
  const CublasSgemm cublas;
  CK(cudaStreamCreateWithFlags(&g_st, cudaStreamNonBlocking));
  std::vector<GemmShape> shapes;
  if (!parse_shapes(argv[1], shapes)) {
    printf("bad shape list %s (want MxNxK,...)\n", argv[1]);
    return 2;
  }
  const std::vector<V> vs = variants();
  using S = Big<kgen::sgemm::kTailStream>;
  CK(kgen::sgemm::prepare<S>());
  int dev = 0;
  CK(cudaGetDevice(&dev));
  printf("# %s: %d SMs, %d blocks of the stream kernel an SM\n", kLayout, kgen::sm_count(dev),
         kgen::blocks_per_sm<kgen::sgemm::StreamKey<S>>(dev, kgen::sgemm::stream_kernel<S>, S::kThreads, S::kSmemBytes));
  const int n = static_cast<int>(vs.size());
  for (const GemmShape& sh : shapes) {
    const ShapeRun<V> sr(cublas, g_st, vs.data(), n, sh.M, sh.N, sh.K);
    const int M = sh.M, N = sh.N, Kd = sh.K;
    const std::vector<double> rd = sr.check();
    if (check_only) {
      for (int c = 1; c <= n; ++c) printf("%s,%d,%d,%d,%s,reldiff %.2g\n", kLayout, M, N, Kd, vs[c - 1].name, rd[c]);
      continue;
    }
    const double flop = 2.0 * M * N * static_cast<double>(Kd);
    const int reps = flop > 6e11 ? 5 : flop > 6e10 ? 10 : 30;
    const Timings t =
        time_interleaved(g_st, n + 1, 2, reps, 9, [&](size_t c, int i) { sr.run(static_cast<int>(c), i % sr.sets()); });
    printf("%s,%d,%d,%d,cublas,%.5f,%.5f,1,0\n", kLayout, M, N, Kd, t.events[0], t.graph[0]);
    for (int c = 1; c <= n; ++c) {
      printf("%s,%d,%d,%d,%s,%.5f,%.5f,%.3f,%.2g\n", kLayout, M, N, Kd, vs[c - 1].name, t.events[c], t.graph[c],
             t.events[0] / t.events[c], rd[c]);
    }
    fflush(stdout);
  }
  return 0;
}
