// Host tests for kernels/include/kgen/hgemm.cuh; they need no GPU.
//
// The PTX instructions (cp.async, ldmatrix, mma, shfl) are simulated here from
// the PTX ISA's descriptions; everything else is the header's own index code:
//
// 1. Shared memory, per config and operand: the swizzle maps the tile's
//    logical 16-byte chunks one to one onto its physical ones; the cp.async
//    copies of all threads cover each chunk once; every 8-lane phase of the
//    cp.async stores and of the ldmatrix reads touches each bank once; the
//    loop-invariant fragment addresses (Bases) equal the direct ones.
// 2. Fragments: a tile filled through the kernel's copy mapping and read by
//    simulated ldmatrix (.trans where the kernel uses it) gives every lane the
//    A and B elements the PTX ISA's m16n8k16 fragment layout assigns to it;
//    the epilogue's row and column formulas match the C fragment layout.
// 3. Epilogue: the simulated quad transpose leaves each lane 8 consecutive
//    columns of one row; over all blocks, warps, lanes and fragments the
//    stores cover each element of C exactly once and nothing outside it, for
//    odd, degenerate and multi-group shapes, with aligned and misaligned C.
// 4. Whole products: blocks emulated thread by thread (copies, checked and
//    fast sources, ldmatrix, mma, epilogue) on odd shapes of every layout,
//    against a reference; inputs are chosen so that every sum is exact in
//    fp32 and fp16, so C must match bit for bit. beta == 0 must ignore a NaN C.
// 5. Rounding (overflow to +-Inf) and the launcher's argument checks.
// 6. kgen::fill_splits (kgen/common.cuh), the split count of SGEMM instances
//    whose splits fill the GPU, on the cases internal/tuning's FillSplits,
//    its copy for the timing model, is tested on.
//
// Build and run: kernels/tests/run_host_test.sh hgemm_host_test. Prints "N
// passed, M failed" and exits 1 when M > 0.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <random>
#include <string>
#include <vector>

#include "kernels/tests/host_check.h"
#include "kgen/hgemm.cuh"

