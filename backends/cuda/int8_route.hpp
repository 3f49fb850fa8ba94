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

#include "backends/cuda/split_operand.hpp"
#include "egemm/numerics/int8_cross_rule.hpp"

namespace egemm::cuda {

// The cross terms' groups for a padded depth: group_terms holds this many,
// and one more, where the route leaves their total.
index_t int8_cross_groups(index_t depth_pad);

// After launch_int8_slices_split of `a` and `b` (depth k, column sums
// wanted): the cross terms summed into group_terms (and their total), then path_int8_digits
// set in *path_word (zero on entry) when every row holds and the cross rule
// does. Two launches.
void launch_int8_route(const SplitOperand& a, const SplitOperand& b, index_t k, numerics::Int8CrossTerms* group_terms,
                       std::uint32_t* path_word, cudaStream_t stream);

}  // namespace egemm::cuda
