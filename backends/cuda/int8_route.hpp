// NormwiseFP32's choice on the device: Int8Slices' digits where every row of
// op(A) and column of op(B) holds them (numerics::int8_digits_hold_row, from
// the weights the digits' split summed, and _panel, which the split checked
// as it went), EmulatedFP32 otherwise. Both
// sequences are enqueued behind it on the call's stream, gated on one path
// word (emulation_path.hpp: path_int8_digits), so nothing waits for the host.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "backends/cuda/split_operand.hpp"

namespace egemm::cuda {

// After launch_int8_slices_split of `a` and `b` (depth k): sets
// path_int8_digits in *path_word (zero on entry) when every row holds.
void launch_int8_route(const SplitOperand& a, const SplitOperand& b, index_t k, std::uint32_t* path_word,
                       cudaStream_t stream);

}  // namespace egemm::cuda
