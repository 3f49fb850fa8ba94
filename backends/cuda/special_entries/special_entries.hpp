// The entries of C the tensor-core gemm leaves alone, recomputed after it in
// one launch (one per call, two fewer than a kernel per kind: each launch
// that finds nothing to do still cost ~4 us at 4096^3): Inf/NaN rows and
// columns (special_values.cuh), every entry on EmulatedFP32's native path,
// and EmulatedFP32's wide rows and columns (wide_rows.cuh). The kinds touch
// disjoint entries, so one grid does them side by side.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "backends/cuda/split/split_operand.hpp"
#include "egemm/gemm_args.hpp"

namespace egemm::cuda {

// Exits at once unless the stats pass (or the split) set *any_nonfinite or,
// with a path word (EmulatedFP32), the device chose the native path or the
// FP16 path with wide rows: no host synchronisation decides anything. In a
// NormwiseFP32 call the fixups of its digits (`digits`) run only if the
// device chose them, EmulatedFP32's only if it did not.
void launch_special_entries(const GemmArgs& g, const SplitOperand& a, const SplitOperand& b,
                         const std::uint32_t* any_nonfinite, const std::uint32_t* path_word, cudaStream_t stream,
                         bool digits);

}  // namespace egemm::cuda
