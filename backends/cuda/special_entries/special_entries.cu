// The one launch after the fused gemm that recomputes the entries it leaves alone (and adds the sparse outliers it left out).
#include "backends/cuda/special_entries/special_entries.hpp"

#include <algorithm>

#include "backends/cuda/runtime/cuda_check.hpp"
#include "backends/cuda/runtime/dependent_launch.hpp"
#include "backends/cuda/runtime/device_facts.hpp"
#include "backends/cuda/special_entries/outlier_entries.cuh"
#include "backends/cuda/special_entries/special_values.cuh"
#include "backends/cuda/special_entries/wide_rows.cuh"

namespace egemm::cuda {
namespace {

constexpr int fixup_threads = 256;

__global__ void __launch_bounds__(fixup_threads) special_entries_kernel(const GemmArgs g, const SplitOperand a,
                                                                     const SplitOperand b,
                                                                     const std::uint32_t* any_nonfinite,
                                                                     const std::uint32_t* path_word, bool digits) {
  wait_for_previous_kernel();
  allow_next_kernel();
  if (!route_taken(path_word, digits)) return;  // the other of NormwiseFP32's sequences runs
  special_value_entries(g, a.nonfinite, b.nonfinite, any_nonfinite, path_word, blockIdx.x, gridDim.x);
  if (path_word == nullptr || path_from_word(*path_word) != EmulationPath::fp16_scaled) return;
  wide_line_entries<true>(g, a, b, blockIdx.x, gridDim.x);   // listed rows of op(A)
  wide_line_entries<false>(g, a, b, blockIdx.x, gridDim.x);  // listed columns of op(B)
}

// EmulatedFP32's sparse outliers (outlier_entries.cuh): a launch of its own,
// so that the special entries' kernel keeps its few registers, with as many
// warps as the SMs hold (the pass waits on scattered loads). It exits at once
// unless the FP16 path runs with some row or column routed. Each warp
// stages its item's lines in shared memory (4.25 KiB a warp, 34 KiB a block).
// Offset: how an element's offset along the depth is formed (outlier_item.hpp's at_depth).
constexpr int outlier_threads = 256;
template <class Offset>
__global__ void __launch_bounds__(outlier_threads, 4)
    outlier_entries_kernel(const GemmArgs g, const SplitOperand a, const SplitOperand b, const std::uint32_t* path_word) {
  __shared__ OutlierItemLines lines[outlier_threads / 32];
  wait_for_previous_kernel();
  allow_next_kernel();
  if (!route_taken(path_word, false)) return;  // NormwiseFP32's digits ran
  const std::uint32_t word = *path_word;
  if ((word & path_sparse_outliers) == 0 || path_from_word(word) != EmulationPath::fp16_scaled) return;
  outlier_entries<Offset>(g, a, b, lines[threadIdx.x / 32], blockIdx.x, gridDim.x);
}

// Two blocks per SM: enough for the rare work, cheap when there is none.
unsigned fixup_blocks() { return 2u * static_cast<unsigned>(device_facts().sms); }

}  // namespace

void launch_special_entries(const GemmArgs& g, const SplitOperand& a, const SplitOperand& b,
                         const std::uint32_t* any_nonfinite, const std::uint32_t* path_word, cudaStream_t stream,
                         bool digits) {
  const index_t needed = (g.m * g.n + fixup_threads - 1) / fixup_threads;
  const unsigned blocks = static_cast<unsigned>(std::max<index_t>(1, std::min<index_t>(needed, fixup_blocks())));
  launch_dependent(special_entries_kernel, blocks, fixup_threads, 0, stream, g, a, b, any_nonfinite, path_word, digits);
  if (digits || path_word == nullptr) return;  // only EmulatedFP32's path word routes outliers
  const index_t items = (g.m + 31) / 32 * ((g.n + 31) / 32), warps = outlier_threads / 32;
  const index_t most = 4 * static_cast<index_t>(device_facts().sms);
  const auto outlier_blocks = static_cast<unsigned>(std::max<index_t>(1, std::min<index_t>((items + warps - 1) / warps, most)));
  const auto kernel = outlier_offsets_fit(g, operand_strides(g)) ? outlier_entries_kernel<std::uint32_t>
                                                                 : outlier_entries_kernel<index_t>;
  launch_dependent(kernel, outlier_blocks, outlier_threads, 0, stream, g, a, b, path_word);
}

}  // namespace egemm::cuda
