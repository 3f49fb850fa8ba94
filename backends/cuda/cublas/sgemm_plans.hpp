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

// C = alpha op(A) op(B) + beta C in FP32 on `stream` by a cached plan:
// cuBLASLt's best algorithm for the shape given the workspace cublasSgemm has,
// so its choice is not narrowed (at 1024^3 and 2048^3 on the H100 it is the
// kernel cublasSgemm runs, bit for bit). A split-k algorithm (256 x 256 x
// 4096, 512^3 on an H200) takes the thread's split-k workspace on the device,
// kept across calls. Returns false, having enqueued nothing, where cuBLASLt
// has no algorithm, or the algorithm needs the workspace and the stream is
// being captured or the workspace cannot be had: the caller runs
// cublasSgemm. The tuning's sgemm_plans = false turns the plans off (A/B timing).
// Measured on an H200 (single calls after a sync, 61 in turns): cublasSgemm
// 36.9 / 27.4 us at 256 x 256 x 4096 / 512^3, the plan on its kept workspace
// 34.5 / 24.8 us, on workspace allocated per call no faster than cublasSgemm.
bool planned_sgemm(const GemmArgs& g, cudaStream_t stream);

// This thread's cached plans (all devices), for the tests.
std::size_t sgemm_plans_cached();

// The split-k workspace per thread and device: what cuBLAS gives
// cublasSgemm on Hopper and later GPUs (its handle's default, 32 MiB).
inline constexpr std::size_t split_k_workspace_bytes = std::size_t{32} << 20;

// At most this many plans per thread; the cache starts over when full.
inline constexpr std::size_t max_sgemm_plans = 64;

}  // namespace egemm::cuda
