// EmulatedFP32's sparse outliers added to C after the tensor-core gemm, which
// computed each entry from pieces that left them out (numerics/outliers.hpp):
// C(i, j) += alpha * (the routed outliers of row i of op(A) times column j of
// op(B), then column j's routed outliers times row i's other elements), in
// float64, rounded once. The host backend's outlier_entry does the same
// operations in the same order. Entries the special-value or wide-row passes
// recompute from the inputs are theirs. Device code for special_entries.cu;
// the per-lane work of an item is outlier_item.hpp's, which the host tests
// run lane after lane.
#pragma once

#include <cstdint>

#include "backends/cuda/special_entries/outlier_item.hpp"
#include "backends/cuda/split/split_operand.hpp"
#include "egemm/gemm_args.hpp"

namespace egemm::cuda {

// A warp's scratch: its item's rows and columns (shared memory).
using OutlierItemLines = ItemLines<uint2>;

// Every entry in a routed row of op(A) or column of op(B), once
// (outlier_item_lane). Warps walk items of 32 rows x 32 columns (grid-stride
// over `blocks` blocks); an item with no routed row or column costs two
// coalesced loads. Otherwise each lane stages its row's and its column's
// slots in `lines` (the warp's own), and the lanes take the item's entries
// from there. Entries of Inf/NaN or wide rows and columns are the other passes'.
template <class Offset>
__device__ __forceinline__ void outlier_entries(const GemmArgs& g, const SplitOperand& a, const SplitOperand& b,
                                                OutlierItemLines& lines, unsigned block, unsigned blocks) {
  const OperandStrides s = operand_strides(g);
  const OutlierLines<uint2> rows{a.outlier_state, a.outlier_slots, a.nonfinite, g.m};
  const OutlierLines<uint2> columns{b.outlier_state, b.outlier_slots, b.nonfinite, g.n};
  const int lane = static_cast<int>(threadIdx.x % 32);
  const unsigned warps_per_block = blockDim.x / 32;
  const index_t row_groups = (g.m + 31) / 32, items = row_groups * ((g.n + 31) / 32);
  const index_t warps = static_cast<index_t>(blocks) * warps_per_block;
  for (index_t item = static_cast<index_t>(block) * warps_per_block + threadIdx.x / 32; item < items; item += warps) {
    const index_t i0 = item % row_groups * 32, j0 = item / row_groups * 32;
    const index_t i = i0 + lane, j = j0 + lane;
    const std::uint32_t row_state = line_state(rows, i), column_state = line_state(columns, j);
    ItemMasks m;
    m.rows = __ballot_sync(0xffffffffu, line_routed(row_state));
    m.columns = __ballot_sync(0xffffffffu, line_routed(column_state));
    if (m.rows == 0 && m.columns == 0) continue;
    const bool row_elsewhere = line_elsewhere(rows, i), column_elsewhere = line_elsewhere(columns, j);
    stage_line(rows, i, row_state, lines, 0, lane);  // its loads in flight with the flags'
    stage_line(columns, j, column_state, lines, 1, lane);
    m.rows_elsewhere = __ballot_sync(0xffffffffu, row_elsewhere);
    m.columns_elsewhere = __ballot_sync(0xffffffffu, column_elsewhere);
    __syncwarp();
    outlier_item_lane<Offset>(g, s, lines, m, i0, j0, lane);
    __syncwarp();  // the item's lines are read before the next item's are staged
  }
}

}  // namespace egemm::cuda
