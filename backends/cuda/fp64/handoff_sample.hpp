// EmulatedFP64's sample before the splits: the flags of a fixed sample of both
// operands' rows (numerics/fp64_handoff.hpp), counted on the device.
#pragma once

#include <cuda_runtime.h>

#include "egemm/gemm_args.hpp"

namespace egemm::cuda {

// Enqueues on `stream` one kernel that flags the sampled rows of op(A) (`a`) and of
// op(B)^T (`b`) exactly as the split would (Inf/NaN, or crt::row_too_wide at
// `spread_log2`) and adds their counts to sampled[0] (op(A)) and sampled[1] (op(B)),
// which must be zero before. Reads the operands where they are, strided or not.
void enqueue_handoff_sample(const OperandRows64& a, const OperandRows64& b, int spread_log2, unsigned* sampled,
                            cudaStream_t stream);

}  // namespace egemm::cuda
