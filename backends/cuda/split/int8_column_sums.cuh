// NormwiseFP32's column sums of a split panel (numerics/int8_cross_rule.hpp),
// written by Int8Slices' split (int8_split.cu) where the call wants them, and
// read by the route's cross kernel (int8_route.cu) in the layout
// split_operand.hpp's ColumnSumsOut gives.
#pragma once

#include <cstdint>

#include "backends/cuda/split/split_operand.hpp"
#include "backends/cuda/split/split_panel.cuh"
#include "egemm/numerics/int8_cross_rule.hpp"

namespace egemm::cuda::split_panel {

// Where not every row of column p counts: how many do, and their squares
// and weights summed in order (the host adds +0 for the others, which
// changes no bit).
struct CountedRows {
  int count = 0;
  double squares = 0.0, weights = 0.0;
};
__device__ __forceinline__ CountedRows counted_rows(const Panel& panel, const double (&row_weight)[panel_rows], int p) {
  CountedRows rows;
#pragma unroll 1  // unrolled, the split spills at its 40 registers
  for (int r = 0; r < panel_rows; ++r) {
    const float value = panel[r][p];
    if (!numerics::int8_counts(value)) continue;
    ++rows.count;
    const double d = value;
    rows.squares = __fma_rn(d, d, rows.squares);
    rows.weights = numerics::add_rn(rows.weights, row_weight[r]);
  }
  return rows;
}

// The sum of a row panel's 4^e over its rows, in order: z_p wherever all of
// them count (split_operand.hpp), the same at every p.
__device__ __forceinline__ double row_panel_weight(const double (&row_weight)[panel_rows]) {
  double sum = 0.0;
#pragma unroll 1
  for (int r = 0; r < panel_rows; ++r) sum = numerics::add_rn(sum, row_weight[r]);
  return sum;
}

// NormwiseFP32's column sums of a panel (numerics/int8_cross_rule.hpp): for
// each of its 128 depth indices the squares, weights and nonzeros of its 32
// rows, summed row after row by one thread (the host oracle's order), written
// at (row panel, p). The values go through the panel's shared memory, free
// between load_row_values and write_digits; padding rows hold zeros.
// The split is issue-bound, so a row takes 4 instructions (a load, a
// conversion, an FMA, a min) where the host's loop written out takes ~20:
// the squares by one FMA of every value (d d is exact in float64, so
// fma(d, d, s) is the host's s + d d bit for bit; a zero adds +0), the
// smallest |x| to see a zero, and Inf or NaN seen in the sum itself, which
// they leave infinite or NaN (finite squares cannot overflow it). Where all
// 32 rows count, n_p is 32 and z_p the row panel's weight (written once by
// its first k panel): c_p alone is written; where some row does not (zeros,
// Inf, NaN, padding: rare) a second loop sums the rows that do, and c_p is
// written negated, with n_p and z_p (split_operand.hpp).
static_assert(panel_rows == numerics::int8_cross_panel_rows, "a column sum covers a split panel's rows");
__device__ __forceinline__ void write_column_sums(const float (&x)[per_thread], int e, const SplitOperand& dst,
                                                  const PanelPlace& at, Panel& panel) {
  __shared__ double row_weight[panel_rows];  // 4^e of each row
#pragma unroll
  for (int g = 0; g < chunks; ++g)
#pragma unroll
    for (int c = 0; c < per_chunk; ++c) panel[at.r][panel_column(at.q, g, c)] = x[g * per_chunk + c];
  if (at.q == 0) row_weight[at.r] = numerics::int8_row_square_weight(e);
  __syncthreads();
  const int p = static_cast<int>(threadIdx.x);
  if (p < panel_k) {
    double squares = 0.0;
    float smallest = INFINITY;  // fminf passes a NaN by: the sum catches it
#pragma unroll 8
    for (int r = 0; r < panel_rows; ++r) {
      const float value = panel[r][p];
      const double d = value;
      squares = __fma_rn(d, d, squares);
      smallest = fminf(smallest, fabsf(value));
    }
    const bool all_count = smallest != 0.0f && isfinite(squares);
    const index_t row_panel = at.r0 / panel_rows, to = row_panel * dst.depth_pad + at.p0 + p;
    if (!all_count) {  // the count and weights of the rows that count, flagged by the squares' sign
      const CountedRows rows = counted_rows(panel, row_weight, p);
      squares = -rows.squares;
      dst.column_sums.weights[to] = rows.weights;
      dst.column_sums.nonzeros[to] = static_cast<std::uint8_t>(rows.count);
    }
    if (at.p0 == 0 && p == 0) dst.column_sums.row_panel_weights[row_panel] = row_panel_weight(row_weight);
    dst.column_sums.squares[to] = squares;
  }
  __syncthreads();  // read before write_digits stages the digits there
}

}  // namespace egemm::cuda::split_panel
