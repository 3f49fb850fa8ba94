// NormwiseFP32's choice on the device: Int8Slices' digits where every row of
// op(A) and column of op(B) holds them (numerics::int8_digits_hold_row, from
// the weights the digits' split summed) and the two operands' column sums
// pass the cross rule (numerics::int8_digits_hold_product, from the sums the
// split wrote per row panel), EmulatedFP32 otherwise. Both sequences are
// enqueued behind it on the call's stream, gated on one path word
// (emulation_path.hpp: path_int8_digits), so nothing waits for the host.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "backends/cuda/split/split_operand.hpp"
#include "egemm/numerics/int8_cross_rule.hpp"

namespace egemm::cuda {

// The cross terms' groups for a padded depth: group_terms holds this many,
// and one more, where the route leaves their total.
index_t int8_cross_groups(index_t depth_pad);

// What the route's kernels gather across their blocks; zero on entry (it
// lies among the call's statistics words, zeroed by their memset).
struct RouteState {
  unsigned long long largest_bits[2];  // bits of op(A)'s and op(B)^T's largest row mass (masses >= 0)
  std::uint32_t spread;                // 1: some row fails the row rule
  std::uint32_t rows_carrying[2];      // rows carrying the norm, per operand
  std::uint32_t blocks_done;           // route kernel blocks that have added their counts
};

// After launch_int8_slices_split of `a` and `b` (depth k, column sums
// wanted): the cross terms summed into group_terms (and their total), then
// path_int8_digits set in *path_word (zero on entry) when every row holds,
// enough entries carry the norm and the cross rule holds. Two launches: the
// cross kernel (which also scans the rows: the row rule, the largest mass),
// then the route kernel (a thread a row counting those that carry the norm;
// its last block decides), where one block had walked every row twice
// (~11 us, whatever the size).
void launch_int8_route(const SplitOperand& a, const SplitOperand& b, index_t k, numerics::Int8CrossTerms* group_terms,
                       RouteState* state, std::uint32_t* path_word, cudaStream_t stream);

}  // namespace egemm::cuda
