// The analytic tile model's picture of the current GPU, and EmulatedFP32's
// tile choice from it.
#pragma once

#include "egemm/gemm_args.hpp"
#include "egemm/model/hopper_tiles.hpp"

namespace egemm::cuda::hopper {

// Shared memory, registers, SMs and clock from the device's properties; the
// tensor-core, L2 and DRAM rates and the load latency as measured on an H100
// (perf_tests/sm90_tiles), scaled by SMs x clock on
// another sm_90 part.
model::HopperResources hopper_resources();

// EmulatedFP32's tile (an index into emulated_fp32_tiles) for an m x n x k
// product on the current device: the tuning's sm90_tile forces one (for the
// sweep and the tests; unknown names and tiles that do not fit throw),
// otherwise the model's pick.
int emulated_fp32_tile(index_t m, index_t n, index_t k);

// Whether the kernel runs persistent blocks (as many as the SMs hold, each
// taking tiles in turn): yes unless the tuning's sm90_persistent is false, which launches
// one block per tile instead, for A/B timing.
bool persistent_blocks();

// The policy shape the model sizes EmulatedFP32's kernel for: two pieces,
// three products, three sums (main, correction, and the per-k-tile step),
// the main term folded.
inline constexpr model::EmulationShape emulated_fp32_shape{2, 3, 3, true};

}  // namespace egemm::cuda::hopper
