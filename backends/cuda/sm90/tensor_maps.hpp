// TMA tensor maps of the split pieces, as the Hopper kernel's boxes read
// them, and of C, as its staged epilogue writes it.
#pragma once

#include <cuda.h>

#include "backends/cuda/split/split_operand.hpp"
#include "egemm/gemm_args.hpp"

namespace egemm::cuda::hopper {

// A piece (rows_pad x depth_pad FP16, TF32 or INT8 values, k contiguous) as
// boxes of `row_bytes` (128: 64 FP16 or 32 TF32 values; 64: 64 INT8 values)
// of k x `box_rows` rows, swizzled over row_bytes as the wgmma descriptors read them.
CUtensorMap piece_map(const void* piece, const SplitOperand& op, int box_rows, int element_bytes, int row_bytes = 128);

// Whether TMA can store boxes of C: its base 16-byte aligned, ldc a multiple
// of 4 floats (TMA's stride unit is 16 bytes), and so is m: TMA clips a box
// at m only to whole 16 bytes, and would write padding rows m .. (m + 3) / 4 * 4 - 1
// otherwise (test_cuda_sm90_kernel.cpp's epilogue test). Otherwise the kernel writes C from registers.
bool c_map_possible(const GemmArgs& g);

// C (m x n, column-major, ldc) as boxes of 32 rows (128 bytes) x `box_cols`
// columns, 128B-swizzled: the layout the staged epilogue writes
// (consumer_epilogue.cuh, StagedC). Boxes clip at m and n.
CUtensorMap c_map(const GemmArgs& g, int box_cols);

}  // namespace egemm::cuda::hopper
