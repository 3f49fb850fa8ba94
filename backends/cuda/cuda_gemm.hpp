// The CUDA backend's entry points, called by src/dispatch.cpp with validated,
// non-empty arguments whose pointers are device memory.
#pragma once

#include <cuda_runtime.h>

#include "egemm/gemm_args.hpp"
#include "egemm/policy.hpp"

namespace egemm::cuda {

// C = alpha * op(A) * op(B) + beta * C on `stream`, asynchronously.
void gemm(PolicyId policy, const GemmArgs& args, cudaStream_t stream);

// EmulatedFP64 (double operands): emulated_fp64_gemm.cu.
void gemm(PolicyId policy, const GemmArgs64& args, cudaStream_t stream);

// C = beta * C (C not read when beta == 0), for alpha == 0 or k == 0.
void scale_c(const GemmArgs& args, cudaStream_t stream);
void scale_c(const GemmArgs64& args, cudaStream_t stream);

// Throw egemm::unsupported, naming cudaGetDeviceCount's answer, when no CUDA
// device is visible (the stream API's first check).
void require_a_device();

// Throw egemm::invalid_argument when A, B or C is not memory of the kind the
// entry point takes (the host API given device pointers, or the reverse), and
// on the CUDA path when an operand is device memory the current device cannot
// reach or the stream belongs to another device.
void require_device_operands(const GemmArgs& args, cudaStream_t stream);
void require_device_operands(const GemmArgs64& args, cudaStream_t stream);
void require_host_memory(const GemmArgs& args);
void require_host_memory(const GemmArgs64& args);
// On the CUDA path a thread's first call with an allocation asks the runtime
// about it (cudaPointerGetAttributes); later calls re-verify what it learnt
// with one driver query (runtime/memory_kind.cu; perf_tests/call_overhead
// times a call's host side).

// EmulatedFP32 on an m x n x k problem runs the tensor-core emulation, not the
// SGEMM hand-off (see egemm::emulated_fp32_uses_tensor_cores).
bool emulated_fp32_on_tensor_cores(index_t m, index_t n, index_t k);
// The same on `device`, the current one (the caller has asked which it is).
bool emulated_fp32_on_tensor_cores(int device, index_t m, index_t n, index_t k);

// EmulatedFP64 on an m x n x k problem runs the INT8 moduli, not the DGEMM
// hand-off (see egemm::emulated_fp64_uses_tensor_cores).
bool emulated_fp64_on_tensor_cores(index_t m, index_t n, index_t k);

// A CUDA device is visible and has the tensor cores the kernels use (sm_80+).
bool device_supported();
// The same for `device` (the current one), which the caller has already asked for.
bool device_supported(int device);
// The current device where device_supported(), else -1: one query of which device is current.
int supported_current_device();

}  // namespace egemm::cuda
