// PTX primitives of the kernels that stage operands through shared memory
// (kgen/hgemm.cuh, kgen/hgemv_mma_s.cuh, kgen/hgemv_mma_ts.cuh): cp.async
// copies, ldmatrix, and shared loads and stores; sm_80 and later.
#pragma once

#include <stdint.h>

namespace kgen {

#ifdef __CUDACC__
__device__ __forceinline__ uint32_t smem_u32(const void* p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}

// cp.async.cg bypasses L1 (each chunk is read once per block); the L2 hint
// fetches whole 128-byte lines, which the neighbouring chunks of a row use.
__device__ __forceinline__ void cp_async16(uint32_t dst, const void* src) {
  asm volatile("cp.async.cg.shared.global.L2::128B [%0], [%1], 16;\n" ::"r"(dst), "l"(src) : "memory");
}
// cp_async16_fill copies the first `bytes` (0 to 16) of the chunk at src
// and fills the rest of the 16 with zeros; with 0 nothing is read.
__device__ __forceinline__ void cp_async16_fill(uint32_t dst, const void* src, int bytes) {
  asm volatile("cp.async.cg.shared.global.L2::128B [%0], [%1], 16, %2;\n" ::"r"(dst), "l"(src), "r"(bytes) : "memory");
}
__device__ __forceinline__ void cp_async_commit() { asm volatile("cp.async.commit_group;\n" ::: "memory"); }
template <int N>
__device__ __forceinline__ void cp_async_wait() {
  asm volatile("cp.async.wait_group %0;\n" ::"n"(N) : "memory");
}

// stage_ring runs a cp.async pipeline over `stages` stages through a ring
// of STAGES slots of SLOT_BYTES from shared address base, STAGES - 1 stages
// in flight while one is used, one barrier per stage: issue(slot, i) starts
// the calling thread's copies of stage i into the slot at shared address
// `slot` (each stage is one cp.async group, empty past the last), and
// consume(slot) uses a stage once every thread's copies of it are in. The
// ring is drained on return. The staged GEMV kernels (kgen/hgemv_mma_s.cuh,
// kgen/hgemv_mma_ts.cuh) run their stages through it.
template <int STAGES, int SLOT_BYTES, class Issue, class Consume>
__device__ __forceinline__ void stage_ring(uint32_t base, int stages, Issue issue, Consume consume) {
#pragma unroll
  for (int i = 0; i < STAGES - 1; ++i) {
    if (i < stages) issue(base + i * SLOT_BYTES, i);
    cp_async_commit();
  }
#pragma unroll 1
  for (int i = 0; i < stages; ++i) {
    cp_async_wait<STAGES - 2>();
    __syncthreads();  // stage i is in for every thread; stage i - 1 is read by every warp
    const int next = i + STAGES - 1;
    if (next < stages) issue(base + (next % STAGES) * SLOT_BYTES, next);
    cp_async_commit();
    consume(base + (i % STAGES) * SLOT_BYTES);
  }
  cp_async_wait<0>();
}

__device__ __forceinline__ void st_shared16(uint32_t dst, uint32_t a, uint32_t b, uint32_t c, uint32_t d) {
  asm volatile("st.shared.v4.u32 [%0], {%1, %2, %3, %4};\n" ::"r"(dst), "r"(a), "r"(b), "r"(c), "r"(d) : "memory");
}
__device__ __forceinline__ uint32_t ld_shared32(uint32_t addr) {
  uint32_t v;
  asm volatile("ld.shared.b32 %0, [%1];\n" : "=r"(v) : "r"(addr));
  return v;
}

// ldsm_x4 loads four 8x8 matrices of halves: lanes 8j .. 8j + 7 give the
// row addresses of matrix j, and lane (g, t) = (lane / 4, lane % 4) receives
// register j = row g, halves 2t, 2t + 1 of matrix j; with TRANS, rows 2t and
// 2t + 1 of column g.
template <bool TRANS>
__device__ __forceinline__ void ldsm_x4(uint32_t (&r)[4], uint32_t addr) {
  if (TRANS) {
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];\n"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                 : "r"(addr));
  } else {
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\n"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                 : "r"(addr));
  }
}
#endif

}  // namespace kgen
