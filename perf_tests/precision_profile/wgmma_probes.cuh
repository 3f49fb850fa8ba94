// The Hopper path's instruction, probed like mma_probes.cuh: one warpgroup,
// one wgmma.mma_async per trial. D (64 x 8) = A (64 x K) B (K x 8) + C with
// the trial's 16 x K block of A in rows 0-15 (warp 0) and zeros below, A in
// registers (warp w holds rows 16w..16w+15 in mma.sync's fragment layout),
// B in shared memory as K-major 8 x 16-byte core matrices without swizzle
// (PTX ISA, "Asynchronous Warpgroup Level Matrix Multiply": matrix
// descriptors, register fragments). Compiled for sm_90a only; elsewhere the
// kernel body is empty and wgmma_available() says no.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "backends/cuda/runtime/code_feature_probes.cuh"
#include "mma_probes.cuh"

namespace egemm::profile {

#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
// Descriptor of a K-major, unswizzled operand at `smem`: core matrices of 8
// rows x 16 bytes (128 bytes each), `k_stride` bytes apart along K (LBO) and
// `mn_stride` bytes apart along M/N (SBO).
__device__ inline std::uint64_t matrix_descriptor(const void* smem, std::uint32_t k_stride, std::uint32_t mn_stride) {
  const std::uint32_t address = static_cast<std::uint32_t>(__cvta_generic_to_shared(smem));
  return (std::uint64_t(address >> 4) & 0x3fff) | (std::uint64_t((k_stride >> 4) & 0x3fff) << 16) |
         (std::uint64_t((mn_stride >> 4) & 0x3fff) << 32);  // layout type 0 (no swizzle), base offset 0
}
#endif

template <Instruction I>
__global__ void __launch_bounds__(128) wgmma_probe(const std::uint32_t* a_words, const std::uint32_t* b_words,
                                                    const float* c, float* d) {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  constexpr int K = I == Instruction::tf32_m16n8k8 ? 8 : 16;
  constexpr int bytes = I == Instruction::tf32_m16n8k8 ? 4 : 2;  // per element
  const int trial = blockIdx.x, warp = threadIdx.x / 32, lane = threadIdx.x % 32, g = lane / 4, t = lane % 4;
  const std::uint32_t* A = a_words + trial * 16 * K;
  const std::uint32_t* B = b_words + trial * K * 8;
  const float* C = c + trial * 128;

  // B(k, n) at core matrix k * bytes / 16 (128 bytes each), row n, byte (k * bytes) % 16.
  __shared__ __align__(128) unsigned char b_smem[2 * 128];
  for (int e = threadIdx.x; e < K * 8; e += blockDim.x) {
    const int n = e / K, k = e % K, at = (k * bytes / 16) * 128 + n * 16 + (k * bytes) % 16;
    if constexpr (bytes == 4) *reinterpret_cast<std::uint32_t*>(b_smem + at) = B[n * K + k];
    else *reinterpret_cast<std::uint16_t*>(b_smem + at) = static_cast<std::uint16_t>(B[n * K + k]);
  }
  __syncthreads();
  asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");  // generic-proxy stores -> wgmma's reads
  const std::uint64_t b_desc = matrix_descriptor(b_smem, 128, 256);

  const bool mine = warp == 0;  // rows 0-15 are the trial; 16-63 multiply zeros
  float acc[4] = {0.0f, 0.0f, 0.0f, 0.0f};
  if (mine) {
    acc[0] = C[g * 8 + 2 * t];
    acc[1] = C[g * 8 + 2 * t + 1];
    acc[2] = C[(g + 8) * 8 + 2 * t];
    acc[3] = C[(g + 8) * 8 + 2 * t + 1];
  }
  std::uint32_t a[4] = {0, 0, 0, 0};
  if (mine) {
    if constexpr (I == Instruction::tf32_m16n8k8) {
      a[0] = A[g * K + t], a[1] = A[(g + 8) * K + t], a[2] = A[g * K + t + 4], a[3] = A[(g + 8) * K + t + 4];
    } else {
      auto at = [&](int row, int col) { return static_cast<std::uint16_t>(A[row * K + col]); };
      a[0] = pack2(at(g, 2 * t), at(g, 2 * t + 1));
      a[1] = pack2(at(g + 8, 2 * t), at(g + 8, 2 * t + 1));
      a[2] = pack2(at(g, 2 * t + 8), at(g, 2 * t + 9));
      a[3] = pack2(at(g + 8, 2 * t + 8), at(g + 8, 2 * t + 9));
    }
  }
  asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
  if constexpr (I == Instruction::f16_m16n8k16)
    asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, 1, 0;\n"  // scale-d: D = A B + D (C is in D)
                 "wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {%0,%1,%2,%3}, {%4,%5,%6,%7}, %8, p, 1, 1, 0;\n}\n"
                 : "+f"(acc[0]), "+f"(acc[1]), "+f"(acc[2]), "+f"(acc[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(b_desc));
  else if constexpr (I == Instruction::bf16_m16n8k16)
    asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, 1, 0;\n"
                 "wgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16 {%0,%1,%2,%3}, {%4,%5,%6,%7}, %8, p, 1, 1, 0;\n}\n"
                 : "+f"(acc[0]), "+f"(acc[1]), "+f"(acc[2]), "+f"(acc[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(b_desc));
  else
    asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, 1, 0;\n"
                 "wgmma.mma_async.sync.aligned.m64n8k8.f32.tf32.tf32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, %8, p, 1, 1;\n}\n"
                 : "+f"(acc[0]), "+f"(acc[1]), "+f"(acc[2]), "+f"(acc[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(b_desc));
  asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
  asm volatile("wgmma.wait_group.sync.aligned 0;\n" ::: "memory");
  if (mine) {
    float* D = d + trial * 128;
    D[g * 8 + 2 * t] = acc[0];
    D[g * 8 + 2 * t + 1] = acc[1];
    D[(g + 8) * 8 + 2 * t] = acc[2];
    D[(g + 8) * 8 + 2 * t + 1] = acc[3];
  }
#else
  (void)a_words, (void)b_words, (void)c, (void)d;
#endif
}

// The device is sm_90 and runs this program's sm_90a code (a binary version
// of 90 would not say so: plain sm_90 code has the probe's body compiled out).
inline bool wgmma_available() {
  int device = 0, major = 0, minor = 0;
  if (cudaGetDevice(&device) != cudaSuccess) return false;
  cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device);
  cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, device);
  return major == 9 && minor == 0 && cuda::probes::has_marker(cuda::probes::sm90a_features<>);
}

}  // namespace egemm::profile
