// The GF(2^8) matrix product that every gf256_matmul instance instantiates,
// the encoding step of Reed-Solomon:
//   out[r] = XOR over j < k of M[r][j] * in[j]   (accumulate == 0)
//   out[r] ^= XOR over j < k of M[r][j] * in[j]  (accumulate != 0)
// byte by byte over GF(2^8) with polynomial 0x11d and generator 2 (the field of
// klauspost/reedsolomon), for r < rows, shards of len bytes at any alignment.
//
// Technique: the grid is one wave of resident blocks (SM count x occupancy);
// blockIdx.y picks a group of ROWS output rows, and each block walks the shard
// bytes with a grid-stride loop. A block stages, once per pass, a small
// per-coefficient "slot" for each of its ROWS x k coefficients in shared
// memory (product table, nibble tables or bit masks, by strategy); every
// thread then reads each input once per step, 4, 8 or 16 bytes packed into
// 32-bit words, and multiplies them into ROWS accumulators held in registers,
// so one read of the inputs serves every output row of the group. When every
// shard pointer of the block is aligned to the step size (decided on the
// device, per block, since the host cannot read the pointer arrays), steps
// are single vector loads and stores, software-pipelined so the next inputs
// load during the arithmetic; otherwise (and for the last len % step bytes)
// a byte path that packs coalesced bytes into the same words does the same
// arithmetic.
//
// Device code and the host emulation (emulate_on_host, used by
// kernels/tests/gf256_host_test.cu) share the per-thread functions stage()
// and compute(), so the host test exercises the kernels' indexing, tails,
// passes and alignment decisions, not only the field arithmetic.
//
// Limits: outputs must not overlap inputs (inputs are read through the
// read-only cache, and passes re-read outputs); shard pointers inside the
// device arrays are not checked for NULL (the host cannot read them).
#pragma once

#include <assert.h>
#include <stdint.h>
#include <string.h>

#include <vector>

#include "kgen/common.cuh"

