// TMA tensor maps of the split pieces, as the Hopper kernel's boxes read them.
#pragma once

#include <cuda.h>

#include "backends/cuda/split_operand.hpp"

namespace egemm::cuda::hopper {

// A piece (rows_pad x depth_pad FP16 or TF32 values, k contiguous) as boxes
// of 128 bytes of k (64 FP16 or 32 TF32 values) x `box_rows` rows,
// 128B-swizzled as the wgmma descriptors read them.
CUtensorMap piece_map(const void* piece, const SplitOperand& op, int box_rows, int element_bytes);

}  // namespace egemm::cuda::hopper
