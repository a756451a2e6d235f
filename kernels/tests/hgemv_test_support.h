// What the host tests of the fp16 GEMV kernels share (hgemv_host_test.cu for
// kgen/hgemv.cuh, hgemv_mma_host_test.cu for kgen/hgemv_mma.cuh and
// kgen/hgemv_mma_t.cuh): the pass/fail counters, guarded buffers at chosen
// alignments, the problem's operands, the float64 reference and its bound,
// and device mirrors of the buffers. Each test keeps its own cases and input
// fills. Include it after kgen/hgemv.cuh (or a header that includes it).
#pragma once

#include <math.h>
#include <stdio.h>

#include <algorithm>
#include <string>
#include <vector>

#include "kernels/tests/host_check.h"

namespace hgemv_test {

using host_check::check;
using host_check::g_failed;
using host_check::g_passed;
inline bool g_gpu = false;

// Buffer holds a matrix of rows x ld halves between guard halves, its first
// element `off` halves past a 16-byte boundary.
constexpr int kGuard = 24;
constexpr uint16_t kSentinel = 0x7e5a;  // a NaN no computation produces

struct Buffer {
  std::vector<uint16_t> buf;
  int start = 0;
  int64_t ld = 0;
  Buffer() = default;
  Buffer(int64_t rows, int64_t l, int off) : ld(l) {
    buf.assign(static_cast<size_t>(rows * l) + 2 * kGuard + 16, kSentinel);
    const uintptr_t base = reinterpret_cast<uintptr_t>(buf.data()) + 2 * kGuard;
    start = static_cast<int>((16 - base % 16) % 16) / 2 + kGuard + off;
  }
  uint16_t* ptr() { return buf.data() + start; }
  uint16_t& at(int64_t r, int64_t c) { return buf[start + r * ld + c]; }
};

// Problem holds one product's operands. A is n x k (layout N) or k x n
// (layout T, trans); a_at(r, q) is op(A)[r][q] either way.
struct Problem {
  Buffer a, x, y;
  std::vector<uint16_t> y_before;
  bool trans = false;
  uint16_t& a_at(int r, int q) { return trans ? a.at(q, r) : a.at(r, q); }
};

inline double hd(uint16_t h) { return static_cast<double>(kgen::hgemv::half_to_float(h)); }

// verify checks y (its whole buffer) against the float64 reference computed
// from the inputs in p and the y that was there before: each result within
// 2^-11 |ref| + 4 sqrt(k) 2^-24 sum|terms| + 2^-25, overflow as IEEE says
// (+-Inf beyond 65520), NaN exactly where the reference is NaN, and nothing
// outside the m x n results changed. Case has m, n, k, alpha and beta.
template <class Case>
bool verify(const Case& c, Problem& p, const std::vector<uint16_t>& y_after, std::string* why) {
  Buffer before = p.y, after = p.y;
  before.buf = p.y_before;
  after.buf = y_after;
  std::vector<char> inside(after.buf.size(), 0);
  for (int i = 0; i < c.m; ++i)
    for (int r = 0; r < c.n; ++r) inside[after.start + i * after.ld + r] = 1;
  for (size_t e = 0; e < after.buf.size(); ++e) {
    if (!inside[e] && after.buf[e] != before.buf[e]) {
      *why = "wrote outside the results at buffer index " + std::to_string(e);
      return false;
    }
  }
  const double kBig = 65520.0;  // the smallest magnitude that rounds to Inf
  for (int i = 0; i < c.m; ++i) {
    for (int r = 0; r < c.n; ++r) {
      double sum = 0, terms = 0;
      if (c.alpha != 0) {
        for (int q = 0; q < c.k; ++q) {
          const double t = hd(p.a_at(r, q)) * hd(p.x.at(i, q));
          sum += t;
          terms += fabs(t);
        }
      }
      double ref = static_cast<double>(c.alpha) * sum;
      terms *= fabs(static_cast<double>(c.alpha));
      if (c.beta != 0) {
        const double yb = static_cast<double>(c.beta) * hd(before.at(i, r));
        ref += yb;
        terms += fabs(yb);
      }
      const double tol = ldexp(fabs(ref), -11) + 4 * sqrt(std::max(c.k, 1)) * ldexp(terms, -24) + ldexp(1.0, -25);
      const double got = hd(after.at(i, r));
      bool ok;
      if (std::isnan(ref)) {
        ok = std::isnan(got);
      } else if (std::isnan(got)) {
        ok = false;
      } else if (fabs(ref) - tol >= kBig) {
        ok = std::isinf(got) && (got > 0) == (ref > 0);
      } else if (std::isinf(got)) {
        ok = fabs(ref) + tol >= kBig && (got > 0) == (ref > 0);
      } else {
        ok = fabs(got - ref) <= tol;
      }
      if (!ok) {
        char b[200];
        snprintf(b, sizeof(b), "y[%d][%d] = %.9g, reference %.9g (bound %.3g)", i, r, got, ref, tol);
        *why = b;
        return false;
      }
    }
  }
  return true;
}

// DeviceBuffer mirrors a Buffer on the device at the same offset from a
// 16-byte boundary.
struct DeviceBuffer {
  uint16_t* base = nullptr;
  int start = 0;
  explicit DeviceBuffer(const Buffer& h) {
    start = h.start + static_cast<int>(reinterpret_cast<uintptr_t>(h.buf.data()) % 16) / 2;
    cudaMalloc(&base, (h.buf.size() + 16) * 2);
    cudaMemcpy(base + (start - h.start), h.buf.data(), h.buf.size() * 2, cudaMemcpyHostToDevice);
  }
  ~DeviceBuffer() { cudaFree(base); }
  uint16_t* ptr() { return base + start; }
  std::vector<uint16_t> read(const Buffer& h) {
    std::vector<uint16_t> out(h.buf.size());
    cudaMemcpy(out.data(), base + (start - h.start), out.size() * 2, cudaMemcpyDeviceToHost);
    return out;
  }
};

}  // namespace hgemv_test
