// The current device's figures for EmulatedFP32's crossover model
// (egemm/model/crossover.hpp), from its attributes.
#pragma once

#include "backends/cuda/kernel_dispatch.hpp"
#include "egemm/model/crossover.hpp"

namespace egemm::cuda {

// The device's figures are cached per device, the kernel's are `kernel`'s
// (the one fused_kernel_for picks for EmulatedFP32's FP16 path now). SGEMM's rate is the FP32 peak (SMs x clock x FP32 lanes
// x 2) times the efficiency cuBLAS reaches; bandwidth is the memory clock x
// bus width x 2 (double data rate); the kernel's speedup on deep products
// and its per-tile depth overhead are measured (crossover_rates.cu).
model::CrossoverModel emulated_fp32_crossover_model(FusedKernel kernel);

}  // namespace egemm::cuda
