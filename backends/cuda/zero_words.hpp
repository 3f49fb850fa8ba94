// Zeroes a call's statistics words as the first kernel of its chain. A
// kernel, not cudaMemsetAsync: the split that follows is then a dependent
// launch, set up while the zeroing runs (after a memset the split started
// 3-4 us later on the H100, perf_tests/results/2026-11-24-h100-call-timeline.md).
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

namespace egemm::cuda {

// words[0 .. count) = 0 on `stream`, in stream order after whatever came before.
void launch_zero_words(std::uint32_t* words, std::size_t count, cudaStream_t stream);

}  // namespace egemm::cuda
