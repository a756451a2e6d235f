// Host tests for kgen::sgemm::store_c_shifted (kernels/include/kgen/sgemm.cuh); they need no GPU.
//
// The function runs here as the host compiles it: the same code as in the kernels but for the lane and the
// shuffle, which it takes from host_warp, defined below to emulate a warp. Each warp of a block runs twice, lane by
// lane: the first pass records what every lane passes to its neighbour (what a lane sends never depends on what it
// receives), the second returns each lane those values and stores C. For tiles of every thread layout that stores
// C this way (threads 8 columns wide: 8x8 with lanes by rows, columns and row pairs, 4x8; and 8x4 and 8x16), every
// 16-byte misalignment of C's rows, odd leading dimensions, tiles cut by M and N, tiles moved inside the matrix
// (only their own rows and columns stored), and beta 0 (C holding NaN, which must not be read) or not:
//   - every element of the block's part of C holds alpha * acc + beta * C, computed as the kernel does;
//   - every other element, guard bands around C included, is untouched;
//   - each element is stored once, and every float4 store is 16-byte aligned;
//   - a warp's row takes 4-byte stores only before its first 16-byte boundary and after its last.
//
// Build and run: kernels/tests/run_host_test.sh sgemm_host_test. Prints "N passed, M failed" and exits 1 when M > 0.
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <algorithm>
#include <string>
#include <vector>

#include "kernels/tests/host_check.h"
#include "kgen/sgemm.cuh"

namespace kgen {
namespace sgemm {
namespace host_warp {

// The emulated warp: the lane running, the pass, and per lane what its shuffles passed, in call order.
int g_lane = 0;
bool g_recording = true;
std::vector<float> g_sent[32];
size_t g_calls = 0;  // the running lane's shuffles so far in the second pass
// The stores of the second pass: each element's count, the 4-byte stores, and the float4 stores not 16-byte
// aligned.
std::vector<int>* g_counts = nullptr;
const float* g_base = nullptr;
int g_narrow = 0, g_misaligned = 0;

int lane() { return g_lane; }

float shfl(float v, int src) {
  if (g_recording) {
    g_sent[g_lane].push_back(v);
    return 0.0f;
  }
  return g_sent[src].at(g_calls++);
}

void stored(const float* p, int width) {
  if (g_recording) return;
  if (width == 4 && reinterpret_cast<uintptr_t>(p) % 16 != 0) ++g_misaligned;
  if (width == 1) ++g_narrow;
  for (int j = 0; j < width; ++j) ++(*g_counts)[p + j - g_base];
}

}  // namespace host_warp
}  // namespace sgemm
}  // namespace kgen

