// Hopper's warpgroup MMA as small pieces (PTX ISA, "Asynchronous Warpgroup
// Level Matrix Multiply"): shared-memory matrix descriptors for the 128-byte
// swizzled K-major tiles smem_pipeline.hpp already writes, the
// m64n128k16 FP16 instruction with FP32 accumulators, and the fences and
// group waits that order it. sm_90a only.
#pragma once

#include <cstdint>

namespace egemm::cuda::sm90 {

#if defined(__CUDA_ARCH_FEAT_SM90_ALL)

// Descriptor of a K-major tile with 128-byte rows in the 128-byte swizzle
// (chunk c of row r at chunk c ^ (r % 8): swizzled_offset), 1024-byte aligned:
// 8-row groups 1024 bytes apart (SBO), layout type 1 (128B swizzle).
__device__ __forceinline__ std::uint64_t swizzled_tile_descriptor(const void* smem) {
  const std::uint32_t address = static_cast<std::uint32_t>(__cvta_generic_to_shared(smem));
  return (std::uint64_t(address >> 4) & 0x3fff) | (std::uint64_t(1) << 16) | (std::uint64_t(1024 >> 4) << 32) |
         (std::uint64_t(1) << 62);
}

// The descriptor of the same tile `k16` steps of 16 FP16 values (32 bytes) further along k.
__device__ __forceinline__ std::uint64_t advance_k16(std::uint64_t descriptor, int k16) {
  return descriptor + static_cast<std::uint64_t>(2 * k16);  // the address field counts 16-byte units
}

__device__ __forceinline__ void fence() { asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory"); }
__device__ __forceinline__ void commit_group() { asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory"); }
template <int Pending>
__device__ __forceinline__ void wait_group() {
  asm volatile("wgmma.wait_group.sync.aligned %0;\n" ::"n"(Pending) : "memory");
}

// Keeps the compiler from moving accumulator reads or writes across a fence or wait.
__device__ __forceinline__ void fence_operands(float (&d)[64]) {
#pragma unroll
  for (int i = 0; i < 64; ++i) asm volatile("" : "+f"(d[i])::"memory");
}

// d (64 x 128 per warpgroup, 64 registers a thread) = a b (+ d when Accumulate).
template <bool Accumulate>
__device__ __forceinline__ void mma_m64n128k16(float (&d)[64], std::uint64_t a, std::uint64_t b) {
  asm volatile(
      "{\n.reg .pred p;\nsetp.ne.b32 p, %66, 0;\n"
      "wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 {%0,%1,%2,%3,%4,%5,%6,%7,%8,%9,%10,%11,%12,%13,%14,%15,%16,%17,%18,%19,%20,%21,%22,%23,%24,%25,%26,%27,%28,%29,%30,%31,%32,%33,%34,%35,%36,%37,%38,%39,%40,%41,%42,%43,%44,%45,%46,%47,%48,%49,%50,%51,%52,%53,%54,%55,%56,%57,%58,%59,%60,%61,%62,%63}, %64, %65, p, 1, 1, 0, 0;\n}\n"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]), "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]), "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]), "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63])
      : "l"(a), "l"(b), "n"(Accumulate ? 1 : 0));
}

#endif

}  // namespace egemm::cuda::sm90
