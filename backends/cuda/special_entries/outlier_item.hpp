// One 32 x 32 item of EmulatedFP32's outlier pass, lane by lane: plain C++ for the device and the host tests.
//
// The device runs it per lane (outlier_entries.cuh); the host test
// OutlierItem.LaneByLaneIsTheHostOracleBitForBit runs it lane after lane.
//
// Entry (i, j) of a routed row of op(A) or routed column of op(B), neither
// holding Inf/NaN nor wide, becomes RN(C(i, j) + alpha s) with s, in float64:
// the row's outliers times op(B)'s column (depth order), then the column's
// outliers times op(A)'s row where the row has no outlier at that depth. The
// host backend's outlier_entry (backends/host/outlier_entry.hpp) does the same
// operations in the same order.
//
// The pass waits on scattered loads, so the item's lines are read once: each
// lane stages its row's and its column's routed count and slots in the warp's
// ItemLines (shared memory on the device), and an entry then issues all its
// global loads (C, op(B) at the row's first depths, op(A) at the column's)
// before the first product, so that they are in flight together.
#pragma once

#include <cstdint>

#include "backends/cuda/route/outlier_state.hpp"
#include "backends/cuda/special_entries/operand_strides.hpp"
#include "egemm/config.hpp"
#include "egemm/gemm_args.hpp"
#include "egemm/numerics/half_bits.hpp"
#include "egemm/numerics/outliers.hpp"

// Full unrolling of the loops over a line's slots, where nvcc compiles.
#if defined(__CUDACC__)
#define EGEMM_UNROLL _Pragma("unroll")
#else
#define EGEMM_UNROLL
#endif

