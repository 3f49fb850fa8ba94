// The Hopper (sm_90a) fused gemm as the dispatch table sees it: TMA +
// mbarrier ring + wgmma, for FP16 pieces (EmulatedFP32's scaled path,
// RoundSplit4, TruncateSplit4, Half), TF32 pieces (FullRangeTF32x3,
// EmulatedFP32's full-range path) and INT8 digits (Int8Slices).
#pragma once

#include "backends/cuda/common/fused_gemm_params.hpp"

namespace egemm::cuda {

// Whether the current device can run the kernel: compute capability 9.0 and
// this build's sm_90a code loaded (kernel_images.hpp).
bool tma_kernel_runs_here();

// Policy's kernel: EmulatedFP32 in the tile the analytic model picks per call
// (or the tuning override's), the other policies in their default 128 x 128
// tile, in cluster pairs unless the tuning asks for single blocks. A
// measuring `scratch` launches nothing. Instantiated in fused_gemm_tma.cu for
// every policy with a fused kernel of its own.
template <class Policy>
struct TmaKernel {
  static void launch(const FusedLaunch& l);
  // The default tile (one block per SM by construction); the occupancy query
  // confirms it on the device at hand.
  static KernelFootprint footprint();
};

}  // namespace egemm::cuda
