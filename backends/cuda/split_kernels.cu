// The split on CUDA cores: a stats pass (per row: largest and smallest
// nonzero finite |x|, any Inf/NaN) and a split pass writing the pieces
// k-contiguous and zero padded. Both stage a 32-row x 128-k panel through
// shared memory so global reads are coalesced whichever dimension of the
// operand is contiguous (transposes folded in), with 16 loads in flight per
// thread (a 32x32 tile per block kept only 4, and the passes ran at half the
// memory bandwidth); both call the same bit-exact numerics as the host oracle.
// op(A) and op(B)^T go through each pass in one launch (blockIdx.z picks the
// operand): fewer launches, and one tail instead of two.
#include <algorithm>
#include <cstdint>
#include <string>

#include "backends/cuda/cuda_check.hpp"
#include "backends/cuda/dependent_launch.hpp"
#include "backends/cuda/emulation_path.hpp"
#include "backends/cuda/split_operand.hpp"
#include "backends/cuda/split_panel.cuh"
#include "egemm/errors.hpp"

namespace egemm::cuda {
namespace {

using namespace split_panel;

constexpr int path_choice_threads = 256;

// One or two operands of a launch. The kernels pick theirs by blockIdx.z with
// a branch to constant indices: an index computed at run time would copy the
// parameters to local memory.
struct OperandPair {
  OperandRows src[2];
  SplitOperand dst[2];
};

__device__ __forceinline__ void row_stats(const OperandRows& src, const SplitOperand& dst, std::uint32_t* any_nonfinite) {
  const index_t r0 = static_cast<index_t>(blockIdx.x) * panel_rows, p0 = static_cast<index_t>(blockIdx.y) * panel_k;
  if (r0 >= src.rows || p0 >= src.depth) return;  // the grid spans the larger operand
  __shared__ Panel panel;
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

__global__ void __launch_bounds__(split_threads) row_stats_kernel(const OperandPair ops, std::uint32_t* any_nonfinite) {
  wait_for_previous_kernel();
  allow_next_kernel();
  if (blockIdx.z == 0)
    row_stats(ops.src[0], ops.dst[0], any_nonfinite);
  else
    row_stats(ops.src[1], ops.dst[1], any_nonfinite);
}

// Row `row` of both operands' rows in turn (op(A)'s, then op(B)^T's): its
// range verdict, from the stats pass's words.
__device__ __forceinline__ void record_verdict(const SplitOperand& a, const SplitOperand& b, index_t row,
                                               std::uint32_t* path_word) {
  const SplitOperand& op = row < a.rows ? a : b;
  if (row >= a.rows) row -= a.rows;
  if (row >= op.rows) return;
  RowStats stats;
  stats.max_bits = op.max_abs_bits[row];
  stats.min_inv = op.min_abs_inv_bits[row];
  record_row_verdict(op, row, stats.range(), path_word);
}

// Every row's range verdict, a row per thread over as many blocks as it
// takes; the last block to finish (counted on *blocks_done) settles: too
// many wide rows in either operand rule out the FP16 path; otherwise the
// listed rows are flagged for float64 recomputation. One launch, and no
// single block walking 2 x 16384 rows one load after another (~9 us at
// 4096^3, growing with the size).
__global__ void __launch_bounds__(path_choice_threads) path_choice_kernel(const SplitOperand a, const SplitOperand b,
                                                                          std::uint32_t* path_word,
                                                                          std::uint32_t* blocks_done) {
  wait_for_previous_kernel();
  allow_next_kernel();
  record_verdict(a, b, static_cast<index_t>(blockIdx.x) * path_choice_threads + threadIdx.x, path_word);
  __threadfence();  // this block's counts and list entries before its arrival
  __syncthreads();
  __shared__ bool last;
  if (threadIdx.x == 0) last = atomicAdd(blocks_done, 1u) == gridDim.x - 1;
  __syncthreads();
  if (!last) return;
  __threadfence();
  const std::uint32_t wide_a = __ldcg(a.wide_count), wide_b = __ldcg(b.wide_count);  // L2: the atomics' results
  if (wide_a > static_cast<std::uint32_t>(max_recomputed_rows(a.rows)) ||
      wide_b > static_cast<std::uint32_t>(max_recomputed_rows(b.rows))) {
    if (threadIdx.x == 0) atomicOr(path_word, path_not_fp16_scaled);
    return;
  }
  for (std::uint32_t s = threadIdx.x; s < wide_a; s += blockDim.x) atomicOr(a.nonfinite + __ldcg(a.wide_list + s), row_recomputed);
  for (std::uint32_t s = threadIdx.x; s < wide_b; s += blockDim.x) atomicOr(b.nonfinite + __ldcg(b.wide_list + s), row_recomputed);
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
__device__ __forceinline__ void split_panel_of(const OperandRows& src, const SplitOperand& dst,
                                               const std::uint32_t* path_word, std::uint32_t* any_nonfinite) {
  const EmulationPath path = path_word == nullptr ? EmulationPath::fp16_scaled : path_from_word(*path_word);
  if (path == EmulationPath::native_fp32) return;
  const bool tf32 = Rule == SplitRule::tf32 || path == EmulationPath::tf32_full_range;

  const index_t r0 = static_cast<index_t>(blockIdx.x) * panel_rows, p0 = static_cast<index_t>(blockIdx.y) * panel_k;
  if (r0 >= dst.rows_pad || p0 >= dst.depth_pad) return;  // the grid spans the larger operand
  __shared__ Panel panel;
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

template <SplitRule Rule, bool ScaleRows, bool RecordsNonfinite>
__global__ void __launch_bounds__(split_threads) split_kernel(const OperandPair ops, const std::uint32_t* path_word,
                                                              std::uint32_t* any_nonfinite) {
  wait_for_previous_kernel();
  allow_next_kernel();
  if (blockIdx.z == 0)
    split_panel_of<Rule, ScaleRows, RecordsNonfinite>(ops.src[0], ops.dst[0], path_word, any_nonfinite);
  else
    split_panel_of<Rule, ScaleRows, RecordsNonfinite>(ops.src[1], ops.dst[1], path_word, any_nonfinite);
}

template <SplitRule Rule>
void launch_split_rule(const OperandPair& ops, bool scale_rows, const std::uint32_t* path_word,
                       std::uint32_t* any_nonfinite, dim3 grid, cudaStream_t stream) {
  if (scale_rows)
    launch_dependent(split_kernel<Rule, true, false>, grid, split_threads, 0, stream, ops, path_word, nullptr);
  else if (any_nonfinite != nullptr)
    launch_dependent(split_kernel<Rule, false, true>, grid, split_threads, 0, stream, ops, path_word, any_nonfinite);
  else
    launch_dependent(split_kernel<Rule, false, false>, grid, split_threads, 0, stream, ops, path_word, nullptr);
}

// Panels over the larger of the operands' extents; z: the operands.
dim3 panel_grid(index_t rows, index_t depth, int operands) {
  const index_t gx = (rows + panel_rows - 1) / panel_rows, gy = (depth + panel_k - 1) / panel_k;
  if (gy > 65535) throw unsupported("egemm::gemm (CUDA): k = " + std::to_string(depth) + " exceeds the split grid's limit");
  return dim3(static_cast<unsigned>(gx), static_cast<unsigned>(gy), static_cast<unsigned>(operands));
}

void launch_stats_pass(const OperandPair& ops, int operands, std::uint32_t* any_nonfinite, cudaStream_t stream) {
  index_t rows = 0, depth = 0;
  for (int i = 0; i < operands; ++i) rows = std::max(rows, ops.src[i].rows), depth = std::max(depth, ops.src[i].depth);
  if (rows == 0 || depth == 0) return;
  row_stats_kernel<<<panel_grid(rows, depth, operands), split_threads, 0, stream>>>(ops, any_nonfinite);
  EGEMM_CUDA_CHECK_LAUNCH();
}

void launch_split_pass(const OperandPair& ops, int operands, SplitRule rule, bool scale_rows,
                       const std::uint32_t* path_word, std::uint32_t* any_nonfinite, cudaStream_t stream) {
  index_t rows_pad = 0, depth_pad = 0;
  for (int i = 0; i < operands; ++i) {
    const SplitOperand& dst = ops.dst[i];
    if (dst.rows_pad % panel_rows != 0 || dst.depth_pad % (threads_per_row * per_chunk) != 0)
      throw invalid_argument("egemm::cuda::launch_split: padded extents must be multiples of 32");
    rows_pad = std::max(rows_pad, dst.rows_pad), depth_pad = std::max(depth_pad, dst.depth_pad);
  }
  if (any_nonfinite != nullptr && (scale_rows || path_word != nullptr))
    throw invalid_argument("egemm::cuda::launch_split: scaling and path choice need the stats pass for the flags");
  const dim3 grid = panel_grid(rows_pad, depth_pad, operands);
  switch (rule) {
    case SplitRule::round_hi_only:
      return launch_split_rule<SplitRule::round_hi_only>(ops, scale_rows, path_word, any_nonfinite, grid, stream);
    case SplitRule::round:
      return launch_split_rule<SplitRule::round>(ops, scale_rows, path_word, any_nonfinite, grid, stream);
    case SplitRule::truncate:
      return launch_split_rule<SplitRule::truncate>(ops, scale_rows, path_word, any_nonfinite, grid, stream);
    case SplitRule::round_scaled_lo:
      return launch_split_rule<SplitRule::round_scaled_lo>(ops, scale_rows, path_word, any_nonfinite, grid, stream);
    case SplitRule::tf32:
      return launch_split_rule<SplitRule::tf32>(ops, false, path_word, any_nonfinite, grid, stream);
    case SplitRule::none: break;
  }
  throw invalid_argument("egemm::cuda::launch_split: SplitRule::none has no pieces");
}

}  // namespace

void launch_row_stats(const OperandRows& src, const SplitOperand& dst, std::uint32_t* any_nonfinite,
                      cudaStream_t stream) {
  launch_stats_pass(OperandPair{{src, src}, {dst, dst}}, 1, any_nonfinite, stream);
}

void launch_split(const OperandRows& src, SplitRule rule, bool scale_rows, const SplitOperand& dst,
                  const std::uint32_t* path_word, std::uint32_t* any_nonfinite, cudaStream_t stream) {
  launch_split_pass(OperandPair{{src, src}, {dst, dst}}, 1, rule, scale_rows, path_word, any_nonfinite, stream);
}

void launch_split_both(const OperandRows& a_src, const OperandRows& b_src, SplitRule rule, bool scale_rows,
                       const SplitOperand& a, const SplitOperand& b, const std::uint32_t* path_word,
                       std::uint32_t* any_nonfinite, cudaStream_t stream) {
  launch_split_pass(OperandPair{{a_src, b_src}, {a, b}}, 2, rule, scale_rows, path_word, any_nonfinite, stream);
}

void launch_emulated_fp32_split(const OperandRows& a_src, const OperandRows& b_src, const SplitOperand& a,
                                const SplitOperand& b, std::uint32_t* path_word, std::uint32_t* verdict_blocks,
                                std::uint32_t* any_nonfinite, cudaStream_t stream) {
  const OperandPair both{{a_src, b_src}, {a, b}};
  launch_stats_pass(both, 2, any_nonfinite, stream);
  if (a.rows > 0 || b.rows > 0) {
    const index_t blocks = (a.rows + b.rows + path_choice_threads - 1) / path_choice_threads;
    launch_dependent(path_choice_kernel, dim3(static_cast<unsigned>(blocks)), path_choice_threads, 0, stream, a, b,
                     path_word, verdict_blocks);
  }
  launch_split_pass(both, 2, SplitRule::round_scaled_lo, true, path_word, nullptr, stream);
}

}  // namespace egemm::cuda