namespace kgen {
namespace gf256 {

// ---------------------------------------------------------------------------
// Field arithmetic, callable on host and device.

constexpr unsigned kPoly = 0x11d;  // x^8 + x^4 + x^3 + x^2 + 1

// LogExp holds log_2 and exp_2. exp is doubled (510 entries used) so that
// exp[log a + log b] needs no reduction mod 255.
struct LogExp {
  uint8_t log[256];  // log[0] is unused
  uint8_t exp[512];
};

constexpr LogExp make_log_exp() {
  LogExp t{};
  unsigned x = 1;
  for (int i = 0; i < 255; ++i) {
    t.exp[i] = static_cast<uint8_t>(x);
    t.exp[i + 255] = static_cast<uint8_t>(x);
    t.log[x] = static_cast<uint8_t>(i);
    x <<= 1;
    if (x & 0x100) x ^= kPoly;
  }
  return t;
}

// One copy per translation unit (static): each generated instance is its own
// whole-program CUDA module, so nothing needs -rdc. Global, not __constant__,
// memory: the naive kernel indexes it with divergent addresses, which the
// constant cache would serialize.
static __device__ const LogExp kLogExpDevice = make_log_exp();
inline constexpr LogExp kLogExpHost = make_log_exp();

__host__ __device__ inline const LogExp& log_exp() {
#ifdef __CUDA_ARCH__
  return kLogExpDevice;
#else
  return kLogExpHost;
#endif
}

// gf_mul_byte is the textbook product through the log/exp tables.
__host__ __device__ inline uint8_t gf_mul_byte(uint8_t a, uint8_t b) {
  if (a == 0 || b == 0) return 0;
  const LogExp& t = log_exp();
  return t.exp[t.log[a] + t.log[b]];
}

// xtime4 multiplies each of the four bytes of w by x (= 2): shift every byte
// left, and reduce the bytes whose top bit fell out by 0x1d.
__host__ __device__ __forceinline__ uint32_t xtime4(uint32_t w) {
  return ((w & 0x7f7f7f7fu) << 1) ^ (((w >> 7) & 0x01010101u) * 0x1du);
}

// mul_const4 multiplies each byte of w by c: XOR over the set bits b of c of
// xtime^b(w).
__host__ __device__ inline uint32_t mul_const4(uint32_t w, uint8_t c) {
  uint32_t acc = 0;
#pragma unroll
  for (int b = 0; b < 8; ++b) {
    if ((c >> b) & 1) acc ^= w;
    w = xtime4(w);
  }
  return acc;
}

// byte_perm is __byte_perm on the device and its documented definition on
// the host: byte n of the result is byte ((s >> 4n) & 7) of the 8-byte value
// y:x. The device intrinsic masks s with 0x7777 itself; callers that build s
// with a final & 0x7777 let the compiler fold the two masks into one.
__host__ __device__ __forceinline__ uint32_t byte_perm(uint32_t x, uint32_t y, uint32_t s) {
#ifdef __CUDA_ARCH__
  return __byte_perm(x, y, s);
#else
  const uint64_t v = (static_cast<uint64_t>(y) << 32) | x;
  uint32_t r = 0;
  for (int n = 0; n < 4; ++n) r |= static_cast<uint32_t>((v >> (8 * ((s >> (4 * n)) & 7))) & 0xff) << (8 * n);
  return r;
#endif
}

// prmt is PTX prmt.b32 in its default mode, which reads only the low 16 bits
// of s. For selectors whose nibbles 0-3 have bit 3 clear it equals
// byte_perm; the nibble path builds only such selectors (the host test
// checks it) and calls PRMT directly, because __byte_perm's 0x7777 mask
// costs a LOP3 per selector that the compiler cannot prove redundant (the
// selectors carry garbage in their unused upper 16 bits).
__host__ __device__ __forceinline__ uint32_t prmt(uint32_t x, uint32_t y, uint32_t s) {
#ifdef __CUDA_ARCH__
  uint32_t r;
  asm("prmt.b32 %0, %1, %2, %3;" : "=r"(r) : "r"(x), "r"(y), "r"(s));
  return r;
#else
  return byte_perm(x, y, s);
#endif
}

// Nibble multiply. A byte v splits as lo3 + 8*b3 + 16*hi3 + 128*b7 (lo3, hi3
// the 3-bit fields 0-2 and 4-6, b3, b7 bits 3 and 7), and multiplication by c
// is linear over XOR, so c*v = T_lo[lo3] ^ T_hi[hi3] ^ b3*(c*8) ^ b7*(c*128)
// with two 8-entry tables. An 8-entry table of bytes is two 32-bit words,
// exactly the 8 source bytes of one PRMT, so a lookup does four bytes in one
// instruction. This replaces the two 16-entry (4-bit) tables, which need two
// PRMTs each and a select on selector bit 3: bit 3 and bit 7 of each byte are
// instead integer multiplies of 0/1 bytes by a byte (no carry crosses a
// byte), which issue on the FMA pipe and leave the ALU pipe, the bottleneck,
// to two PRMTs and two LOP3s. Per word and coefficient: 2 PRMT + 2 LOP3 +
// 2 IMAD; per input word, shared by all rows, about 10 ALU instructions.
struct NibbleTable {
  uint32_t lo0, lo1;  // c*0 .. c*7, byte i of lo0:lo1 = c*i
  uint32_t hi0, hi1;  // c*0x00 .. c*0x70, byte i = c*(i << 4)
  uint32_t c8, c128;  // c*8 and c*128 as plain integers 0..255
  uint32_t pad0, pad1;  // 32 bytes: two 16-byte shared-memory loads
};

// NibbleIn is the per-input-word part, computed once and shared by all rows.
struct NibbleIn {
  uint32_t s_lo, s_hi;  // selectors: nibble n = field of byte n
  uint32_t b3, b7;      // byte n = bit 3 (bit 7) of byte n, as 0 or 1
};

__host__ __device__ inline NibbleTable nibble_table(uint8_t c) {
  NibbleTable t;
  t.lo0 = mul_const4(0x03020100u, c);
  t.lo1 = mul_const4(0x07060504u, c);
  t.hi0 = mul_const4(0x30201000u, c);
  t.hi1 = mul_const4(0x70605040u, c);
  t.c8 = mul_const4(0x08u, c);
  t.c128 = mul_const4(0x80u, c);
  t.pad0 = t.pad1 = 0;
  return t;
}

// nibble_prepare packs the 3-bit fields of the four bytes into the four
// selector nibbles. Swapping bytes 1 and 2 first makes x | x >> 12 land the
// fields of bytes 0, 1, 2, 3 in nibbles 0, 1, 2, 3 (bytes 0 and 2 stay, 1 and
// 3 move down 12 bits): one PRMT, one AND and one LEA.HI per selector. Bits
// 3, 7, 11 and 15 of a selector are zero (x has only bits 0-2 of each byte);
// bits 16-31 are garbage that PRMT ignores.
__host__ __device__ __forceinline__ NibbleIn nibble_prepare(uint32_t w) {
  const uint32_t p = prmt(w, 0, 0x3120);  // bytes w0, w2, w1, w3
  const uint32_t xl = p & 0x07070707u;
  NibbleIn n;
  // (Moving these shifts, and those of b3 and b7, to the FMA pipe as IMAD.HI
  // measured slower: on an H100, 10+4 at 16 MiB, 110.7 us against 103.0.)
  const uint32_t xh = (p >> 4) & 0x07070707u;
  n.b3 = (w >> 3) & 0x01010101u;
  n.b7 = (w >> 7) & 0x01010101u;
  n.s_lo = xl | (xl >> 12);
  n.s_hi = xh | (xh >> 12);
  return n;
}

// nibble_prepare2 is nibble_prepare of two adjacent words w0, w1 at once,
// in 9 ALU-pipe instructions per word instead of 10. Splitting the eight
// bytes of w1:w0 into the even ones e and the odd ones o (two PRMTs) puts
// byte i's field into selector nibble i with no shift across bytes: byte j
// of (e & 7s) + 16 * (o & 7s) holds the fields of bytes 2j and 2j+1, so its
// low half is w0's selector and its high half, shifted down, w1's. The
// multiply by 16 is an IMAD (FMA pipe), and the high fields need one shift
// for both words.
__host__ __device__ __forceinline__ void nibble_prepare2(uint32_t w0, uint32_t w1, NibbleIn& n0, NibbleIn& n1) {
  const uint32_t e = prmt(w0, w1, 0x6420);  // bytes 0, 2, 4, 6 of w1:w0
  const uint32_t o = prmt(w0, w1, 0x7531);  // bytes 1, 3, 5, 7
  const uint32_t lo = (e & 0x07070707u) + (o & 0x07070707u) * 16u;
  const uint32_t hi = ((e >> 4) & 0x07070707u) + (o & 0x70707070u);
  n0.s_lo = lo, n1.s_lo = lo >> 16;
  n0.s_hi = hi, n1.s_hi = hi >> 16;
  n0.b3 = (w0 >> 3) & 0x01010101u, n1.b3 = (w1 >> 3) & 0x01010101u;
  n0.b7 = (w0 >> 7) & 0x01010101u, n1.b7 = (w1 >> 7) & 0x01010101u;
}

__host__ __device__ __forceinline__ uint32_t nibble_mul(const NibbleIn& n, const NibbleTable& t) {
  return prmt(t.lo0, t.lo1, n.s_lo) ^ prmt(t.hi0, t.hi1, n.s_hi) ^ (n.b3 * t.c8) ^ (n.b7 * t.c128);
}

// XorShift multiply: xtime^b(w) for b < 8 is computed once per input word and
// shared by all rows; each coefficient is then 8 AND-XORs (one LOP3 each)
// with 0/~0 masks of its bits, so no branch depends on data.
struct XorShiftIn {
  uint32_t p[8];  // p[b] = xtime^b(w)
};

__host__ __device__ __forceinline__ XorShiftIn xorshift_prepare(uint32_t w) {
  XorShiftIn x;
  x.p[0] = w;
#pragma unroll
  for (int b = 1; b < 8; ++b) x.p[b] = xtime4(x.p[b - 1]);
  return x;
}

__host__ __device__ __forceinline__ uint32_t xorshift_mask(uint8_t c, int b) { return 0u - ((c >> b) & 1u); }

__host__ __device__ __forceinline__ uint32_t xorshift_mul(const XorShiftIn& x, const uint32_t (&mask)[8]) {
  uint32_t r = 0;
#pragma unroll
  for (int b = 0; b < 8; ++b) r ^= x.p[b] & mask[b];
  return r;
}

// table_mul looks each byte of w up in a 256-entry product table T[x] = c*x.
__host__ __device__ __forceinline__ uint32_t table_mul(uint32_t w, const uint8_t* T) {
  return static_cast<uint32_t>(T[w & 0xff]) | (static_cast<uint32_t>(T[(w >> 8) & 0xff]) << 8) |
         (static_cast<uint32_t>(T[(w >> 16) & 0xff]) << 16) | (static_cast<uint32_t>(T[w >> 24]) << 24);
}

// logexp_mul4 multiplies each byte of w by c through log/exp tables (in
// shared memory on the device for the tiled kernel).
__host__ __device__ __forceinline__ uint32_t logexp_mul4(uint32_t w, uint8_t c, const uint8_t* log,
                                                        const uint8_t* exp) {
  if (c == 0) return 0;
  const int lc = log[c];
  uint32_t r = 0;
#pragma unroll
  for (int i = 0; i < 4; ++i) {
    const uint32_t a = (w >> (8 * i)) & 0xff;
    const uint32_t p = a ? exp[log[a] + lc] : 0;
    r |= p << (8 * i);
  }
  return r;
}

// ---------------------------------------------------------------------------
// Configuration.

enum class Strategy {
  NaiveLogExp,  // one thread per byte, log/exp in global memory: the textbook kernel
  TiledLogExp,  // log/exp and coefficients in shared memory, packed words: the seed article's tiled kernel
  Table,        // a 256-byte product table per coefficient in shared memory, byte lookups
  Nibble,       // two 8-entry tables per coefficient applied with PRMT (__byte_perm), 4 bytes per lookup
  XorShift,     // xtime powers of each input word, AND-XOR with coefficient bit masks
};

// Config fixes one instance: bytes per thread per step (4, 8 or 16, packed
// in 32-bit words; the vector width of the aligned path), threads per block,
// output rows per block (accumulators in registers: ROWS x BYTES/4 words),
// and the multiply strategy. NaiveLogExp ignores BYTES_PER_THREAD (one byte
// per thread) but ROWS still groups rows per block.
//
// STAGES, when not 0, gives the aligned path a ring of that many batches of
// inputs per thread in shared memory, filled by cp.async STAGES - 1 batches
// ahead of the arithmetic: more bytes in flight than registers hold (the
// register pipeline keeps one batch in flight).
template <int BYTES_PER_THREAD_, int THREADS_, int ROWS_PER_BLOCK_, Strategy STRATEGY_, int STAGES_ = 0>
struct Config {
  static constexpr int kBytesPerThread = BYTES_PER_THREAD_;
  static constexpr int kWords = BYTES_PER_THREAD_ / 4;
  static constexpr int kThreads = THREADS_;
  static constexpr int kRows = ROWS_PER_BLOCK_;
  static constexpr Strategy kStrategy = STRATEGY_;
  static constexpr int kStages = STAGES_;
  static constexpr int64_t kChunk = static_cast<int64_t>(THREADS_) * BYTES_PER_THREAD_;  // bytes per block step

