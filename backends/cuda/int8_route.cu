#include "backends/cuda/int8_route.hpp"

#include "backends/cuda/dependent_launch.hpp"
#include "backends/cuda/emulation_path.hpp"
#include "egemm/numerics/int8_digits.hpp"
#include "egemm/numerics/int8_entries_rule.hpp"

namespace egemm::cuda {
namespace {

using numerics::Int8ColumnSum;
using numerics::Int8CrossTerms;

// The cross rule's order (numerics/int8_cross_rule.hpp): strided sums over
// 32 lanes. A block of the cross kernel takes 32 consecutive depth indices
// (x: a warp, coalesced loads) and 32 lanes (y: a warp each) that read their
// row panels at once: ~8 loads a thread in flight at 8192^3, where one
// thread had walked all 256 panels in order (252 us, latency-bound).
constexpr int lanes = numerics::int8_cross_lanes;
constexpr int route_threads = 1024;
static_assert(split_depth_multiple_for(SplitRule::int8_digits) % lanes == 0, "the blocks cover the padded depth");

// Lane `lane`'s part of depth index p's column sums of `op`: its row panels
// lane, lane + 32, ... in order, `batch` of them at a time with every load
// issued before any add (the nonzeros and squares, then the weights where a
// panel's rows do not all count, the row panel's own otherwise:
// split_operand.hpp): the kernel waited on its loads a few
// panels at a time (ncu, session 22, run 8: 72% of its stalls).
constexpr int batch = 4;  // 8 spills at 1024 threads a block
__device__ __forceinline__ Int8ColumnSum lane_sum(const SplitOperand& op, index_t p, int lane) {
  const index_t row_panels = op.rows_pad / numerics::int8_cross_panel_rows;
  const ColumnSumsOut& sums = op.column_sums;
  Int8ColumnSum s;
  for (index_t first = lane; first < row_panels; first += batch * lanes) {
    std::uint8_t nonzeros[batch];
    double squares[batch], weights[batch];
#pragma unroll
    for (int i = 0; i < batch; ++i) {
      const index_t q = first + i * lanes, at = q * op.depth_pad + p;
      nonzeros[i] = q < row_panels ? __ldcg(sums.nonzeros + at) : 0;
      squares[i] = q < row_panels ? __ldcg(sums.squares + at) : 0.0;
    }
#pragma unroll
    for (int i = 0; i < batch; ++i) {
      const index_t q = first + i * lanes, at = q * op.depth_pad + p;
      weights[i] = q >= row_panels                                    ? 0.0
                   : nonzeros[i] == numerics::int8_cross_panel_rows ? __ldcg(sums.row_panel_weights + q)
                                                                     : __ldcg(sums.weights + at);
    }
#pragma unroll
    for (int i = 0; i < batch; ++i)
      if (first + i * lanes < row_panels) s = numerics::add_rn(s, Int8ColumnSum{squares[i], weights[i], nonzeros[i]});
  }
  return s;
}

// A block's 32 lanes (its warps) folded by halving through shared memory:
// v[l] += v[l + s] for s = 16, ..., 1; the sum is lane 0's.
struct LaneSums {
  double squares[lanes][lanes], weights[lanes][lanes];
  std::uint32_t nonzeros[lanes][lanes];
};
__device__ __forceinline__ Int8ColumnSum fold_lanes(LaneSums& v, Int8ColumnSum s, int x, int lane) {
  const auto put = [&](int l) {
    v.squares[l][x] = s.squares;
    v.weights[l][x] = s.weights;
    v.nonzeros[l][x] = s.nonzeros;
  };
  put(lane);
  __syncthreads();
  for (int half = lanes / 2; half > 0; half /= 2) {
    if (lane < half) {
      const int from = lane + half;
      s = numerics::add_rn(s, Int8ColumnSum{v.squares[from][x], v.weights[from][x], v.nonzeros[from][x]});
      put(lane);
    }
    __syncthreads();
  }
  return s;
}

// A warp's 32 values folded by halving (as fold_lanes): the sum in lane 0.
__device__ __forceinline__ Int8CrossTerms fold_warp(Int8CrossTerms t) {
#pragma unroll
  for (int half = lanes / 2; half > 0; half /= 2)
    t = numerics::add_rn(t, Int8CrossTerms{__shfl_down_sync(0xffffffffu, t.digits, half),
                                           __shfl_down_sync(0xffffffffu, t.fp32, half),
                                           __shfl_down_sync(0xffffffffu, t.pairs, half)});
  return t;
}

// Block g: the cross terms of depth indices [32 g, 32 g + 32), folded.
__global__ void __launch_bounds__(lanes * lanes) int8_cross_kernel(const SplitOperand a, const SplitOperand b,
                                                                    Int8CrossTerms* group_terms) {
  wait_for_previous_kernel();
  allow_next_kernel();
  __shared__ LaneSums sums_a, sums_b;
  const int x = static_cast<int>(threadIdx.x), lane = static_cast<int>(threadIdx.y);
  const index_t p = static_cast<index_t>(blockIdx.x) * lanes + x;
  const Int8ColumnSum part_a = lane_sum(a, p, lane), part_b = lane_sum(b, p, lane);  // all loads, then the folds
  const Int8ColumnSum total_a = fold_lanes(sums_a, part_a, x, lane);
  const Int8ColumnSum total_b = fold_lanes(sums_b, part_b, x, lane);
  if (lane != 0) return;
  const Int8CrossTerms group = fold_warp(numerics::int8_cross_terms(total_a, total_b));
  if (x == 0) group_terms[blockIdx.x] = group;
}

// The groups' cross terms, their strided sum (warp 0: a lane each), left
// after them and held against the cross rule; the verdict in every lane.
__device__ __forceinline__ bool cross_rule_fails(Int8CrossTerms* group_terms, int groups, index_t m, index_t n) {
  const int lane = static_cast<int>(threadIdx.x);
  Int8CrossTerms sum;
  for (int g = lane; g < groups; g += lanes)
    sum = numerics::add_rn(sum, Int8CrossTerms{__ldcg(&group_terms[g].digits), __ldcg(&group_terms[g].fp32),
                                               __ldcg(&group_terms[g].pairs)});
  const Int8CrossTerms total = fold_warp(sum);
  if (lane == 0) group_terms[groups] = total;
  return __shfl_sync(0xffffffffu, !numerics::int8_digits_hold_product(total, m, n), 0);
}

// Row `row`'s L1 mass (numerics::int8_row_mass) from the split's weight and exponent.
__device__ __forceinline__ double row_mass(std::uint32_t weight, const SplitOperand& op, index_t row) {
  return numerics::int8_row_mass(weight, __ldcg(op.exponent + row));
}

// What one pass over an operand's rows (this thread's share) finds: whether
// some row fails the row rule, and the largest L1 mass.
struct RowScan {
  bool spread = false;
  double largest = 0.0;
};
__device__ __forceinline__ RowScan scan_rows(const SplitOperand& op, index_t k) {
  RowScan scan;
#pragma unroll 8
  for (index_t row = threadIdx.x; row < op.rows; row += route_threads) {
    const std::uint32_t weight = __ldcg(op.row_weight + row);
    scan.spread |= !numerics::int8_digits_hold_row(weight, k);
    scan.largest = fmax(scan.largest, row_mass(weight, op, row));
  }
  return scan;
}

// The block's largest of every thread's `largest`.
__device__ __forceinline__ double block_max(double largest) {
  __shared__ double warp_largest[route_threads / 32];
#pragma unroll
  for (int lane_mask = 16; lane_mask > 0; lane_mask /= 2)
    largest = fmax(largest, __shfl_xor_sync(0xffffffffu, largest, lane_mask));
  if (threadIdx.x % 32 == 0) warp_largest[threadIdx.x / 32] = largest;
  __syncthreads();
  for (int w = 0; w < route_threads / 32; ++w) largest = fmax(largest, warp_largest[w]);
  __syncthreads();  // read before the next call writes
  return largest;
}

// How many rows of `op` carry the norm (numerics::int8_row_carries_norm),
// given the largest mass: an integer count, the same in any order, so the
// host's loop decides alike. `count`: a shared word zeroed before a barrier.
__device__ __forceinline__ void count_rows_carrying_norm(const SplitOperand& op, double largest, unsigned* count) {
  unsigned mine = 0;
#pragma unroll 8
  for (index_t row = threadIdx.x; row < op.rows; row += route_threads)
    mine += numerics::int8_row_carries_norm(row_mass(__ldcg(op.row_weight + row), op, row), largest) ? 1u : 0u;
  mine = __reduce_add_sync(0xffffffffu, mine);  // a shared atomic a warp, not a thread
  if (threadIdx.x % 32 == 0 && mine != 0) atomicAdd(count, mine);
}

// One block: a row's verdict is a load and a compare, so even 2 x 65536 rows
// are 128 loads a thread; two passes over both operands' rows (the row rule
// with the largest mass, then the rows carrying the norm), and one block
// decides without counting blocks.
__global__ void __launch_bounds__(route_threads) int8_route_kernel(const SplitOperand a, const SplitOperand b,
                                                                   index_t k, Int8CrossTerms* group_terms,
                                                                   int groups, std::uint32_t* path_word) {
  wait_for_previous_kernel();
  allow_next_kernel();
  __shared__ unsigned rows_carrying[2];
  if (threadIdx.x < 2) rows_carrying[threadIdx.x] = 0;
  const bool cross_fails = threadIdx.x < lanes && cross_rule_fails(group_terms, groups, a.rows, b.rows);
  const RowScan scan_a = scan_rows(a, k), scan_b = scan_rows(b, k);
  const bool spread = __syncthreads_or(cross_fails || scan_a.spread || scan_b.spread);
  if (spread) return;  // the whole block: the verdict is every thread's
  const double largest_a = block_max(scan_a.largest), largest_b = block_max(scan_b.largest);
  count_rows_carrying_norm(a, largest_a, &rows_carrying[0]);
  count_rows_carrying_norm(b, largest_b, &rows_carrying[1]);
  __syncthreads();
  if (threadIdx.x == 0 && numerics::int8_norm_spread_over_entries(rows_carrying[0], rows_carrying[1]))
    atomicOr(path_word, path_int8_digits);
}

}  // namespace

index_t int8_cross_groups(index_t depth_pad) { return depth_pad / lanes; }

void launch_int8_route(const SplitOperand& a, const SplitOperand& b, index_t k, numerics::Int8CrossTerms* group_terms,
                       std::uint32_t* path_word, cudaStream_t stream) {
  const auto groups = static_cast<int>(int8_cross_groups(a.depth_pad));
  if (groups > 0)  // (k = 0: no terms, and the digits are exact)
    launch_dependent(int8_cross_kernel, dim3(static_cast<unsigned>(groups)), dim3(lanes, lanes), 0, stream, a, b,
                     group_terms);
  launch_dependent(int8_route_kernel, dim3(1), dim3(route_threads), 0, stream, a, b, k, group_terms, groups,
                   path_word);
}

}  // namespace egemm::cuda
