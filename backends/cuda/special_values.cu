#include <algorithm>

#include "backends/cuda/cuda_check.hpp"
#include "backends/cuda/emulation_path.hpp"
#include "backends/cuda/operand_strides.hpp"
#include "backends/cuda/special_values.hpp"
#include "egemm/numerics/epilogue.hpp"

namespace egemm::cuda {
namespace {

constexpr int fixup_threads = 256;
constexpr int fixup_blocks = 264;  // two per H100 SM: enough for the rare case, cheap to launch

// C(i, j) = alpha * sum_p op(A)(i, p) op(B)(p, j) + beta C(i, j), fused multiply-adds in
// k order: the host oracle's fp32_entry, so host and device agree bit for bit here.
__global__ void __launch_bounds__(fixup_threads) special_value_fixup_kernel(const GemmArgs g, const std::uint32_t* a_nonfinite,
                                                                           const std::uint32_t* b_nonfinite,
                                                                           const std::uint32_t* any_nonfinite,
                                                                           const std::uint32_t* path_word) {
  const bool every_entry = path_word != nullptr && path_from_word(*path_word) == EmulationPath::native_fp32;
  if (*any_nonfinite == 0 && !every_entry) return;
  const OperandStrides s = operand_strides(g);
  const index_t total = g.m * g.n;
  for (index_t t = blockIdx.x * static_cast<index_t>(blockDim.x) + threadIdx.x; t < total;
       t += static_cast<index_t>(gridDim.x) * blockDim.x) {
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

}  // namespace

void launch_special_value_fixup(const GemmArgs& g, const std::uint32_t* a_nonfinite, const std::uint32_t* b_nonfinite,
                                const std::uint32_t* any_nonfinite, const std::uint32_t* path_word,
                                cudaStream_t stream) {
  const index_t needed = (g.m * g.n + fixup_threads - 1) / fixup_threads;
  const unsigned blocks = static_cast<unsigned>(std::max<index_t>(1, std::min<index_t>(needed, fixup_blocks)));
  special_value_fixup_kernel<<<blocks, fixup_threads, 0, stream>>>(g, a_nonfinite, b_nonfinite, any_nonfinite,
                                                                                 path_word);
  EGEMM_CUDA_CHECK_LAUNCH();
}

}  // namespace egemm::cuda
