#include "backends/cuda/int8_route.hpp"

#include "backends/cuda/dependent_launch.hpp"
#include "backends/cuda/emulation_path.hpp"
#include "egemm/numerics/int8_digits.hpp"

namespace egemm::cuda {
namespace {

constexpr int route_threads = 1024;

// Whether some row of `op` does not hold the digits (this thread's rows).
__device__ __forceinline__ bool spread_row_among(const SplitOperand& op, index_t k) {
  bool spread = false;
  for (index_t row = threadIdx.x; row < op.rows; row += route_threads)
    spread |= !numerics::int8_digits_hold_row(__ldcg(op.row_weight + row), k);
  return spread;
}

// One block: a row's verdict is a load and a compare, so even 2 x 65536 rows
// are 128 loads a thread, and one block decides without counting blocks.
__global__ void __launch_bounds__(route_threads) int8_route_kernel(const SplitOperand a, const SplitOperand b,
                                                                   index_t k, std::uint32_t* path_word) {
  wait_for_previous_kernel();
  allow_next_kernel();
  const bool spread_panel = __ldcg(a.spread_panels) != 0 || __ldcg(b.spread_panels) != 0;  // from the split
  const bool spread = __syncthreads_or(spread_panel || spread_row_among(a, k) || spread_row_among(b, k));
  if (threadIdx.x == 0 && !spread) atomicOr(path_word, path_int8_digits);
}

}  // namespace

void launch_int8_route(const SplitOperand& a, const SplitOperand& b, index_t k, std::uint32_t* path_word,
                       cudaStream_t stream) {
  launch_dependent(int8_route_kernel, dim3(1), dim3(route_threads), 0, stream, a, b, k, path_word);
}

}  // namespace egemm::cuda