  static_assert(STAGES_ == 0 || (STAGES_ >= 2 && STAGES_ <= 8), "0 (registers) or 2 to 8 stages");
  static_assert(STAGES_ == 0 || STRATEGY_ != Strategy::NaiveLogExp, "the naive kernel has no aligned path");

  static_assert(BYTES_PER_THREAD_ == 4 || BYTES_PER_THREAD_ == 8 || BYTES_PER_THREAD_ == 16,
                "bytes per thread is 4, 8 or 16");
  static_assert(THREADS_ % 32 == 0 && THREADS_ >= 32 && THREADS_ <= 1024, "threads are whole warps, at most 1024");
  static_assert(ROWS_PER_BLOCK_ >= 1 && ROWS_PER_BLOCK_ <= 32, "1 to 32 rows per block (accumulators are registers)");
};

// Per-strategy shared-memory slot of one coefficient (kSlotWords 32-bit words),
// and the per-strategy arithmetic: prepare splits a thread's input words once
// for all rows, mac multiplies them by one coefficient into the accumulators.
template <Strategy S>
struct Mul;

// Inputs per batch: a thread loads a batch, then multiplies it while the
// next batch loads (software pipelining, see process_vec_stream). With 16
// bytes per thread a batch is 4 inputs, 64 bytes in flight per thread; with
// 4 or 8 bytes, 32 bytes. On an H100 (10+4, 16 MiB shards, nibble, 4 rows per
// block) 64 bytes beat 32 at 16 bytes per thread (512 threads: 0.81x to 0.86x
// of the copy floor; 256 threads: 0.78x to 0.80x) and lost at 8 bytes per
// thread (0.77x to 0.72x: twice the loads per byte in flight).
template <int W>
struct Batch {
  static constexpr int kInputs = W == 4 ? 4 : 8 / W;
};

// Blocks per SM the register allocation must allow: at least 768 resident
// threads (85 registers each at most), so that with 32 to 64 bytes per thread
// in flight an SM keeps ~24-48 KB of loads outstanding, above the ~20 KB per
// SM that HBM3 bandwidth times latency asks for on an H100. On an H100
// (k=10, rows=4, 16 MiB, nibble, 16 bytes/thread, 256 threads) 768, 512 and
// 1024 measured within 2%; a block of 512 threads (one per SM, up to 128
// registers, 32 KB in flight) measured best, 0.86x to 0.88x of the copy floor.
// More than 16 accumulator words (e.g. 8 rows x 16 bytes) do not fit 85
// registers without spilling in the inner loop: 512 threads (128 registers).
//
// With an input ring (STAGES > 0) the bytes in flight live in shared memory,
// so 512 resident threads (128 registers) suffice.
template <class K>
constexpr int min_threads() {
  return K::kStages == 0 && K::kRows * K::kWords <= 16 ? 768 : 512;
}
template <class K>
constexpr int min_blocks() {
  return K::kThreads >= min_threads<K>() ? 1 : min_threads<K>() / K::kThreads;
}

// ---------------------------------------------------------------------------
// Shared-memory access helpers.

// load_slot copies N words of a 16-byte-aligned shared slot with 16-byte loads.
template <int N>
__host__ __device__ __forceinline__ void load_slot(const uint32_t* slot, uint32_t (&t)[N]) {
#ifdef __CUDA_ARCH__
  if constexpr (N % 4 == 0) {
#pragma unroll
    for (int i = 0; i < N / 4; ++i) {
      const uint4 v = reinterpret_cast<const uint4*>(slot)[i];
      t[4 * i + 0] = v.x, t[4 * i + 1] = v.y, t[4 * i + 2] = v.z, t[4 * i + 3] = v.w;
    }
  } else {
#pragma unroll
    for (int i = 0; i < N; ++i) t[i] = slot[i];
  }
#else
  memcpy(t, slot, sizeof(t));
#endif
}

template <>
struct Mul<Strategy::Nibble> {
  static constexpr int kSlotWords = 8;
  using In = NibbleIn;
  // Word i of nibble_table(c), computed alone: one mul_const4 per word.
  __host__ __device__ static uint32_t slot_word(uint8_t c, int i) {
    switch (i) {
      case 0: return mul_const4(0x03020100u, c);
      case 1: return mul_const4(0x07060504u, c);
      case 2: return mul_const4(0x30201000u, c);
      case 3: return mul_const4(0x70605040u, c);
      case 4: return mul_const4(0x08u, c);
      case 5: return mul_const4(0x80u, c);
      default: return 0;
    }
  }
  // Pairs of words go through nibble_prepare2 (one ALU instruction per word
  // fewer); a single word through nibble_prepare.
  template <int W>
  __host__ __device__ static void prepare(const uint32_t (&w)[W], In (&in)[W], const uint8_t*) {
#pragma unroll
    for (int i = 0; i + 1 < W; i += 2) nibble_prepare2(w[i], w[i + 1], in[i], in[i + 1]);
    if constexpr (W % 2 == 1) in[W - 1] = nibble_prepare(w[W - 1]);
  }
  template <int W>
  __host__ __device__ static void mac(uint32_t (&acc)[W], const In (&in)[W], const uint32_t* slot, const uint8_t*) {
    uint32_t s[8];
    load_slot<8>(slot, s);
    const NibbleTable t{s[0], s[1], s[2], s[3], s[4], s[5], 0, 0};
#pragma unroll
    for (int w = 0; w < W; ++w) acc[w] ^= nibble_mul(in[w], t);
  }
};

template <>
struct Mul<Strategy::XorShift> {
  static constexpr int kSlotWords = 8;
  using In = XorShiftIn;
  __host__ __device__ static uint32_t slot_word(uint8_t c, int i) { return xorshift_mask(c, i); }
  template <int W>
  __host__ __device__ static void prepare(const uint32_t (&w)[W], In (&in)[W], const uint8_t*) {
#pragma unroll
    for (int i = 0; i < W; ++i) in[i] = xorshift_prepare(w[i]);
  }
  template <int W>
  __host__ __device__ static void mac(uint32_t (&acc)[W], const In (&in)[W], const uint32_t* slot, const uint8_t*) {
    uint32_t m[8];
    load_slot<8>(slot, m);
#pragma unroll
    for (int w = 0; w < W; ++w) acc[w] ^= xorshift_mul(in[w], m);
  }
};

// WordIn is the input side of the strategies that multiply the input word
// itself: prepare passes the words through.
struct WordIn {
  using In = uint32_t;
  template <int W>
  __host__ __device__ static void prepare(const uint32_t (&w)[W], In (&in)[W], const uint8_t*) {
#pragma unroll
    for (int i = 0; i < W; ++i) in[i] = w[i];
  }
};

template <>
struct Mul<Strategy::Table> : WordIn {
  static constexpr int kSlotWords = 64;  // 256 bytes, T[x] = c*x
  // Four table entries per word, so building a slot is 64 mul_const4 calls.
  __host__ __device__ static uint32_t slot_word(uint8_t c, int i) {
    return mul_const4(0x03020100u + 0x04040404u * static_cast<uint32_t>(i), c);
  }
  template <int W>
  __host__ __device__ static void mac(uint32_t (&acc)[W], const In (&in)[W], const uint32_t* slot, const uint8_t*) {
    const uint8_t* T = reinterpret_cast<const uint8_t*>(slot);
#pragma unroll
    for (int w = 0; w < W; ++w) acc[w] ^= table_mul(in[w], T);
  }
};

template <>
struct Mul<Strategy::TiledLogExp> : WordIn {
  static constexpr int kSlotWords = 1;  // the coefficient itself
  __host__ __device__ static uint32_t slot_word(uint8_t c, int) { return c; }
  // aux holds log[256] then exp[512].
  template <int W>
  __host__ __device__ static void mac(uint32_t (&acc)[W], const In (&in)[W], const uint32_t* slot, const uint8_t* aux) {
    const uint8_t c = static_cast<uint8_t>(*slot);
#pragma unroll
    for (int w = 0; w < W; ++w) acc[w] ^= logexp_mul4(in[w], c, aux, aux + 256);
  }
};

template <>
struct Mul<Strategy::NaiveLogExp> {
  static constexpr int kSlotWords = 0;
};

// ---------------------------------------------------------------------------
// Kernel arguments and shared-memory layout.

struct Args {
  const uint8_t* coeffs;     // rows x k, row-major
  const uint8_t* const* in;  // k shard pointers
  uint8_t* const* out;       // rows shard pointers
  int64_t len;
  int rows, k;
  int k_tile;  // inputs per pass, >= 1
  int accumulate;
};

// A launch's shard pointers and coefficients travel in one of two ways.
// Callers that hold them in device memory pass the arrays' device addresses.
// Callers that hold them in host memory (host_arrays) have the launcher copy
// them into the kernel's parameters, which the launch itself carries to the
// device: no staging copy is queued before the kernel, so back-to-back
// launches follow each other directly. The parameters hold at most
// kInlineShards pointers, inputs then outputs, and so at most
// (kInlineShards / 2)^2 coefficients: 1.6 KB, within the 4 KB of parameters
// every toolkit allows.
constexpr int kInlineShards = KGEN_GF256_INLINE_SHARDS;
constexpr int kInlineCoeffs = (kInlineShards / 2) * (kInlineShards / 2);  // the most rows x k with rows + k <= kInlineShards

struct Inline {
  uint8_t* ptrs[kInlineShards];   // in[0..k), then out[0..rows)
  uint8_t coeffs[kInlineCoeffs];  // rows x k, row-major
};

struct Params {
  Args a;  // with host_arrays, its array pointers are unused
  int host_arrays;
  Inline arrays;
};

// The shared-memory budget a block's dynamic shared memory stays within: the
// default limit of 48 KB less the kernel's static copy of a launch's arrays,
// so no cudaFuncSetAttribute opt-in is needed and several blocks fit per SM.
// Larger k is tiled into passes (see Layout).
constexpr int kSmemBudget = 48 * 1024 - static_cast<int>(sizeof(Inline));

// with_arrays is a with its arrays pointing at arr: the launch's copies,
// wherever they are now.
__host__ __device__ inline Args with_arrays(Args a, const Inline& arr) {
  a.in = arr.ptrs;
  a.out = arr.ptrs + a.k;
  a.coeffs = arr.coeffs;
  return a;
}

// fits_inline reports whether a product's arrays fit the parameters.
__host__ __device__ constexpr bool fits_inline(int rows, int k) { return rows <= kInlineShards - k; }

__host__ __device__ constexpr int round16(int n) { return (n + 15) / 16 * 16; }

// Layout of a block's dynamic shared memory for k_tile inputs per pass:
// slots [k_tile][ROWS][kSlotWords] words, then the pass's input pointers, the
// block's output pointers, and (TiledLogExp) the log/exp tables.
template <class K>
struct Layout {
  static constexpr int kSlotWords = Mul<K::kStrategy>::kSlotWords;
  static constexpr int kAux = K::kStrategy == Strategy::TiledLogExp ? 256 + 512 : 0;
  // The input ring (STAGES > 0): [stage][input of the batch][thread], each
  // entry one thread's BYTES_PER_THREAD, so a warp's accesses are contiguous.
  static constexpr int kRing =
      K::kStages * Batch<K::kWords>::kInputs * K::kThreads * K::kBytesPerThread;
  int k_tile;
  __host__ __device__ constexpr int in_off() const { return round16(k_tile * K::kRows * kSlotWords * 4); }
  __host__ __device__ constexpr int out_off() const { return in_off() + k_tile * 8; }
  __host__ __device__ constexpr int aux_off() const { return out_off() + K::kRows * 8; }
  __host__ __device__ constexpr int ring_off() const { return round16(aux_off() + kAux); }
  __host__ __device__ constexpr int bytes() const { return ring_off() + kRing; }

