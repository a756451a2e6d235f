// Host tests for kernels/include/kgen/gf256.cuh; they need no GPU.
//
// 1. The field: gf_mul_byte on all 256 x 256 pairs against a bitwise
//    carry-less multiply reduced by 0x11d.
// 2. The packed-word arithmetic of every strategy (xtime4, mul_const4, the
//    nibble tables with the host byte_perm, xorshift masks, product tables,
//    log/exp) against gf_mul_byte, for all 256 constants and many words.
// 3. The kernels' per-thread code run by emulate_on_host, every strategy and
//    step width, against a plain reference: odd and degenerate lengths,
//    aligned and misaligned shards, accumulate, several blocks, several row
//    groups and forced multi-pass k tiling; bytes around each shard must stay
//    untouched.
//
// Build and run: kernels/tests/run_host_test.sh gf256_host_test. Prints "N
// passed, M failed" and exits 1 when M > 0.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <random>
#include <string>
#include <vector>

#include "kernels/tests/host_check.h"
#include "kgen/gf256.cuh"

namespace {

using kgen::gf256::Strategy;

using host_check::check;

// clmul_mod is the independent reference: schoolbook carry-less product,
// then reduction by 0x11d from the top bit down.
uint8_t clmul_mod(uint8_t a, uint8_t b) {
  unsigned p = 0;
  for (int i = 0; i < 8; ++i) {
    if ((b >> i) & 1) p ^= static_cast<unsigned>(a) << i;
  }
  for (int i = 14; i >= 8; --i) {
    if ((p >> i) & 1) p ^= 0x11du << (i - 8);
  }
  return static_cast<uint8_t>(p);
}

uint8_t byte_of(uint32_t w, int i) { return static_cast<uint8_t>(w >> (8 * i)); }

// per_byte reports whether got has gf(c * byte) in every byte of w.
bool per_byte(uint32_t got, uint32_t w, uint8_t c) {
  for (int i = 0; i < 4; ++i) {
    if (byte_of(got, i) != clmul_mod(byte_of(w, i), c)) return false;
  }
  return true;
}

// test_words: every byte value in every position (each word repeats one
// value, or walks four consecutive ones), then random words.
std::vector<uint32_t> test_words(std::mt19937& rng, int n_random) {
  std::vector<uint32_t> v;
  for (uint32_t b = 0; b < 256; ++b) {
    v.push_back(b * 0x01010101u);
    v.push_back(b | ((b + 1) & 0xff) << 8 | ((b + 2) & 0xff) << 16 | ((b + 3) & 0xff) << 24);
  }
  for (int i = 0; i < n_random; ++i) v.push_back(static_cast<uint32_t>(rng()));
  return v;
}

void test_field() {
  int bad = 0;
  for (int a = 0; a < 256; ++a) {
    for (int b = 0; b < 256; ++b) bad += kgen::gf256::gf_mul_byte(a, b) != clmul_mod(a, b);
  }
  check(bad == 0, "gf_mul_byte differs from the carry-less reference on " + std::to_string(bad) + " of 65536 pairs");
  // Generator 2 has order 255: exp walks all nonzero elements once.
  const auto& t = kgen::gf256::log_exp();
  bool perm = true;
  std::vector<int> seen(256, 0);
  for (int i = 0; i < 255; ++i) seen[t.exp[i]]++;
  for (int x = 1; x < 256; ++x) perm = perm && seen[x] == 1 && t.exp[t.log[x]] == x;
  check(perm && seen[0] == 0, "exp is not a permutation of the nonzero bytes, or log is not its inverse");
}

void test_byte_perm() {
  const uint32_t x = 0x33221100u, y = 0x77665544u;
  using kgen::gf256::byte_perm;
  check(byte_perm(x, y, 0x3210) == x, "byte_perm 0x3210 is not x");
  check(byte_perm(x, y, 0x7654) == y, "byte_perm 0x7654 is not y");
  check(byte_perm(x, y, 0x0123) == 0x00112233u, "byte_perm 0x0123 does not reverse x");
  check(byte_perm(x, y, 0x5140) == 0x55114400u, "byte_perm 0x5140 does not interleave");
  check(byte_perm(x, y, 0xfedc) == y, "byte_perm ignores selector bit 3 and the upper half");
  check(byte_perm(x, y, 0xabcd3210u) == x, "byte_perm reads bits above 15 of the selector");
}

void test_words_arith(std::mt19937& rng) {
  using namespace kgen::gf256;
  const std::vector<uint32_t> words = test_words(rng, 4000);
  int bad_x = 0;
  for (uint32_t w : words) bad_x += !per_byte(xtime4(w), w, 2);
  check(bad_x == 0, "xtime4 wrong on " + std::to_string(bad_x) + " words");

  for (int c = 0; c < 256; ++c) {
    const uint8_t cc = static_cast<uint8_t>(c);
    const NibbleTable nt = nibble_table(cc);
    uint32_t masks[8];
    for (int b = 0; b < 8; ++b) masks[b] = xorshift_mask(cc, b);
    uint32_t table_words[64];
    for (int i = 0; i < 64; ++i) table_words[i] = Mul<Strategy::Table>::slot_word(cc, i);
    uint8_t table[256];
    memcpy(table, table_words, sizeof(table));
    uint32_t nib_slot[8];
    for (int i = 0; i < 8; ++i) nib_slot[i] = Mul<Strategy::Nibble>::slot_word(cc, i);
    const auto& le = log_exp();

    int bad_mc = 0, bad_nib = 0, bad_sel = 0, bad_xs = 0, bad_tab = 0, bad_le = 0;
    for (size_t i = 0; i < words.size(); ++i) {
      const uint32_t w = words[i];
      bad_mc += !per_byte(mul_const4(w, cc), w, cc);
      // The single-word prepare, and the paired one with w as either word.
      const uint32_t other = words[(i * 7 + 3) % words.size()];
      NibbleIn in[3];
      in[0] = nibble_prepare(w);
      nibble_prepare2(w, other, in[1], in[2]);
      NibbleIn spare;
      nibble_prepare2(other, w, spare, in[2]);
      for (const NibbleIn& n : in) {
        bad_sel += (n.s_lo & 0x8888u) != 0 || (n.s_hi & 0x8888u) != 0;
        bad_nib += !per_byte(nibble_mul(n, nt), w, cc);
      }
      bad_xs += !per_byte(xorshift_mul(xorshift_prepare(w), masks), w, cc);
      bad_tab += !per_byte(table_mul(w, table), w, cc);
      bad_le += !per_byte(logexp_mul4(w, cc, le.log, le.exp), w, cc);
    }
    const std::string at = " for c=" + std::to_string(c);
    check(bad_mc == 0, "mul_const4 wrong" + at);
    check(bad_sel == 0, "nibble selector has a nibble's bit 3 set" + at);
    check(bad_nib == 0, "nibble multiply wrong" + at);
    check(memcmp(nib_slot, &nt, 6 * sizeof(uint32_t)) == 0, "nibble slot words differ from nibble_table" + at);
    check(bad_xs == 0, "xorshift multiply wrong" + at);
    check(bad_tab == 0, "product table wrong" + at);
    check(bad_le == 0, "log/exp word multiply wrong" + at);
  }
}

// ---------------------------------------------------------------------------
// Kernel emulation.

struct Case {
  int rows, k;
  int64_t len;
  int misaligned;  // 0: all shards 16-byte aligned; 1: odd offsets, each its own
                   // (one input aligned); 2: only the last input; 3: only the last output
  int accumulate;
  int grid_x;
  int k_tile;  // 0: what the launcher would pick
};

const char* const kMisNames[] = {"aligned", "misaligned", "last-input-misaligned", "last-output-misaligned"};

std::string describe(const char* cfg, const Case& c) {
  char b[256];
  snprintf(b, sizeof(b), "%s rows=%d k=%d len=%lld %s acc=%d grid_x=%d k_tile=%d", cfg, c.rows, c.k,
           static_cast<long long>(c.len), kMisNames[c.misaligned], c.accumulate, c.grid_x, c.k_tile);
  return b;
}

constexpr int kGuard = 32;  // bytes on each side of a shard that must stay as they were

// Shard is one shard with guard bytes, its start 16-byte aligned plus offset.
struct Shard {
  std::vector<uint8_t> buf;
  int start;
  Shard(int64_t len, int offset, std::mt19937& rng) : buf(static_cast<size_t>(len) + 2 * kGuard + 32) {
    for (auto& x : buf) x = static_cast<uint8_t>(rng());
    const uintptr_t base = reinterpret_cast<uintptr_t>(buf.data()) + kGuard;
    start = static_cast<int>((16 - base % 16) % 16) + kGuard + offset;
  }
  uint8_t* ptr() { return buf.data() + start; }
};

template <class K>
void run_case(const char* cfg, const Case& c, std::mt19937& rng) {
  std::vector<uint8_t> coeffs(static_cast<size_t>(c.rows) * c.k);
  for (auto& x : coeffs) x = static_cast<uint8_t>(rng());
  if (!coeffs.empty()) coeffs[0] = 0, coeffs.back() = 1;  // zero and one coefficients too
  std::vector<Shard> in, out;
  for (int j = 0; j < c.k; ++j) {
    const bool odd = (c.misaligned == 1 && j != 1) || (c.misaligned == 2 && j == c.k - 1);
    in.emplace_back(c.len, odd ? (j * 5 + 1) % 16 : 0, rng);
  }
  for (int r = 0; r < c.rows; ++r) {
    const bool odd = c.misaligned == 1 || (c.misaligned == 3 && r == c.rows - 1);
    out.emplace_back(c.len, odd ? (r * 3 + 2) % 16 : 0, rng);
  }

  std::vector<std::vector<uint8_t>> want(c.rows);
  for (int r = 0; r < c.rows; ++r) {
    want[r] = out[r].buf;
    uint8_t* o = want[r].data() + out[r].start;
    for (int64_t i = 0; i < c.len; ++i) {
      uint8_t acc = c.accumulate ? o[i] : 0;
      for (int j = 0; j < c.k; ++j) acc ^= clmul_mod(coeffs[static_cast<size_t>(r) * c.k + j], in[j].ptr()[i]);
      o[i] = acc;
    }
  }
  std::vector<std::vector<uint8_t>> out_init(c.rows), in_before(c.k);
  for (int r = 0; r < c.rows; ++r) out_init[r] = out[r].buf;
  for (int j = 0; j < c.k; ++j) in_before[j] = in[j].buf;

  std::vector<const uint8_t*> in_ptrs;
  std::vector<uint8_t*> out_ptrs;
  for (auto& s : in) in_ptrs.push_back(s.ptr());
  for (auto& s : out) out_ptrs.push_back(s.ptr());
  // Both ways of passing the arrays, where the launch can carry them: in
  // place, and copied into the parameters. The copies are made from
  // scratch arrays that are clobbered before the kernel code runs, so it
  // can only have read the copies.
  for (int host_arrays = 0; host_arrays <= (kgen::gf256::fits_inline(c.rows, c.k) ? 1 : 0); ++host_arrays) {
    for (int r = 0; r < c.rows; ++r) out[r].buf = out_init[r];
    std::vector<uint8_t> cf = coeffs;
    std::vector<const uint8_t*> ip = in_ptrs;
    std::vector<uint8_t*> op = out_ptrs;
    std::vector<kgen::gf256::Params> p(1);
    int st = kgen::gf256::make_params(cf.data(), c.rows, c.k, ip.data(), op.data(), c.len, c.accumulate, host_arrays,
                                      &p[0]);
    if (host_arrays) {
      std::fill(cf.begin(), cf.end(), 0x5a);
      std::fill(ip.begin(), ip.end(), nullptr);
      std::fill(op.begin(), op.end(), nullptr);
    }
    if (st == KGEN_OK) kgen::gf256::emulate<K>(p[0], c.grid_x, c.k_tile);
    if (st == KGEN_OK + 1) st = KGEN_OK;  // nothing to do
    bool ok = st == KGEN_OK;
    for (int r = 0; r < c.rows && ok; ++r) ok = out[r].buf == want[r];
    for (int j = 0; j < c.k && ok; ++j) ok = in[j].buf == in_before[j];
    check(ok, describe(cfg, c) + (host_arrays ? " host arrays" : "") +
                  (st == KGEN_OK ? "" : " status " + std::to_string(st)));
  }
}

template <class K>
void test_config(const char* cfg, std::mt19937& rng) {
  constexpr int64_t CH = K::kChunk;
  const int64_t lens[] = {0, 1, 3, 4, 5, 15, 16, 17, 31, 33, CH - 1, CH, CH + 1, 2 * CH + 7, 3 * CH + 13};
  for (int64_t len : lens) {
    for (int mis = 0; mis < 2; ++mis) {
      run_case<K>(cfg, {3, 4, len, mis, 0, 2, 0}, rng);
    }
  }
  // Shapes: one row and one input, the 10+4 target, rows beyond one group,
  // k beyond a batch; accumulate; more blocks than steps; forced passes (a
  // misaligned input only in a later pass must still send pass 0 down the
  // byte path); one misaligned output.
  const Case cases[] = {
      {1, 1, 100, 0, 0, 1, 0},           {4, 10, 1000, 0, 0, 3, 0},         {4, 10, 1001, 1, 0, 3, 0},
      {9, 7, 517, 0, 1, 2, 0},           {9, 7, 517, 1, 1, 2, 0},           {5, 17, CH * 4 + 3, 0, 0, 3, 0},
      {4, 10, 1000, 0, 0, 50, 0},        {4, 10, 2 * CH + 5, 0, 0, 2, 3},   {4, 10, 2 * CH + 5, 1, 1, 2, 3},
      {4, 10, 2 * CH + 16, 2, 1, 2, 3},  {5, 6, 3 * CH, 3, 0, 2, 0},        {6, 9, 333, 0, 0, 1, 1},
      {2, 1, 64, 0, 1, 1, 0},            {4, 0, 77, 1, 0, 1, 0},
      // The most shards (and coefficients) a launch carries, and one more.
      {32, 32, 67, 0, 0, 2, 0},          {8, 57, 67, 1, 0, 2, 0},
  };
  for (const Case& c : cases) run_case<K>(cfg, c, rng);
}

void test_launch_checks() {
  using K = kgen::gf256::Config<16, 64, 4, Strategy::Nibble>;
  using kgen::gf256::emulate_on_host;
  uint8_t byte = 0, *outp = &byte;
  const uint8_t* inp = &byte;
  check(emulate_on_host<K>(&byte, -1, 1, &inp, &outp, 1, 0, 0, 1) == KGEN_ERR_NEGATIVE_DIM, "negative rows accepted");
  check(emulate_on_host<K>(&byte, 1, -1, &inp, &outp, 1, 0, 0, 1) == KGEN_ERR_NEGATIVE_DIM, "negative k accepted");
  check(emulate_on_host<K>(&byte, 1, 1, &inp, &outp, -1, 0, 0, 1) == KGEN_ERR_NEGATIVE_DIM, "negative len accepted");
  check(emulate_on_host<K>(&byte, 1, 1, &inp, nullptr, 1, 0, 0, 1) == KGEN_ERR_NULL_POINTER, "NULL out accepted");
  check(emulate_on_host<K>(&byte, 1, 1, nullptr, &outp, 1, 0, 0, 1) == KGEN_ERR_NULL_POINTER, "NULL in accepted");
  check(emulate_on_host<K>(nullptr, 1, 1, &inp, &outp, 1, 0, 0, 1) == KGEN_ERR_NULL_POINTER, "NULL coeffs accepted");
  check(emulate_on_host<K>(nullptr, 0, 1, nullptr, nullptr, 1, 0, 0, 1) == KGEN_OK, "rows == 0 is not a no-op");
  check(emulate_on_host<K>(nullptr, 1, 1, nullptr, nullptr, 0, 0, 0, 1) == KGEN_OK, "len == 0 is not a no-op");
  // The launch carries at most kInlineShards shards given in host memory;
  // more are an error there, and fine as device arrays.
  constexpr int S = kgen::gf256::kInlineShards;
  std::vector<uint8_t> cf(S * S, 1);
  uint8_t sink[S] = {};
  std::vector<const uint8_t*> ins(S, &byte);
  std::vector<uint8_t*> outs;
  for (int r = 0; r < S; ++r) outs.push_back(&sink[r]);
  check(emulate_on_host<K>(cf.data(), 1, S - 1, ins.data(), outs.data(), 1, 0, 1, 1) == KGEN_OK,
        "the most shards a launch carries were refused");
  check(emulate_on_host<K>(cf.data(), S / 2, S / 2, ins.data(), outs.data(), 1, 0, 1, 1) == KGEN_OK,
        "the most coefficients a launch carries were refused");
  check(emulate_on_host<K>(cf.data(), 2, S - 1, ins.data(), outs.data(), 1, 0, 1, 1) == KGEN_ERR_INLINE_LIMIT,
        "more shards than a launch carries were accepted");
  check(emulate_on_host<K>(cf.data(), S, 1, ins.data(), outs.data(), 1, 0, 0, 1) == KGEN_OK,
        "device arrays past the inline limit were refused");
}

}  // namespace

