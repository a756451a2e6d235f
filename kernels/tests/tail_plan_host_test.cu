// Host tests for kgen::tail_plan (kernels/include/kgen/common.cuh), the launcher's plan for a launch's last, partly
// filled wave of C tiles split in clusters; they need no GPU. With the clusters a GPU of 132 multiprocessors holds
// (the occupancy API's on an H100 and an H200, bench/results/h200-2026-11-29-session38.md):
//   - the splits measured fastest, or within 5% of it: on an H200 where the tail is the whole problem (session
//     38), on an H100 behind whole tiles (sessions 27 and 28); internal/tuning's TestTailPlan holds the same cases
//     for the timing model's copy, TailPlan;
//   - over 1 to 1200 tiles of 1 to 1024 k tiles at one and two blocks an SM: only the last tiles % (SMs x blocks
//     an SM) tiles split (every tile where fewer), 2 to 8 ways, 5 and 7 only where those are every tile and one
//     round of clusters holds them;
//   - no split where the GPU's clusters are unknown, and where they are known but not how many it holds at one
//     block an SM, every round with no whole tiles before it counted as sharing multiprocessors.
//
// Build and run: kernels/tests/run_host_test.sh tail_plan_host_test. Prints "N passed, M failed" and exits 1 when
// M > 0.
#include <stdint.h>

#include <string>

#include "kernels/tests/host_check.h"
#include "kgen/common.cuh"

using host_check::check;

namespace {

constexpr int kSMs = 132;

// The occupancy API's clusters of 2 to 8 blocks on a GPU of 132 multiprocessors, at the tail kernel's two blocks
// an SM (kHeld2), at one (kHeld1, also what kgen::clusters_alone reports).
constexpr int kHeld2[kgen::kMaxClusterSplits + 1] = {0, 0, 132, 79, 62, 47, 39, 32, 30};
constexpr int kHeld1[kgen::kMaxClusterSplits + 1] = {0, 0, 66, 39, 30, 22, 17, 15, 15};
constexpr int kUnknown[kgen::kMaxClusterSplits + 1] = {-1, -1, -1, -1, -1, -1, -1, -1, -1};

kgen::TailPlan plan(int64_t tiles, int64_t k_tiles, int per_sm) {
  return kgen::tail_plan(tiles, kSMs, per_sm, k_tiles, per_sm == 1 ? kHeld1 : kHeld2, kHeld1);
}

std::string name(int64_t tiles, int64_t k_tiles, int per_sm) {
  return std::to_string(tiles) + " tiles of " + std::to_string(k_tiles) + " k tiles at " + std::to_string(per_sm) +
         " blocks an SM";
}

void measured_cases() {
  struct Case {
    int64_t tiles, k_tiles;
    int per_sm;
    int64_t tail;
    int splits;
    const char* why;
  } cases[] = {
      // The tail is every tile (session 38, H200, every split forced).
      {1, 8, 2, 1, 8, "128x128x128: 8 splits alone ran 1.85x faster than the tile whole"},
      {15, 512, 2, 15, 8, "15 clusters of 8 alone: 0.147 of the whole tiles' time"},
      {16, 512, 2, 16, 6, "16 clusters of 8 share SMs (0.271); 6 splits alone 0.192"},
      {20, 512, 2, 20, 5, "5 splits alone 0.227, 4 alone 0.280, 8 sharing 0.270"},
      {31, 512, 2, 31, 7, "7 splits sharing 0.312, 3 alone 0.374, 8 in two rounds 0.408"},
      {36, 48, 2, 36, 3, "765^3: 3 splits alone ran fastest of every instance"},
      {64, 64, 2, 64, 2, "1024^3: 2 splits alone 0.0570 ms, 3 sharing 0.0739"},
      {67, 512, 2, 67, 8, "5 splits would take two rounds (0.777); 8 take three, the last alone (0.682)"},
      {256, 128, 2, 0, 1, "2048^3: 2 rounds of 2 splits, the second of 124 clusters, no faster than whole"},
      // Behind whole tiles (sessions 27 and 28, H100).
      {4096, 512, 2, 136, 8, "8192^3: 136 tiles past 15 waves, 8 splits within 2% of the fastest"},
      {2304, 384, 2, 192, 2, "6144^3: 192 past 8 waves, 2 splits 1-4% faster than 6"},
      {1024, 256, 2, 0, 1, "4096^3: 232 past 3 waves, no split faster"},
      {1089, 257, 2, 33, 6, "4097^3: 33 past 4 waves, 6 splits in one round within 3% of the fastest"},
      // One block an SM: every block alone as it is.
      {196, 111, 1, 64, 2, "64 past a wave of 132 at one block an SM: 2 splits in one round"},
  };
  for (const Case& c : cases) {
    const kgen::TailPlan p = plan(c.tiles, c.k_tiles, c.per_sm);
    check(p.tiles == c.tail && p.splits == c.splits,
          name(c.tiles, c.k_tiles, c.per_sm) + ": planned " + std::to_string(p.tiles) + " tiles in " +
              std::to_string(p.splits) + " splits, want " + std::to_string(c.tail) + " in " +
              std::to_string(c.splits) + " (" + c.why + ")");
  }
}

void invariants() {
  for (int per_sm = 1; per_sm <= 2; ++per_sm) {
    const int* held = per_sm == 1 ? kHeld1 : kHeld2;
    for (int64_t tiles = 1; tiles <= 1200; ++tiles) {
      for (const int64_t k_tiles : {1, 2, 3, 7, 8, 16, 33, 64, 128, 257, 512, 1024}) {
        const kgen::TailPlan p = plan(tiles, k_tiles, per_sm);
        const std::string at = name(tiles, k_tiles, per_sm);
        const int64_t tail = tiles % (kSMs * per_sm);
        if (p.splits == 1) {
          check(p.tiles == 0, at + ": unsplit, yet " + std::to_string(p.tiles) + " tail tiles");
          continue;
        }
        check(p.splits >= 2 && p.splits <= kgen::kMaxClusterSplits,
              at + ": " + std::to_string(p.splits) + " splits, not 2 to 8");
        check(p.tiles == tail && tail > 0, at + ": split " + std::to_string(p.tiles) + " tiles, not the last " +
                                               std::to_string(tail));
        if (p.splits >= 5 && p.splits % 2 == 1) {
          check(tail == tiles && tail <= held[p.splits],
                at + ": " + std::to_string(p.splits) + " splits where whole tiles come first or rounds are several");
        }
      }
    }
  }
  for (const int64_t tiles : {1, 16, 64, 136, 4096}) {
    const kgen::TailPlan p = kgen::tail_plan(tiles, kSMs, 2, 512, kUnknown, kUnknown);
    check(p.splits == 1 && p.tiles == 0, name(tiles, 512, 2) + ": split with no clusters known");
  }
  // Held at one block an SM unknown: a round of 16 clusters of 8 counts as sharing, and 8 splits (two blocks an SM
  // for 64 k tiles) beat 6 (for 86).
  const kgen::TailPlan p = kgen::tail_plan(16, kSMs, 2, 512, kHeld2, kUnknown);
  check(p.tiles == 16 && p.splits == 8, "16 tiles of 512 k tiles, alone unknown: planned " +
                                            std::to_string(p.splits) + " splits, want 8 sharing SMs");
}

}  // namespace

int main() {
  measured_cases();
  invariants();
  return host_check::report();
}