  // max_k_tile is the most inputs whose slots fit the budget.
  __host__ __device__ static constexpr int max_k_tile() {
    return (kSmemBudget - 16 - K::kRows * 8 - kAux) / (K::kRows * kSlotWords * 4 + 8);
  }
  static_assert(K::kStrategy == Strategy::NaiveLogExp || max_k_tile() >= 1, "one input's slots exceed the budget");
  static_assert(kRing + 48 * 1024 <= 227 * 1024, "the input ring does not fit an SM's shared memory");
};

// k_tile_for: all k in one pass when the slots fit, else passes of the most
// that fit (each later pass re-reads and re-writes the outputs once).
template <class K>
__host__ __device__ inline int k_tile_for(int k) {
  const int m = Layout<K>::max_k_tile();
  const int t = k < m ? k : m;
  return t > 1 ? t : 1;
}

__host__ __device__ inline int num_passes(const Args& a) {
  const int p = (a.k + a.k_tile - 1) / a.k_tile;
  return p > 1 ? p : 1;  // k == 0 still makes one pass, writing zeros
}

// ---------------------------------------------------------------------------
// Global-memory access: the aligned path moves BYTES_PER_THREAD at once, the
// byte path moves bytes first + m*THREADS (coalesced across the warp for
// every m) and packs them into the same words: the field works bytewise, so
// which bytes share a word does not matter as long as loads and stores agree.

template <int W>
struct VecAccess {
  int64_t off;

  __host__ __device__ void load_in(const uint8_t* p, uint32_t (&w)[W]) const {
#ifdef __CUDA_ARCH__
    // Read-only path (LDG.NC): inputs are never written by the kernel.
    if constexpr (W == 4) {
      const uint4 v = __ldg(reinterpret_cast<const uint4*>(p + off));
      w[0] = v.x, w[1] = v.y, w[2] = v.z, w[3] = v.w;
    } else if constexpr (W == 2) {
      const uint2 v = __ldg(reinterpret_cast<const uint2*>(p + off));
      w[0] = v.x, w[1] = v.y;
    } else {
      w[0] = __ldg(reinterpret_cast<const uint32_t*>(p + off));
    }
#else
    assert(reinterpret_cast<uintptr_t>(p + off) % (4 * W) == 0 && "the aligned path got a misaligned pointer");
    memcpy(w, p + off, sizeof(w));
#endif
  }
  // load_out reads back an output: a coherent load, since this block (or an
  // earlier pass of it) may have written it.
  __host__ __device__ void load_out(const uint8_t* p, uint32_t (&w)[W]) const {
#ifdef __CUDA_ARCH__
    if constexpr (W == 4) {
      const uint4 v = *reinterpret_cast<const uint4*>(p + off);
      w[0] = v.x, w[1] = v.y, w[2] = v.z, w[3] = v.w;
    } else if constexpr (W == 2) {
      const uint2 v = *reinterpret_cast<const uint2*>(p + off);
      w[0] = v.x, w[1] = v.y;
    } else {
      w[0] = *reinterpret_cast<const uint32_t*>(p + off);
    }
#else
    memcpy(w, p + off, sizeof(w));
#endif
  }
  // Plain stores: streaming hints (__ldcs/__stcs) measured within noise on
  // an H100 (+1%), and evict-first inputs could cost the L2 reuse between
  // row groups.
  __host__ __device__ void store(uint8_t* p, const uint32_t (&w)[W]) const {
#ifdef __CUDA_ARCH__
    if constexpr (W == 4) {
      *reinterpret_cast<uint4*>(p + off) = make_uint4(w[0], w[1], w[2], w[3]);
    } else if constexpr (W == 2) {
      *reinterpret_cast<uint2*>(p + off) = make_uint2(w[0], w[1]);
    } else {
      *reinterpret_cast<uint32_t*>(p + off) = w[0];
    }
#else
    assert(reinterpret_cast<uintptr_t>(p + off) % (4 * W) == 0 && "the aligned path got a misaligned pointer");
    memcpy(p + off, w, sizeof(w));
#endif
  }
};

template <int W, int THREADS, bool GUARD>
struct ByteAccess {
  int64_t first;   // position of byte 0; byte m is at first + m * THREADS
  int64_t lo, hi;  // only positions in [lo, hi) are read or written

