// Which rows EmulatedFP32's second split (FP16 path) reads and writes, and where: plain C++ for the device and the host tests.
//
// The path choice (settle_row, split_kernels.cu) sorts the rows the split
// must touch again into two lists, both kept in SplitOperand::resplit_list:
//  - rows whose guessed exponent did not hold (routed or not): split again
//    from the operand with their exact exponent; from the front of the list
//    (resplit_count of them);
//  - routed rows whose guess held: the split already wrote every piece the
//    second split would, but for their outliers', so only those are zeroed
//    (the depths are in the row's slots); from the back of the list
//    (outlier_zero_count of them). A row is in one list at most, so the two
//    never meet.
// The rows split again are read as the operand's layout lets DRAM serve them:
// where a row's values are k-contiguous, that row alone (32 listed rows an
// item, each lane its row's 16 values of a k panel); where rows are contiguous
// (a 32-byte sector holds 8 consecutive rows at one depth), every 8-row
// group holding a listed row (4 such groups an item, staged through shared
// memory as the split's 32-row panels are), writing the listed rows alone.
// Test: ResplitPlan.* (unit_tests/test_resplit_plan.cpp).
#pragma once

#include <cstdint>

#include "egemm/config.hpp"
#include "egemm/gemm_args.hpp"

namespace egemm::cuda::resplit {

inline constexpr int item_rows = 32;                           // rows an item writes at most (a split panel's)
inline constexpr int group_rows = 8;                           // rows a 32-byte sector holds at one depth
inline constexpr int groups_per_item = item_rows / group_rows;  // 4

// A row's bit in its 32-row panel's mask (SplitOperand::resplit_panel_rows).
EGEMM_INLINE std::uint32_t row_bit(index_t row) { return 1u << (row % item_rows); }

// Whether the mask of row's panel before its bit was set (`before`, what
// atomicOr returns) held no row of row's 8-row group: then this row opens
// the group, and lists it (exactly one row of each listed group does).
EGEMM_INLINE bool opens_group(std::uint32_t before, index_t row) {
  return ((before >> (row % item_rows / group_rows * group_rows)) & 0xffu) == 0;
}

// The 8-row group of a row, and row r of an item's 32 (4 groups of 8) in group `group`.
EGEMM_INLINE std::uint32_t group_of(index_t row) { return static_cast<std::uint32_t>(row / group_rows); }
EGEMM_INLINE index_t group_row(std::uint32_t group, int r) { return index_t{group} * group_rows + r % group_rows; }

// Whether `row` is listed in its panel's mask.
EGEMM_INLINE bool listed_in(std::uint32_t mask, index_t row) { return ((mask >> (row % item_rows)) & 1u) != 0; }

// Where the n-th row whose outliers alone are zeroed sits in resplit_list (of `rows` words).
EGEMM_INLINE index_t zero_only_slot(index_t rows, std::uint32_t n) { return rows - 1 - index_t{n}; }

// The items over `listed` entries (rows or groups), `per_item` entries an
// item, each item one k panel of them: k panel fastest, so that a list
// chunk's k panels go to consecutive blocks.
EGEMM_INLINE index_t item_count(std::uint32_t listed, int per_item, index_t k_panels) {
  return (index_t{listed} + per_item - 1) / per_item * k_panels;
}
struct Item {
  index_t chunk;    // which per_item entries of the list
  index_t k_panel;  // which k panel of them
};
EGEMM_INLINE Item item_at(index_t item, index_t k_panels) { return Item{item / k_panels, item % k_panels}; }

// The list entry item row r takes: the r-th listed row of its chunk (rows
// k-contiguous), or the group holding it (rows contiguous); past the list's
// count means none.
EGEMM_INLINE index_t row_entry(index_t chunk, int r) { return chunk * item_rows + r; }
EGEMM_INLINE index_t group_entry(index_t chunk, int r) { return chunk * groups_per_item + r / group_rows; }

}  // namespace egemm::cuda::resplit
