// NormwiseFP32's route on the device: whether the digits hold FP32's accuracy in norm.
#include "backends/cuda/route/int8_route.hpp"

#include <algorithm>

#include "backends/cuda/route/emulation_path.hpp"
#include "backends/cuda/runtime/dependent_launch.hpp"
#include "egemm/numerics/int8_digits.hpp"
#include "egemm/numerics/int8_entries_rule.hpp"

namespace egemm::cuda {
namespace {

using numerics::Int8ColumnSum;
using numerics::Int8CrossTerms;

// The cross rule's order (numerics/int8_cross_rule.hpp): strided sums over
// 32 lanes. A block of the cross kernel takes 32 consecutive depth indices
// (x: a warp, coalesced loads) and 32 lanes (y: a warp each) that read their
// row panels at once (lane_sums: a batch of panels of both operands in
// flight), where one thread had walked all 256 panels in order (252 us,
// latency-bound).
constexpr int lanes = numerics::int8_cross_lanes;
constexpr int route_threads = 1024;
static_assert(split_depth_multiple_for(SplitRule::int8_digits) % lanes == 0, "the blocks cover the padded depth");

// Lane `lane`'s part of depth index p's column sums of each operand: its row
// panels lane, lane + 32, ... in order, `batch` of them at a time, both
// operands' loads issued before any add: c_p and the row panel's weight,
// which is z_p and n_p = 32 unless c_p's sign says otherwise, then (rare)
// the entry's own z_p and n_p (split_operand.hpp). The kernel is latency-
// bound (Nsight Compute on an H100: 72% of its stalls on global loads): where
// a lane waited on its loads a few panels and one operand at a time, and
// on each panel's n_p before its weights, it waits once a batch.
constexpr int batch = 4;
struct PanelBatch {
  double squares[batch], panel_weight[batch];
};
__device__ __forceinline__ PanelBatch load_batch(const SplitOperand& op, index_t p, index_t first) {
  const index_t row_panels = op.rows_pad / numerics::int8_cross_panel_rows;
  PanelBatch v;
#pragma unroll
  for (int i = 0; i < batch; ++i) {
    const index_t q = first + i * lanes;
    v.squares[i] = q < row_panels ? __ldcg(op.column_sums.squares + q * op.depth_pad + p) : 0.0;
    v.panel_weight[i] = q < row_panels ? __ldcg(op.column_sums.row_panel_weights + q) : 0.0;
  }
  return v;
}
__device__ __forceinline__ Int8ColumnSum add_batch(const SplitOperand& op, index_t p, index_t first, const PanelBatch& v,
                                                   Int8ColumnSum s) {
  const index_t row_panels = op.rows_pad / numerics::int8_cross_panel_rows;
#pragma unroll
  for (int i = 0; i < batch; ++i) {
    const index_t q = first + i * lanes, at = q * op.depth_pad + p;
    if (q >= row_panels) break;
    Int8ColumnSum c{v.squares[i], v.panel_weight[i], numerics::int8_cross_panel_rows};
    if (signbit(v.squares[i])) c = {-v.squares[i], __ldcg(op.column_sums.weights + at), __ldcg(op.column_sums.nonzeros + at)};
    s = numerics::add_rn(s, c);
  }
  return s;
}
struct LanePair {
  Int8ColumnSum a, b;
};
__device__ __forceinline__ LanePair lane_sums(const SplitOperand& a, const SplitOperand& b, index_t p, int lane) {
  const index_t row_panels = max(a.rows_pad, b.rows_pad) / numerics::int8_cross_panel_rows;
  LanePair s;
  for (index_t first = lane; first < row_panels; first += batch * lanes) {
    const PanelBatch va = load_batch(a, p, first), vb = load_batch(b, p, first);
    s.a = add_batch(a, p, first, va, s.a);
    s.b = add_batch(b, p, first, vb, s.b);
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

// The rows a block of either kernel scans or counts: one a thread.
constexpr int rows_per_block = route_threads;
static_assert(rows_per_block == lanes * lanes, "the cross kernel's blocks scan a row a thread");

// A row of an operand as the route reads it: the split's weight and exponent.
struct RowEntry {
  bool present = false;
  std::uint32_t weight = 0;
  int exponent = 0;
};
__device__ __forceinline__ RowEntry load_row(const SplitOperand& op, index_t row) {
  RowEntry r;
  if (row >= op.rows) return r;
  r = {true, __ldcg(op.row_weight + row), __ldcg(op.exponent + row)};
  return r;
}

// Operand `i`'s row `r`: whether it fails the row rule, and its mass,
// merged into the route's state a warp at a time (an OR and a max: the same
// in any order, so the host's loop decides alike; masses are >= 0, so their
// bits order as they do). Every lane of the warp calls it.
__device__ __forceinline__ void scan_row(const RowEntry& r, index_t k, int i, RouteState* state) {
  bool spread = r.present && !numerics::int8_digits_hold_row(r.weight, k);
  double mass = r.present ? numerics::int8_row_mass(r.weight, r.exponent) : 0.0;
  spread = __any_sync(0xffffffffu, spread);
#pragma unroll
  for (int lane_mask = 16; lane_mask > 0; lane_mask /= 2) mass = fmax(mass, __shfl_xor_sync(0xffffffffu, mass, lane_mask));
  if ((threadIdx.y * blockDim.x + threadIdx.x) % 32 != 0) return;  // a warp's first lane
  if (spread) atomicOr(&state->spread, 1u);
  if (mass > 0.0) atomicMax(&state->largest_bits[i], static_cast<unsigned long long>(__double_as_longlong(mass)));
}

// Blocks g < groups: the cross terms of depth indices [32 g, 32 g + 32),
// folded. The blocks after them: rows [1024 r, 1024 r + 1024) of each
// operand scanned for the route, r = g - groups (a few blocks, which fit
// beside the last wave of the groups' at 4096^3 and 8192^3: the scan in the
// groups' first blocks had lengthened their wave and the kernel by ~2 us,
// spread over every block by ~4).
__global__ void __launch_bounds__(lanes * lanes) int8_cross_kernel(const SplitOperand a, const SplitOperand b, index_t k,
                                                                    Int8CrossTerms* group_terms, int groups,
                                                                    RouteState* state) {
  wait_for_previous_kernel();
  allow_next_kernel();
  const int x = static_cast<int>(threadIdx.x), lane = static_cast<int>(threadIdx.y);
  if (static_cast<int>(blockIdx.x) >= groups) {
    const index_t row = (static_cast<index_t>(blockIdx.x) - groups) * rows_per_block + lane * lanes + x;
    scan_row(load_row(a, row), k, 0, state);
    scan_row(load_row(b, row), k, 1, state);
    return;
  }
  __shared__ LaneSums sums_a, sums_b;
  const index_t p = static_cast<index_t>(blockIdx.x) * lanes + x;
  const LanePair part = lane_sums(a, b, p, lane);
  const Int8ColumnSum total_a = fold_lanes(sums_a, part.a, x, lane);
  const Int8ColumnSum total_b = fold_lanes(sums_b, part.b, x, lane);
  if (lane != 0) return;
  const Int8CrossTerms group = fold_warp(numerics::int8_cross_terms(total_a, total_b));
  if (x == 0) group_terms[blockIdx.x] = group;
}

// The groups' cross terms, their strided sum (warp 0: a lane each, its
// groups' loads issued before their adds), left after them and held
// against the cross rule; the verdict in every lane.
__device__ __forceinline__ bool cross_rule_fails(Int8CrossTerms* group_terms, int groups, index_t m, index_t n) {
  const int lane = static_cast<int>(threadIdx.x);
  constexpr int groups_at_once = 8;
  Int8CrossTerms sum;
  for (int first = lane; first < groups; first += groups_at_once * lanes) {
    Int8CrossTerms terms[groups_at_once];
#pragma unroll
    for (int i = 0; i < groups_at_once; ++i) {
      const int g = first + i * lanes;
      if (g < groups)
        terms[i] = {__ldcg(&group_terms[g].digits), __ldcg(&group_terms[g].fp32), __ldcg(&group_terms[g].pairs)};
    }
#pragma unroll
    for (int i = 0; i < groups_at_once; ++i)
      if (first + i * lanes < groups) sum = numerics::add_rn(sum, terms[i]);
  }
  const Int8CrossTerms total = fold_warp(sum);
  if (lane == 0) group_terms[groups] = total;
  return __shfl_sync(0xffffffffu, !numerics::int8_digits_hold_product(total, m, n), 0);
}

// How many of this thread's rows of operand `i` carry the norm
// (numerics::int8_row_carries_norm), given the operand's largest mass,
// added to the state a warp at a time: an integer count, the same in any
// order, so the host's loop decides alike.
__device__ __forceinline__ void count_row_carrying_norm(const SplitOperand& op, int i, RouteState* state) {
  const RowEntry r = load_row(op, static_cast<index_t>(blockIdx.x) * rows_per_block + threadIdx.x);
  const double largest = __longlong_as_double(static_cast<long long>(__ldcg(&state->largest_bits[i])));
  const bool carries = r.present && numerics::int8_row_carries_norm(numerics::int8_row_mass(r.weight, r.exponent), largest);
  const unsigned count = __popc(__ballot_sync(0xffffffffu, carries));
  if (threadIdx.x % 32 == 0 && count != 0) atomicAdd(&state->rows_carrying[i], count);
}

// A thread a row: where no row failed the row rule, the rows carrying the
// norm counted against each operand's largest mass (both found by the cross
// kernel); then the last block to finish sums the cross terms and, where
// every rule holds, sets the digits' bit of the path word.
__global__ void __launch_bounds__(route_threads) int8_route_kernel(const SplitOperand a, const SplitOperand b,
                                                                   Int8CrossTerms* group_terms, int groups,
                                                                   RouteState* state, std::uint32_t* path_word) {
  wait_for_previous_kernel();
  allow_next_kernel();
  const bool spread = __ldcg(&state->spread) != 0;
  if (!spread) {
    count_row_carrying_norm(a, 0, state);
    count_row_carrying_norm(b, 1, state);
  }
  __shared__ bool last;
  __syncthreads();  // every warp's count added
  if (threadIdx.x == 0) {
    __threadfence();
    last = atomicAdd(&state->blocks_done, 1u) == gridDim.x - 1;
  }
  __syncthreads();
  if (!last || threadIdx.x >= lanes) return;
  __threadfence();  // the other blocks' counts, seen after their arrivals
  const bool cross_fails = cross_rule_fails(group_terms, groups, a.rows, b.rows);
  if (threadIdx.x == 0 && !spread && !cross_fails &&
      numerics::int8_norm_spread_over_entries(__ldcg(&state->rows_carrying[0]), __ldcg(&state->rows_carrying[1])))
    atomicOr(path_word, path_int8_digits);
}

}  // namespace

index_t int8_cross_groups(index_t depth_pad) { return depth_pad / lanes; }

void launch_int8_route(const SplitOperand& a, const SplitOperand& b, index_t k, numerics::Int8CrossTerms* group_terms,
                       RouteState* state, std::uint32_t* path_word, cudaStream_t stream) {
  const auto groups = static_cast<int>(int8_cross_groups(a.depth_pad));
  const index_t rows = std::max(a.rows, b.rows);
  const auto row_blocks = static_cast<unsigned>((rows + rows_per_block - 1) / rows_per_block);
  launch_dependent(int8_cross_kernel, dim3(static_cast<unsigned>(groups) + row_blocks), dim3(lanes, lanes), 0, stream, a,
                   b, k, group_terms, groups, state);
  launch_dependent(int8_route_kernel, dim3(row_blocks), dim3(route_threads), 0, stream, a, b, group_terms, groups, state,
                   path_word);
}

}  // namespace egemm::cuda
