// Warpgroup MMA (sm_90a): shared-memory matrix descriptors for K-major
// tiles in the 128-byte swizzle TMA writes, and the inline PTX of
// wgmma.mma_async m64n128k16 / m64n64k16 (FP16) and m64n128k8 (TF32), FP32 accumulate,
// and m64n128k32 / m64n64k32 (INT8), int32 accumulate, with their fence,
// commit and wait. Device code only; used inside the sm_90a guard.
#pragma once

#include <cstdint>

#include "backends/cuda/sm90/mbarrier.hpp"

namespace egemm::cuda::hopper {

// A K-major operand tile: rows of 64 FP16 (128 bytes) at a 128-byte pitch,
// 128B-swizzled in 1024-byte atoms of 8 rows. LBO is unused by swizzled
// K-major layouts; SBO = 1024 (the next 8 rows). The tile must start on a
// 1024-byte boundary; the k16 slice s of a k-tile starts 32 s bytes in (the
// swizzle acts on absolute address bits, so a plain offset selects it).
__device__ __forceinline__ std::uint64_t smem_descriptor_sw128(std::uint32_t smem_addr) {
  std::uint64_t d = 0;
  d |= static_cast<std::uint64_t>((smem_addr & 0x3FFFF) >> 4);  // start address, 16-byte units
  d |= static_cast<std::uint64_t>(1) << 16;                      // leading byte offset (ignored)
  d |= static_cast<std::uint64_t>(1024 >> 4) << 32;              // stride byte offset
  d |= static_cast<std::uint64_t>(1) << 62;                      // layout: 128-byte swizzle
  return d;
}

// The same for rows of 64 bytes in the 64-byte swizzle (atoms of 8 rows, 512
// bytes): Int8Slices' k-tiles.
__device__ __forceinline__ std::uint64_t smem_descriptor_sw64(std::uint32_t smem_addr) {
  std::uint64_t d = 0;
  d |= static_cast<std::uint64_t>((smem_addr & 0x3FFFF) >> 4);  // start address, 16-byte units
  d |= static_cast<std::uint64_t>(1) << 16;                      // leading byte offset (ignored)
  d |= static_cast<std::uint64_t>(512 >> 4) << 32;               // stride byte offset: the next 8 rows
  d |= static_cast<std::uint64_t>(2) << 62;                      // layout: 64-byte swizzle
  return d;
}

// The descriptor for k-tile rows of RowBytes (128 or 64).
template <int RowBytes>
__device__ __forceinline__ std::uint64_t smem_descriptor(std::uint32_t smem_addr) {
  static_assert(RowBytes == 128 || RowBytes == 64, "the 128- and 64-byte swizzles");
  if constexpr (RowBytes == 128)
    return smem_descriptor_sw128(smem_addr);
  else
    return smem_descriptor_sw64(smem_addr);
}

// Orders this thread's register accesses before the wgmmas that follow (the
// accumulators were read or written by ordinary instructions).
__device__ __forceinline__ void wgmma_fence() { asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory"); }
// Closes the wgmmas issued since the last commit into one group.
__device__ __forceinline__ void wgmma_commit() { asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory"); }
// Waits until at most `Pending` committed groups are still in flight.
template <int Pending>
__device__ __forceinline__ void wgmma_wait() {
  asm volatile("wgmma.wait_group.sync.aligned %0;\n" ::"n"(Pending) : "memory");
}

// Keeps the compiler from moving accesses of an accumulator register across
// the wgmma fence/wait around it (the asm reads and writes it).
template <int N>
__device__ __forceinline__ void fence_registers(float (&d)[N]) {
#pragma unroll
  for (int i = 0; i < N; ++i) asm volatile("" : "+f"(d[i])::"memory");
}
template <int N>
__device__ __forceinline__ void fence_registers(std::uint32_t (&d)[N]) {
#pragma unroll
  for (int i = 0; i < N; ++i) asm volatile("" : "+r"(d[i])::"memory");
}

// d (+)= A B for a 64x128 tile of C over k = 16: A 64x16 and B 128x16, both
// K-major in shared memory. accumulate = 0 ignores d's old value (a fresh
// sum): accumulators start that way rather than from zeroing moves, which
// would make ptxas serialize the wgmmas.
__device__ __forceinline__ void wgmma_m64n128k16_f16(float (&d)[64], std::uint64_t desc_a, std::uint64_t desc_b,
                                                     int accumulate) {
  asm volatile(
      "{\n .reg .pred p;\n setp.ne.b32 p, %66, 0;\n"
      "wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 "
      "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63}, %64, %65, p, 1, 1, 0, 0;\n}\n"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]), "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]), "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]), "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63])
      : "l"(desc_a), "l"(desc_b), "r"(accumulate));
}

