// Tests for kernels/include/kgen/hgemv_mma.cuh, hgemv_mma_s.cuh,
// hgemv_mma_t.cuh and hgemv_mma_ts.cuh (the tensor-core HGEMV, layouts N
// and T, each direct and staged through shared memory). The host part needs
// no GPU.
//
// 1. emulate_on_host for several (warps, tiles, unroll or stages, max batch)
//    configs of each (staged: every thread's copies into an image of shared
//    memory, ldmatrix gathered from it; layout T: x as the MMA's A operand,
//    the weights as B):
//    every lane through the kernel's own step loop and loads, each warp's
//    MMAs from the PTX fragment definition (mma_host, which also checks that
//    the lanes' fragments cover A and B exactly once), the kernel's
//    reduction. Against a float64 reference: m = 1 to 8; n and k of 1, 7,
//    35, 4095, 4097 and between; misaligned A, x, y and odd leading
//    dimensions (the element-by-element path); beta == 0 over a y poisoned
//    with NaN; k == 0 and alpha == 0; overflow to +-Inf; NaN inputs. Each
//    result must lie within 2^-11 |ref| + 4 sqrt(k) 2^-24 sum|terms| +
//    2^-25 of the reference, and nothing outside the m x n results may
//    change (guards, row padding), nor A or x.
// 2. The launchers' argument checks (the same codes as kgen/hgemv.cuh).
// 3. With a GPU (none is a visible skip): the same cases through launch<>()
//    on the device, against the same reference. Not bit-compared with the
//    emulation: the tensor cores' order of additions inside an MMA is not
//    specified.
//
// Build and run: kernels/tests/run_host_test.sh hgemv_mma_host_test. Prints
// "N passed, M failed" and exits 1 when M > 0.
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "kgen/hgemv_mma.cuh"
#include "kgen/hgemv_mma_s.cuh"
#include "kgen/hgemv_mma_t.cuh"
#include "kgen/hgemv_mma_ts.cuh"
#include "kernels/tests/hgemv_test_support.h"

