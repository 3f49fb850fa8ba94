// TMA tensor maps of the split pieces, as the Hopper kernel's boxes read them.
#pragma once

#include <cuda.h>

#include "backends/cuda/split_operand.hpp"

namespace egemm::cuda::hopper {

// A piece (rows_pad x depth_pad FP16, k contiguous) as boxes of 64 k x
// `box_rows` rows, 128B-swizzled as the wgmma descriptors read them.
CUtensorMap piece_map(const void* piece, const SplitOperand& op, int box_rows);

}  // namespace egemm::cuda::hopper
