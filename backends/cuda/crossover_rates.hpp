// The current device's figures for EmulatedFP32's crossover model
// (egemm/model/crossover.hpp), from its attributes.
#pragma once

#include "egemm/model/crossover.hpp"

namespace egemm::cuda {

// The device's figures are cached per device, the kernel's follow the kernel
// EmulatedFP32 runs now (fused_kernel_for). SGEMM's rate is the FP32 peak (SMs x clock x FP32 lanes
// x 2) times the efficiency cuBLAS reaches; bandwidth is the memory clock x
// bus width x 2 (double data rate); the kernel's speedup on deep products
// and its per-tile depth overhead are measured (crossover_rates.cu).
model::CrossoverModel emulated_fp32_crossover_model();

}  // namespace egemm::cuda
