// The host micro-kernel: one MR x NR tile of op(A) * op(B) from packed panels,
// following the device's order of operations. The k range is walked in
// k-steps of 16 (one m16n8k16 tensor-core step); within a step each product
// term of the policy is accumulated in turn, as the device issues one mma per
// term. Every accumulation is an FP32 round-to-nearest add in k order, except
// the folded main term of EmulatedFP32: its k-step sum is formed exactly (in
// double) and then added to the FP32 accumulator with one RN add.
#pragma once

#include <algorithm>

#include "backends/host/packed_operand.hpp"
#include "egemm/policy.hpp"

namespace egemm::host {

inline constexpr index_t k_step = 16;

template <class Policy, int MR, int NR>
struct MicroKernel {
  using traits = policy_traits<Policy>;

  // acc[a][i][j]: accumulator a (0 main, 1 correction) of tile entry (i, j).
  static void run(const PackedOperand& A, index_t qa, const PackedOperand& B, index_t qb, float (&acc)[2][MR][NR]) {
    const float* a[2] = {A.panel(0, qa), A.pieces > 1 ? A.panel(1, qa) : nullptr};
    const float* b[2] = {B.panel(0, qb), B.pieces > 1 ? B.panel(1, qb) : nullptr};
    for (int s = 0; s < 2; ++s)
      for (int i = 0; i < MR; ++i)
        for (int j = 0; j < NR; ++j) acc[s][i][j] = 0.0f;

    const index_t depth = A.depth;
    for (index_t k0 = 0; k0 < depth; k0 += k_step) {
      const index_t k1 = std::min(depth, k0 + k_step);
      int first_term = 0;
      if constexpr (traits::fold_main_each_k_step) {
        fold_main_term(a, b, k0, k1, acc[traits::terms[0].accumulator]);
        first_term = 1;
      }
      for (int t = first_term; t < traits::products; ++t) {
        const ProductTerm term = traits::terms[t];
        accumulate_term(a[static_cast<int>(term.a)], b[static_cast<int>(term.b)], k0, k1, acc[term.accumulator]);
      }
    }
  }

 private:
  static void accumulate_term(const float* a, const float* b, index_t k0, index_t k1, float (&acc)[MR][NR]) {
    for (index_t p = k0; p < k1; ++p) {
      const float* ap = a + p * MR;
      const float* bp = b + p * NR;
      for (int i = 0; i < MR; ++i)
        for (int j = 0; j < NR; ++j) acc[i][j] += ap[i] * bp[j];
    }
  }

  static void fold_main_term(const float* const (&a)[2], const float* const (&b)[2], index_t k0, index_t k1,
                             float (&acc)[MR][NR]) {
    const ProductTerm term = traits::terms[0];
    const float* ap0 = a[static_cast<int>(term.a)];
    const float* bp0 = b[static_cast<int>(term.b)];
    double step_sum[MR][NR] = {};
    for (index_t p = k0; p < k1; ++p) {
      const float* ap = ap0 + p * MR;
      const float* bp = bp0 + p * NR;
      for (int i = 0; i < MR; ++i)
        for (int j = 0; j < NR; ++j) step_sum[i][j] += static_cast<double>(ap[i]) * bp[j];
    }
    for (int i = 0; i < MR; ++i)
      for (int j = 0; j < NR; ++j) acc[i][j] += static_cast<float>(step_sum[i][j]);
  }
};

}  // namespace egemm::host
