// The Hopper (sm_90a) kernel for EmulatedFP32's FP16 path, and whether this
// process can use it.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "backends/cuda/split_operand.hpp"
#include "egemm/gemm_args.hpp"
#include "egemm/path_selection.hpp"

namespace egemm::cuda::sm90 {

// The current device is sm_90, the binary carries the kernel's sm_90a code,
// and EGEMM_SM90_KERNEL is not "0" (the switch for A/B timing against the
// mma.sync kernel).
bool warpgroup_kernel_usable();

// EmulatedFP32's scaled FP16 path on the warpgroup kernel (see fused_gemm_sm90.cuh).
void launch_emulated_fp32(const SplitOperand& a, const SplitOperand& b, const GemmArgs& g,
                          const std::uint32_t* path_word, cudaStream_t stream);

// Blocks of the warpgroup kernel one SM holds at once, and its tile.
int resident_blocks_per_sm();
inline constexpr int tile_rows = 128, tile_columns = 128;

}  // namespace egemm::cuda::sm90
