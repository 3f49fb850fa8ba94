// EmulatedFP32's sparse outliers added to C after the tensor-core gemm, which
// computed each entry from pieces that left them out (numerics/outliers.hpp):
// C(i, j) += alpha * (the routed outliers of row i of op(A) times column j of
// op(B), then column j's routed outliers times row i's other elements), in
// float64, rounded once. The host backend's outlier_entry does the same
// operations in the same order. Entries the special-value or wide-row passes
// recompute from the inputs are theirs. Device code for special_entries.cu.
#pragma once

#include <cstdint>

#include "backends/cuda/route/emulation_path.hpp"
#include "backends/cuda/special_entries/operand_strides.hpp"
#include "backends/cuda/split/split_operand.hpp"
#include "egemm/gemm_args.hpp"
#include "egemm/numerics/half_bits.hpp"
#include "egemm/numerics/outliers.hpp"

namespace egemm::cuda {

// Entry (i, j) of a routed row (`row_routed`) or column (`column_routed`),
// neither holding Inf/NaN nor wide: C(i, j) = RN(C(i, j) + alpha s), s the
// row's outliers times op(B)'s column (depth order), then the column's
// outliers times op(A)'s row where the row has no outlier at that depth, in
// float64. The operands' words are read-only here (__ldg).
__device__ __forceinline__ void outlier_entry(const GemmArgs& g, const OperandStrides& s, const SplitOperand& a,
                                              const SplitOperand& b, index_t i, index_t j, bool row_routed,
                                              bool column_routed) {
  const uint2* row = a.outlier_slots + i * numerics::outlier_slots;
  const std::uint32_t row_count = row_routed ? (__ldg(a.outlier_state + i) & outlier_count_mask) : 0u;
  double correction = 0.0;
  const float* b_col = g.b + j * s.b_col;
  for (std::uint32_t t = 0; t < row_count; ++t) {
    const uint2 o = __ldg(row + t);
    correction = numerics::add_outlier_product(correction, numerics::bits_to_float(o.y), __ldg(b_col + o.x * s.b_depth));
  }
  if (column_routed) {
    const uint2* column = b.outlier_slots + j * numerics::outlier_slots;
    const std::uint32_t column_count = __ldg(b.outlier_state + j) & outlier_count_mask;
    const float* a_row = g.a + i * s.a_row;
    for (std::uint32_t t = 0; t < column_count; ++t) {
      const uint2 o = __ldg(column + t);
      bool met = false;  // an outlier meeting an outlier: counted in the row's sum
      for (std::uint32_t u = 0; u < row_count; ++u) met = met || __ldg(row + u).x == o.x;
      if (!met)
        correction = numerics::add_outlier_product(correction, __ldg(a_row + o.x * s.a_depth), numerics::bits_to_float(o.y));
    }
  }
  float* c = g.c + i + j * g.ldc;
  *c = numerics::add_outlier_correction(*c, g.alpha, correction);
}

// Routed rows in a 32-row group up to which a warp's lanes take 32 columns
// of one routed row at a time (every lane busy, C read 4 bytes a sector);
// beyond, a lane takes its own row across the columns (C read whole sectors,
// lanes of rows not routed idle).
inline constexpr int routed_rows_for_lanes_over_columns = 4;

// Every entry in a routed row of op(A) or column of op(B), once
// (outlier_entry). Warps walk items of 32 rows x 32 columns (grid-stride over
// `blocks` blocks); an item with no routed row or column costs two coalesced
// loads. Entries of Inf/NaN or wide rows and columns are the other passes'.
__device__ __forceinline__ void outlier_entries(const GemmArgs& g, const SplitOperand& a, const SplitOperand& b,
                                                unsigned block, unsigned blocks) {
  const OperandStrides s = operand_strides(g);
  const unsigned lane = threadIdx.x % 32, warps_per_block = blockDim.x / 32;
  const index_t row_groups = (g.m + 31) / 32, items = row_groups * ((g.n + 31) / 32);
  const index_t warps = static_cast<index_t>(blocks) * warps_per_block;
  for (index_t item = static_cast<index_t>(block) * warps_per_block + threadIdx.x / 32; item < items; item += warps) {
    const index_t i0 = item % row_groups * 32, j0 = item / row_groups * 32;
    const index_t i = i0 + lane, j = j0 + lane;
    // The lane's row and column: routed, and left to the other passes.
    const bool row_routed = i < g.m && (__ldg(a.outlier_state + i) & outlier_routed) != 0;
    const bool column_routed = j < g.n && (__ldg(b.outlier_state + j) & outlier_routed) != 0;
    const unsigned rows = __ballot_sync(0xffffffffu, row_routed), columns = __ballot_sync(0xffffffffu, column_routed);
    if (rows == 0 && columns == 0) continue;
    const bool row_elsewhere = i >= g.m || __ldg(a.nonfinite + i) != 0;
    const bool column_elsewhere = j >= g.n || __ldg(b.nonfinite + j) != 0;
    const unsigned rows_elsewhere = __ballot_sync(0xffffffffu, row_elsewhere);
    const unsigned columns_elsewhere = __ballot_sync(0xffffffffu, column_elsewhere);
    // Entries of the routed rows.
    if (__popc(rows) <= routed_rows_for_lanes_over_columns) {
      for (unsigned left = rows; left != 0; left &= left - 1) {  // lanes over the item's columns
        const int r = __ffs(left) - 1;
        if (((rows_elsewhere >> r) & 1u) == 0 && !column_elsewhere) outlier_entry(g, s, a, b, i0 + r, j, true, column_routed);
      }
    } else if (row_routed && !row_elsewhere) {  // lanes over the item's rows
      const int width = g.n - j0 < 32 ? static_cast<int>(g.n - j0) : 32;
#pragma unroll 4
      for (int u = 0; u < width; ++u)
        if (((columns_elsewhere >> u) & 1u) == 0) outlier_entry(g, s, a, b, i, j0 + u, true, ((columns >> u) & 1u) != 0);
    }
    // Entries of the routed columns in rows not routed: lanes over the item's rows.
    for (unsigned left = columns; left != 0; left &= left - 1) {
      const int u = __ffs(left) - 1;
      if (!row_routed && !row_elsewhere && ((columns_elsewhere >> u) & 1u) == 0) outlier_entry(g, s, a, b, i, j0 + u, false, true);
    }
  }
}

}  // namespace egemm::cuda
