// EmulatedFP64's sample before the splits (handoff_sample.hpp): one block per
// sampled group of rows, their statistics as the split computes them.
#include "backends/cuda/fp64/handoff_sample.hpp"

#include <cstdint>

#include "backends/cuda/runtime/dependent_launch.hpp"
#include "egemm/numerics/crt_moduli.hpp"
#include "egemm/numerics/fp64_handoff.hpp"

namespace egemm::cuda {
namespace {

namespace crt = numerics::crt;

constexpr int group = static_cast<int>(crt::sample_group);
constexpr int sample_threads = 1024;               // two blocks an SM: enough loads in flight to stream
constexpr int depth_lanes = sample_threads / group;  // threads per row
static_assert(32 % group == 0, "a warp holds whole groups");

struct SampledOperand {
  OperandRows64 x;
  long long stride;  // crt::sample_stride(x.rows), in groups
  long long groups;  // sampled groups
  unsigned* count;
};

// v reduced over the threads of one row (threadIdx.x % group): across the warp by
// shuffles, then across warps through `shared` ([warp][row of the group]).
template <class T, class Op>
__device__ T row_reduce(T v, Op op, T (*shared)[group]) {
  for (int o = 16; o >= group; o >>= 1) v = op(v, __shfl_xor_sync(0xffffffffu, v, o));
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32, row = threadIdx.x % group;
  __syncthreads();  // `shared` may still be read from a previous reduction
  if (lane < group) shared[warp][lane] = v;
  __syncthreads();
  v = shared[0][row];
  for (int w = 1; w < sample_threads / 32; ++w) v = op(v, shared[w][row]);
  return v;
}

// Thread t reads row t % group of its block's group at depths t / group, + depth_lanes, ...:
// a warp's loads are whole 32-byte sectors whether the rows or their values are contiguous.
// The same fixed-point statistics as the split (order-free sums): the same flags.
__global__ void __launch_bounds__(sample_threads) sample_kernel(SampledOperand a, SampledOperand b, int spread_log2) {
  __shared__ unsigned long long shared[sample_threads / 32][group];
  const bool of_b = blockIdx.x >= a.groups;
  const SampledOperand& s = of_b ? b : a;
  const long long g = (of_b ? blockIdx.x - a.groups : blockIdx.x) * s.stride;
  const long long r = g * group + threadIdx.x % group;
  const bool in_rows = r < s.x.rows;
  const double* row = s.x.base + (in_rows ? r : 0) * s.x.row_stride;
  const long long k = s.x.depth, step = s.x.depth_stride;

  double largest = 0.0;
  unsigned long long nonfinite = 0;
  if (in_rows) {
#pragma unroll 4
    for (long long p = threadIdx.x / group; p < k; p += depth_lanes) {
      const double v = row[p * step];
      if (isfinite(v)) largest = fmax(largest, fabs(v));
      else nonfinite = 1;
    }
  }
  // |x| >= 0 orders as its bits: the maximum of the bits is the bits of the maximum.
  const auto largest_bits = row_reduce<unsigned long long>(
      static_cast<unsigned long long>(__double_as_longlong(largest)),
      [](unsigned long long x, unsigned long long y) { return x > y ? x : y; }, shared);
  nonfinite = row_reduce<unsigned long long>(
      nonfinite, [](unsigned long long x, unsigned long long y) { return x | y; }, shared);
  largest = __longlong_as_double(static_cast<long long>(largest_bits));

  // Each row's threads agree on largest; the rows of a block may not, so every thread
  // takes part in every reduction (no barrier or shuffle inside a branch).
  crt::RowStats stats{crt::zero_row_exponent, 0, 0, nonfinite != 0};
  uint64_t squares = 0, magnitudes = 0;
  if (largest > 0.0) {
    stats.exponent = crt::value_exponent(largest);
    const crt::Pow2Pair to_fixed = crt::pow2_pair(crt::stat_fraction_bits - stats.exponent);
    if (in_rows) {
#pragma unroll 4
      for (long long p = threadIdx.x / group; p < k; p += depth_lanes) {
        const double v = row[p * step];
        if (isfinite(v)) crt::add_to_sums(v, to_fixed, squares, magnitudes);
      }
    }
  }
  const auto add = [](unsigned long long x, unsigned long long y) { return x + y; };
  stats.squares = row_reduce<unsigned long long>(squares, add, shared);
  stats.magnitudes = row_reduce<unsigned long long>(magnitudes, add, shared);
  if (threadIdx.x < group && in_rows && (stats.nonfinite || crt::row_too_wide(stats, k, spread_log2)))
    atomicAdd(s.count, 1u);
}

SampledOperand sampled(const OperandRows64& x, unsigned* count) {
  const long long stride = crt::sample_stride(x.rows), groups_all = (x.rows + group - 1) / group;
  return SampledOperand{x, stride, (groups_all + stride - 1) / stride, count};
}

}  // namespace

void enqueue_handoff_sample(const OperandRows64& a, const OperandRows64& b, int spread_log2, unsigned* counts,
                            cudaStream_t stream) {
  const SampledOperand sa = sampled(a, counts), sb = sampled(b, counts + 1);
  launch_plain(sample_kernel, dim3(static_cast<unsigned>(sa.groups + sb.groups)), dim3(sample_threads), 0, stream, sa,
               sb, spread_log2);
}

}  // namespace egemm::cuda