int main() {
  std::mt19937 rng(20240611);
  test_field();
  test_byte_perm();
  test_words_arith(rng);
  test_launch_checks();
#define CONFIGS(S)                                                                   \
  test_config<kgen::gf256::Config<4, 64, 4, Strategy::S>>(#S " b4 t64 r4", rng);   \
  test_config<kgen::gf256::Config<8, 32, 2, Strategy::S>>(#S " b8 t32 r2", rng);   \
  test_config<kgen::gf256::Config<16, 64, 4, Strategy::S>>(#S " b16 t64 r4", rng); \
  test_config<kgen::gf256::Config<16, 32, 1, Strategy::S>>(#S " b16 t32 r1", rng);
  CONFIGS(NaiveLogExp)
  CONFIGS(TiledLogExp)
  CONFIGS(Table)
  CONFIGS(Nibble)
  CONFIGS(XorShift)
#undef CONFIGS
  // The aligned path through a ring of input batches in shared memory.
  test_config<kgen::gf256::Config<16, 64, 4, Strategy::Nibble, 3>>("Nibble b16 t64 r4 ring3", rng);
  test_config<kgen::gf256::Config<4, 64, 4, Strategy::Nibble, 2>>("Nibble b4 t64 r4 ring2", rng);
  test_config<kgen::gf256::Config<8, 32, 2, Strategy::XorShift, 4>>("XorShift b8 t32 r2 ring4", rng);
  return host_check::report();
}
