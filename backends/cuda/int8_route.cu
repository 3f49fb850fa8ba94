#include "backends/cuda/int8_route.hpp"

#include "backends/cuda/dependent_launch.hpp"
#include "backends/cuda/emulation_path.hpp"
#include "egemm/numerics/int8_digits.hpp"

namespace egemm::cuda {
namespace {

using numerics::Int8CrossTerms;

constexpr int cross_threads = numerics::int8_cross_block;
constexpr int route_threads = 1024;

// Depth index p's column sums over every row panel of `op`, panel after
// panel (0 past the padded depth).
struct ColumnTotal {
  double squares = 0.0, weights = 0.0;
  std::uint32_t nonzeros = 0;
};
__device__ __forceinline__ ColumnTotal column_total(const SplitOperand& op, index_t p) {
  ColumnTotal t;
  if (p >= op.depth_pad) return t;
  const index_t row_panels = op.rows_pad / numerics::int8_cross_panel_rows;
  // A few dozen blocks read every row panel's sums, the adds in order. Unrolled
  // for loads in flight, yet latency-bound as measured (~0.5 us a row panel,
  // session 20 run 4): docs/performance.md says what would widen the walk.
#pragma unroll 8
  for (index_t at = p; at < row_panels * op.depth_pad; at += op.depth_pad) {
    t.squares = numerics::add_rn(t.squares, __ldcg(op.column_sums.squares + at));
    t.weights = numerics::add_rn(t.weights, __ldcg(op.column_sums.weights + at));
    t.nonzeros += __ldcg(op.column_sums.nonzeros + at);
  }
  return t;
}

// Block b: the cross terms of depth indices [256 b, 256 b + 256), summed by
// halving (numerics/int8_cross_rule.hpp's order).
__global__ void __launch_bounds__(cross_threads) int8_cross_kernel(const SplitOperand a, const SplitOperand b,
                                                                   Int8CrossTerms* block_terms) {
  wait_for_previous_kernel();
  allow_next_kernel();
  __shared__ Int8CrossTerms v[cross_threads];
  const int t = static_cast<int>(threadIdx.x);
  const index_t p = static_cast<index_t>(blockIdx.x) * cross_threads + t;
  const ColumnTotal ta = column_total(a, p), tb = column_total(b, p);
  v[t] = numerics::int8_cross_terms(ta.squares, ta.weights, ta.nonzeros, tb.squares, tb.weights, tb.nonzeros);
  __syncthreads();
  for (int s = cross_threads / 2; s > 0; s /= 2) {
    if (t < s) v[t] = numerics::add_rn(v[t], v[t + s]);
    __syncthreads();
  }
  if (t == 0) block_terms[blockIdx.x] = v[0];
}

// Whether some row of `op` does not hold the digits (this thread's rows).
__device__ __forceinline__ bool spread_row_among(const SplitOperand& op, index_t k) {
  bool spread = false;
  for (index_t row = threadIdx.x; row < op.rows; row += route_threads)
    spread |= !numerics::int8_digits_hold_row(__ldcg(op.row_weight + row), k);
  return spread;
}

// The blocks' cross terms in block order, against the cross rule (one thread).
__device__ __forceinline__ bool cross_rule_fails(const Int8CrossTerms* block_terms, int blocks, index_t m, index_t n) {
  Int8CrossTerms total;
  for (int i = 0; i < blocks; ++i) {
    const Int8CrossTerms b{__ldcg(&block_terms[i].digits), __ldcg(&block_terms[i].fp32), __ldcg(&block_terms[i].pairs)};
    total = numerics::add_rn(total, b);
  }
  return !numerics::int8_digits_hold_product(total, m, n);
}

// One block: a row's verdict is a load and a compare, so even 2 x 65536 rows
// are 128 loads a thread, and one block decides without counting blocks.
__global__ void __launch_bounds__(route_threads) int8_route_kernel(const SplitOperand a, const SplitOperand b,
                                                                   index_t k, const Int8CrossTerms* block_terms,
                                                                   int blocks, std::uint32_t* path_word) {
  wait_for_previous_kernel();
  allow_next_kernel();
  const bool cross_fails = threadIdx.x == 0 && cross_rule_fails(block_terms, blocks, a.rows, b.rows);
  const bool spread = __syncthreads_or(cross_fails || spread_row_among(a, k) || spread_row_among(b, k));
  if (threadIdx.x == 0 && !spread) atomicOr(path_word, path_int8_digits);
}

}  // namespace

index_t int8_cross_blocks(index_t depth_pad) { return (depth_pad + cross_threads - 1) / cross_threads; }

void launch_int8_route(const SplitOperand& a, const SplitOperand& b, index_t k, numerics::Int8CrossTerms* block_terms,
                       std::uint32_t* path_word, cudaStream_t stream) {
  const auto blocks = static_cast<int>(int8_cross_blocks(a.depth_pad));
  if (blocks > 0)  // (k = 0: no terms, and the digits are exact)
    launch_dependent(int8_cross_kernel, dim3(static_cast<unsigned>(blocks)), dim3(cross_threads), 0, stream, a, b,
                     block_terms);
  launch_dependent(int8_route_kernel, dim3(1), dim3(route_threads), 0, stream, a, b, k,
                   static_cast<const Int8CrossTerms*>(block_terms), blocks, path_word);
}

}  // namespace egemm::cuda
