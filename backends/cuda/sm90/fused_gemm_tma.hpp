// The Hopper (sm_90a) fused gemm: TMA + mbarrier ring + wgmma, for FP16
// pieces (EmulatedFP32's scaled path, RoundSplit4, TruncateSplit4, Half) and
// TF32 pieces (FullRangeTF32x3, EmulatedFP32's full-range path).
// Chosen over the mma.sync kernel where it can run (see tma_kernel_runs).
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "backends/cuda/common/fused_gemm_params.hpp"

namespace egemm::cuda {

// Whether the TMA + wgmma kernel can run `policy` on the current device:
// compute capability 9.0, the device runs this build's sm_90a code
// (loaded_code.hpp), and EGEMM_SM90_KERNEL is not "0" (that forces the mma.sync
// kernel, for A/B timing). False for NativeFP32.
bool tma_kernel_runs(PolicyId policy);

// launch_fused_gemm on this kernel (a measuring `scratch` launches nothing).
void launch_fused_gemm_tma(PolicyId policy, const SplitOperand& a, const SplitOperand& b, const GemmArgs& g,
                           const std::uint32_t* path_word, EmulationPath path, WorkspaceCarver& scratch,
                           cudaStream_t stream);

// The tile of C one block of the kernel covers, and how many blocks share an SM.
struct KernelFootprint {
  int bm, bn, blocks_per_sm;
};
KernelFootprint tma_footprint(PolicyId policy);

}  // namespace egemm::cuda
