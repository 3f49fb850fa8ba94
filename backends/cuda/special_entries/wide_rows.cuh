// EmulatedFP32's entries in the few rows of op(A) and columns of op(B) too
// wide for its FP16 pieces (egemm/path_selection.hpp): recomputed from the
// FP32 inputs with float64 accumulation after the tensor-core gemm, which
// left them alone. The host backend's float64_entry does the same
// operations. Entries of rows or columns holding Inf/NaN stay with the
// special-value pass. Device code for special_entries.cu.
#pragma once

#include <cstdint>

#include "backends/cuda/route/emulation_path.hpp"
#include "backends/cuda/special_entries/operand_strides.hpp"
#include "backends/cuda/split/split_operand.hpp"
#include "egemm/gemm_args.hpp"
#include "egemm/numerics/epilogue.hpp"

namespace egemm::cuda {

// alpha * float(sum_p a[p] b[p]) + beta C, the sum by float64 fused
// multiply-adds in k order (one rounding at the end).
__device__ __forceinline__ void float64_entry(const GemmArgs& g, const float* a, index_t a_step, const float* b,
                                              index_t b_step, float* c) {
  double s = 0.0;
  for (index_t p = 0; p < g.k; ++p) s = fma(static_cast<double>(a[p * a_step]), static_cast<double>(b[p * b_step]), s);
  *c = apply_alpha_beta(static_cast<float>(s), g.alpha, g.beta, c);
}

// The listed rows of op(A) (Rows) or columns of op(B) against every index of
// the other dimension: work items (listed line, span of blockDim.x entries
// across it), grid-stride over `blocks` blocks, a thread per entry. Entries
// in an Inf/NaN row or column belong to the special-value pass; where a wide
// row meets a wide column the row pass writes the entry (the row is flagged).
template <bool Rows>
__device__ __forceinline__ void wide_line_entries(const GemmArgs& g, const SplitOperand& a, const SplitOperand& b,
                                                  unsigned block, unsigned blocks) {
  const SplitOperand& listed = Rows ? a : b;
  const index_t across = Rows ? g.n : g.m;
  const index_t spans = (across + blockDim.x - 1) / blockDim.x, items = spans * *listed.wide_count;
  const OperandStrides s = operand_strides(g);
  for (index_t item = block; item < items; item += blocks) {
    const index_t line = listed.wide_list[item / spans], other = item % spans * blockDim.x + threadIdx.x;
    if (other >= across) continue;
    const index_t i = Rows ? line : other, j = Rows ? other : line;
    const bool elsewhere = Rows ? ((a.nonfinite[i] | b.nonfinite[j]) & row_nonfinite) != 0
                                : a.nonfinite[i] != 0 || (b.nonfinite[j] & row_nonfinite) != 0;
    if (!elsewhere) float64_entry(g, g.a + i * s.a_row, s.a_depth, g.b + j * s.b_col, s.b_depth, g.c + i + j * g.ldc);
  }
}

}  // namespace egemm::cuda