  // Without GUARD every position is inside the shard: the interior steps,
  // which then need no compare per byte.
  __host__ __device__ bool valid(int m) const {
    if (!GUARD) return true;
    const int64_t q = first + static_cast<int64_t>(m) * THREADS;
    return q >= lo && q < hi;
  }
  __host__ __device__ void load(const uint8_t* p, uint32_t (&w)[W]) const {
#pragma unroll
    for (int i = 0; i < W; ++i) w[i] = 0;
#pragma unroll
    for (int m = 0; m < 4 * W; ++m) {
      if (valid(m)) w[m / 4] |= static_cast<uint32_t>(p[first + static_cast<int64_t>(m) * THREADS]) << (8 * (m % 4));
    }
  }
  __host__ __device__ void load_in(const uint8_t* p, uint32_t (&w)[W]) const { load(p, w); }
  __host__ __device__ void load_out(const uint8_t* p, uint32_t (&w)[W]) const { load(p, w); }
  __host__ __device__ void store(uint8_t* p, const uint32_t (&w)[W]) const {
#pragma unroll
    for (int m = 0; m < 4 * W; ++m) {
      if (valid(m)) p[first + static_cast<int64_t>(m) * THREADS] = static_cast<uint8_t>(w[m / 4] >> (8 * (m % 4)));
    }
  }
};

// ---------------------------------------------------------------------------
// Per-thread work, shared by the kernel and the host emulation.

// Pass-local view of the block's shared memory.
template <class K>
struct Staged {
  const uint32_t* slots;
  const uint8_t* const* in;
  uint8_t* const* out;
  const uint8_t* aux;
  int nj;         // inputs in this pass
  int rows_here;  // output rows of this block, <= ROWS
  bool load_out;  // start from the outputs (accumulate, or a later pass)

