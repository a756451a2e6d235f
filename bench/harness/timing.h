// Shared by the harnesses (bench/harness/*.cu): the CUDA error check, operand sets rotated past the L2, the median,
// and interleaved timing of
// candidates, as back-to-back launches between one pair of events and as a CUDA graph of the same launches.
#pragma once

#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>

#include <algorithm>
#include <cmath>
#include <vector>

#define CK(x)                                                      \
  do {                                                             \
    cudaError_t e_ = (x);                                          \
    if (e_ != cudaSuccess) {                                       \
      printf("CUDA %s at %d\n", cudaGetErrorString(e_), __LINE__); \
      exit(1);                                                     \
    }                                                              \
  } while (0)

// OperandSets are the operands of an M x N x K fp32 GEMM, random in [-1, 1] (B shifted by s % 7 elements in set s),
// in as many sets as hold more than 256 MiB (at least 2), so that launches cycling through them read their operands
// past the 50 MB L2. C is allocated, not set.
struct OperandSets {
  std::vector<float*> A, B, C;
  OperandSets(int M, int N, int K) {
    const size_t ea = static_cast<size_t>(M) * K, eb = static_cast<size_t>(K) * N, ec = static_cast<size_t>(M) * N;
    const int sets = static_cast<int>(std::max<size_t>(2, (256u << 20) / ((ea + eb + ec) * 4) + 1));
    std::vector<float> hv(std::max(ea, eb) + 7);
    srand(3);
    for (auto& x : hv) x = rand() / static_cast<float>(RAND_MAX) * 2.f - 1.f;
    A.resize(sets), B.resize(sets), C.resize(sets);
    for (int s = 0; s < sets; ++s) {
      CK(cudaMalloc(&A[s], ea * 4));
      CK(cudaMalloc(&B[s], eb * 4));
      CK(cudaMalloc(&C[s], ec * 4));
      CK(cudaMemcpy(A[s], hv.data(), ea * 4, cudaMemcpyHostToDevice));
      CK(cudaMemcpy(B[s], hv.data() + (s % 7), eb * 4, cudaMemcpyHostToDevice));
    }
  }
  ~OperandSets() {
    for (size_t s = 0; s < A.size(); ++s) cudaFree(A[s]), cudaFree(B[s]), cudaFree(C[s]);
  }
  OperandSets(const OperandSets&) = delete;
  OperandSets& operator=(const OperandSets&) = delete;
  int size() const { return static_cast<int>(A.size()); }
};

// GemmShape is an M x N x K problem; parse_shapes appends those of a list such as "518x429x255,1000x3000x500" to
// shapes and reports whether the whole list parsed.
struct GemmShape {
  int M, N, K;
};
inline bool parse_shapes(const char* list, std::vector<GemmShape>& shapes) {
  for (const char* p = list; *p;) {
    GemmShape s{};
    int used = 0;
    if (sscanf(p, "%dx%dx%d%n", &s.M, &s.N, &s.K, &used) != 3) return false;
    shapes.push_back(s);
    p += used;
    if (*p == ',') ++p;
  }
  return true;
}

// max_rel_diff is the largest |got - ref| over the largest |ref| (+Inf where got holds a NaN): how the harnesses check
// a kernel's C against cuBLAS's.
inline double max_rel_diff(const std::vector<float>& got, const std::vector<float>& ref) {
  double top = 0, worst = 0;
  for (float v : ref) top = std::max(top, static_cast<double>(fabsf(v)));
  for (size_t j = 0; j < ref.size(); ++j) {
    if (std::isnan(got[j])) return INFINITY;
    worst = std::max(worst, fabs(static_cast<double>(got[j]) - ref[j]));
  }
  return worst / top;
}