namespace {

using kgen::hgemv::float_to_half;

using namespace hgemv_test;

enum Fill { kMixed, kOverflow, kNaN };

uint16_t random_half(std::mt19937& rng, Fill fill) {
  const uint32_t r = rng() % 1000;
  const uint16_t sign = (rng() & 1) ? 0x8000 : 0;
  if (fill == kOverflow) return float_to_half(std::uniform_real_distribution<float>(1000.f, 60000.f)(rng));
  if (r < 50) return sign;                                                // +-0
  if (r < 80) return static_cast<uint16_t>(sign | (1 + rng() % 0x3ff));  // subnormal
  if (r < 82) return static_cast<uint16_t>(sign | 0x7bff);               // +-65504
  return float_to_half(std::uniform_real_distribution<float>(-2.f, 2.f)(rng));
}

struct Case {
  int m, n, k;
  float alpha, beta;
  int a_off, x_off, y_off;  // halves past a 16-byte boundary
  int lda_pad, ldx_pad, ldy_pad;
  Fill fill;
};

std::string describe(const char* cfg, const Case& c) {
  char b[300];
  snprintf(b, sizeof(b), "%s m=%d n=%d k=%d alpha=%g beta=%g off=%d/%d/%d pad=%d/%d/%d fill=%d", cfg, c.m, c.n, c.k,
           c.alpha, c.beta, c.a_off, c.x_off, c.y_off, c.lda_pad, c.ldx_pad, c.ldy_pad, c.fill);
  return b;
}

Problem make_problem(const Case& c, bool trans, std::mt19937& rng) {
  Problem p;
  p.trans = trans;
  p.a = trans ? Buffer(c.k, c.n + c.lda_pad, c.a_off) : Buffer(c.n, c.k + c.lda_pad, c.a_off);
  p.x = Buffer(c.m, c.k + c.ldx_pad, c.x_off);
  p.y = Buffer(c.m, c.n + c.ldy_pad, c.y_off);
  for (int r = 0; r < c.n; ++r)
    for (int q = 0; q < c.k; ++q) p.a_at(r, q) = random_half(rng, c.fill);
  for (int i = 0; i < c.m; ++i)
    for (int q = 0; q < c.k; ++q) {
      uint16_t h = random_half(rng, c.fill);
      if (c.fill == kOverflow && i % 2) h |= 0x8000;  // odd vectors negative: -Inf too
      p.x.at(i, q) = h;
    }
  if (c.fill == kNaN && c.k > 0) p.a_at(c.n / 2, c.k / 2) = 0x7e00;  // one row's results are NaN
  for (int i = 0; i < c.m; ++i)
    for (int r = 0; r < c.n; ++r) p.y.at(i, r) = c.beta == 0.f ? 0x7e00 : random_half(rng, kMixed);
  p.y_before = p.y.buf;
  return p;
}

// Kern names a kernel's emulator and launcher and its layout: NKern for
// kgen/hgemv_mma.cuh (A n x k), TKern for kgen/hgemv_mma_t.cuh (A k x n).
template <class K>
struct NKern {
  static bool trans() { return false; }
  template <class... P>
  static int emulate(P... p) {
    return kgen::hgemv_mma::emulate_on_host<K>(p...);
  }
  template <class... P>
  static int launch(P... p) {
    return kgen::hgemv_mma::launch<K>(p...);
  }
};

// SKern: kgen/hgemv_mma_s.cuh (A n x k, staged through shared memory).
template <class K>
struct SKern {
  static bool trans() { return false; }
  template <class... P>
  static int emulate(P... p) {
    return kgen::hgemv_mma_s::emulate_on_host<K>(p...);
  }
  template <class... P>
  static int launch(P... p) {
    return kgen::hgemv_mma_s::launch<K>(p...);
  }
};

// TSKern: kgen/hgemv_mma_ts.cuh (A k x n, staged through shared memory).
template <class K>
struct TSKern {
  static bool trans() { return true; }
  template <class... P>
  static int emulate(P... p) {
    return kgen::hgemv_mma_ts::emulate_on_host<K>(p...);
  }
  template <class... P>
  static int launch(P... p) {
    return kgen::hgemv_mma_ts::launch<K>(p...);
  }
};

template <class K>
struct TKern {
  static bool trans() { return true; }
  template <class... P>
  static int emulate(P... p) {
    return kgen::hgemv_mma_t::emulate_on_host<K>(p...);
  }
  template <class... P>
  static int launch(P... p) {
    return kgen::hgemv_mma_t::launch<K>(p...);
  }
};

template <class Kern>
void run_case(const char* cfg, const Case& c, std::mt19937& rng) {
  Problem p = make_problem(c, Kern::trans(), rng);
  const std::vector<uint16_t> a_before = p.a.buf, x_before = p.x.buf;
  Buffer y = p.y;
  const int st = Kern::emulate(c.m, c.n, c.k, c.alpha, p.a.ptr(), p.a.ld, p.x.ptr(), p.x.ld,
                                                     c.beta, y.ptr(), y.ld);
  std::string why;
  bool ok = st == KGEN_OK && verify(c, p, y.buf, &why) && p.a.buf == a_before && p.x.buf == x_before;
  if (st != KGEN_OK) why = "status " + std::to_string(st);
  check(ok, describe(cfg, c) + ": " + why);
  if (!g_gpu) return;
  DeviceBuffer da(p.a), dx(p.x), dy(p.y);
  const int sd = Kern::launch(c.m, c.n, c.k, c.alpha, da.ptr(), p.a.ld, dx.ptr(), p.x.ld, c.beta,
                                            dy.ptr(), p.y.ld, nullptr);
  const cudaError_t e = cudaDeviceSynchronize();
  why.clear();
  ok = sd == KGEN_OK && e == cudaSuccess && verify(c, p, dy.read(p.y), &why);
  if (sd != KGEN_OK || e != cudaSuccess) why = "device status " + std::to_string(sd) + "/" + std::to_string(e);
  check(ok, std::string("GPU ") + describe(cfg, c) + ": " + why);
}

template <class Kern>
void test_config(const char* cfg, std::mt19937& rng) {
  // {m, n, k, alpha, beta, a_off, x_off, y_off, lda_pad, ldx_pad, ldy_pad, fill}
  const Case cases[] = {
      {1, 1, 1, 1.f, 0.f, 0, 0, 0, 0, 0, 0, kMixed},
      {3, 7, 7, 1.f, 0.f, 0, 0, 0, 0, 0, 0, kMixed},
      {8, 35, 35, 1.f, 0.5f, 0, 0, 0, 0, 0, 0, kMixed},
      {1, 7, 4097, 1.f, 0.f, 0, 0, 0, 0, 0, 0, kMixed},
      {8, 35, 4095, 0.75f, 0.f, 0, 0, 0, 1, 3, 5, kMixed},
      {8, 1, 4097, 1.f, 1.f, 0, 0, 0, 0, 0, 0, kMixed},
      {8, 4097, 7, 1.f, 0.f, 0, 0, 0, 0, 0, 0, kMixed},
      {2, 4095, 35, -1.5f, 0.5f, 0, 0, 0, 0, 0, 0, kMixed},
      {4, 33, 4096, 1.f, 0.f, 0, 0, 0, 0, 0, 0, kMixed},
      {5, 64, 2048, 1.f, 0.f, 0, 0, 0, 8, 8, 0, kMixed},
      {6, 100, 1000, 0.5f, -1.25f, 0, 0, 0, 0, 0, 0, kMixed},
      {7, 129, 777, 1.f, 0.f, 0, 0, 0, 0, 0, 0, kMixed},
      // Every batch size on a whole number of steps and tiles.
      {1, 64, 512, 1.f, 0.f, 0, 0, 0, 0, 0, 0, kMixed},
      {2, 64, 512, 1.f, 0.f, 0, 0, 0, 0, 0, 0, kMixed},
      {3, 64, 512, 1.f, 0.f, 0, 0, 0, 0, 0, 0, kMixed},
      {4, 64, 512, 1.f, 0.f, 0, 0, 0, 0, 0, 0, kMixed},
      {8, 64, 512, 1.f, 0.f, 0, 0, 0, 0, 0, 0, kMixed},
      // Misaligned pointers and odd leading dimensions: the element path.
      {3, 35, 100, 1.f, 0.f, 1, 0, 0, 0, 0, 0, kMixed},
      {3, 35, 100, 1.f, 0.f, 0, 3, 0, 0, 0, 0, kMixed},
      {3, 35, 100, 1.f, 2.f, 0, 0, 5, 0, 0, 3, kMixed},
      {8, 40, 1000, 1.f, 0.f, 0, 0, 0, 1, 0, 0, kMixed},
      {8, 40, 100, 1.f, 0.f, 0, 0, 0, 0, 1, 0, kMixed},
      {5, 41, 203, 1.f, 0.f, 4, 2, 7, 4, 2, 1, kMixed},
      {8, 24, 96, 1.f, 0.f, 8, 8, 0, 8, 8, 8, kMixed},
      // Layout T's 64-output blocks: whole ones on the vector path (x 8 but
      // not 16 bytes aligned too), an n tail after them, and each operand
      // misaligned in turn (for layout N most of these are element paths).
      {8, 4096, 100, 1.f, 0.f, 0, 0, 0, 0, 0, 0, kMixed},
      {2, 200, 4095, 1.f, 0.5f, 0, 4, 0, 0, 0, 0, kMixed},
      {3, 128, 100, 1.f, 0.f, 1, 0, 0, 0, 0, 0, kMixed},
      {3, 128, 100, 1.f, 0.f, 0, 2, 0, 0, 0, 0, kMixed},
      {3, 128, 100, 1.f, 0.f, 0, 0, 0, 0, 2, 0, kMixed},
      {8, 128, 100, 1.f, 0.f, 0, 0, 0, 1, 0, 0, kMixed},
      // Whole 256-k stages of the staged kernel with a k tail of one step
      // or less, rows past n in the last block, fewer vectors than 8.
      {8, 4097, 512, 1.f, 0.f, 0, 0, 0, 0, 0, 0, kMixed},
      {8, 50, 2312, 1.f, 0.5f, 0, 0, 0, 0, 0, 0, kMixed},
      {3, 1000, 1544, 1.f, 0.f, 0, 0, 0, 8, 0, 0, kMixed},
      {1, 33, 1288, 1.f, 0.f, 8, 8, 0, 0, 16, 0, kMixed},
      // Layout T staged: whole 64-output strips and a partial one, k tails
      // inside a 64-row stage, 16-byte aligned operands.
      {8, 200, 1000, 1.f, 0.5f, 0, 0, 0, 0, 0, 0, kMixed},
      {5, 72, 4100, 1.f, 0.f, 0, 0, 0, 8, 0, 0, kMixed},
      // k == 0 and alpha == 0: y = beta * y (zeros over NaN when beta == 0).
      {3, 17, 0, 1.f, 2.f, 0, 0, 0, 0, 0, 0, kMixed},
      {3, 17, 0, 1.f, 0.f, 0, 0, 0, 0, 0, 0, kMixed},
      {2, 17, 50, 0.f, -0.5f, 0, 0, 0, 0, 0, 0, kMixed},
      // Overflow to +-Inf, through the sums and through alpha; NaN inputs.
      {2, 9, 40, 1.f, 0.f, 0, 0, 0, 0, 0, 0, kOverflow},
      {3, 9, 40, 1e30f, 0.f, 0, 0, 0, 0, 0, 0, kMixed},
      {4, 19, 70, 1.f, 0.f, 0, 0, 0, 0, 0, 0, kNaN},
  };
  for (const Case& c : cases) run_case<Kern>(cfg, c, rng);
}

template <class Kern>
void test_launch_checks(const char* cfg) {
  uint16_t a[64] = {}, x[64] = {}, y[64];
  for (auto& v : y) v = kSentinel;
  const std::string at = std::string(" (") + cfg + ")";
  auto emu = [&](int m, int n, int k, const uint16_t* ap, int64_t lda, const uint16_t* xp, int64_t ldx, uint16_t* yp,
                 int64_t ldy) { return Kern::emulate(m, n, k, 1.f, ap, lda, xp, ldx, 0.f, yp, ldy); };
  check(emu(-1, 4, 4, a, 4, x, 4, y, 4) == KGEN_ERR_NEGATIVE_DIM, "negative m accepted" + at);
  check(emu(1, -1, 4, a, 4, x, 4, y, 4) == KGEN_ERR_NEGATIVE_DIM, "negative n accepted" + at);
  check(emu(1, 4, -1, a, 4, x, 4, y, 4) == KGEN_ERR_NEGATIVE_DIM, "negative k accepted" + at);
  check(emu(9, 4, 4, a, 4, x, 4, y, 4) == kgen::hgemv_mma::kErrBatch, "m = 9 accepted" + at);
  check(emu(1, 4, 4, a, 3, x, 4, y, 4) == KGEN_ERR_LEADING_DIM, "lda < k accepted" + at);
  check(emu(1, 4, 5, a, 5, x, 4, y, 4) == KGEN_ERR_LEADING_DIM, "ldx < k accepted" + at);
  check(emu(1, 4, 4, a, 4, x, 4, y, 3) == KGEN_ERR_LEADING_DIM, "ldy < n accepted" + at);
  check(emu(1, 4, 4, a, 4, x, 4, nullptr, 4) == KGEN_ERR_NULL_POINTER, "NULL y accepted" + at);
  check(emu(1, 4, 4, nullptr, 4, x, 4, y, 4) == KGEN_ERR_NULL_POINTER, "NULL A accepted" + at);
  check(emu(1, 4, 4, a, 4, nullptr, 4, y, 4) == KGEN_ERR_NULL_POINTER, "NULL x accepted" + at);
  check(emu(0, 4, 4, nullptr, 4, nullptr, 4, nullptr, 4) == KGEN_OK, "m == 0 is not a no-op" + at);
  check(emu(1, 0, 4, nullptr, 4, nullptr, 4, nullptr, 4) == KGEN_OK, "n == 0 is not a no-op" + at);
  bool untouched = true;
  for (auto v : y) untouched = untouched && v == kSentinel;
  check(untouched, "a rejected call wrote y" + at);
  y[0] = float_to_half(3.f);
  check(Kern::emulate(1, 1, 0, 1.f, nullptr, 0, nullptr, 0, 2.f, y, 1) == KGEN_OK &&
            y[0] == float_to_half(6.f),
        "k == 0 is not beta * y" + at);
  if (!g_gpu) return;
  uint16_t* d = nullptr;
  cudaMalloc(&d, 256);
  check(Kern::launch(9, 4, 4, 1.f, d, 4, d, 4, 0.f, d, 4, nullptr) == kgen::hgemv_mma::kErrBatch,
        "GPU: m = 9 accepted" + at);
  check(Kern::launch(1, 4, 4, 1.f, d, 3, d, 4, 0.f, d, 4, nullptr) == KGEN_ERR_LEADING_DIM,
        "GPU: small lda accepted" + at);
  check(Kern::launch(0, 4, 4, 1.f, d, 4, d, 4, 0.f, d, 4, nullptr) == KGEN_OK,
        "GPU: m == 0 is not a no-op" + at);
  cudaFree(d);
}

template <int WARPS, int UNROLL, int MAX_BATCH, int SPLIT_K = 1>
using TConfig = kgen::hgemv_mma_t::Config<WARPS, UNROLL, MAX_BATCH, SPLIT_K>;

}  // namespace