  __host__ __device__ Staged(const Args& a, int by, int pass, const uint8_t* smem) {
    const Layout<K> lay{a.k_tile};
    slots = reinterpret_cast<const uint32_t*>(smem);
    in = reinterpret_cast<const uint8_t* const*>(smem + lay.in_off());
    out = reinterpret_cast<uint8_t* const*>(smem + lay.out_off());
    aux = smem + lay.aux_off();
    const int j0 = pass * a.k_tile;
    nj = a.k - j0 < a.k_tile ? a.k - j0 : a.k_tile;
    if (nj < 0) nj = 0;
    const int left = a.rows - by * K::kRows;
    rows_here = left < K::kRows ? left : K::kRows;
    load_out = pass > 0 || a.accumulate != 0;
  }
};

// multiply_input adds input word vector w times every row's coefficient.
// prepare runs once per input word vector; rows past rows_here have zero slots, so
// the unrolled row loop needs no branch.
template <class K>
__host__ __device__ __forceinline__ void multiply_input(uint32_t (&acc)[K::kRows][K::kWords],
                                                        const uint32_t (&w)[K::kWords], const uint32_t* slots,
                                                        const uint8_t* aux) {
  using M = Mul<K::kStrategy>;
  typename M::In in[K::kWords];
  M::template prepare<K::kWords>(w, in, aux);
#pragma unroll
  for (int r = 0; r < K::kRows; ++r) M::template mac<K::kWords>(acc[r], in, slots + r * M::kSlotWords, aux);
}

// load_acc starts a step's accumulators: the outputs (accumulate, or a
// later pass) or zeros.
template <class K, class Access>
__host__ __device__ __forceinline__ void load_acc(const Access& io, const Staged<K>& s,
                                                  uint32_t (&acc)[K::kRows][K::kWords]) {
#pragma unroll
  for (int r = 0; r < K::kRows; ++r) {
    if (s.load_out && r < s.rows_here) {
      io.load_out(s.out[r], acc[r]);
    } else {
#pragma unroll
      for (int i = 0; i < K::kWords; ++i) acc[r][i] = 0;
    }
  }
}

template <class K, class Access>
__host__ __device__ __forceinline__ void store_acc(const Access& io, const Staged<K>& s,
                                                   const uint32_t (&acc)[K::kRows][K::kWords]) {
#pragma unroll
  for (int r = 0; r < K::kRows; ++r) {
    if (r < s.rows_here) io.store(s.out[r], acc[r]);
  }
}

// process computes one step of the byte path (one thread's BYTES_PER_THREAD
// positions) for every row of the block and the pass's inputs, loading a
// batch of inputs before multiplying any of it.
template <class K, class Access>
__host__ __device__ __forceinline__ void process(const Access& io, const Staged<K>& s) {
  constexpr int R = K::kRows, W = K::kWords, B = Batch<W>::kInputs;
  constexpr int kSlotRow = R * Mul<K::kStrategy>::kSlotWords;  // words per input
  uint32_t acc[R][W];
  load_acc(io, s, acc);
  // Every batch, the last and partial one too, issues all its loads before
  // its first multiply (the branches are uniform).
  for (int j = 0; j < s.nj; j += B) {
    uint32_t w[B][W];
#pragma unroll
    for (int b = 0; b < B; ++b) {
      if (j + b < s.nj) io.load_in(s.in[j + b], w[b]);
    }
#pragma unroll
    for (int b = 0; b < B; ++b) {
      if (j + b < s.nj) multiply_input<K>(acc, w[b], s.slots + (j + b) * kSlotRow, s.aux);
    }
  }
  store_acc(io, s, acc);
}

// process_vec_stream runs the aligned path's grid-stride loop over steps
// c, c + stride, ... < n with software pipelining across batches and steps:
// while one batch of inputs is multiplied, the next batch (of this step, or
// the first of the next step) is already loading. The arithmetic takes about
// as long as the memory traffic here (nibble: ~6.5 ALU instructions per
// 4 bytes and coefficient), so hiding load latency behind it is what brings
// the kernel near copy bandwidth; pipelining measured +10% on an H100.
template <class K>
__host__ __device__ __forceinline__ void process_vec_stream(const Staged<K>& s, int64_t c, int64_t stride,
                                                            int64_t n) {
  constexpr int R = K::kRows, W = K::kWords, B = Batch<W>::kInputs, BPT = K::kBytesPerThread;
  constexpr int kSlotRow = R * Mul<K::kStrategy>::kSlotWords;
  if (c >= n) return;
  uint32_t w[B][W];
  {
    const VecAccess<W> io{c * BPT};
#pragma unroll
    for (int b = 0; b < B; ++b) {
      if (b < s.nj) io.load_in(s.in[b], w[b]);
    }
  }
  for (; c < n; c += stride) {
    const VecAccess<W> io{c * BPT};
    const VecAccess<W> next{(c + stride) * BPT};
    const bool more = c + stride < n;
    uint32_t acc[R][W];
    load_acc(io, s, acc);
    for (int j = 0; j < s.nj; j += B) {
      uint32_t cur[B][W];
#pragma unroll
      for (int b = 0; b < B; ++b) {
#pragma unroll
        for (int i = 0; i < W; ++i) cur[b][i] = w[b][i];
      }
      if (j + B < s.nj) {
#pragma unroll
        for (int b = 0; b < B; ++b) {
          if (j + B + b < s.nj) io.load_in(s.in[j + B + b], w[b]);
        }
      } else if (more) {
#pragma unroll
        for (int b = 0; b < B; ++b) {
          if (b < s.nj) next.load_in(s.in[b], w[b]);
        }
      }
#pragma unroll
      for (int b = 0; b < B; ++b) {
        if (j + b < s.nj) multiply_input<K>(acc, cur[b], s.slots + (j + b) * kSlotRow, s.aux);
      }
    }
    store_acc(io, s, acc);
  }
}

// Asynchronous copies into shared memory (cp.async, sm_80 and later); on the
// host, plain copies, which the per-thread emulation may make at once
// because every thread's ring entries are its own.
template <int BYTES>
__host__ __device__ __forceinline__ void copy_async(uint8_t* dst, const uint8_t* src) {
#ifdef __CUDA_ARCH__
  const uint32_t d = static_cast<uint32_t>(__cvta_generic_to_shared(dst));
  if constexpr (BYTES == 16) {
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(d), "l"(src) : "memory");
  } else {
    asm volatile("cp.async.ca.shared.global [%0], [%1], %2;\n" ::"r"(d), "l"(src), "n"(BYTES) : "memory");
  }
#else
  memcpy(dst, src, BYTES);
#endif
}
__host__ __device__ __forceinline__ void copy_commit() {
#ifdef __CUDA_ARCH__
  asm volatile("cp.async.commit_group;\n" ::: "memory");
#endif
}
template <int N>
__host__ __device__ __forceinline__ void copy_wait() {
#ifdef __CUDA_ARCH__
  asm volatile("cp.async.wait_group %0;\n" ::"n"(N) : "memory");
#endif
}

// process_vec_ring is process_vec_stream with the inputs staged through a
// per-thread ring of STAGES batches in shared memory: the copies of batch
// q + STAGES - 1 are issued before batch q is multiplied, across steps, so
// up to STAGES - 1 batches per thread are in flight. Each thread reads back
// only the entries it copied, so no barrier is needed; a batch's entries
// are overwritten only after the arithmetic that used them was issued.
template <class K>
__host__ __device__ __forceinline__ void process_vec_ring(const Staged<K>& s, uint8_t* ring, int tid, int64_t c,
                                                          int64_t stride, int64_t n) {
  constexpr int R = K::kRows, W = K::kWords, B = Batch<W>::kInputs, BPT = K::kBytesPerThread, S = K::kStages,
                T = K::kThreads;
  constexpr int kSlotRow = R * Mul<K::kStrategy>::kSlotWords;
  if (c >= n) return;
  const int nb = (s.nj + B - 1) / B;  // batches per step
  uint8_t* const mine = ring + static_cast<int64_t>(tid) * BPT;
  auto entry = [&](int stage, int b) { return mine + static_cast<int64_t>(stage * B + b) * T * BPT; };
  // The issue cursor: step ic, batch ib, ring stage is.
  int64_t ic = c;
  int ib = 0, is = 0;
  auto issue = [&] {
    if (nb > 0 && ic < n) {
#pragma unroll
      for (int b = 0; b < B; ++b) {
        if (ib * B + b < s.nj) copy_async<BPT>(entry(is, b), s.in[ib * B + b] + ic * BPT);
      }
      if (++ib == nb) ib = 0, ic += stride;
    }
    copy_commit();  // empty groups too: wait_group counts groups
    is = is + 1 == S ? 0 : is + 1;
  };
  for (int q = 0; q < S - 1; ++q) issue();
  int us = 0;  // the stage the arithmetic reads
  for (; c < n; c += stride) {
    const VecAccess<W> io{c * BPT};
    uint32_t acc[R][W];
    load_acc(io, s, acc);
    for (int jb = 0; jb < nb; ++jb) {
      issue();
      copy_wait<S - 1>();  // batch jb of step c has landed
      uint32_t cur[B][W];
#pragma unroll
      for (int b = 0; b < B; ++b) {
        if (jb * B + b < s.nj) VecAccess<W>{0}.load_out(entry(us, b), cur[b]);
      }
#pragma unroll
      for (int b = 0; b < B; ++b) {
        if (jb * B + b < s.nj) multiply_input<K>(acc, cur[b], s.slots + (jb * B + b) * kSlotRow, s.aux);
      }
      us = us + 1 == S ? 0 : us + 1;
    }
    store_acc(io, s, acc);
  }
  copy_wait<0>();  // nothing lands in the ring after this thread moves on
}

// misaligned reports whether p cannot take the aligned path's vector accesses.
template <class K>
__host__ __device__ inline bool misaligned(const void* p) {
  return reinterpret_cast<uintptr_t>(p) % K::kBytesPerThread != 0;
}

// stage writes this thread's share of the pass's slots and input pointers
// (and in pass 0 the output pointers and tables), and returns whether any
// pointer it checked is misaligned. Pass 0 checks every input, not only the
// pass's, so that all passes take the same path: the two paths give a byte
// to different threads (the tail even to a different block), and a pass may
// only re-read outputs that its own block wrote before the barrier.
template <class K>
__host__ __device__ __forceinline__ bool stage(const Args& a, int tid, int by, int pass, uint8_t* smem) {
  using M = Mul<K::kStrategy>;
  constexpr int R = K::kRows, SW = M::kSlotWords, T = K::kThreads;
  const Layout<K> lay{a.k_tile};
  const Staged<K> s(a, by, pass, smem);
  const int j0 = pass * a.k_tile;
  uint32_t* slots = reinterpret_cast<uint32_t*>(smem);
  for (int it = tid; it < s.nj * R * SW; it += T) {
    const int jl = it / (R * SW), r = (it / SW) % R, i = it % SW;
    const int row = by * R + r;
    const uint8_t c = r < s.rows_here ? a.coeffs[static_cast<int64_t>(row) * a.k + j0 + jl] : 0;
    slots[it] = M::slot_word(c, i);
  }
  const uint8_t** in = reinterpret_cast<const uint8_t**>(smem + lay.in_off());
  for (int jl = tid; jl < s.nj; jl += T) in[jl] = a.in[j0 + jl];
  bool bad = false;
  if (pass == 0) {
    uint8_t** out = reinterpret_cast<uint8_t**>(smem + lay.out_off());
    for (int r = tid; r < R; r += T) {
      out[r] = r < s.rows_here ? a.out[by * R + r] : nullptr;
      if (r < s.rows_here) bad = bad || misaligned<K>(out[r]);
    }
    for (int j = tid; j < a.k; j += T) bad = bad || misaligned<K>(a.in[j]);
    if (Layout<K>::kAux) {
      const LogExp& t = log_exp();
      uint8_t* aux = smem + lay.aux_off();
      for (int i = tid; i < 256; i += T) aux[i] = t.log[i];
      for (int i = tid; i < 512; i += T) aux[256 + i] = t.exp[i];
    }
  }
  return bad;
}

// first_step is thread tid's first vector step in the aligned loop of block
// bx of nbx; its next ones follow every nbx * kThreads steps. Warps, not
// blocks, take turns along the shards: warp w of block bx takes slot
// w * nbx + bx of each round. When the rounds do not divide evenly, the last
// partial one is then spread over the warps of every block instead of
// falling to whole blocks (10+4 at 16 MiB on an H100: 2048 block steps of
// 8 KB over 132 blocks, so 68 blocks made a 16th round while 64 idled). It
// measured 1% faster there (97.3 to 96.1 us), about the noise.
template <class K>
__host__ __device__ __forceinline__ int64_t first_step(int tid, int bx, int nbx) {
  return (static_cast<int64_t>(tid / 32) * nbx + bx) * 32 + tid % 32;
}

// compute does this thread's part of one pass. Aligned: whole vector steps
// in a grid-stride loop (first_step), then the len % BYTES_PER_THREAD tail on
// the byte path by one block. Otherwise the byte path throughout, over the
// same block steps.
template <class K>
__host__ __device__ __forceinline__ void compute(const Args& a, int tid, int bx, int by, int nbx, int pass,
                                                 const uint8_t* smem, bool vec) {
  constexpr int T = K::kThreads, BPT = K::kBytesPerThread, W = K::kWords;
  constexpr int64_t CH = K::kChunk;
  const Staged<K> s(a, by, pass, smem);
  if (vec) {
    const int64_t n_full = a.len / BPT;
    const int64_t first = first_step<K>(tid, bx, nbx);
    const int64_t stride = static_cast<int64_t>(nbx) * T;
    if constexpr (K::kStages > 0) {
      uint8_t* ring = const_cast<uint8_t*>(smem) + Layout<K>{a.k_tile}.ring_off();
      process_vec_ring<K>(s, ring, tid, first, stride, n_full);
    } else {
      process_vec_stream<K>(s, first, stride, n_full);
    }
    // The tail may go to any one block: vec is the same in every pass, so
    // each pass gives the tail to the same threads. The last block, because
    // the grid-stride loop never gives it more steps than block 0.
    const int64_t tail = n_full * BPT;
    if (tail < a.len && bx == nbx - 1) process<K>(ByteAccess<W, T, true>{tail + tid, tail, a.len}, s);
  } else {
    const int64_t full = a.len / CH;  // block steps wholly inside the shards
    int64_t bc = bx;
    for (; bc < full; bc += nbx) process<K>(ByteAccess<W, T, false>{bc * CH + tid, 0, a.len}, s);
    if (bc * CH < a.len) process<K>(ByteAccess<W, T, true>{bc * CH + tid, 0, a.len}, s);
  }
}

// warm_l2 asks L2 for the first lines of pass 0's inputs that this thread's
// warp will read: one prefetch_l2 (kgen/launch.cuh) per 128-byte line,
// input by input along the first step, then the next step, kWarmLines per
// prefetching lane. The kernel calls it before wait_prior_grids, so those
// loads overlap the end of the kernel before it instead of following it
// (safe although earlier work may still write those inputs: see
// prefetch_l2). On an H100 (ring kernel, back-to-back launches, us with no
// warming / two whole steps / 8 lines): 10+4 at 16 MiB 93.3 / 91.0 / 90.8
// (0.848x to 0.871x of the copy floor); 4+2 41.1 / 39.0 / 39.1; 10+4 at 4
// MiB 29.0 / 27.9 / 27.1. Whole steps of many inputs fill L2 with lines the
// previous kernel then evicts: 17+3 143.0 / 144.7 / 142.8, 32+8 497.1 /
// 502.2 / 499.7.
constexpr int kWarmLines = 8;

template <class K>
__device__ __forceinline__ void warm_l2(const Args& a, int tid, int bx, int nbx) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  constexpr int kLanesPerLine = 128 / K::kBytesPerThread;
  if (tid % kLanesPerLine != 0) return;
  const int64_t n_full = a.len / K::kBytesPerThread;
  const int64_t stride = static_cast<int64_t>(nbx) * K::kThreads;
  const int nj = a.k < a.k_tile ? a.k : a.k_tile;
  int left = kWarmLines;
  for (int64_t c = first_step<K>(tid, bx, nbx); left > 0 && c < n_full; c += stride) {
    for (int j = 0; j < nj && left > 0; ++j, --left) {
      prefetch_l2(a.in[j] + c * K::kBytesPerThread);
    }
  }
#endif
}