// The same for a 64x64 tile of C (B 64x16).
__device__ __forceinline__ void wgmma_m64n64k16_f16(float (&d)[32], std::uint64_t desc_a, std::uint64_t desc_b,
                                                    int accumulate) {
  asm volatile(
      "{\n .reg .pred p;\n setp.ne.b32 p, %34, 0;\n"
      "wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 "
      "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31}, %32, %33, p, 1, 1, 0, 0;\n}\n"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31])
      : "l"(desc_a), "l"(desc_b), "r"(accumulate));
}

// m64nNk16 by the accumulator's size (N / 2 floats per thread).
template <int Size>
__device__ __forceinline__ void wgmma_m64nNk16_f16(float (&d)[Size], std::uint64_t desc_a, std::uint64_t desc_b,
                                                   int accumulate) {
  static_assert(Size == 32 || Size == 64, "wgmma shapes m64n64k16 and m64n128k16");
  if constexpr (Size == 64)
    wgmma_m64n128k16_f16(d, desc_a, desc_b, accumulate);
  else
    wgmma_m64n64k16_f16(d, desc_a, desc_b, accumulate);
}

// d (+)= A B for a 64x128 tile of C over k = 8 with TF32 operands (32 bytes
// of each row, as k16 of FP16: the same descriptors and offsets). TF32 wgmma
// reads only K-major operands and takes no transpose immediates.
__device__ __forceinline__ void wgmma_m64n128k8_tf32(float (&d)[64], std::uint64_t desc_a, std::uint64_t desc_b,
                                                     int accumulate) {
  asm volatile(
      "{\n .reg .pred p;\n setp.ne.b32 p, %66, 0;\n"
      "wgmma.mma_async.sync.aligned.m64n128k8.f32.tf32.tf32 "
      "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63}, %64, %65, p, 1, 1;\n}\n"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]), "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]), "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]), "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63])
      : "l"(desc_a), "l"(desc_b), "r"(accumulate));
}

// One 32-byte k slice of every row (k16 FP16 or k8 TF32) into a 64 x N
// accumulator (N / 2 floats per thread).
template <int ElementBytes, int Size>
__device__ __forceinline__ void wgmma_k32_bytes(float (&d)[Size], std::uint64_t desc_a, std::uint64_t desc_b,
                                                int accumulate) {
  static_assert(ElementBytes == 2 || (ElementBytes == 4 && Size == 64), "FP16 n64/n128, TF32 n128");
  if constexpr (ElementBytes == 4)
    wgmma_m64n128k8_tf32(d, desc_a, desc_b, accumulate);
  else
    wgmma_m64nNk16_f16(d, desc_a, desc_b, accumulate);
}


