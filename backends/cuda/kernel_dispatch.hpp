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

// The share of the current device's block slots that EmulatedFP32's `kernel`
// (the one fused_kernel_for picks for its FP16 path) keeps busy over its
// waves for an m x n C (model::wave_utilisation of its tiles and slots): the
// crossover model's u, which sends a C of too few tiles to SGEMM.
double emulated_fp32_wave_utilisation(FusedKernel kernel, index_t m, index_t n);

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
