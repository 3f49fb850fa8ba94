// NormwiseFP32's column sums of a split panel (numerics/int8_cross_rule.hpp),
// written by Int8Slices' split (int8_split.cu) where the call wants them, and
// read by the route's cross kernel (int8_route.cu) in the layout
// split_operand.hpp's ColumnSumsOut gives.
#pragma once

#include <cstdint>

#include "backends/cuda/split_operand.hpp"
#include "backends/cuda/split_panel.cuh"
#include "egemm/numerics/int8_cross_rule.hpp"

namespace egemm::cuda::split_panel {

// Where not every row of column p counts: how many do, and their weights
// summed in order (the host adds +0 for the others, which changes no bit).
struct CountedRows {
  int count = 0;
  double weights = 0.0;
};
__device__ __forceinline__ CountedRows counted_rows(const Panel& panel, const double (&row_weight)[panel_rows], int p) {
  CountedRows rows;
#pragma unroll 1  // unrolled, the split spills at its 40 registers
  for (int r = 0; r < panel_rows; ++r) {
    if (!numerics::int8_counts(panel[r][p])) continue;
    ++rows.count;
    rows.weights = numerics::add_rn(rows.weights, row_weight[r]);
  }
  return rows;
}

// NormwiseFP32's column sums of a panel (numerics/int8_cross_rule.hpp): for
// each of its 128 depth indices the squares, weights and nonzeros of its 32
// rows, summed row after row by one thread (the host oracle's order), written
// at (row panel, p). The values go through the panel's shared memory, free
// between load_row_values and write_digits; padding rows hold zeros.
// The split is issue-bound, so a row takes ~11 instructions where the host's
// loop written out took ~20: the squares by one FMA (d d is exact in float64,
// so fma(d, d, s) is the host's s + d d bit for bit), the rows that count as
// a flag (n_p is 32 where all do), each row's 4^e from shared memory, the
// weights summed over all 32 rows (the row panel's, written once:
// split_operand.hpp); where some row does not count (zeros, Inf, NaN,
// padding: rare) a second loop counts and sums the rows that do, written at p.
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
    double squares = 0.0, all_rows_weights = 0.0;
    bool all_count = true;
#pragma unroll 8
    for (int r = 0; r < panel_rows; ++r) {
      const float value = panel[r][p];
      const bool counts = numerics::int8_counts(value);
      const double d = counts ? static_cast<double>(value) : 0.0;
      squares = __fma_rn(d, d, squares);
      all_rows_weights = numerics::add_rn(all_rows_weights, row_weight[r]);
      all_count &= counts;
    }
    const index_t row_panel = at.r0 / panel_rows, to = row_panel * dst.depth_pad + at.p0 + p;
    int nonzeros = panel_rows;
    if (!all_count) {
      const CountedRows rows = counted_rows(panel, row_weight, p);
      dst.column_sums.weights[to] = rows.weights;
      nonzeros = rows.count;
    }
    if (at.p0 == 0 && p == 0) dst.column_sums.row_panel_weights[row_panel] = all_rows_weights;
    dst.column_sums.squares[to] = squares;
    dst.column_sums.nonzeros[to] = static_cast<std::uint8_t>(nonzeros);
  }
  __syncthreads();  // read before write_digits stages the digits there
}

}  // namespace egemm::cuda::split_panel
