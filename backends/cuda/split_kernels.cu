// The split on CUDA cores: a stats pass (per row: largest and smallest
// nonzero finite |x|, any Inf/NaN) and a split pass writing the pieces
// k-contiguous and zero padded. Both stage a 32-row x 128-k panel through
// shared memory so global reads are coalesced whichever dimension of the
// operand is contiguous (transposes folded in), with 16 loads in flight per
// thread (a 32x32 tile per block kept only 4, and the passes ran at half the
// memory bandwidth); both call the same bit-exact numerics as the host oracle.
#include <cstdint>
#include <string>

#include "backends/cuda/cuda_check.hpp"
#include "backends/cuda/emulation_path.hpp"
#include "backends/cuda/split_operand.hpp"
#include "backends/cuda/split_panel.cuh"
#include "egemm/errors.hpp"

namespace egemm::cuda {
namespace {

using namespace split_panel;

__global__ void __launch_bounds__(split_threads) row_stats_kernel(const OperandRows src, const SplitOperand dst,
                                                                  std::uint32_t* any_nonfinite) {
  __shared__ Panel panel;
  const index_t r0 = static_cast<index_t>(blockIdx.x) * panel_rows, p0 = static_cast<index_t>(blockIdx.y) * panel_k;
  load_panel(src, r0, p0, panel);
  __syncthreads();

  const int r = threadIdx.x / threads_per_row, q = threadIdx.x % threads_per_row;
  RowStats stats;
#pragma unroll
  for (int v = 0; v < per_thread; ++v) stats.add(panel[r][panel_column(q, v / per_chunk, v % per_chunk)]);
  stats.reduce_over_row_lanes();
  const index_t row = r0 + r;
  if (q != 0 || row >= src.rows) return;
  if (stats.max_bits != 0) {
    atomicMax(dst.max_abs_bits + row, stats.max_bits);
    atomicMax(dst.min_abs_inv_bits + row, stats.min_inv);
  }
  if (stats.nonfinite) {
    atomicOr(dst.nonfinite + row, row_nonfinite);
    atomicOr(any_nonfinite, 1u);
  }
}

__global__ void path_verdict_kernel(const SplitOperand op, std::uint32_t* path_word) {
  const index_t row = blockIdx.x * static_cast<index_t>(blockDim.x) + threadIdx.x;
  if (row >= op.rows) return;
  RowStats stats;
  stats.max_bits = op.max_abs_bits[row];
  stats.min_inv = op.min_abs_inv_bits[row];
  record_row_verdict(op, row, stats.range(), path_word);
}

// One block: too many wide rows in either operand rule out the FP16 path;
// otherwise the listed rows are flagged for float64 recomputation.
__global__ void path_settle_kernel(const SplitOperand a, const SplitOperand b, std::uint32_t* path_word) {
  const std::uint32_t wide_a = *a.wide_count, wide_b = *b.wide_count;
  if (wide_a > static_cast<std::uint32_t>(max_recomputed_rows(a.rows)) ||
      wide_b > static_cast<std::uint32_t>(max_recomputed_rows(b.rows))) {
    if (threadIdx.x == 0) atomicOr(path_word, path_not_fp16_scaled);
    return;
  }
  for (std::uint32_t s = threadIdx.x; s < wide_a; s += blockDim.x) atomicOr(a.nonfinite + a.wide_list[s], row_recomputed);
  for (std::uint32_t s = threadIdx.x; s < wide_b; s += blockDim.x) atomicOr(b.nonfinite + b.wide_list[s], row_recomputed);
}

// Flags rows holding Inf or NaN from the values a thread holds (8 lanes per row).
__device__ void record_nonfinite(const float (&x)[per_thread], index_t row, index_t rows, const SplitOperand& dst,
                                 std::uint32_t* any_nonfinite) {
  std::uint32_t bad = 0;
#pragma unroll
  for (int c = 0; c < per_thread; ++c) bad |= numerics::is_finite(x[c]) ? 0u : 1u;
#pragma unroll
  for (int lanes = threads_per_row / 2; lanes > 0; lanes /= 2) bad |= __shfl_xor_sync(0xffffffffu, bad, lanes);
  if (bad && threadIdx.x % threads_per_row == 0 && row < rows) {
    atomicOr(dst.nonfinite + row, row_nonfinite);
    atomicOr(any_nonfinite, 1u);
  }
}

// With RecordsNonfinite the split also flags Inf/NaN rows, so a policy that
// needs no row maximum (no scaling, no path choice) skips the stats pass and
// reads its operands once. With a path word (EmulatedFP32) the path chosen on
// the device decides: Rule's FP16 pieces on the scaled FP16 path, TF32 pieces
// on the full-range path, nothing on the native one.
template <SplitRule Rule, bool ScaleRows, bool RecordsNonfinite>
__global__ void __launch_bounds__(split_threads) split_kernel(const OperandRows src, const SplitOperand dst,
                                                              const std::uint32_t* path_word,
                                                              std::uint32_t* any_nonfinite) {
  const EmulationPath path = path_word == nullptr ? EmulationPath::fp16_scaled : path_from_word(*path_word);
  if (path == EmulationPath::native_fp32) return;
  const bool tf32 = Rule == SplitRule::tf32 || path == EmulationPath::tf32_full_range;

  __shared__ Panel panel;
  const index_t r0 = static_cast<index_t>(blockIdx.x) * panel_rows, p0 = static_cast<index_t>(blockIdx.y) * panel_k;
  load_panel(src, r0, p0, panel);
  __syncthreads();

  const int r = threadIdx.x / threads_per_row, q = threadIdx.x % threads_per_row;
  const index_t row = r0 + r;
  int e = 0;
  if (ScaleRows && !tf32 && row < src.rows)
    e = numerics::range_exponent(numerics::bits_to_float(dst.max_abs_bits[row]));
  if (blockIdx.y == 0 && q == 0) dst.exponent[row] = e;

  float x[per_thread];
  read_row_values(panel, r, q, e, x);
  if constexpr (RecordsNonfinite) record_nonfinite(x, row, src.rows, dst, any_nonfinite);
  write_row_values<Rule>(x, dst, row, p0, q, tf32);
}

template <SplitRule Rule>
void launch_split_rule(const OperandRows& src, bool scale_rows, const SplitOperand& dst,
                       const std::uint32_t* path_word, std::uint32_t* any_nonfinite, dim3 grid, cudaStream_t stream) {
  if (scale_rows) split_kernel<Rule, true, false><<<grid, split_threads, 0, stream>>>(src, dst, path_word, nullptr);
  else if (any_nonfinite != nullptr)
    split_kernel<Rule, false, true><<<grid, split_threads, 0, stream>>>(src, dst, path_word, any_nonfinite);
  else split_kernel<Rule, false, false><<<grid, split_threads, 0, stream>>>(src, dst, path_word, nullptr);
  EGEMM_CUDA_CHECK_LAUNCH();
}

dim3 panel_grid(index_t rows, index_t depth) {
  const index_t gx = (rows + panel_rows - 1) / panel_rows, gy = (depth + panel_k - 1) / panel_k;
  if (gy > 65535) throw unsupported("egemm::gemm (CUDA): k = " + std::to_string(depth) + " exceeds the split grid's limit");
  return dim3(static_cast<unsigned>(gx), static_cast<unsigned>(gy));
}

}  // namespace

void launch_row_stats(const OperandRows& src, const SplitOperand& dst, std::uint32_t* any_nonfinite,
                      cudaStream_t stream) {
  if (src.rows == 0 || src.depth == 0) return;
  row_stats_kernel<<<panel_grid(src.rows, src.depth), split_threads, 0, stream>>>(src, dst, any_nonfinite);
  EGEMM_CUDA_CHECK_LAUNCH();
}

void launch_path_verdict(const SplitOperand& op, std::uint32_t* path_word, cudaStream_t stream) {
  if (op.rows == 0) return;
  constexpr int threads = 256;
  path_verdict_kernel<<<static_cast<unsigned>((op.rows + threads - 1) / threads), threads, 0, stream>>>(op, path_word);
  EGEMM_CUDA_CHECK_LAUNCH();
}

void launch_path_settle(const SplitOperand& a, const SplitOperand& b, std::uint32_t* path_word, cudaStream_t stream) {
  path_settle_kernel<<<1, 256, 0, stream>>>(a, b, path_word);
  EGEMM_CUDA_CHECK_LAUNCH();
}

void launch_split(const OperandRows& src, SplitRule rule, bool scale_rows, const SplitOperand& dst,
                  const std::uint32_t* path_word, std::uint32_t* any_nonfinite, cudaStream_t stream) {
  if (dst.rows_pad % panel_rows != 0 || dst.depth_pad % (threads_per_row * per_chunk) != 0)
    throw invalid_argument("egemm::cuda::launch_split: padded extents must be multiples of 32");
  if (any_nonfinite != nullptr && (scale_rows || path_word != nullptr))
    throw invalid_argument("egemm::cuda::launch_split: scaling and path choice need the stats pass for the flags");
  const dim3 grid = panel_grid(dst.rows_pad, dst.depth_pad);
  switch (rule) {
    case SplitRule::round_hi_only:
      return launch_split_rule<SplitRule::round_hi_only>(src, scale_rows, dst, path_word, any_nonfinite, grid, stream);
    case SplitRule::round:
      return launch_split_rule<SplitRule::round>(src, scale_rows, dst, path_word, any_nonfinite, grid, stream);
    case SplitRule::truncate:
      return launch_split_rule<SplitRule::truncate>(src, scale_rows, dst, path_word, any_nonfinite, grid, stream);
    case SplitRule::round_scaled_lo:
      return launch_split_rule<SplitRule::round_scaled_lo>(src, scale_rows, dst, path_word, any_nonfinite, grid,
                                                           stream);
    case SplitRule::tf32:
      return launch_split_rule<SplitRule::tf32>(src, false, dst, path_word, any_nonfinite, grid, stream);
    case SplitRule::none: break;
  }
  throw invalid_argument("egemm::cuda::launch_split: SplitRule::none has no pieces");
}

void launch_emulated_fp32_split(const OperandRows& a_src, const OperandRows& b_src, const SplitOperand& a,
                                const SplitOperand& b, std::uint32_t* path_word, std::uint32_t* any_nonfinite,
                                cudaStream_t stream) {
  launch_row_stats(a_src, a, any_nonfinite, stream);
  launch_row_stats(b_src, b, any_nonfinite, stream);
  launch_path_verdict(a, path_word, stream);
  launch_path_verdict(b, path_word, stream);
  launch_path_settle(a, b, path_word, stream);
  launch_split(a_src, SplitRule::round_scaled_lo, true, a, path_word, nullptr, stream);
  launch_split(b_src, SplitRule::round_scaled_lo, true, b, path_word, nullptr, stream);
}

}  // namespace egemm::cuda
