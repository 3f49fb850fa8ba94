// Entries whose row of op(A) or column of op(B) holds Inf or NaN, recomputed
// as FP32 gemm computes them (the split cannot carry non-finite values).
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "egemm/gemm_args.hpp"

namespace egemm::cuda {

// Launched after every emulated gemm; exits at once unless *any_nonfinite is
// set by the stats pass, so no host synchronisation is needed to decide.
// With a path word (EmulatedFP32) that chose native_fp32 it computes every
// entry: the plain FP32 path for magnitudes beyond TF32's range (rare: within
// 2^-11 of FLT_MAX), on CUDA cores without tiling.
void launch_special_value_fixup(const GemmArgs& g, const std::uint32_t* a_nonfinite, const std::uint32_t* b_nonfinite,
                                const std::uint32_t* any_nonfinite, const std::uint32_t* path_word,
                                cudaStream_t stream);

}  // namespace egemm::cuda
