// The host micro-kernel: one MR x NR tile of op(A) * op(B) from packed panels,
// following the device's order of operations. The k range is walked in
// k-steps of 16 (one m16n8k16 tensor-core step); within a step each product
// term of the policy is accumulated in turn, as the device issues one mma per
// term. Every accumulation is an FP32 round-to-nearest add in k order, except
// the folded main term of EmulatedFP32: its k-step sum is formed exactly (in
// double) and then added to the FP32 accumulator with one RN add.
//
// An entry's value depends only on that order, not on how the loops visit
// entries, so the loops are arranged for the registers: one term's MR x NR
// floats at a time, the exact sums a row at a time over a k-step of op(B)
// widened to double once (MR x NR doubles at once spill out of the registers
// and make the kernel 4x slower: perf_tests/bench_host_gemm shows it).
#pragma once

#include <algorithm>

#include "backends/host/packed_operand.hpp"
#include "egemm/policy.hpp"

namespace egemm::host {

inline constexpr index_t k_step = 16;

template <class Policy, int MR, int NR>
struct MicroKernel {
  using traits = policy_traits<Policy>;
  // Rows of exact sums formed at once: enough independent adds to hide their
  // latency, few enough to stay in registers.
  static constexpr int fold_rows = MR % 2 == 0 ? 2 : 1;

  // acc[a][i][j]: accumulator a (0 main, 1 correction) of tile entry (i, j).
  static void run(const PackedOperand& A, index_t qa, const PackedOperand& B, index_t qb, float (&acc)[2][MR][NR]) {
    const float* a[2] = {A.panel(0, qa), A.pieces > 1 ? A.panel(1, qa) : nullptr};
    const float* b[2] = {B.panel(0, qb), B.pieces > 1 ? B.panel(1, qb) : nullptr};
    for (int s = 0; s < 2; ++s)
      for (int i = 0; i < MR; ++i)
        for (int j = 0; j < NR; ++j) acc[s][i][j] = 0.0f;

    const index_t depth = A.depth;
    for (index_t k0 = 0; k0 < depth; k0 += k_step) {
      const int steps = static_cast<int>(std::min(k_step, depth - k0));
      int first_term = 0;
      if constexpr (traits::fold_main_each_k_step) {
        const ProductTerm term = traits::terms[0];
        fold_term(a[static_cast<int>(term.a)] + k0 * MR, b[static_cast<int>(term.b)] + k0 * NR, steps,
                  acc[term.accumulator]);
        first_term = 1;
      }
      for (int t = first_term; t < traits::products; ++t) {
        const ProductTerm term = traits::terms[t];
        accumulate_term(a[static_cast<int>(term.a)] + k0 * MR, b[static_cast<int>(term.b)] + k0 * NR, steps,
                        acc[term.accumulator]);
      }
    }
  }

 private:
  // acc += the k-step's products of one term, each an FP32 add in k order.
  static void accumulate_term(const float* a, const float* b, int steps, float (&acc)[MR][NR]) {
    float sum[MR][NR];
    for (int i = 0; i < MR; ++i)
      for (int j = 0; j < NR; ++j) sum[i][j] = acc[i][j];
    for (int p = 0; p < steps; ++p)
      for (int i = 0; i < MR; ++i) {
        const float ai = a[p * MR + i];
        for (int j = 0; j < NR; ++j) sum[i][j] += ai * b[p * NR + j];
      }
    for (int i = 0; i < MR; ++i)
      for (int j = 0; j < NR; ++j) acc[i][j] = sum[i][j];
  }

  // acc += float(the k-step's exact sum of one term's products), the sum in
  // double in k order (products of two pieces are exact in double).
  static void fold_term(const float* a, const float* b, int steps, float (&acc)[MR][NR]) {
    double wide_b[k_step][NR];
    for (int p = 0; p < steps; ++p)
      for (int j = 0; j < NR; ++j) wide_b[p][j] = b[p * NR + j];
    for (int i0 = 0; i0 < MR; i0 += fold_rows) {
      double sum[fold_rows][NR] = {};
      for (int p = 0; p < steps; ++p)
        for (int i = 0; i < fold_rows; ++i) {
          const double ai = a[p * MR + i0 + i];
          for (int j = 0; j < NR; ++j) sum[i][j] += ai * wide_b[p][j];
        }
      for (int i = 0; i < fold_rows; ++i)
        for (int j = 0; j < NR; ++j) acc[i0 + i][j] += static_cast<float>(sum[i][j]);
    }
  }
};

}  // namespace egemm::host
