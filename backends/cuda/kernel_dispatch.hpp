// The fused gemm's one dispatch table: which kernel runs a policy's pieces on
// a path on the current GPU (the mma.sync kernel of sm80/, or the TMA + wgmma
// kernel of sm90/), its launch, and its footprint for the small-size rule.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "backends/cuda/common/fused_gemm_params.hpp"
#include "backends/cuda/runtime/workspace.hpp"
#include "egemm/gemm_args.hpp"
#include "egemm/path_selection.hpp"
#include "egemm/policy.hpp"

namespace egemm::cuda {

// The two fused kernels.
enum class FusedKernel { mma_sync_sm80, wgmma_tma_sm90 };

// Which kernel launch_fused_gemm runs for `policy` on `path` on the current
// device: on an sm_90 GPU whose binary has sm_90a code, the TMA + wgmma
// kernel, FP16, TF32 and INT8 pieces alike (the tuning override
// Sm90Kernel::mma_sync forces the mma.sync kernel there, which is how the
// tests run it on a Hopper GPU); everything else: mma.sync.
FusedKernel fused_kernel_for(PolicyId policy, EmulationPath path);

// Whether EmulatedFP32's `kernel` (the one fused_kernel_for picks for its FP16
// path) has at least one full wave of blocks for an m x n C on the current
// device. Below that, the tensor cores idle on most SMs and cuBLAS SGEMM is
// faster (measured on an H100 with perf_tests/gemm_suite: EmulatedFP32 at 0.72x
// SGEMM's speed at 1024^3 with 128 blocks for 264 slots, 1.07x at 2048^3 with
// 512), so EmulatedFP32 runs SGEMM there: FP32 accuracy either way.
bool emulated_fp32_fills_the_gpu(FusedKernel kernel, index_t m, index_t n);

// C = alpha * op(A) op(B) + beta C by `policy`'s pieces and products (every
// policy but NativeFP32 and NormwiseFP32, whose calls run Int8Slices' and
// EmulatedFP32's kernels). With a path word, the kernel runs only when the
// device-side choice matches `path`. The kernel's scratch (the Hopper
// kernel's stream-K partial sums) comes from `scratch`; with a carver that
// only measures, nothing is launched and the bytes are counted (see
// WorkspaceCarver).
void launch_fused_gemm(PolicyId policy, const SplitOperand& a, const SplitOperand& b, const GemmArgs& g,
                       const std::uint32_t* path_word, EmulationPath path, WorkspaceCarver& scratch,
                       cudaStream_t stream);

// The same with scratch of its own, allocated on `stream` (the perf tools'
// launches of the kernel alone).
void launch_fused_gemm(PolicyId policy, const SplitOperand& a, const SplitOperand& b, const GemmArgs& g,
                       const std::uint32_t* path_word, EmulationPath path, cudaStream_t stream);

}  // namespace egemm::cuda