namespace egemm::cuda {

// A read of the operands or the split's words, which no kernel writes while
// the pass runs: through the read-only cache on the device.
template <class T>
EGEMM_INLINE T read_only(const T* p) {
#if defined(__CUDA_ARCH__)
  return __ldg(p);
#else
  return *p;
#endif
}

EGEMM_INLINE int lowest_bit(unsigned x) {  // x != 0
#if defined(__CUDA_ARCH__)
  return __ffs(static_cast<int>(x)) - 1;
#else
  return __builtin_ctz(x);
#endif
}

EGEMM_INLINE int bit_count(unsigned x) {
#if defined(__CUDA_ARCH__)
  return __popc(x);
#else
  return __builtin_popcount(x);
#endif
}

// Routed rows in a 32-row group up to which a warp's lanes take 32 columns
// of one routed row at a time (every lane busy, C read 4 bytes a sector);
// beyond, a lane takes its own row across the columns (C read whole sectors).
inline constexpr int routed_rows_for_lanes_over_columns = 4;

// A line's first slots, whose depths an entry holds in registers and whose
// operands it loads before any product: routed lines rarely have more (about
// one routed row in 300 at one entry in 10^4 and k = 8192); later slots are
// read, and their operands loaded, one by one.
inline constexpr int outlier_slots_ahead = 4;

// One operand's routed lines (rows of op(A), or columns of op(B) as rows of
// op(B)^T): SplitOperand's words, `Slot` a (depth, value bits) pair (uint2 on
// the device).
template <class Slot>
struct OutlierLines {
  const std::uint32_t* state;     // [rows] outlier_state
  const Slot* slots;              // [rows x numerics::outlier_slots] sorted by depth once routed
  const std::uint32_t* nonfinite; // [rows] nonzero: the line's entries are another pass's (Inf/NaN, wide)
  index_t rows;
};

// The item's 32 rows (side 0) and 32 columns (side 1), by lane: how many
// routed outliers each has (0: not routed) and their slots. A warp's
// scratch, written by each lane for its own row and column.
template <class Slot>
struct ItemLines {
  std::uint32_t count[2][32];
  Slot slot[2][numerics::outlier_slots][32];
};

// What the item's ballots say, a bit a lane: routed rows and columns, and
// rows and columns whose entries are not this pass's (past the edge, Inf/NaN, wide).
struct ItemMasks {
  unsigned rows, columns, rows_elsewhere, columns_elsewhere;
};

// Line `l`'s outlier_state, 0 past the edge.
template <class Slot>
EGEMM_INLINE std::uint32_t line_state(const OutlierLines<Slot>& lines, index_t l) {
  return l < lines.rows ? read_only(lines.state + l) : 0u;
}

EGEMM_INLINE bool line_routed(std::uint32_t state) { return (state & outlier_routed) != 0; }

// Whether line l's entries are left to the other passes (or past the edge).
template <class Slot>
EGEMM_INLINE bool line_elsewhere(const OutlierLines<Slot>& lines, index_t l) {
  return l >= lines.rows || read_only(lines.nonfinite + l) != 0;
}

// Lane `lane`'s line l (state `state`) into side `side` of the item's lines.
// A routed line counts at most numerics::outlier_slots outliers (the route's
// rule, path_selection.hpp), all in its slots; the bound keeps the reads in
// its slots regardless.
template <class Slot>
EGEMM_INLINE void stage_line(const OutlierLines<Slot>& lines, index_t l, std::uint32_t state, ItemLines<Slot>& item,
                             int side, int lane) {
  std::uint32_t count = line_routed(state) ? state & outlier_count_mask : 0u;
  if (count > static_cast<std::uint32_t>(numerics::outlier_slots)) count = numerics::outlier_slots;
  item.count[side][lane] = count;
EGEMM_UNROLL
  for (int t = 0; t < numerics::outlier_slots; ++t)
    if (static_cast<std::uint32_t>(t) < count) item.slot[side][t][lane] = read_only(lines.slots + l * numerics::outlier_slots + t);
}

// A line's routed count and first depths, in registers (their values are
// read from the item's lines when their products are added).
struct LineHead {
  std::uint32_t count;
  std::uint32_t depth[outlier_slots_ahead];
};

template <class Slot>
EGEMM_INLINE LineHead line_head(const ItemLines<Slot>& item, int side, int lane) {
  LineHead h;
  h.count = item.count[side][lane];
EGEMM_UNROLL
  for (int t = 0; t < outlier_slots_ahead; ++t) h.depth[t] = item.slot[side][t][lane].x;  // unwritten past count: unused
  return h;
}

// Whether row `row` (item lane `lane`) has an outlier at `depth`: the pair's
// product is then in the row's sum, and the column's is skipped.
template <class Slot>
EGEMM_INLINE bool row_meets(const ItemLines<Slot>& item, const LineHead& row, int lane, std::uint32_t depth) {
  bool met = false;
EGEMM_UNROLL
  for (int u = 0; u < outlier_slots_ahead; ++u) met = met || (static_cast<std::uint32_t>(u) < row.count && row.depth[u] == depth);
  for (std::uint32_t u = outlier_slots_ahead; u < row.count; ++u) met = met || item.slot[0][u][lane].x == depth;
  return met;
}

// The element at `depth` of a line whose elements lie `stride` apart, its
// offset formed in `Offset`: 32 bits where every depth * stride of the call
// fits (outlier_offsets_fit), which makes an address one multiply-add; the
// first slots' addresses are most of an entry's instructions.
template <class Offset>
EGEMM_INLINE const float* at_depth(const float* line, std::uint32_t depth, index_t stride) {
  if constexpr (sizeof(Offset) == 4) {  // the line's address plus 4 (depth stride), one wide multiply-add
    const std::uint64_t bytes = static_cast<std::uint64_t>(depth * static_cast<std::uint32_t>(stride)) * sizeof(float);
    return reinterpret_cast<const float*>(reinterpret_cast<std::uintptr_t>(line) + bytes);
  } else {
    return line + static_cast<Offset>(depth) * static_cast<Offset>(stride);
  }
}

// Whether every op(A) and op(B) element's offset along the depth (k - 1 times its stride) fits in 32 bits.
EGEMM_INLINE bool outlier_offsets_fit(const GemmArgs& g, const OperandStrides& s) {
  const index_t largest = s.a_depth > s.b_depth ? s.a_depth : s.b_depth;
  return g.k <= 1 || (g.k - 1) <= static_cast<index_t>(0xffffffffu) / largest;
}

// Entry (i, j): row i is the item's row lane `row_lane` (`row`, count 0 when
// not routed), column j its column lane `column_lane`. The sum is the host's
// (outlier_entry.hpp): the row's products in slot order, then the column's
// not met, each one add_outlier_product, then one add_outlier_correction; the
// loads of the first slots are all issued before it (a load whose product is
// met or past the count is unused: its address is inside op(A) or op(B), or
// not formed). A column without outliers (every lane's, when the lanes walk
// one column) branches past the column's part as a whole.
template <class Offset, class Slot>
EGEMM_INLINE void item_outlier_entry(const GemmArgs& g, const OperandStrides& s, const ItemLines<Slot>& item,
                                     const LineHead& row, int row_lane, const LineHead& column,
                                     int column_lane, index_t i, index_t j) {
  float* const c = g.c + i + j * g.ldc;
  const float* const b_col = g.b + j * s.b_col;
  const float* const a_row = g.a + i * s.a_row;
  const float c_in = *c;
  float b_at[outlier_slots_ahead], a_at[outlier_slots_ahead] = {};
EGEMM_UNROLL
  for (int t = 0; t < outlier_slots_ahead; ++t)
    b_at[t] = static_cast<std::uint32_t>(t) < row.count ? read_only(at_depth<Offset>(b_col, row.depth[t], s.b_depth)) : 0.0f;
  if (column.count != 0) {
EGEMM_UNROLL
    for (int t = 0; t < outlier_slots_ahead; ++t)
      if (static_cast<std::uint32_t>(t) < column.count) a_at[t] = read_only(at_depth<Offset>(a_row, column.depth[t], s.a_depth));
  }
  double correction = 0.0;
EGEMM_UNROLL
  for (int t = 0; t < outlier_slots_ahead; ++t)
    if (static_cast<std::uint32_t>(t) < row.count)
      correction = numerics::add_outlier_product(correction, numerics::bits_to_float(item.slot[0][t][row_lane].y), b_at[t]);
  for (std::uint32_t t = outlier_slots_ahead; t < row.count; ++t) {
    const Slot o = item.slot[0][t][row_lane];
    correction = numerics::add_outlier_product(correction, numerics::bits_to_float(o.y),
                                               read_only(at_depth<Offset>(b_col, o.x, s.b_depth)));
  }
  if (column.count != 0) {
EGEMM_UNROLL
    for (int t = 0; t < outlier_slots_ahead; ++t)
      if (static_cast<std::uint32_t>(t) < column.count && !row_meets(item, row, row_lane, column.depth[t]))
        correction = numerics::add_outlier_product(correction, a_at[t], numerics::bits_to_float(item.slot[1][t][column_lane].y));
    for (std::uint32_t t = outlier_slots_ahead; t < column.count; ++t) {
      const Slot o = item.slot[1][t][column_lane];
      if (!row_meets(item, row, row_lane, o.x))
        correction = numerics::add_outlier_product(correction, read_only(at_depth<Offset>(a_row, o.x, s.a_depth)),
                                                   numerics::bits_to_float(o.y));
    }
  }
  *c = numerics::add_outlier_correction(c_in, g.alpha, correction);
}

// Lane `lane`'s entries of the item at (i0, j0), its lines staged in `item`:
// every entry of a routed row or column that is this pass's, once. With few
// routed rows, the lanes take each routed row's 32 columns, then (lanes over
// rows) the routed columns' entries in the other rows; with more, lanes over
// rows throughout: a lane whose row is routed takes every column, the others
// the routed columns. The columns are walked in step (C's column and the
// column's slots shared by the warp's lanes).
template <class Offset, class Slot>
EGEMM_INLINE void outlier_item_lane(const GemmArgs& g, const OperandStrides& s, const ItemLines<Slot>& item,
                                    const ItemMasks& m, index_t i0, index_t j0, int lane) {
  const unsigned rows_here = m.rows & ~m.rows_elsewhere;
  const bool lanes_over_rows = bit_count(m.rows) > routed_rows_for_lanes_over_columns;
  if (!lanes_over_rows && ((m.columns_elsewhere >> lane) & 1u) == 0) {  // lanes over the item's columns
    const LineHead column = line_head(item, 1, lane);
    for (unsigned left = rows_here; left != 0; left &= left - 1) {
      const int r = lowest_bit(left);
      item_outlier_entry<Offset>(g, s, item, line_head(item, 0, r), r, column, lane, i0 + r, j0 + lane);
    }
  }
  // Lanes over the item's rows.
  const bool row_routed = ((m.rows >> lane) & 1u) != 0;
  const unsigned walked = (lanes_over_rows && rows_here != 0 ? ~0u : m.columns) & ~m.columns_elsewhere;
  unsigned mine = 0;
  if (((m.rows_elsewhere >> lane) & 1u) == 0) mine = row_routed ? (lanes_over_rows ? walked : 0u) : m.columns & walked;
  if (mine == 0) return;
  const LineHead row = line_head(item, 0, lane);
  for (unsigned left = walked; left != 0; left &= left - 1) {
    const int u = lowest_bit(left);
    if (((mine >> u) & 1u) != 0) item_outlier_entry<Offset>(g, s, item, row, lane, line_head(item, 1, u), u, i0 + lane, j0 + u);
  }
}

}  // namespace egemm::cuda
