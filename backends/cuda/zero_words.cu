#include "backends/cuda/zero_words.hpp"

#include <algorithm>

#include "backends/cuda/cuda_check.hpp"
#include "backends/cuda/dependent_launch.hpp"

namespace egemm::cuda {
namespace {

constexpr int zero_threads = 256;

// A plain launch: stream order has already put it after the previous work,
// so it need not wait; it lets the next kernel (a dependent launch, which
// waits for it to complete) start setting up at once.
__global__ void __launch_bounds__(zero_threads) zero_words_kernel(std::uint32_t* words, std::size_t count) {
  allow_next_kernel();
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(zero_threads) + threadIdx.x; i < count;
       i += static_cast<std::size_t>(gridDim.x) * zero_threads)
    words[i] = 0;
}

}  // namespace

void launch_zero_words(std::uint32_t* words, std::size_t count, cudaStream_t stream) {
  if (count == 0) return;
  const std::size_t blocks = std::min<std::size_t>((count + zero_threads - 1) / zero_threads, 1024);
  zero_words_kernel<<<static_cast<unsigned>(blocks), zero_threads, 0, stream>>>(words, count);
  EGEMM_CUDA_CHECK_LAUNCH();
}

}  // namespace egemm::cuda