namespace {

using kgen::Order;
using kgen::hgemm::Accum;
namespace hg = kgen::hgemm;

using host_check::check;

std::string fmt(const char* f, long a, long b = 0, long c = 0, long d = 0) {
  char buf[256];
  snprintf(buf, sizeof buf, f, a, b, c, d);
  return buf;
}

uint16_t h_bits(float f) { return __half_raw(__float2half_rn(f)).x; }
float h_float(uint16_t b) { return hg::half_bits_to_float(b); }

// ---------------------------------------------------------------------------
// PTX simulations.

uint16_t load_half(const std::vector<uint8_t>& smem, uint32_t byte) {
  uint16_t v;
  memcpy(&v, smem.data() + byte, 2);
  return v;
}

// ldsm simulates ldmatrix.sync.aligned.m8n8.x4[.trans].shared.b16: lane
// 8j + r gives the address of row r of matrix j (8 halves); without .trans
// lane t receives in register j the elements (t / 4, 2 (t % 4) + x), x = 0, 1
// (x = 0 in the low half), of matrix j; with .trans the elements
// (2 (t % 4) + x, t / 4).
void ldsm(const std::vector<uint8_t>& smem, const uint32_t (&addr)[32], bool trans, uint32_t (&out)[32][4]) {
  for (int t = 0; t < 32; ++t) {
    for (int j = 0; j < 4; ++j) {
      uint32_t w = 0;
      for (int x = 0; x < 2; ++x) {
        const int row = trans ? 2 * (t % 4) + x : t / 4;
        const int col = trans ? t / 4 : 2 * (t % 4) + x;
        w |= static_cast<uint32_t>(load_half(smem, addr[8 * j + row] + 2 * col)) << (16 * x);
      }
      out[t][j] = w;
    }
  }
}

// The m16n8k16 fragment layouts of the PTX ISA ("Matrix Fragments for
// mma.m16n8k16 with floating point type"), groupID = lane >> 2,
// threadID_in_group = lane % 4. Element i of a lane's fragment (two per
// 32-bit register, the lower index in the low half):
//   A (16 x 16, 8 elements): row = groupID + 8 for a2, a3, a6, a7, else groupID;
//                            col = 2 threadID_in_group + (i & 1), + 8 for i >= 4.
//   B (16 x 8, 4 elements):  row = 2 threadID_in_group + (i & 1), + 8 for i >= 2;
//                            col = groupID.
//   C (16 x 8, 4 elements):  row = groupID, + 8 for i >= 2;
//                            col = 2 threadID_in_group + (i & 1).
void a_elem(int lane, int i, int& row, int& col) {
  row = (lane >> 2) + ((i == 2 || i == 3 || i == 6 || i == 7) ? 8 : 0);
  col = 2 * (lane % 4) + (i & 1) + (i >= 4 ? 8 : 0);
}
void b_elem(int lane, int i, int& row, int& col) {
  row = 2 * (lane % 4) + (i & 1) + (i >= 2 ? 8 : 0);
  col = lane >> 2;
}
void c_elem(int lane, int i, int& row, int& col) {
  row = (lane >> 2) + (i >= 2 ? 8 : 0);
  col = 2 * (lane % 4) + (i & 1);
}

uint16_t half_of(const uint32_t* regs, int i) { return static_cast<uint16_t>(regs[i / 2] >> (16 * (i % 2))); }

// Accumulator element i of one fragment, as float, and its update (the fp16
// accumulator rounds each mma's result).
float acc_get(const float (&c)[4], int i) { return c[i]; }
float acc_get(const uint32_t (&c)[2], int i) { return h_float(half_of(c, i)); }
void acc_set(float (&c)[4], int i, float v) { c[i] = v; }
void acc_set(uint32_t (&c)[2], int i, float v) {
  const uint32_t b = h_bits(v), shift = 16 * (i % 2);
  c[i / 2] = (c[i / 2] & ~(0xffffu << shift)) | b << shift;
}

// mma_sim is D = A * B + C for one m16n8k16 on 32 lanes' fragments.
template <class Acc>
void mma_sim(Acc* const (&acc)[32], const uint32_t (&a)[32][4], const uint32_t (&b)[32][2]) {
  float am[16][16], bm[16][8], cm[16][8];
  for (int l = 0; l < 32; ++l) {
    int r, c;
    for (int i = 0; i < 8; ++i) a_elem(l, i, r, c), am[r][c] = h_float(half_of(a[l], i));
    for (int i = 0; i < 4; ++i) b_elem(l, i, r, c), bm[r][c] = h_float(half_of(b[l], i));
    for (int i = 0; i < 4; ++i) c_elem(l, i, r, c), cm[r][c] = acc_get(*acc[l], i);
  }
  for (int l = 0; l < 32; ++l) {
    for (int i = 0; i < 4; ++i) {
      int r, c;
      c_elem(l, i, r, c);
      float s = cm[r][c];
      for (int k = 0; k < 16; ++k) s += am[r][k] * bm[k][c];
      acc_set(*acc[l], i, s);
    }
  }
}

// quad_transpose runs the epilogue's two shuffle steps on 32 lanes.
void quad_transpose(uint32_t (&w)[32][4]) {
  uint32_t sent[32];
  for (int o = 0; o < 2; ++o) {
    for (int l = 0; l < 32; ++l) sent[l] = hg::xpose_send<1>(w[l], l % 4, o);
    for (int l = 0; l < 32; ++l) hg::xpose_recv<1>(w[l], l % 4, o, sent[l ^ 1]);
  }
  for (int o = 0; o < 2; ++o) {
    for (int l = 0; l < 32; ++l) sent[l] = hg::xpose_send<2>(w[l], l % 4, o);
    for (int l = 0; l < 32; ++l) hg::xpose_recv<2>(w[l], l % 4, o, sent[l ^ 2]);
  }
}

// phase_conflicts is the bank conflict degree minus one of 8 lanes' 16-byte
// accesses at the given byte offsets: 0 when no bank holds two distinct words.
int phase_conflicts(const uint32_t* off, int lanes) {
  uint32_t words[32][8];
  int n[32] = {0};
  int worst = 0;
  for (int l = 0; l < lanes; ++l) {
    for (int w = 0; w < 4; ++w) {
      const uint32_t word = off[l] / 4 + w;
      const int bank = word % 32;
      bool seen = false;
      for (int i = 0; i < n[bank]; ++i) seen = seen || words[bank][i] == word;
      if (!seen) words[bank][n[bank]++] = word;
      if (n[bank] > worst) worst = n[bank];
    }
  }
  return worst - 1;
}

// ---------------------------------------------------------------------------
// 1 and 2: shared memory and fragments.

template <class T>
void check_tile(const std::string& name) {
  std::vector<int> hit(T::kChunks, 0);
  bool ok = T::kBytes % 128 == 0;
  for (int r = 0; r < T::kRows; ++r) {
    for (int c = 0; c < T::kChunksPerRow; ++c) {
      const uint32_t off = T::offset(r, c);
      ok = ok && off % 16 == 0 && off < static_cast<uint32_t>(T::kBytes) &&
           off / T::kRowBytes == static_cast<uint32_t>(r);
      if (off < static_cast<uint32_t>(T::kBytes)) ++hit[off / 16];
    }
  }
  for (int h : hit) ok = ok && h == 1;
  check(ok, name + ": swizzle is not a bijection onto the tile's chunks");
}

// check_copies: every chunk copied once, smem_offset equals the direct
// offset, and each 8-lane phase of a warp's cp.async stores is conflict-free.
template <class T, class CP, int THREADS>
void check_copies(const std::string& name) {
  std::vector<int> hit(T::kChunks, 0);
  bool offsets_ok = true;
  int conflicts = 0;
  for (int warp = 0; warp < THREADS / 32; ++warp) {
    for (int i = 0; i < CP::kCopies; ++i) {
      uint32_t off[32];
      int n = 0;
      for (int l = 0; l < 32; ++l) {
        const int tid = warp * 32 + l;
        if (!CP::active(tid, i)) continue;
        const int row = CP::row(tid, i), ch = CP::chunk(tid);
        if (row >= T::kRows) {
          offsets_ok = false;
          continue;
        }
        ++hit[row * T::kChunksPerRow + ch];
        offsets_ok = offsets_ok && CP::smem_offset(tid, i) == T::offset(row, ch);
        off[n++] = CP::smem_offset(tid, i);
      }
      for (int p = 0; p < n; p += 8) conflicts += phase_conflicts(off + p, n - p < 8 ? n - p : 8);
    }
  }
  bool once = true;
  for (int h : hit) once = once && h == 1;
  check(once, name + ": the copies do not cover each chunk exactly once");
  check(offsets_ok, name + ": Copy::smem_offset differs from Tile::offset");
  check(conflicts == 0, name + fmt(": %ld bank conflicts in cp.async phases", conflicts));
}

// fill_tile writes, through the copy mapping, element (mn, k) = mn * BK + k.
template <class T, class CP, int THREADS, int BK>
void fill_tile(std::vector<uint8_t>& smem, uint32_t base) {
  for (int tid = 0; tid < THREADS; ++tid) {
    for (int i = 0; i < CP::kCopies; ++i) {
      if (!CP::active(tid, i)) continue;
      const int row = CP::row(tid, i), ch = CP::chunk(tid);
      for (int e = 0; e < 8; ++e) {
        const int mn = T::kKContig ? row : ch * 8 + e, k = T::kKContig ? ch * 8 + e : row;
        const uint16_t v = static_cast<uint16_t>(mn * BK + k);
        memcpy(smem.data() + base + CP::smem_offset(tid, i) + 2 * e, &v, 2);
      }
    }
  }
}

template <class K>
void check_fragments(const std::string& name) {
  std::vector<uint8_t> smem(K::kStageBytes, 0xff);
  fill_tile<typename K::TileA, typename K::CopyA, K::kThreads, K::BK>(smem, 0);
  fill_tile<typename K::TileB, typename K::CopyB, K::kThreads, K::BK>(smem, K::TileA::kBytes);
  int bad_a = 0, bad_b = 0, bad_split = 0, conflicts = 0;
  for (int warp = 0; warp < K::kThreads / 32; ++warp) {
    const int wm = (warp / K::kWarpsN) * K::WM, wn = (warp % K::kWarpsN) * K::WN;
    typename K::BasesA ba[32];
    typename K::BasesB bb[32];
    for (int l = 0; l < 32; ++l) ba[l].init(l, wm), bb[l].init(l, wn);
    for (int ks = 0; ks < K::kKSteps; ++ks) {
      for (int mi = 0; mi < K::kMI; ++mi) {
        uint32_t addr[32], regs[32][4];
        for (int l = 0; l < 32; ++l) {
          addr[l] = ba[l].at(ks, mi);
          bad_split += addr[l] != K::FragA::offset(l, wm + 16 * mi, 16 * ks);
        }
        for (int p = 0; p < 4; ++p) conflicts += phase_conflicts(addr + 8 * p, 8);
        ldsm(smem, addr, !K::kAKContig, regs);
        for (int l = 0; l < 32; ++l) {
          for (int i = 0; i < 8; ++i) {
            int r, c;
            a_elem(l, i, r, c);
            bad_a += half_of(regs[l], i) != (wm + 16 * mi + r) * K::BK + 16 * ks + c;
          }
        }
      }
      for (int p = 0; p < K::kNI / 2; ++p) {
        uint32_t addr[32], regs[32][4];
        for (int l = 0; l < 32; ++l) {
          addr[l] = K::TileA::kBytes + bb[l].at(ks, p);
          bad_split += addr[l] - K::TileA::kBytes != K::FragB::offset(l, wn + 16 * p, 16 * ks);
        }
        for (int q = 0; q < 4; ++q) conflicts += phase_conflicts(addr + 8 * q, 8);
        ldsm(smem, addr, !K::kBKContig, regs);
        for (int l = 0; l < 32; ++l) {
          // As load_frags: registers 0, 1 are n8 tile 2p, registers 2, 3 tile 2p + 1.
          for (int half = 0; half < 2; ++half) {
            for (int i = 0; i < 4; ++i) {
              int r, c;
              b_elem(l, i, r, c);
              bad_b += half_of(regs[l] + 2 * half, i) != (wn + 16 * p + 8 * half + c) * K::BK + 16 * ks + r;
            }
          }
        }
      }
    }
  }
  check(bad_split == 0, name + fmt(": %ld fragment addresses differ from Frag::offset", bad_split));
  check(conflicts == 0, name + fmt(": %ld bank conflicts in ldmatrix phases", conflicts));
  check(bad_a == 0, name + fmt(": %ld A fragment elements are not where mma m16n8k16 wants them", bad_a));
  check(bad_b == 0, name + fmt(": %ld B fragment elements are not where mma m16n8k16 wants them", bad_b));
}

// check_epilogue_layout: acc_pair's rows and columns are the C fragment's,
// and the quad transpose gives lane q of each quad columns 8q .. 8q + 7.
void check_epilogue_layout() {
  bool ok = true;
  for (int l = 0; l < 32; ++l) {
    for (int i = 0; i < 4; ++i) {
      int r, c;
      c_elem(l, i, r, c);
      // acc_pair(frag, h) yields elements 2h, 2h + 1: row epi_row(.., 0, h), columns epi_tail_col(.., 0) + 0, 1.
      ok = ok && r == hg::epi_row(l, 0, i / 2) && c == hg::epi_tail_col(l, 0) + i % 2;
    }
  }
  check(ok, "epi_row / epi_tail_col disagree with the mma C fragment layout");
  uint32_t w[32][4];
  for (int l = 0; l < 32; ++l) {
    for (int j = 0; j < 4; ++j) {
      const uint32_t col = hg::epi_tail_col(l, j), row = l / 4;
      w[l][j] = (row << 8 | col) | (row << 8 | (col + 1)) << 16;
    }
  }
  quad_transpose(w);
  int bad = 0;
  for (int l = 0; l < 32; ++l) {
    for (int e = 0; e < 8; ++e) bad += half_of(w[l], e) != ((l / 4) << 8 | (hg::epi_col(l, 0) + e));
  }
  check(bad == 0, fmt("quad transpose: %ld halves out of place", bad));
}

// ---------------------------------------------------------------------------
// 3: epilogue coverage.

template <class K>
void check_coverage(const std::string& name, int M, int N, int64_t ldc, int c_off) {
  std::vector<int> count(static_cast<size_t>(M) * N, 0);
  int outside = 0, misaligned = 0;
  // A fake device address: only its alignment matters.
  const uint16_t* C = reinterpret_cast<const uint16_t*>(uintptr_t{0x10000} + 2 * c_off);
  const bool vec_c = kgen::aligned16(C, ldc);
  const int blocks = kgen::ceil_div(M, K::BM) * kgen::ceil_div(N, K::BN);
  std::vector<int> block_hit(blocks, 0);
  for (int bid = 0; bid < blocks; ++bid) {
    int m0, n0;
    hg::block_origin<K>(bid, M, N, m0, n0);
    if (m0 % K::BM == 0 && n0 % K::BN == 0 && m0 >= 0 && m0 < M && n0 >= 0 && n0 < N) {
      ++block_hit[(m0 / K::BM) * kgen::ceil_div(N, K::BN) + n0 / K::BN];
    } else {
      ++outside;
    }
    const bool checked = !(m0 + K::BM <= M && n0 + K::BN <= N && vec_c);
    auto mark = [&](int row, int col, int width) {
      bool vector = false;
      const int n = hg::store_count(checked, vec_c, row, col, M, N, width, vector);
      if (vector && (reinterpret_cast<uintptr_t>(C + row * ldc + col) % (2 * width) != 0)) ++misaligned;
      for (int e = 0; e < n; ++e) {
        if (row >= M || col + e >= N) {
          ++outside;
        } else {
          ++count[static_cast<size_t>(row) * N + col + e];
        }
      }
    };
    for (int warp = 0; warp < K::kThreads / 32; ++warp) {
      const int wm0 = m0 + (warp / K::kWarpsN) * K::WM, wn0 = n0 + (warp % K::kWarpsN) * K::WN;
      for (int l = 0; l < 32; ++l) {
        for (int mi = 0; mi < K::kMI; ++mi) {
          for (int h = 0; h < 2; ++h) {
            const int row = wm0 + hg::epi_row(l, mi, h);
            for (int grp = 0; grp < K::kEpiGroups; ++grp) mark(row, wn0 + hg::epi_col(l, grp), 8);
            for (int ni = K::kEpiGroups * 4; ni < K::kNI; ++ni) mark(row, wn0 + hg::epi_tail_col(l, ni), 2);
          }
        }
      }
    }
  }
  int wrong = 0;
  for (int c : count) wrong += c != 1;
  for (int h : block_hit) wrong += h != 1;
  check(wrong == 0 && outside == 0 && misaligned == 0,
        name + fmt(": C %ldx%ld: %ld elements or blocks not covered once, %ld stores outside", M, N, wrong, outside) +
            fmt(", %ld misaligned vector stores (ldc %ld)", misaligned, ldc));
}

// ---------------------------------------------------------------------------
// 4: whole products, emulated block by block.

template <class K>
struct LaneAcc {
  hg::AccFrag<K::kAccum> c[K::kMI][K::kNI];
};

struct Problem {
  int M, N, K;
  int a_off, b_off, c_off;  // element offsets of the matrices in their buffers (alignment)
  int64_t lda_pad, ldb_pad, ldc_pad;
  float alpha, beta;
};

// emulate runs K's per-thread code for every block of p; C is updated in place.
template <class K>
void emulate(const Problem& p, const uint16_t* A, int64_t lda, const uint16_t* B, int64_t ldb, uint16_t* C,
             int64_t ldc, int& bad_src, int& bad_fill) {
  using TA = typename K::TileA;
  using TB = typename K::TileB;
  const int M = p.M, N = p.N, Kd = p.K;
  const int blocks = kgen::ceil_div(M, K::BM) * kgen::ceil_div(N, K::BN);
  const int warps = K::kThreads / 32;
  for (int bid = 0; bid < blocks; ++bid) {
    int m0, n0;
    hg::block_origin<K>(bid, M, N, m0, n0);
    std::vector<hg::Loader<TA, typename K::CopyA, K::BK>> la(K::kThreads);
    std::vector<hg::Loader<TB, typename K::CopyB, K::BK>> lb(K::kThreads);
    for (int t = 0; t < K::kThreads; ++t) {
      la[t].init(K::kAKContig ? hg::Stored{A, lda, M, Kd} : hg::Stored{A, lda, Kd, M}, m0, t);
      lb[t].init(K::kBKContig ? hg::Stored{B, ldb, N, Kd} : hg::Stored{B, ldb, Kd, N}, n0, t);
    }
    std::vector<LaneAcc<K>> acc(static_cast<size_t>(warps) * 32);
    for (auto& a : acc) memset(&a, 0, sizeof a);
    const int k_tiles = kgen::ceil_div(Kd, K::BK);
    const bool full_mn = m0 + K::BM <= M && n0 + K::BN <= N;
    const int kt_checked = full_mn && la[0].vec && lb[0].vec ? Kd / K::BK : 0;
    std::vector<uint8_t> smem(K::kStageBytes);
    for (int kt = 0; kt < k_tiles; ++kt) {
      memset(smem.data(), 0xa5, smem.size());
      auto copy = [&](const auto& ld, uint32_t base, int tid, int i) {
        int n = 0;
        const uint16_t* g = ld.src(kt, i, tid, n);
        if (kt < kt_checked) bad_src += n != 8 || ld.fast_src(kt, i) != g;
        for (int e = 0; e < 8; ++e) {
          const uint16_t v = e < n ? g[e] : 0;
          memcpy(smem.data() + base + ld.soff[i] + 2 * e, &v, 2);
        }
      };
      for (int t = 0; t < K::kThreads; ++t) {
        for (int i = 0; i < K::CopyA::kCopies; ++i) {
          if (K::CopyA::active(t, i)) copy(la[t], 0, t, i);
        }
        for (int i = 0; i < K::CopyB::kCopies; ++i) {
          if (K::CopyB::active(t, i)) copy(lb[t], TA::kBytes, t, i);
        }
      }
      for (uint8_t b : smem) bad_fill += b == 0xa5;  // a byte no copy wrote (zeros and data never give 0xa5a5)
      for (int warp = 0; warp < warps; ++warp) {
        const int wm = (warp / K::kWarpsN) * K::WM, wn = (warp % K::kWarpsN) * K::WN;
        typename K::BasesA ba[32];
        typename K::BasesB bb[32];
        for (int l = 0; l < 32; ++l) ba[l].init(l, wm), bb[l].init(l, wn);
        for (int ks = 0; ks < K::kKSteps; ++ks) {
          static uint32_t fa[K::kMI][32][4], fb[K::kNI][32][2];
          for (int mi = 0; mi < K::kMI; ++mi) {
            uint32_t addr[32];
            for (int l = 0; l < 32; ++l) addr[l] = ba[l].at(ks, mi);
            ldsm(smem, addr, !K::kAKContig, fa[mi]);
          }
          for (int q = 0; q < K::kNI / 2; ++q) {
            uint32_t addr[32], r[32][4];
            for (int l = 0; l < 32; ++l) addr[l] = TA::kBytes + bb[l].at(ks, q);
            ldsm(smem, addr, !K::kBKContig, r);
            for (int l = 0; l < 32; ++l) {
              fb[2 * q][l][0] = r[l][0], fb[2 * q][l][1] = r[l][1];
              fb[2 * q + 1][l][0] = r[l][2], fb[2 * q + 1][l][1] = r[l][3];
            }
          }
          for (int mi = 0; mi < K::kMI; ++mi) {
            for (int ni = 0; ni < K::kNI; ++ni) {
              hg::AccFrag<K::kAccum>* lanes[32];
              for (int l = 0; l < 32; ++l) lanes[l] = &acc[warp * 32 + l].c[mi][ni];
              mma_sim(lanes, fa[mi], fb[ni]);
            }
          }
        }
      }
    }
    // Epilogue, as hgemm_kernel and epilogue().
    const bool vec_c = kgen::aligned16(C, ldc);
    const bool checked = !(full_mn && vec_c);
    for (int warp = 0; warp < warps; ++warp) {
      const int wm0 = m0 + (warp / K::kWarpsN) * K::WM, wn0 = n0 + (warp % K::kWarpsN) * K::WN;
      auto value = [&](int l, int mi, int ni, int h, int row, int col) {
        float2 c = make_float2(0.0f, 0.0f);
        if (p.beta != 0.0f && row < M) {  // out_pair reads C only here (unchecked: inside by construction)
          if (col < N) c.x = h_float(C[row * ldc + col]);
          if (col + 1 < N) c.y = h_float(C[row * ldc + col + 1]);
        }
        return hg::combine(hg::acc_pair(acc[warp * 32 + l].c[mi][ni], h), p.alpha, p.beta, c);
      };
      auto store = [&](int row, int col, int width, const uint32_t* w) {
        bool vector = false;
        const int n = hg::store_count(checked, vec_c, row, col, M, N, width, vector);
        for (int e = 0; e < n; ++e) C[row * ldc + col + e] = half_of(w, e);
      };
      for (int mi = 0; mi < K::kMI; ++mi) {
        for (int h = 0; h < 2; ++h) {
          // Every value is computed before any store, as on the GPU, where a
          // warp reads its C tile fragment-wise before writing it.
          uint32_t w[K::kEpiGroups > 0 ? K::kEpiGroups : 1][32][4], tail[K::kNI][32];
          for (int l = 0; l < 32; ++l) {
            const int row = wm0 + hg::epi_row(l, mi, h);
            for (int ni = 0; ni < K::kNI; ++ni) {
              const uint32_t v = value(l, mi, ni, h, row, wn0 + hg::epi_tail_col(l, ni));
              if (ni < K::kEpiGroups * 4) {
                w[ni / 4][l][ni % 4] = v;
              } else {
                tail[ni][l] = v;
              }
            }
          }
          for (int grp = 0; grp < K::kEpiGroups; ++grp) quad_transpose(w[grp]);
          for (int l = 0; l < 32; ++l) {
            const int row = wm0 + hg::epi_row(l, mi, h);
            for (int grp = 0; grp < K::kEpiGroups; ++grp) store(row, wn0 + hg::epi_col(l, grp), 8, w[grp][l]);
            for (int ni = K::kEpiGroups * 4; ni < K::kNI; ++ni) {
              store(row, wn0 + hg::epi_tail_col(l, ni), 2, &tail[ni][l]);
            }
          }
        }
      }
    }
  }
}

// small_half draws k / 8 for |k| <= lim: products are multiples of 1/64, so
// the sums below stay exact in fp32 and, while under 32 in magnitude, in fp16.
uint16_t small_half(std::mt19937& rng, int lim) {
  return h_bits(static_cast<float>(static_cast<int>(rng() % (2 * lim + 1)) - lim) / 8.0f);
}

template <class K>
void check_product(const std::string& name, const Problem& p, std::mt19937& rng) {
  const int M = p.M, N = p.N, Kd = p.K;
  const int64_t lda = (K::kAKContig ? Kd : M) + p.lda_pad, ldb = (K::kBKContig ? Kd : N) + p.ldb_pad;
  const int64_t ldc = N + p.ldc_pad;
  const int64_t a_rows = K::kAKContig ? M : Kd, b_rows = K::kBKContig ? N : Kd;
  std::vector<uint16_t> a(p.a_off + a_rows * lda + 8), b(p.b_off + b_rows * ldb + 8), c(p.c_off + M * ldc + 8);
  // A and B in [-0.5, 0.5]: |partial sums| <= K / 4 < 32 for K < 128 (fp16 exact).
  for (auto& v : a) v = small_half(rng, 4);
  for (auto& v : b) v = small_half(rng, 4);
  for (auto& v : c) v = p.beta == 0.0f ? 0x7e00 : small_half(rng, 8);  // NaN where C must not be read
  const uint16_t *A = a.data() + p.a_off, *B = b.data() + p.b_off;
  uint16_t* C = c.data() + p.c_off;
  std::vector<uint16_t> want(c);
  for (int i = 0; i < M; ++i) {
    for (int j = 0; j < N; ++j) {
      double s = 0;
      for (int k = 0; k < Kd; ++k) {
        const float av = h_float(K::kAKContig ? A[i * lda + k] : A[k * lda + i]);
        const float bv = h_float(K::kBKContig ? B[j * ldb + k] : B[k * ldb + j]);
        s += static_cast<double>(av) * bv;
      }
      double r = p.alpha * s;
      if (p.beta != 0.0f) r += static_cast<double>(p.beta) * h_float(C[i * ldc + j]);
      want[p.c_off + i * ldc + j] = h_bits(static_cast<float>(r));  // r is exact in fp32
    }
  }
  int bad_src = 0, bad_fill = 0;
  emulate<K>(p, A, lda, B, ldb, C, ldc, bad_src, bad_fill);
  int bad = 0;
  for (size_t i = 0; i < c.size(); ++i) bad += c[i] != want[i];
  const std::string shape = name + fmt(": M %ld N %ld K %ld, offsets %ld", M, N, Kd, p.a_off) +
                            fmt("/%ld/%ld, pads %ld/", p.b_off, p.c_off, p.lda_pad) +
                            fmt("%ld/%ld, beta %ld", p.ldb_pad, p.ldc_pad, static_cast<long>(p.beta * 2));
  check(bad == 0, shape + fmt(": %ld halves of C (incl. around it) differ from the reference", bad));
  check(bad_src == 0, shape + fmt(": %ld fast-path sources partial or unequal to the checked ones", bad_src));
  check(bad_fill == 0, shape + fmt(": %ld shared-memory bytes no copy wrote", bad_fill));
}

// ---------------------------------------------------------------------------
// Per-config driver.

template <class K>
void run_config(const std::string& name, std::mt19937& rng, bool products) {
  check_tile<typename K::TileA>(name + " A tile");
  check_tile<typename K::TileB>(name + " B tile");
  check_copies<typename K::TileA, typename K::CopyA, K::kThreads>(name + " A copies");
  check_copies<typename K::TileB, typename K::CopyB, K::kThreads>(name + " B copies");
  check(K::kStageBytes % 128 == 0, name + ": stage size is not a multiple of 128 bytes");
  check(K::kSmemBytes == K::kStages * (K::BM + K::BN) * K::BK * 2, name + ": kSmemBytes is not stages x tiles");
  check_fragments<K>(name);

  const int BM = K::BM, BN = K::BN;
  const int shapes[][2] = {{1, 1}, {BM, BN}, {BM - 1, BN + 1}, {BM + 1, BN - 1}, {2 * BM + 3, 3 * BN + 5},
                           {17 * BM + 9, 2 * BN + 7}, {9 * BM, 1}, {1, 5 * BN + 3}};
  for (const auto& s : shapes) {
    if (s[0] < 1 || s[1] < 1) continue;
    check_coverage<K>(name, s[0], s[1], s[1], 0);
    check_coverage<K>(name, s[0], s[1], s[1] + 3, 0);                // rows not 16-byte aligned
    check_coverage<K>(name, s[0], s[1], (s[1] + 7) / 8 * 8 + 8, 1);  // base misaligned
  }
  if (!products) return;
  const int BK = K::BK;
  const Problem ps[] = {
      {1, 1, 1, 0, 0, 0, 0, 0, 0, 1.0f, 0.0f},
      {BM, BN, 2 * BK, 0, 0, 0, 0, 0, 0, 1.0f, 0.0f},                // fast path only
      {BM, BN, 2 * BK + 5, 0, 0, 0, 0, 0, 0, 0.5f, -1.5f},           // fast, then a partial k tile
      {BM + 3, BN + 5, BK + 7, 0, 0, 0, 0, 0, 0, 2.0f, 1.0f},        // edge blocks
      {2 * BM - 1, BN - 3, 3, 0, 0, 0, 8, 16, 8, 1.0f, -1.5f},       // padded leading dimensions
      {BM, BN, 2 * BK, 1, 3, 0, 1, 3, 0, 1.0f, 0.0f},                // misaligned A and B
      {BM, BN, BK, 0, 0, 1, 0, 0, 1, 0.5f, 1.0f},                    // misaligned C
      {BM + 1, 2 * BN + 1, 0, 0, 0, 0, 0, 0, 0, 1.0f, -1.5f},        // K == 0: C = beta C
      {BM + 1, 2 * BN + 1, 0, 0, 0, 0, 0, 0, 0, 1.0f, 0.0f},         // K == 0, beta == 0: zeros over NaN
  };
  for (const Problem& p : ps) check_product<K>(name, p, rng);
}

template <int BM, int BN, int BK, int WM, int WN, int S, Order A, Order B, Accum C>
using Cfg = hg::Config<BM, BN, BK, WM, WN, S, 1, A, B, C>;

// layouts runs a tiling in the named layouts ("nn nt tn tt"; n = row-major
// as stored, t = column-major; first letter A).
template <int BM, int BN, int BK, int WM, int WN, int S, Accum C = Accum::F32, bool NN = true, bool TN = true>
void layouts(std::mt19937& rng, bool products) {
  const std::string base = fmt("b%ldx%ldx%ld", BM, BN, BK) + fmt("_w%ldx%ld_s%ld", WM, WN, S) +
                           (C == Accum::F32 ? "_f32" : "_f16");
  if constexpr (NN) run_config<Cfg<BM, BN, BK, WM, WN, S, Order::Row, Order::Row, C>>(base + "_nn", rng, products);
  run_config<Cfg<BM, BN, BK, WM, WN, S, Order::Row, Order::Col, C>>(base + "_nt", rng, products);
  if constexpr (TN) run_config<Cfg<BM, BN, BK, WM, WN, S, Order::Col, Order::Row, C>>(base + "_tn", rng, products);
  run_config<Cfg<BM, BN, BK, WM, WN, S, Order::Col, Order::Col, C>>(base + "_tt", rng, products);
}

void test_rounding() {
  check(hg::pack_rn(70000.0f, -70000.0f) == (0x7c00u | 0xfc00u << 16), "overflow does not round to +-Inf");
  check(hg::pack_rn(65504.0f, 65519.0f) == (0x7bffu | 0x7bffu << 16), "max half or its round-down neighbour wrong");
  check(hg::pack_rn(65520.0f, 0.0f) == 0x7c00u, "65520 (the midpoint to Inf) does not round to Inf");
  check(hg::pack_rn(1.0f + 1.0f / 4096, 1.0f + 3.0f / 4096) == (0x3c00u | 0x3c01u << 16), "not round to nearest");
  check(hg::pack_rn(1.0f + 1.0f / 2048, 1.0f + 3.0f / 2048) == (0x3c00u | 0x3c02u << 16), "ties not to even");
  const uint32_t w = hg::combine(make_float2(1.0f, 2.0f), 2.0f, 0.0f, make_float2(NAN, NAN));
  check(w == (0x4000u | 0x4400u << 16), "beta == 0 lets a NaN C through");
  const uint32_t f16 = 0x3c00u | 0xc000u << 16;  // 1, -2
  const uint32_t pair[2] = {f16, 0};
  const float2 v = hg::acc_pair(pair, 0);
  check(v.x == 1.0f && v.y == -2.0f, "acc_pair of an fp16 fragment");
}

void test_args() {
  using K = Cfg<128, 128, 32, 64, 64, 3, Order::Row, Order::Col, Accum::F32>;  // A M x K, B stored N x K
  const uint16_t* p = reinterpret_cast<const uint16_t*>(uintptr_t{256});
  check(hg::check_args<K>(-1, 1, 1, p, 1, p, 1, p, 1) == KGEN_ERR_NEGATIVE_DIM, "negative M accepted");
  check(hg::check_args<K>(1, 1, -1, p, 1, p, 1, p, 1) == KGEN_ERR_NEGATIVE_DIM, "negative K accepted");
  check(hg::check_args<K>(4, 4, 8, p, 7, p, 8, p, 4) == KGEN_ERR_LEADING_DIM, "lda < K accepted (A row-major)");
  check(hg::check_args<K>(4, 4, 8, p, 8, p, 7, p, 4) == KGEN_ERR_LEADING_DIM, "ldb < K accepted (B column-major)");
  check(hg::check_args<K>(4, 4, 8, p, 8, p, 8, p, 3) == KGEN_ERR_LEADING_DIM, "ldc < N accepted");
  check(hg::check_args<K>(4, 4, 8, p, 8, p, 8, nullptr, 4) == KGEN_ERR_NULL_POINTER, "NULL C accepted");
  check(hg::check_args<K>(4, 4, 8, nullptr, 8, p, 8, p, 4) == KGEN_ERR_NULL_POINTER, "NULL A accepted");
  check(hg::check_args<K>(4, 4, 0, nullptr, 1, nullptr, 1, p, 4) == KGEN_OK, "K == 0 needs no A, B");
  check(hg::check_args<K>(0, 4, 8, nullptr, 8, nullptr, 8, nullptr, 4) == KGEN_OK + 1, "M == 0 is not a no-op");
  check(hg::check_args<K>(1 << 30, 1 << 30, 1, p, 1, p, 1, p, 1 << 30) == KGEN_ERR_GRID_TOO_LARGE,
        "huge grid accepted");
  check(hg::check_args<K>(4, 4, 8, p, 8, p, 8, p, 4) == KGEN_OK, "valid arguments refused");
  using T = Cfg<128, 128, 32, 64, 64, 3, Order::Col, Order::Row, Accum::F32>;  // A stored K x M, B K x N
  check(hg::check_args<T>(6, 5, 8, p, 5, p, 5, p, 5) == KGEN_ERR_LEADING_DIM, "lda < M accepted (A column-major)");
  check(hg::check_args<T>(6, 5, 8, p, 6, p, 4, p, 5) == KGEN_ERR_LEADING_DIM, "ldb < N accepted (B row-major)");
  check(hg::check_args<T>(6, 5, 8, p, 6, p, 5, p, 5) == KGEN_OK, "valid column-major arguments refused");
}

// test_fill_splits: the fewest splits, 1 to the most, whose launch
// finishes first; the most where the multiprocessors or the blocks each
// holds are unknown. The cases of internal/tuning's TestFillSplits, which
// says why each is what it is.
void test_fill_splits() {
  const struct {
    int64_t tiles, k_tiles;
    int sms, per_sm, most, want;
  } cases[] = {{9, 725, 132, 2, 32, 29},  {9, 725, 132, 1, 32, 14}, {25, 40, 132, 2, 32, 5},
               {64, 64, 132, 2, 32, 4},   {144, 96, 132, 2, 32, 3}, {198, 17, 132, 2, 16, 1},
               {198, 17, 132, 1, 16, 1},  {256, 128, 132, 2, 4, 1}, {4, 256, 132, 2, 32, 32},
               {4, 2, 132, 2, 2, 2},      {36, 512, 132, 2, 1, 1},  {36, 512, 0, 2, 8, 8},
               {36, 512, 132, 0, 8, 8},   {0, 512, 132, 2, 8, 1}};
  for (const auto& c : cases) {
    const int got = kgen::fill_splits(c.tiles, c.k_tiles, c.sms, c.per_sm, c.most);
    check(got == c.want, fmt("fill_splits(%ld, %ld, %ld, %ld, ", c.tiles, c.k_tiles, c.sms, c.per_sm) +
                             fmt("%ld) = %ld, want %ld", c.most, got, c.want));
  }
}

}  // namespace

