// EmulatedFP32's entries in the few rows of op(A) and columns of op(B) too
// wide for its FP16 pieces (egemm/path_selection.hpp): recomputed from the
// FP32 inputs with float64 accumulation after the tensor-core gemm, which
// left them alone. The host backend's float64_entry does the same operations.
#pragma once

#include <cuda_runtime.h>

#include "backends/cuda/split_operand.hpp"
#include "egemm/gemm_args.hpp"

namespace egemm::cuda {

// Enqueues one kernel for the listed rows and one for the listed columns;
// both exit at once unless the device chose the FP16 path with wide rows.
// Entries of rows or columns holding Inf/NaN stay with the special-value pass.
void launch_wide_row_recompute(const GemmArgs& g, const SplitOperand& a, const SplitOperand& b,
                               const std::uint32_t* path_word, cudaStream_t stream);

}  // namespace egemm::cuda
