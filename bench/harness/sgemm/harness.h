#pragma once
#include <cuda_runtime.h>
#include <stdint.h>
#include <vector>
typedef int (*LaunchFn)(int, int, int, float, const float*, int64_t, const float*, int64_t, float, float*, int64_t,
                        void*, int64_t, cudaStream_t);
typedef int64_t (*WsFn)(int, int, int);
struct Entry {
  const char* name;
  const char* layout;
  int split;
  LaunchFn launch;
  WsFn ws;
};
