// The forms split pieces take on the device, and the tensor-core instruction
// that multiplies each. All store a 16x(16 bytes) fragment the same way, so
// one ldmatrix/shared-memory scheme serves them: a 16-byte chunk holds 8
// FP16, 4 TF32 or 16 INT8 values, and one mma consumes two chunks of k.
#pragma once

#include <cstdint>

#include "backends/cuda/common/fold_length.hpp"
#include "backends/cuda/sm80/mma_sm80.hpp"

namespace egemm::cuda {

struct Fp16Format {
  using storage = std::uint16_t;
  static constexpr int mma_k = 16;  // mma.m16n8k16.f16
  __device__ static __forceinline__ void mma(float (&d)[4], const std::uint32_t (&a)[4], const std::uint32_t (&b)[2],
                                             const float (&c)[4]) {
    sm80::mma_f16_f32(d, a, b, c);
  }
};

struct Tf32Format {
  using storage = float;
  static constexpr int mma_k = 8;  // mma.m16n8k8.tf32
  __device__ static __forceinline__ void mma(float (&d)[4], const std::uint32_t (&a)[4], const std::uint32_t (&b)[2],
                                             const float (&c)[4]) {
    sm80::mma_tf32_f32(d, a, b, c);
  }
};

// Int8Slices' digits: mma.m16n8k32.s8 into int32 sums (warp_integer_sums.cuh
// issues it; no FP32 accumulator to pass).
struct Int8Format {
  using storage = std::int8_t;
  static constexpr int mma_k = 32;
};

// fold_k (16, the host oracle's k_step) and the wgmma kernel's wgmma_fold_k
// (64): fold_length.hpp, plain C++ so the tests' error bound reads them too.

}  // namespace egemm::cuda
