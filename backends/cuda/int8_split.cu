// Int8Slices' split on CUDA cores, in two launches over the 32-row x 128-k
// panels the other splits use (split_panel.cuh; op(A) and op(B)^T in one
// launch each, blockIdx.z picking the operand):
//  1. each row's largest finite |x| and whether it holds Inf or NaN. The
//     digits need the row's exact exponent before any of them is written: a
//     guessed one (EmulatedFP32's split) that is a power of two too high
//     costs every element of the row a bit;
//  2. the digits: each row's exponent from its maximum, three 1-byte pieces
//     (numerics/int8_digits.hpp: the host oracle's bits).
#include <cstdint>
#include <string>

#include "backends/cuda/dependent_launch.hpp"
#include "backends/cuda/emulation_path.hpp"
#include "backends/cuda/split_operand.hpp"
#include "backends/cuda/split_panel.cuh"
#include "egemm/errors.hpp"
#include "egemm/numerics/int8_digits.hpp"

namespace egemm::cuda {
namespace {

using namespace split_panel;

struct DigitOperands {
  OperandRows src[2];
  SplitOperand dst[2];
};

// Launch 1's panel: the row statistics (stats words and flags zero on entry).
__device__ __forceinline__ void row_maxima_of_panel(const OperandRows& src, const SplitOperand& dst,
                                                    std::uint32_t* any_nonfinite) {
  const PanelPlace at;
  if (!at.inside(dst)) return;
  __shared__ Panel panel;
  float x[per_thread];
  stage_row_values(src, at, panel, x);
  RowStats stats;
#pragma unroll
  for (int v = 0; v < per_thread; ++v) stats.add(x[v]);
  stats.reduce_over_row_lanes();
  if (at.q != 0 || at.row >= dst.rows) return;
  if (stats.max_bits != 0) atomicMax(dst.max_abs_bits + at.row, stats.max_bits);
  if (stats.nonfinite) {
    atomicOr(dst.nonfinite + at.row, row_nonfinite);
    atomicOr(any_nonfinite, 1u);
  }
}

// Four consecutive values' digit s, packed little-endian (value c in byte c).
__device__ __forceinline__ void pack_digits(const float* x, int e, std::uint32_t (&packed)[3]) {
  packed[0] = packed[1] = packed[2] = 0;
#pragma unroll
  for (int c = 0; c < per_chunk; ++c) {
    const numerics::Int8Digits d = numerics::int8_digits(x[c], e);
    packed[0] |= static_cast<std::uint32_t>(static_cast<std::uint8_t>(d.d0)) << (8 * c);
    packed[1] |= static_cast<std::uint32_t>(static_cast<std::uint8_t>(d.d1)) << (8 * c);
    packed[2] |= static_cast<std::uint32_t>(static_cast<std::uint8_t>(d.d2)) << (8 * c);
  }
}

// Launch 2's panel: every element of the padded extent as digits (zeros
// outside src), each row's exponent written by its first k panel.
__device__ __forceinline__ void digits_of_panel(const OperandRows& src, const SplitOperand& dst) {
  const PanelPlace at;
  if (!at.inside(dst)) return;
  __shared__ Panel panel;
  float x[per_thread];
  stage_row_values(src, at, panel, x);
  const index_t row = at.row;
  const int e = row < dst.rows ? numerics::int8_row_exponent(numerics::bits_to_float(dst.max_abs_bits[row])) : 0;
  if (blockIdx.y == 0 && at.q == 0) dst.exponent[row] = e;
#pragma unroll
  for (int g = 0; g < chunks; ++g) {
    const index_t p = at.p0 + panel_column(at.q, g, 0);  // depth_pad is a multiple of the panel: no bound
    std::uint32_t packed[3];
    pack_digits(x + g * per_chunk, e, packed);
#pragma unroll
    for (int s = 0; s < 3; ++s)
      *reinterpret_cast<std::uint32_t*>(static_cast<std::uint8_t*>(dst.piece[s]) + row * dst.depth_pad + p) = packed[s];
  }
}

__global__ void __launch_bounds__(split_threads) row_maxima_kernel(const DigitOperands ops, std::uint32_t* any_nonfinite) {
  wait_for_previous_kernel();
  allow_next_kernel();
  // A branch to constant indices: a run-time index would copy the parameters to local memory.
  if (blockIdx.z == 0)
    row_maxima_of_panel(ops.src[0], ops.dst[0], any_nonfinite);
  else
    row_maxima_of_panel(ops.src[1], ops.dst[1], any_nonfinite);
}

__global__ void __launch_bounds__(split_threads) digits_kernel(const DigitOperands ops) {
  wait_for_previous_kernel();
  allow_next_kernel();
  if (blockIdx.z == 0)
    digits_of_panel(ops.src[0], ops.dst[0]);
  else
    digits_of_panel(ops.src[1], ops.dst[1]);
}

}  // namespace

void launch_int8_slices_split(const OperandRows& a_src, const OperandRows& b_src, const SplitOperand& a,
                              const SplitOperand& b, std::uint32_t* any_nonfinite, cudaStream_t stream) {
  const DigitOperands ops{{a_src, b_src}, {a, b}};
  index_t rows_pad = 0, depth_pad = 0;
  for (const SplitOperand& op : ops.dst) {
    if (op.rows_pad % panel_rows != 0 || op.depth_pad % panel_k != 0)
      throw invalid_argument("egemm::cuda::launch_int8_slices_split: padded extents must be multiples of the panel");
    rows_pad = op.rows_pad > rows_pad ? op.rows_pad : rows_pad;
    depth_pad = op.depth_pad > depth_pad ? op.depth_pad : depth_pad;
  }
  if (depth_pad > split_max_depth)
    throw unsupported("egemm::gemm (CUDA): k = " + std::to_string(depth_pad) + " exceeds the split grid's limit");
  const dim3 grid(static_cast<unsigned>(rows_pad / panel_rows), static_cast<unsigned>(depth_pad / panel_k), 2);
  if (grid.x == 0 || grid.y == 0) return;
  // The first kernel after the statistics' memset: a plain launch.
  launch_plain(row_maxima_kernel, grid, dim3(split_threads), 0, stream, ops, any_nonfinite);
  launch_dependent(digits_kernel, grid, split_threads, 0, stream, ops);
}

}  // namespace egemm::cuda
