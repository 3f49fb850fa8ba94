// One warp, one tensor-core instruction per trial: D = A B + C for a 16 x 8
// tile, with the operands laid out as the mma.sync fragments require
// (PTX ISA, "Matrix Fragments for mma.m16n8k16 / m16n8k8").
#pragma once

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cstdint>

namespace egemm::profile {

// A: 16 x K row-major values (as 16-bit or 32-bit words), B: K x 8 column-major
// (column n holds B(0..K-1, n)), C and D: 16 x 8 row-major FP32. One warp per trial.
enum class Instruction { f16_m16n8k16, bf16_m16n8k16, tf32_m16n8k8 };

__device__ inline std::uint32_t pack2(std::uint16_t lo, std::uint16_t hi) { return lo | (std::uint32_t(hi) << 16); }

template <Instruction I>
__global__ void mma_probe(const std::uint32_t* a_words, const std::uint32_t* b_words, const float* c, float* d) {
  const int trial = blockIdx.x, lane = threadIdx.x, g = lane / 4, t = lane % 4;
  constexpr int K = I == Instruction::tf32_m16n8k8 ? 8 : 16;
  const std::uint32_t* A = a_words + trial * 16 * K;  // one word per element
  const std::uint32_t* B = b_words + trial * K * 8;
  const float* C = c + trial * 128;
  float* D = d + trial * 128;
  float acc[4] = {C[g * 8 + 2 * t], C[g * 8 + 2 * t + 1], C[(g + 8) * 8 + 2 * t], C[(g + 8) * 8 + 2 * t + 1]};
  float out[4];
  if constexpr (I == Instruction::tf32_m16n8k8) {
    const std::uint32_t a0 = A[g * K + t], a1 = A[(g + 8) * K + t], a2 = A[g * K + t + 4], a3 = A[(g + 8) * K + t + 4];
    const std::uint32_t b0 = B[g * K + t], b1 = B[g * K + t + 4];
    asm volatile(
        "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13};\n"
        : "=f"(out[0]), "=f"(out[1]), "=f"(out[2]), "=f"(out[3])
        : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1), "f"(acc[0]), "f"(acc[1]), "f"(acc[2]), "f"(acc[3]));
  } else {
    auto a = [&](int row, int col) { return static_cast<std::uint16_t>(A[row * K + col]); };
    auto b = [&](int k, int n) { return static_cast<std::uint16_t>(B[n * K + k]); };
    const std::uint32_t a0 = pack2(a(g, 2 * t), a(g, 2 * t + 1)), a1 = pack2(a(g + 8, 2 * t), a(g + 8, 2 * t + 1));
    const std::uint32_t a2 = pack2(a(g, 2 * t + 8), a(g, 2 * t + 9)), a3 = pack2(a(g + 8, 2 * t + 8), a(g + 8, 2 * t + 9));
    const std::uint32_t b0 = pack2(b(2 * t, g), b(2 * t + 1, g)), b1 = pack2(b(2 * t + 8, g), b(2 * t + 9, g));
    if constexpr (I == Instruction::f16_m16n8k16)
      asm volatile(
          "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13};\n"
          : "=f"(out[0]), "=f"(out[1]), "=f"(out[2]), "=f"(out[3])
          : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1), "f"(acc[0]), "f"(acc[1]), "f"(acc[2]), "f"(acc[3]));
    else
      asm volatile(
          "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13};\n"
          : "=f"(out[0]), "=f"(out[1]), "=f"(out[2]), "=f"(out[3])
          : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1), "f"(acc[0]), "f"(acc[1]), "f"(acc[2]), "f"(acc[3]));
  }
  D[g * 8 + 2 * t] = out[0];
  D[g * 8 + 2 * t + 1] = out[1];
  D[(g + 8) * 8 + 2 * t] = out[2];
  D[(g + 8) * 8 + 2 * t + 1] = out[3];
}

}  // namespace egemm::profile
