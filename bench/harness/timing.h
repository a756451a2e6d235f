// Shared by the harnesses (bench/harness/*.cu): the CUDA error check, the median, and interleaved timing of
// candidates, as back-to-back launches between one pair of events and as a CUDA graph of the same launches.
#pragma once

#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>

#include <algorithm>
#include <vector>

#define CK(x)                                                      \
  do {                                                             \
    cudaError_t e_ = (x);                                          \
    if (e_ != cudaSuccess) {                                       \
      printf("CUDA %s at %d\n", cudaGetErrorString(e_), __LINE__); \
      exit(1);                                                     \
    }                                                              \
  } while (0)

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