int main() {
  int devices = 0;
  g_gpu = cudaGetDeviceCount(&devices) == cudaSuccess && devices > 0;
  if (!g_gpu) {
    cudaGetLastError();
    printf("no GPU: device runs skipped, host emulation only\n");
  }
  std::mt19937 rng(20241124);
  using kgen::hgemv_mma::Config;
#define CFG(name, ...) test_config<NKern<Config<__VA_ARGS__>>>(name, rng)
  // The spec's tilings, then odd ones: one warp, unroll 1 and 3 (remainders
  // of every length), three tiles, smaller batches (several passes).
  CFG("w8 t1 u4 m8", 8, 1, 4, 8);
  CFG("w4 t2 u2 m8", 4, 2, 2, 8);
  CFG("w8 t2 u2 m8", 8, 2, 2, 8);
  CFG("w16 t1 u4 m8", 16, 1, 4, 8);
  CFG("w1 t1 u3 m8", 1, 1, 3, 8);
  CFG("w2 t3 u1 m4", 2, 3, 1, 4);
  CFG("w3 t1 u5 m2", 3, 1, 5, 2);
  CFG("w8 t1 u4 m1", 8, 1, 4, 1);
#undef CFG
  // Staged through shared memory (kgen/hgemv_mma_s.cuh): the spec's
  // tilings, then 4 and 16 warps (4 and 1 k16 steps a warp and stage), two
  // stages, three and four tiles, smaller batches.
#define SCFG(name, ...) test_config<SKern<kgen::hgemv_mma_s::Config<__VA_ARGS__>>>(name, rng)
  SCFG("s w8 t1 s8 m8", 8, 1, 8, 8);
  SCFG("s w8 t2 s4 m8", 8, 2, 4, 8);
  SCFG("s w16 t2 s4 m8", 16, 2, 4, 8);
  SCFG("s w4 t1 s2 m8", 4, 1, 2, 8);
  SCFG("s w16 t3 s3 m4", 16, 3, 3, 4);
  SCFG("s w8 t4 s2 m2", 8, 4, 2, 2);
  SCFG("s w8 t1 s5 m1", 8, 1, 5, 1);
#undef SCFG
  // Layout T (kgen/hgemv_mma_t.cuh): the spec's tilings, then one warp,
  // unroll 1, 3 and 5, smaller batches.
#define TCFG(name, ...) test_config<TKern<TConfig<__VA_ARGS__>>>(name, rng)
  TCFG("t w8 u2 m8", 8, 2, 8);
  TCFG("t w16 u2 m8", 16, 2, 8);
  TCFG("t w8 u4 m8", 8, 4, 8);
  TCFG("t w1 u3 m8", 1, 3, 8);
  TCFG("t w3 u1 m4", 3, 1, 4);
  TCFG("t w2 u5 m2", 2, 5, 2);
  TCFG("t w8 u2 m1", 8, 2, 1);
  // Split-K across blocks: the spec's, then an odd count and one larger
  // than most shapes' k steps (empty splits add nothing).
  TCFG("t w8 u2 m8 k8", 8, 2, 8, 8);
  TCFG("t w1 u3 m8 k3", 1, 3, 8, 3);
  TCFG("t w2 u1 m2 k64", 2, 1, 2, 64);
#undef TCFG
  // Layout T staged through shared memory (kgen/hgemv_mma_ts.cuh): 4, 8 and
  // 16 warps (8, 4 and 2 tiles a warp), 2 to 6 stages, smaller batches,
  // split-K of 2, 4, 8 and 64 (empty splits add nothing). Misaligned operands
  // take the unstaged fallback.
#define TSCFG(name, ...) test_config<TSKern<kgen::hgemv_mma_ts::Config<__VA_ARGS__>>>(name, rng)
  TSCFG("ts w8 s4 m8", 8, 4, 8);
  TSCFG("ts w16 s4 m8", 16, 4, 8);
  TSCFG("ts w4 s3 m8", 4, 3, 8);
  TSCFG("ts w8 s2 m1", 8, 2, 1);
  TSCFG("ts w16 s6 m4 k2", 16, 6, 4, 2);
  TSCFG("ts w8 s4 m8 k4", 8, 4, 8, 4);
  TSCFG("ts w16 s4 m8 k4", 16, 4, 8, 4);
  TSCFG("ts w16 s4 m8 k8", 16, 4, 8, 8);
  TSCFG("ts w4 s2 m2 k64", 4, 2, 2, 64);
#undef TSCFG
  test_launch_checks<NKern<Config<8, 1, 4, 8>>>("w8 t1 u4 m8");
  test_launch_checks<NKern<Config<4, 2, 2, 1>>>("w4 t2 u2 m1");
  test_launch_checks<SKern<kgen::hgemv_mma_s::Config<8, 1, 8, 8>>>("s w8 t1 s8 m8");
  test_launch_checks<TKern<TConfig<8, 2, 8>>>("t w8 u2 m8");
  test_launch_checks<TSKern<kgen::hgemv_mma_ts::Config<16, 4, 8>>>("ts w16 s4 m8");
  test_launch_checks<TSKern<kgen::hgemv_mma_ts::Config<8, 4, 8, 4>>>("ts w8 s4 m8 k4");
  test_launch_checks<TKern<TConfig<4, 2, 1>>>("t w4 u2 m1");
  test_launch_checks<TKern<TConfig<8, 2, 8, 8>>>("t w8 u2 m8 k8");
  printf("%d passed, %d failed\n", g_passed, g_failed);
  return g_failed == 0 ? 0 : 1;
}