namespace {

namespace sg = kgen::sgemm;
namespace hw = kgen::sgemm::host_warp;

using host_check::check;

// Case is one block's store: C of rows x cols floats, rows ld apart, starting off floats past a 16-byte boundary;
// the block's tile computed at (tm0, tn0) and its own part from (m0, n0) on (moved: m0 > tm0 or n0 > tn0).
struct Case {
  int rows, cols, ld, off;
  int tm0, tn0, m0, n0;
  float alpha, beta;
};

std::string fmt_case(const Case& cs) {
  char b[200];
  snprintf(b, sizeof b, " C %dx%d ld %d off %d, tile at (%d, %d), own from (%d, %d), alpha %g beta %g", cs.rows,
           cs.cols, cs.ld, cs.off, cs.tm0, cs.tn0, cs.m0, cs.n0, cs.alpha, cs.beta);
  return b;
}

// tile_value is the accumulator of the tile's element (r, c): distinct and exact in fp32.
float tile_value(int r, int c) { return 1.0f + static_cast<float>(r) * 512.0f + static_cast<float>(c); }

// old_value is C's element at flat index i before the store (beta != 0).
float old_value(size_t i) { return -0.5f * static_cast<float>(i % 1000); }

template <class K>
void run_case(const char* name, const Case& cs) {
  constexpr int kGuard = 64;  // floats before and after C
  const size_t span = static_cast<size_t>(cs.rows - 1) * cs.ld + cs.cols;
  // A buffer 16-byte aligned at its start: C begins kGuard + off floats in.
  std::vector<float4> raw((span + 2 * kGuard + 8) / 4 + 1);
  float* const buf = reinterpret_cast<float*>(raw.data());
  const size_t total = raw.size() * 4;
  float* const C = buf + kGuard + cs.off;
  for (size_t i = 0; i < total; ++i) buf[i] = cs.beta != 0.0f ? old_value(i) : NAN;
  const std::vector<float> before(buf, buf + total);
  std::vector<int> counts(total, 0);
  hw::g_counts = &counts;
  hw::g_base = buf;
  hw::g_narrow = hw::g_misaligned = 0;

  const int dm = cs.m0 - cs.tm0, dn = cs.n0 - cs.tn0;
  for (int warp = 0; warp < K::kThreads / 32; ++warp) {
    for (auto& s : hw::g_sent) s.clear();
    for (const bool recording : {true, false}) {
      hw::g_recording = recording;
      std::vector<float> saved;
      if (recording) saved.assign(buf, buf + total);  // the first pass's stores are undone
      for (int lane = 0; lane < 32; ++lane) {
        hw::g_lane = lane;
        hw::g_calls = 0;
        int a_off = 0, b_off = 0;
        sg::thread_offsets_of<K>(warp * 32 + lane, a_off, b_off);
        float acc[K::TM][K::TN];
        for (int i = 0; i < K::TM; ++i) {
          for (int j = 0; j < K::TN; ++j) {
            acc[i][j] = tile_value(a_off + (i / 4) * K::kGroupStrideM + i % 4,
                                   b_off + (j / 4) * K::kGroupStrideN + j % 4);
          }
        }
        sg::store_c_shifted<K>(acc, a_off - dm, b_off - dn, cs.rows - cs.m0, cs.cols - cs.n0, cs.alpha, cs.beta,
                               C + static_cast<int64_t>(cs.m0) * cs.ld + cs.n0, cs.ld);
      }
      if (recording) std::copy(saved.begin(), saved.end(), buf);
    }
  }

  // The block's own part: tile rows from dm on inside C's rows, columns likewise.
  const int r_end = std::min(cs.tm0 + K::BM, cs.rows), c_end = std::min(cs.tn0 + K::BN, cs.cols);
  int wrong = 0, untouched_changed = 0, miscounted = 0;
  for (size_t i = 0; i < total; ++i) {
    const long rel = static_cast<long>(i) - (kGuard + cs.off);
    const int r = rel >= 0 ? static_cast<int>(rel / cs.ld) : -1, c = rel >= 0 ? static_cast<int>(rel % cs.ld) : -1;
    const bool mine = rel >= 0 && r >= cs.m0 && r < r_end && c >= cs.n0 && c < c_end;
    if (mine) {
      const float v = cs.alpha * tile_value(r - cs.tm0, c - cs.tn0);
      const float want = cs.beta != 0.0f ? fmaf(cs.beta, before[i], v) : v;
      if (memcmp(&buf[i], &want, 4) != 0) ++wrong;
      if (counts[i] != 1) ++miscounted;
    } else {
      if (memcmp(&buf[i], &before[i], 4) != 0) ++untouched_changed;
      if (counts[i] != 0) ++miscounted;
    }
  }
  // 4-byte stores: at most 3 before a warp row's first boundary and 3 after its last, for each row a warp stores
  // (a warp row is WN columns; a cut or moved tile stores some of its elements one by one).
  const int warp_rows = K::BM * (K::BN / K::WN);
  const bool whole = dm == 0 && dn == 0 && r_end - cs.m0 == K::BM && c_end - cs.n0 == K::BN;
  const std::string what = std::string(name) + fmt_case(cs);
  check(wrong == 0, what + ": " + std::to_string(wrong) + " elements of the block's part wrong");
  check(untouched_changed == 0, what + ": " + std::to_string(untouched_changed) + " elements outside it changed");
  check(miscounted == 0, what + ": " + std::to_string(miscounted) + " elements stored other than once");
  check(hw::g_misaligned == 0, what + ": " + std::to_string(hw::g_misaligned) + " float4 stores not 16-byte aligned");
  if (whole) {
    check(hw::g_narrow <= 6 * warp_rows,
          what + ": " + std::to_string(hw::g_narrow) + " 4-byte stores over " + std::to_string(warp_rows) + " warp rows");
  }
}

// The block positions of one dimension for a C of n along it and tiles of t: the first tile; the last, moved
// inside (n > t) or cut (n < t); a tile in the middle.
struct Place {
  int tile0, own0;
};
std::vector<Place> places(int n, int t) {
  std::vector<Place> out{{0, 0}};
  if (n > t) {
    const int last = (n - 1) / t * t;  // the last tile's origin
    out.push_back({n - t, last});      // moved left (up) to end at n
    if (n > 2 * t) out.push_back({t, t});
  }
  return out;
}

template <class K>
void run_config(const char* name) {
  // Extents along M and N: one tile and a bit (a moved last tile), less than a tile (a cut one), several tiles.
  const int ms[] = {K::BM + 37, K::BM / 2 + 3, 2 * K::BM + 5};
  const int ns[] = {K::BN + 1, K::BN + 22, K::BN / 2 + 7, 2 * K::BN + 3};
  for (const int rows : ms) {
    for (const int cols : ns) {
      for (const int pad : {0, 1, 3}) {
        for (int off = 0; off < 4; ++off) {
          for (const Place& pm : places(rows, K::BM)) {
            for (const Place& pn : places(cols, K::BN)) {
              for (const float beta : {0.0f, 1.5f}) {
                const Case cs{rows, cols, cols + pad, off, pm.tile0, pn.tile0, pm.own0, pn.own0,
                              beta != 0.0f ? -0.75f : 1.0f, beta};
                run_case<K>(name, cs);
              }
            }
          }
        }
      }
    }
  }
}

template <int BM, int BN, int WM, int WN, int TM, int TN, int MAP>
using Cfg = sg::Config<BM, BN, 16, WM, WN, TM, TN, 1, true, kgen::Order::Row, kgen::Order::Col, 3, 1, MAP, 1>;

}  // namespace

int main() {
  run_config<Cfg<128, 128, 32, 64, 8, 8, 0>>("128x128 w32x64 t8x8 lanes by rows");
  run_config<Cfg<128, 128, 32, 64, 8, 8, 1>>("128x128 w32x64 t8x8 lanes by columns");
  run_config<Cfg<128, 128, 32, 64, 8, 8, 2>>("128x128 w32x64 t8x8 lanes by row pairs");
  run_config<Cfg<128, 64, 64, 32, 8, 8, 0>>("128x64 w64x32 t8x8");
  run_config<Cfg<64, 64, 32, 32, 4, 8, 0>>("64x64 w32x32 t4x8");
  run_config<Cfg<64, 64, 32, 32, 8, 4, 0>>("64x64 w32x32 t8x4");
  run_config<Cfg<128, 256, 64, 64, 8, 16, 0>>("128x256 w64x64 t8x16");
  return host_check::report();
}