// naive_byte makes byte i of the rows of row group by: the textbook loop.
template <class K>
__host__ __device__ void naive_byte(const Args& a, int by, int64_t i) {
  for (int r = 0; r < K::kRows; ++r) {
    const int row = by * K::kRows + r;
    if (row >= a.rows) break;
    uint8_t* o = a.out[row];
    uint8_t acc = a.accumulate ? o[i] : 0;
    for (int j = 0; j < a.k; ++j) acc ^= gf_mul_byte(a.coeffs[static_cast<int64_t>(row) * a.k + j], a.in[j][i]);
    o[i] = acc;
  }
}

// ---------------------------------------------------------------------------
// Kernels.

// kernel_args is the product's Args in a kernel. Arrays that the launch
// carries are first copied from the parameters into shared memory: the
// kernel code reads them through pointers, and a pointer to a parameter
// would make the compiler copy all 1.6 KB of them into every thread's local
// memory (nvcc 11.8 miscompiles __grid_constant__ here, which would avoid
// that).
__device__ __forceinline__ Args kernel_args(const Params& p, Inline& shared) {
  if (!p.host_arrays) return p.a;
  for (int i = threadIdx.x; i < p.a.k + p.a.rows; i += blockDim.x) shared.ptrs[i] = p.arrays.ptrs[i];
  for (int i = threadIdx.x; i < p.a.rows * p.a.k; i += blockDim.x) shared.coeffs[i] = p.arrays.coeffs[i];
  __syncthreads();
  return with_arrays(p.a, shared);
}

// The kernel is launched early (launch_early): with launch-carried arrays
// its set-up (the arrays, the coefficient slots, the alignment checks) reads
// only its parameters and runs while the kernel before it finishes, and it
// asks L2 for its first steps of input (warm_l2) before it waits; with
// arrays in device memory it waits first, since earlier work may write them.
// The next kernel may start as soon as this one's blocks leave the SMs.
template <class K>
__global__ void __launch_bounds__(K::kThreads, min_blocks<K>()) gf256_kernel(const Params p) {
  extern __shared__ __align__(16) uint8_t kgen_gf256_smem[];
  __shared__ Inline arrays;
  allow_early_start();
  if (!p.host_arrays) wait_prior_grids();
  const Args a = kernel_args(p, arrays);
  const int passes = num_passes(a);
  bool vec = false;
  for (int pass = 0; pass < passes; ++pass) {
    if (pass > 0) __syncthreads();  // every thread is done with the previous pass's slots
    const bool bad = stage<K>(a, threadIdx.x, blockIdx.y, pass, kgen_gf256_smem);
    // The barrier that publishes the slots also ORs the alignment checks:
    // the whole block takes one path, decided on the device because the
    // host cannot read the pointer arrays without a copy.
    const int any_bad = __syncthreads_or(bad);
    if (pass == 0 && p.host_arrays) {
      if (any_bad == 0) warm_l2<K>(a, threadIdx.x, blockIdx.x, gridDim.x);
      wait_prior_grids();
    }
    if (pass == 0) vec = any_bad == 0;
    compute<K>(a, threadIdx.x, blockIdx.x, blockIdx.y, gridDim.x, pass, kgen_gf256_smem, vec);
  }
}

template <class K>
__global__ void __launch_bounds__(K::kThreads) gf256_naive_kernel(const Params p) {
  __shared__ Inline arrays;
  const Args a = kernel_args(p, arrays);
  const int64_t i = static_cast<int64_t>(blockIdx.x) * K::kThreads + threadIdx.x;
  if (i < a.len) naive_byte<K>(a, blockIdx.y, i);
}