// Int8Slices: d (+)= A B over k = 32 signed 8-bit values (32 bytes of each
// row, as k16 of FP16: the same descriptors and offsets) into exact int32
// sums. Integer wgmma reads only K-major operands and takes no scale or
// transpose immediates.
__device__ __forceinline__ void wgmma_m64n128k32_s8(std::uint32_t (&d)[64], std::uint64_t desc_a, std::uint64_t desc_b,
                                                   int accumulate) {
  asm volatile(
      "{\n .reg .pred p;\n setp.ne.b32 p, %66, 0;\n"
      "wgmma.mma_async.sync.aligned.m64n128k32.s32.s8.s8 "
      "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63}, %64, %65, p;\n}\n"
      : "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3]), "+r"(d[4]), "+r"(d[5]), "+r"(d[6]), "+r"(d[7]), "+r"(d[8]), "+r"(d[9]), "+r"(d[10]), "+r"(d[11]), "+r"(d[12]), "+r"(d[13]), "+r"(d[14]), "+r"(d[15]), "+r"(d[16]), "+r"(d[17]), "+r"(d[18]), "+r"(d[19]), "+r"(d[20]), "+r"(d[21]), "+r"(d[22]), "+r"(d[23]), "+r"(d[24]), "+r"(d[25]), "+r"(d[26]), "+r"(d[27]), "+r"(d[28]), "+r"(d[29]), "+r"(d[30]), "+r"(d[31]), "+r"(d[32]), "+r"(d[33]), "+r"(d[34]), "+r"(d[35]), "+r"(d[36]), "+r"(d[37]), "+r"(d[38]), "+r"(d[39]), "+r"(d[40]), "+r"(d[41]), "+r"(d[42]), "+r"(d[43]), "+r"(d[44]), "+r"(d[45]), "+r"(d[46]), "+r"(d[47]), "+r"(d[48]), "+r"(d[49]), "+r"(d[50]), "+r"(d[51]), "+r"(d[52]), "+r"(d[53]), "+r"(d[54]), "+r"(d[55]), "+r"(d[56]), "+r"(d[57]), "+r"(d[58]), "+r"(d[59]), "+r"(d[60]), "+r"(d[61]), "+r"(d[62]), "+r"(d[63])
      : "l"(desc_a), "l"(desc_b), "r"(accumulate));
}

// The same for a 64x64 tile of C.
__device__ __forceinline__ void wgmma_m64n64k32_s8(std::uint32_t (&d)[32], std::uint64_t desc_a, std::uint64_t desc_b,
                                                   int accumulate) {
  asm volatile(
      "{\n .reg .pred p;\n setp.ne.b32 p, %34, 0;\n"
      "wgmma.mma_async.sync.aligned.m64n64k32.s32.s8.s8 "
      "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31}, %32, %33, p;\n}\n"
      : "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3]), "+r"(d[4]), "+r"(d[5]), "+r"(d[6]), "+r"(d[7]), "+r"(d[8]), "+r"(d[9]), "+r"(d[10]), "+r"(d[11]), "+r"(d[12]), "+r"(d[13]), "+r"(d[14]), "+r"(d[15]), "+r"(d[16]), "+r"(d[17]), "+r"(d[18]), "+r"(d[19]), "+r"(d[20]), "+r"(d[21]), "+r"(d[22]), "+r"(d[23]), "+r"(d[24]), "+r"(d[25]), "+r"(d[26]), "+r"(d[27]), "+r"(d[28]), "+r"(d[29]), "+r"(d[30]), "+r"(d[31])
      : "l"(desc_a), "l"(desc_b), "r"(accumulate));
}

// One 32-byte k slice of every row into a 64 x N int32 sum (N / 2 a thread).
template <int Size>
__device__ __forceinline__ void wgmma_k32_bytes_s8(std::uint32_t (&d)[Size], std::uint64_t desc_a, std::uint64_t desc_b,
                                                   int accumulate) {
  static_assert(Size == 32 || Size == 64, "wgmma shapes m64n64k32 and m64n128k32");
  if constexpr (Size == 64)
    wgmma_m64n128k32_s8(d, desc_a, desc_b, accumulate);
  else
    wgmma_m64n64k32_s8(d, desc_a, desc_b, accumulate);
}

// Register count caps per warpgroup (setmaxnreg): the producer gives its
// registers up so the consumers' accumulators fit.
template <int Count>
__device__ __forceinline__ void setmaxnreg_dec() {
  asm volatile("setmaxnreg.dec.sync.aligned.u32 %0;\n" ::"n"(Count));
}
template <int Count>
__device__ __forceinline__ void setmaxnreg_inc() {
  asm volatile("setmaxnreg.inc.sync.aligned.u32 %0;\n" ::"n"(Count));
}

}  // namespace egemm::cuda::hopper
