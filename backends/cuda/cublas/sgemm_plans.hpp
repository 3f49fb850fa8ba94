// NativeFP32 (and EmulatedFP32's hand-off) through cuBLASLt with the plan
// made once per thread, device and call shape (transposes, sizes, leading
// dimensions, and the operands' alignment up to 256 bytes): the operation and matrix
// descriptors and cuBLASLt's pick of algorithm. cublasSgemm makes that pick
// again on every call: ~2.5 us of host time warm, ~15-18 us on a CPU that
// slept, about what EGEMM's own checks cost before it (perf_tests/call_overhead
// on an H100).
#pragma once

#include <cstddef>

#include <cuda_runtime.h>

#include "egemm/gemm_args.hpp"

namespace egemm::cuda {

// C = alpha op(A) op(B) + beta C in FP32 on `stream` by a cached plan, when
// cuBLASLt's best algorithm for the shape needs no workspace (so nothing is
// allocated or shared between streams, and cuBLASLt's choice is not narrowed:
// at 1024^3 and 2048^3 on the H100 it is the kernel cublasSgemm runs, bit for
// bit). Returns false, having enqueued nothing, where it does not: the caller
// runs cublasSgemm. The tuning's sgemm_plans = false turns the plans off (A/B timing).
bool planned_sgemm(const GemmArgs& g, cudaStream_t stream);

// This thread's cached plans (all devices), for the tests.
std::size_t sgemm_plans_cached();

// At most this many plans per thread; the cache starts over when full.
inline constexpr std::size_t max_sgemm_plans = 64;

}  // namespace egemm::cuda