// ---------------------------------------------------------------------------
// Host side.

// check_args validates the launcher's arguments; KGEN_OK + 1 means "valid,
// nothing to do".
inline int check_args(const uint8_t* coeffs, int rows, int k, const void* in, const void* out, int64_t len,
                      int accumulate, int host_arrays) {
  if (rows < 0 || k < 0 || len < 0) return KGEN_ERR_NEGATIVE_DIM;
  if (rows == 0 || len == 0 || (k == 0 && accumulate)) return KGEN_OK + 1;
  if (out == nullptr || (k > 0 && (in == nullptr || coeffs == nullptr))) return KGEN_ERR_NULL_POINTER;
  if (host_arrays && !fits_inline(rows, k)) return KGEN_ERR_INLINE_LIMIT;
  return KGEN_OK;
}

// make_params checks the arguments and fills p, copying host arrays into
// it; it returns KGEN_OK, KGEN_OK + 1 (nothing to do) or a KGEN_ERR_* code.
// a.k_tile is left for the caller.
inline int make_params(const uint8_t* coeffs, int rows, int k, const uint8_t* const* in, uint8_t* const* out,
                       int64_t len, int accumulate, int host_arrays, Params* p) {
  const int st = check_args(coeffs, rows, k, in, out, len, accumulate, host_arrays);
  if (st != KGEN_OK) return st;
  p->a = Args{coeffs, in, out, len, rows, k, 1, accumulate != 0};
  p->host_arrays = host_arrays != 0;
  if (p->host_arrays) {
    for (int j = 0; j < k; ++j) p->arrays.ptrs[j] = const_cast<uint8_t*>(in[j]);
    for (int r = 0; r < rows; ++r) p->arrays.ptrs[k + r] = out[r];
    if (k > 0) memcpy(p->arrays.coeffs, coeffs, static_cast<size_t>(rows) * k);
    p->a.coeffs = nullptr, p->a.in = nullptr, p->a.out = nullptr;  // only the copies are read
  }
  return KGEN_OK;
}

// launch checks the arguments and starts the kernel on stream. With
// host_arrays, coeffs, in and out are host memory, read before launch
// returns; otherwise they are device memory that the kernel reads. It returns
// KGEN_OK, a negative KGEN_ERR_* code, or the cudaError_t of the launch.
template <class K>
int launch(const uint8_t* coeffs, int rows, int k, const uint8_t* const* in, uint8_t* const* out, int64_t len,
           int accumulate, int host_arrays, cudaStream_t stream) {
  Params p{};
  const int st = make_params(coeffs, rows, k, in, out, len, accumulate, host_arrays, &p);
  if (st != KGEN_OK) return st == KGEN_OK + 1 ? KGEN_OK : st;
  const int groups = ceil_div(rows, K::kRows);
  if (groups > 65535) return KGEN_ERR_GRID_TOO_LARGE;

  if constexpr (K::kStrategy == Strategy::NaiveLogExp) {
    const int64_t blocks = (len + K::kThreads - 1) / K::kThreads;
    if (blocks > 0x7fffffff) return KGEN_ERR_GRID_TOO_LARGE;
    gf256_naive_kernel<K><<<dim3(static_cast<unsigned>(blocks), groups), K::kThreads, 0, stream>>>(p);
    return static_cast<int>(cudaGetLastError());
  } else {
    p.a.k_tile = k_tile_for<K>(k);
    const int smem = Layout<K>{p.a.k_tile}.bytes();
    if constexpr (Layout<K>::kRing > 0) {
      const cudaError_t err = once_per_device<K>([] {
        return cudaFuncSetAttribute(gf256_kernel<K>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                    Layout<K>{Layout<K>::max_k_tile()}.bytes());
      });
      if (err != cudaSuccess) return static_cast<int>(err);
    }
    // One wave: as many blocks as fit on the device at once, the grid-stride
    // loop spreading the bytes evenly. All row groups then run side by side
    // over the same region of the inputs, so groups after the first find the
    // inputs in L2 instead of HBM.
    int device = 0, per_sm = 0;
    cudaError_t err = cudaGetDevice(&device);
    if (err != cudaSuccess) return static_cast<int>(err);
    const int sms = sm_count(device);
    if (sms < 0) return static_cast<int>(cudaGetLastError());
    err = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, gf256_kernel<K>, K::kThreads, smem);
    if (err != cudaSuccess) return static_cast<int>(err);
    if (per_sm < 1) per_sm = 1;
    const int64_t steps = (len + K::kChunk - 1) / K::kChunk;
    int64_t bx = (static_cast<int64_t>(sms) * per_sm + groups - 1) / groups;
    if (bx > steps) bx = steps;
    if (bx < 1) bx = 1;
    return static_cast<int>(
        launch_early(gf256_kernel<K>, dim3(static_cast<unsigned>(bx), groups), dim3(K::kThreads), smem, stream, p));
  }
}

// emulate runs the kernel's per-thread code on the host for the product p
// (from make_params), block by block and thread by thread, with the same
// passes and barriers: for tests on machines without a GPU. Its pointers are
// host pointers; grid_x is the kernel's gridDim.x (the GPU launch derives
// it from the device), and k_tile, when positive, overrides the inputs per
// pass to force passes.
template <class K>
void emulate(Params& p, int grid_x, int k_tile = 0) {
  const int groups = ceil_div(p.a.rows, K::kRows);
  if constexpr (K::kStrategy == Strategy::NaiveLogExp) {
    const Args a = p.host_arrays ? with_arrays(p.a, p.arrays) : p.a;
    for (int by = 0; by < groups; ++by) {
      for (int64_t i = 0; i < a.len; ++i) naive_byte<K>(a, by, i);
    }
  } else {
    const int most = Layout<K>::max_k_tile();
    p.a.k_tile = k_tile > 0 ? (k_tile < most ? k_tile : most) : k_tile_for<K>(p.a.k);
    const Args a = p.host_arrays ? with_arrays(p.a, p.arrays) : p.a;
    std::vector<uint8_t> smem_v(static_cast<size_t>(Layout<K>{a.k_tile}.bytes()) + 16);
    uint8_t* smem = smem_v.data() + (16 - reinterpret_cast<uintptr_t>(smem_v.data()) % 16) % 16;
    for (int by = 0; by < groups; ++by) {
      for (int bx = 0; bx < grid_x; ++bx) {
        bool vec = false;
        for (int pass = 0; pass < num_passes(a); ++pass) {
          bool bad = false;
          for (int t = 0; t < K::kThreads; ++t) bad = stage<K>(a, t, by, pass, smem) || bad;
          if (pass == 0) vec = !bad;
          for (int t = 0; t < K::kThreads; ++t) compute<K>(a, t, bx, by, grid_x, pass, smem, vec);
        }
      }
    }
  }
}

// emulate_on_host is launch on the host: make_params, then emulate.
template <class K>
int emulate_on_host(const uint8_t* coeffs, int rows, int k, const uint8_t* const* in, uint8_t* const* out, int64_t len,
                    int accumulate, int host_arrays, int grid_x, int k_tile = 0) {
  std::vector<Params> box(1);  // 1.6 KB: off the stack
  const int st = make_params(coeffs, rows, k, in, out, len, accumulate, host_arrays, &box[0]);
  if (st != KGEN_OK) return st == KGEN_OK + 1 ? KGEN_OK : st;
  emulate<K>(box[0], grid_x, k_tile);
  return KGEN_OK;
}

}  // namespace gf256
}  // namespace kgen
