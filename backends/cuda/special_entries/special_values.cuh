// Entries whose row of op(A) or column of op(B) holds Inf or NaN, recomputed
// as FP32 gemm computes them (the split cannot carry non-finite values); on
// EmulatedFP32's native path (magnitudes beyond TF32's range: within 2^-11 of
// FLT_MAX, rare) every entry, on CUDA cores without tiling. Device code for
// special_entries.cu.
#pragma once

#include <cstdint>

#include "backends/cuda/route/emulation_path.hpp"
#include "backends/cuda/special_entries/operand_strides.hpp"
#include "egemm/gemm_args.hpp"
#include "egemm/numerics/epilogue.hpp"

namespace egemm::cuda {

// Block `block` of `blocks`: its share of the entries, grid-stride, each
// C(i, j) = alpha * sum_p op(A)(i, p) op(B)(p, j) + beta C(i, j) by fused
// multiply-adds in k order (the host oracle's fp32_entry, bit for bit).
// Nothing to do, the usual case, costs two loads: the any-flag and the path word.
__device__ __forceinline__ void special_value_entries(const GemmArgs& g, const std::uint32_t* a_nonfinite,
                                                      const std::uint32_t* b_nonfinite,
                                                      const std::uint32_t* any_nonfinite,
                                                      const std::uint32_t* path_word, unsigned block, unsigned blocks) {
  const bool every_entry = path_word != nullptr && path_from_word(*path_word) == EmulationPath::native_fp32;
  if (*any_nonfinite == 0 && !every_entry) return;
  const OperandStrides s = operand_strides(g);
  const index_t total = g.m * g.n;
  for (index_t t = block * static_cast<index_t>(blockDim.x) + threadIdx.x; t < total;
       t += static_cast<index_t>(blocks) * blockDim.x) {
    const index_t i = t % g.m, j = t / g.m;
    if (!every_entry && ((a_nonfinite[i] | b_nonfinite[j]) & row_nonfinite) == 0) continue;
    const float* a = g.a + i * s.a_row;
    const float* b = g.b + j * s.b_col;
    float sum = 0.0f;
    for (index_t p = 0; p < g.k; ++p) sum = fmaf(a[p * s.a_depth], b[p * s.b_depth], sum);
    float* c = g.c + i + j * g.ldc;
    *c = apply_alpha_beta(sum, g.alpha, g.beta, c);
  }
}

}  // namespace egemm::cuda