int main() {
  std::mt19937 rng(12345);
  test_rounding();
  test_args();
  test_fill_splits();
  check_epilogue_layout();
  // The representative configs (compiled for the ptxas table), every layout.
  layouts<128, 128, 32, 64, 64, 3>(rng, true);
  layouts<128, 128, 32, 64, 64, 4>(rng, false);  // stages change only kSmemBytes here
  layouts<128, 128, 32, 64, 64, 5>(rng, false);
  layouts<128, 256, 32, 64, 64, 3>(rng, true);
  layouts<256, 128, 32, 64, 64, 3>(rng, true);
  layouts<64, 64, 32, 32, 32, 4>(rng, true);
  layouts<128, 64, 32, 64, 32, 4>(rng, true);
  layouts<128, 128, 64, 64, 64, 3>(rng, true);
  layouts<128, 256, 64, 64, 64, 3>(rng, true);  // hgemmk
  layouts<256, 128, 64, 64, 64, 3>(rng, true);
  layouts<128, 64, 64, 64, 32, 6>(rng, true);  // hgemmk, n = 1024
  layouts<128, 128, 32, 64, 64, 3, Accum::F16>(rng, true);
  layouts<64, 64, 32, 32, 32, 4, Accum::F16>(rng, true);
  // Corners of the rules: warp N 16 (no 16-byte epilogue group), warp N 48
  // (a group and a tail; B must be k-contiguous for a 96-wide tile), fewer A
  // chunks than threads (some threads skip copies), 32-wide m/n-contiguous rows.
  layouts<64, 32, 32, 32, 16, 3>(rng, true);
  layouts<64, 96, 32, 32, 48, 3, Accum::F32, false, false>(rng, true);
  layouts<32, 64, 32, 16, 16, 3>(rng, true);
  layouts<32, 32, 64, 16, 16, 4, Accum::F16>(rng, true);
  return host_check::report();
}
