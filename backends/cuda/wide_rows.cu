#include "backends/cuda/wide_rows.hpp"

#include <algorithm>
#include <cstdint>

#include "backends/cuda/cuda_check.hpp"
#include "backends/cuda/emulation_path.hpp"
#include "backends/cuda/operand_strides.hpp"
#include "egemm/numerics/epilogue.hpp"
#include "egemm/path_selection.hpp"

namespace egemm::cuda {
namespace {

constexpr int recompute_threads = 256;

// alpha * float(sum_p a[p] b[p]) + beta C, the sum by float64 fused
// multiply-adds in k order (one rounding at the end).
__device__ __forceinline__ void float64_entry(const GemmArgs& g, const float* a, index_t a_step, const float* b,
                                              index_t b_step, float* c) {
  double s = 0.0;
  for (index_t p = 0; p < g.k; ++p) s = fma(static_cast<double>(a[p * a_step]), static_cast<double>(b[p * b_step]), s);
  *c = apply_alpha_beta(static_cast<float>(s), g.alpha, g.beta, c);
}

__device__ __forceinline__ bool recomputing(const std::uint32_t* path_word) {
  return path_from_word(*path_word) == EmulationPath::fp16_scaled;
}

// Block (x, y): columns [x * threads, ...) of listed rows y, y + gridDim.y, ...
// Every thread reads the same element of the row (a broadcast) and walks its
// own column.
__global__ void __launch_bounds__(recompute_threads) wide_rows_kernel(const GemmArgs g, const SplitOperand a,
                                                                      const SplitOperand b, const std::uint32_t* path_word) {
  if (!recomputing(path_word)) return;
  const index_t j = blockIdx.x * static_cast<index_t>(recompute_threads) + threadIdx.x;
  if (j >= g.n || (b.nonfinite[j] & row_nonfinite) != 0) return;
  const OperandStrides s = operand_strides(g);
  for (std::uint32_t slot = blockIdx.y; slot < *a.wide_count; slot += gridDim.y) {
    const index_t i = a.wide_list[slot];
    if ((a.nonfinite[i] & row_nonfinite) == 0)
      float64_entry(g, g.a + i * s.a_row, s.a_depth, g.b + j * s.b_col, s.b_depth, g.c + i + j * g.ldc);
  }
}

// Block (x, y): rows [x * threads, ...) of listed columns y, y + gridDim.y,
// ..., except rows the row kernel owns (flagged) or that hold Inf/NaN.
__global__ void __launch_bounds__(recompute_threads) wide_columns_kernel(const GemmArgs g, const SplitOperand a,
                                                                         const SplitOperand b,
                                                                         const std::uint32_t* path_word) {
  if (!recomputing(path_word)) return;
  const index_t i = blockIdx.x * static_cast<index_t>(recompute_threads) + threadIdx.x;
  if (i >= g.m || a.nonfinite[i] != 0) return;
  const OperandStrides s = operand_strides(g);
  for (std::uint32_t slot = blockIdx.y; slot < *b.wide_count; slot += gridDim.y) {
    const index_t j = b.wide_list[slot];
    if ((b.nonfinite[j] & row_nonfinite) == 0)
      float64_entry(g, g.a + i * s.a_row, s.a_depth, g.b + j * s.b_col, s.b_depth, g.c + i + j * g.ldc);
  }
}

unsigned blocks_for(index_t extent) {
  return static_cast<unsigned>((extent + recompute_threads - 1) / recompute_threads);
}

// Grid rows for a list of at most max_recomputed_rows(extent) slots: at most
// 64, each looping over its slots (most calls have none or a handful).
unsigned slot_rows(index_t extent) { return static_cast<unsigned>(std::min<index_t>(max_recomputed_rows(extent), 64)); }

}  // namespace

void launch_wide_row_recompute(const GemmArgs& g, const SplitOperand& a, const SplitOperand& b,
                               const std::uint32_t* path_word, cudaStream_t stream) {
  const dim3 rows(blocks_for(g.n), slot_rows(g.m));
  wide_rows_kernel<<<rows, recompute_threads, 0, stream>>>(g, a, b, path_word);
  EGEMM_CUDA_CHECK_LAUNCH();
  const dim3 columns(blocks_for(g.m), slot_rows(g.n));
  wide_columns_kernel<<<columns, recompute_threads, 0, stream>>>(g, a, b, path_word);
  EGEMM_CUDA_CHECK_LAUNCH();
}

}  // namespace egemm::cuda
