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

// Columns of C a lane works on at once: their loads in flight together (an
// entry's loads depend on each other: the entry's state, its outliers, their
// partners; one entry at a time left the pass latency-bound).
inline constexpr int outlier_batch = 8;

// Every entry in a routed row of op(A) or column of op(B), once: C(i, j) =
// RN(C(i, j) + alpha s), s the row's outliers times op(B)'s column (depth
// order), then the column's outliers times op(A)'s row where the row has no
// outlier at that depth, in float64. Warps walk items of 32 rows x 32
// columns (grid-stride over `blocks` blocks), a lane a row, so that C's
// column-major entries and op(A)'s rows are read 32 at a time; an item with no
// routed row or column costs two coalesced loads. Entries of Inf/NaN or wide
// rows and columns are the other passes'.
__device__ __forceinline__ void outlier_entries(const GemmArgs& g, const SplitOperand& a, const SplitOperand& b,
                                                unsigned block, unsigned blocks) {
  const OperandStrides s = operand_strides(g);
  const unsigned lane = threadIdx.x % 32, warps_per_block = blockDim.x / 32;
  const index_t row_groups = (g.m + 31) / 32, items = row_groups * ((g.n + 31) / 32);
  const index_t warps = static_cast<index_t>(blocks) * warps_per_block;
  for (index_t item = static_cast<index_t>(block) * warps_per_block + threadIdx.x / 32; item < items; item += warps) {
    const index_t i = item % row_groups * 32 + lane, j0 = item / row_groups * 32;
    const std::uint32_t state = i < g.m ? __ldg(a.outlier_state + i) : 0u;
    const bool row_routed = (state & outlier_routed) != 0;
    const bool lane_column_routed = j0 + lane < g.n && (__ldg(b.outlier_state + j0 + lane) & outlier_routed) != 0;
    const unsigned rows = __ballot_sync(0xffffffffu, row_routed), columns = __ballot_sync(0xffffffffu, lane_column_routed);
    if (rows == 0 && columns == 0) continue;
    // The lane's row: its outliers in registers, and whether its entries are the other passes'.
    const std::uint32_t row_count = row_routed ? (state & outlier_count_mask) : 0u;
    const bool row_elsewhere = i >= g.m || __ldg(a.nonfinite + i) != 0;
    std::uint32_t depth[numerics::outlier_slots];
    float value[numerics::outlier_slots];
#pragma unroll
    for (int t = 0; t < numerics::outlier_slots; ++t) {
      const uint2 o = t < static_cast<int>(row_count) ? a.outlier_slots[i * numerics::outlier_slots + t] : make_uint2(~0u, 0u);
      depth[t] = o.x;
      value[t] = numerics::bits_to_float(o.y);
    }
    const float* a_row = g.a + i * s.a_row;
    const int width = g.n - j0 < 32 ? static_cast<int>(g.n - j0) : 32;
    for (int jb = 0; jb < width; jb += outlier_batch) {
      const unsigned batch_columns = (columns >> jb) & ((1u << outlier_batch) - 1u);
      if (rows == 0 && batch_columns == 0) continue;  // warp-uniform
      bool active[outlier_batch];
      double correction[outlier_batch];
#pragma unroll
      for (int u = 0; u < outlier_batch; ++u) {
        const index_t j = j0 + jb + u;
        const bool column_routed = ((batch_columns >> u) & 1u) != 0;
        active[u] = jb + u < width && (row_routed || column_routed) && !row_elsewhere && __ldg(b.nonfinite + j) == 0;
        correction[u] = 0.0;
      }
#pragma unroll
      for (int u = 0; u < outlier_batch; ++u) {
        const float* b_col = g.b + (j0 + jb + u) * s.b_col;
#pragma unroll
        for (int t = 0; t < numerics::outlier_slots; ++t)
          if (active[u] && t < static_cast<int>(row_count))
            correction[u] = numerics::add_outlier_product(correction[u], value[t], __ldg(b_col + depth[t] * s.b_depth));
      }
#pragma unroll
      for (int u = 0; u < outlier_batch; ++u) {
        if (!active[u] || ((batch_columns >> u) & 1u) == 0) continue;
        const index_t j = j0 + jb + u;
        const std::uint32_t column_count = __ldg(b.outlier_state + j) & outlier_count_mask;
        for (std::uint32_t t = 0; t < column_count; ++t) {
          const uint2 o = b.outlier_slots[j * numerics::outlier_slots + t];
          bool met = false;  // an outlier meeting an outlier: counted in the row's sum
#pragma unroll
          for (int r = 0; r < numerics::outlier_slots; ++r) met = met || depth[r] == o.x;
          if (!met) correction[u] = numerics::add_outlier_product(correction[u], __ldg(a_row + o.x * s.a_depth),
                                                                  numerics::bits_to_float(o.y));
        }
      }
#pragma unroll
      for (int u = 0; u < outlier_batch; ++u) {
        if (!active[u]) continue;
        float* c = g.c + i + (j0 + jb + u) * g.ldc;
        *c = numerics::add_outlier_correction(*c, g.alpha, correction[u]);
      }
    }
  }
}

}  // namespace egemm::cuda
