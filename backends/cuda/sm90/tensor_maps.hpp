// TMA tensor maps of the split pieces, as the Hopper kernel's boxes read them.
#pragma once

#include <cuda.h>

#include "backends/cuda/split_operand.hpp"
#include "egemm/gemm_args.hpp"

namespace egemm::cuda::hopper {

// A piece (rows_pad x depth_pad FP16 or TF32 values, k contiguous) as boxes
// of 128 bytes of k (64 FP16 or 32 TF32 values) x `box_rows` rows,
// 128B-swizzled as the wgmma descriptors read them.
CUtensorMap piece_map(const void* piece, const SplitOperand& op, int box_rows, int element_bytes);

// Whether TMA can read an FP32 operand in place: one unit stride, the other
// a multiple of 16 bytes, the base 16-byte aligned.
bool tma_reads(const OperandRows& src);

// Which of its dimensions is contiguous (the other's stride is the leading dimension).
inline bool source_rows_contiguous(const OperandRows& src) { return src.row_stride == 1 && src.rows > 1; }

// An FP32 operand (op(A), or op(B)^T) in place, as boxes of `box_k` values of k
// x `box_rows` rows: k contiguous, 128B-swizzled rows of k (box_k = 32); rows
// contiguous, unswizzled rows of `box_rows` (see hopper::SourceStaging).
CUtensorMap source_map(const OperandRows& src, int box_rows, int box_k);

}  // namespace egemm::cuda::hopper
