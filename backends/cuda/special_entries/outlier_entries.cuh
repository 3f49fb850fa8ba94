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

// Entry (i, j), whose row is routed (`row_routed`) or column is (`column_routed`).
__device__ __forceinline__ void outlier_entry(const GemmArgs& g, const OperandStrides& s, const SplitOperand& a,
                                              const SplitOperand& b, index_t i, index_t j, bool row_routed,
                                              bool column_routed) {
  if ((a.nonfinite[i] | b.nonfinite[j]) != 0) return;  // recomputed whole by the other passes
  const uint2* row = a.outlier_slots + i * numerics::outlier_slots;
  const std::uint32_t row_count = row_routed ? (a.outlier_state[i] & outlier_count_mask) : 0u;
  double correction = 0.0;
  const float* b_col = g.b + j * s.b_col;
  for (std::uint32_t t = 0; t < row_count; ++t) {
    const uint2 o = row[t];
    correction = numerics::add_outlier_product(correction, numerics::bits_to_float(o.y), b_col[o.x * s.b_depth]);
  }
  if (column_routed) {
    const uint2* column = b.outlier_slots + j * numerics::outlier_slots;
    const std::uint32_t column_count = b.outlier_state[j] & outlier_count_mask;
    const float* a_row = g.a + i * s.a_row;
    for (std::uint32_t t = 0; t < column_count; ++t) {
      const uint2 o = column[t];
      bool met = false;  // an outlier meeting an outlier: counted in the row's sum
      for (std::uint32_t u = 0; u < row_count; ++u) met = met || row[u].x == o.x;
      if (!met) correction = numerics::add_outlier_product(correction, a_row[o.x * s.a_depth], numerics::bits_to_float(o.y));
    }
  }
  float* c = g.c + i + j * g.ldc;
  *c = numerics::add_outlier_correction(*c, g.alpha, correction);
}

// Every entry in a routed row of op(A) or column of op(B), once. Warps walk
// items of 32 rows x 32 columns (grid-stride over `blocks` blocks), a lane a
// row, so that C's column-major entries and op(A)'s rows are read 32 at a
// time; an item with no routed row or column costs two coalesced loads.
__device__ __forceinline__ void outlier_entries(const GemmArgs& g, const SplitOperand& a, const SplitOperand& b,
                                                unsigned block, unsigned blocks) {
  const OperandStrides s = operand_strides(g);
  const unsigned lane = threadIdx.x % 32, warps_per_block = blockDim.x / 32;
  const index_t row_groups = (g.m + 31) / 32, items = row_groups * ((g.n + 31) / 32);
  const index_t warps = static_cast<index_t>(blocks) * warps_per_block;
  for (index_t item = static_cast<index_t>(block) * warps_per_block + threadIdx.x / 32; item < items; item += warps) {
    const index_t i = item % row_groups * 32 + lane, j0 = item / row_groups * 32;
    const bool row_routed = i < g.m && (a.outlier_state[i] & outlier_routed) != 0;
    const bool lane_column_routed = j0 + lane < g.n && (b.outlier_state[j0 + lane] & outlier_routed) != 0;
    const unsigned rows = __ballot_sync(0xffffffffu, row_routed), columns = __ballot_sync(0xffffffffu, lane_column_routed);
    if (rows == 0 && columns == 0) continue;
    const index_t width = g.n - j0 < 32 ? g.n - j0 : 32;
    for (int jj = 0; jj < width; ++jj) {
      const bool column_routed = ((columns >> jj) & 1u) != 0;
      if (rows == 0 && !column_routed) continue;  // warp-uniform
      if (i < g.m && (row_routed || column_routed)) outlier_entry(g, s, a, b, i, j0 + jj, row_routed, column_routed);
    }
  }
}

}  // namespace egemm::cuda