// poisoned_rel_diff fills C, ref.size() floats, with NaNs on st, calls launch (which writes C on st), and returns
// max_rel_diff of what it wrote against ref.
template <class F>
double poisoned_rel_diff(float* C, const std::vector<float>& ref, cudaStream_t st, F launch) {
  std::vector<float> got(ref.size());
  CK(cudaMemsetAsync(C, 0xff, ref.size() * 4, st));
  launch();
  CK(cudaStreamSynchronize(st));
  CK(cudaMemcpy(got.data(), C, ref.size() * 4, cudaMemcpyDeviceToHost));
  return max_rel_diff(got, ref);
}

// rel_diffs checks a harness's candidates 1 .. n - 1 against its reference: reference() writes the reference's C
// (elems floats) to ref_c on st, then each run(c) writes C on st, poisoned first (poisoned_rel_diff). Element c of the
// result is candidate c's max_rel_diff (element 0, the reference's own slot, 0).
template <class Ref, class Run>
std::vector<double> rel_diffs(size_t n, const float* ref_c, float* C, size_t elems, cudaStream_t st, Ref reference,
                              Run run) {
  reference();
  std::vector<float> ref(elems);
  CK(cudaStreamSynchronize(st));
  CK(cudaMemcpy(ref.data(), ref_c, elems * 4, cudaMemcpyDeviceToHost));
  std::vector<double> rd(n, 0);
  for (size_t c = 1; c < n; ++c) rd[c] = poisoned_rel_diff(C, ref, st, [&] { run(c); });
  return rd;
}

inline float median(std::vector<float> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

// Timings holds each candidate's median time per launch, in ms: back to back between events, and in a graph.
struct Timings {
  std::vector<float> events, graph;
};

// time_interleaved times candidates 0 .. n-1, where launch(c, i) issues candidate c's i-th launch on st (i cycles
// the operand sets). Each round takes every candidate in turn: warm launches, then reps launches between two
// events, then a graph of the same reps launches (captured once, before the rounds) replayed once to warm and once
// between two events. It returns the medians over the rounds.
template <class F>
Timings time_interleaved(cudaStream_t st, size_t n, int warm, int reps, int rounds, F launch) {
  std::vector<cudaGraphExec_t> ge(n);
  for (size_t c = 0; c < n; ++c) {
    cudaGraph_t g;
    CK(cudaStreamBeginCapture(st, cudaStreamCaptureModeThreadLocal));
    for (int i = 0; i < reps; ++i) launch(c, i);
    CK(cudaStreamEndCapture(st, &g));
    CK(cudaGraphInstantiateWithFlags(&ge[c], g, 0));
    CK(cudaGraphDestroy(g));
  }
  cudaEvent_t e0, e1;
  CK(cudaEventCreate(&e0));
  CK(cudaEventCreate(&e1));
  std::vector<std::vector<float>> tev(n), tgr(n);
  for (int r = 0; r < rounds; ++r) {
    for (size_t c = 0; c < n; ++c) {
      for (int i = 0; i < warm; ++i) launch(c, i);
      CK(cudaEventRecord(e0, st));
      for (int i = 0; i < reps; ++i) launch(c, i);
      CK(cudaEventRecord(e1, st));
      CK(cudaEventSynchronize(e1));
      float ms = 0;
      CK(cudaEventElapsedTime(&ms, e0, e1));
      tev[c].push_back(ms / reps);
      CK(cudaGraphLaunch(ge[c], st));
      CK(cudaEventRecord(e0, st));
      CK(cudaGraphLaunch(ge[c], st));
      CK(cudaEventRecord(e1, st));
      CK(cudaEventSynchronize(e1));
      CK(cudaEventElapsedTime(&ms, e0, e1));
      tgr[c].push_back(ms / reps);
    }
  }
  Timings t;
  for (size_t c = 0; c < n; ++c) {
    t.events.push_back(median(tev[c]));
    t.graph.push_back(median(tgr[c]));
    CK(cudaGraphExecDestroy(ge[c]));
  }
  CK(cudaEventDestroy(e0));
  CK(cudaEventDestroy(e1));
  return t;
}
