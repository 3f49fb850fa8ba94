// The stream-K tail's partial sums: where each slot's unscaled sums go in
// global memory, how a consumer stores them, and the fixup kernel that adds
// them in slot order (the same on every run) and finishes each entry as the
// kernel's epilogue would; FP32 sums and Int8Slices' integer ones alike.
#pragma once

#include <cstddef>
#include <cstdint>

#include "backends/cuda/common/fused_gemm_params.hpp"
#include "backends/cuda/route/emulation_path.hpp"
#include "backends/cuda/runtime/dependent_launch.hpp"
#include "backends/cuda/sm90/tile_schedule.cuh"
#include "backends/cuda/sm90/warpgroup_integer_sums.cuh"
#include "egemm/model/stream_k_tail.hpp"
#include "egemm/numerics/epilogue.hpp"
#include "egemm/numerics/int8_digits.hpp"
#include "egemm/policy.hpp"

namespace egemm::cuda::hopper {

// Where the stream-K tail's partial sums go: buffer 2 slot + part, within it
// each block of the cluster, consumer warpgroup and sum, [entry / 4][thread]
// groups of four 32-bit words (FP32 bits, or int32 for integer sums) so that
// a warpgroup's stores and loads are whole 512-byte lines.
struct StreamKArgs {
  model::StreamKTail tail;
  std::uint32_t* partials;
};

// Words of one consumer warpgroup's partial sums.
template <class Policy, class Tile>
inline constexpr int partial_words = ConsumerSums<Policy, Tile>::count * Tile::bn / 2 * 128;

// Partial-sum buffer `buffer` of one consumer warpgroup of block `rank` (layout: StreamKArgs).
template <class Policy, class Tile>
__device__ __forceinline__ uint4* partial_sums(const StreamKArgs& sk, int buffer, int rank, int consumer) {
  const std::size_t at = ((static_cast<std::size_t>(buffer) * Tile::cluster + rank) * Tile::consumers + consumer);
  return reinterpret_cast<uint4*>(sk.partials + at * partial_words<Policy, Tile>);
}

// A tail stretch's sums, unscaled and uncombined, into that buffer.
template <class Sums>
__device__ __forceinline__ void store_partial(const Sums& acc, uint4* to, int thread) {
#pragma unroll
  for (int s = 0; s < Sums::count; ++s)
#pragma unroll
    for (int v = 0; v < Sums::size; v += 4)
      to[(s * Sums::size + v) / 4 * 128 + thread] =
          make_uint4(acc.word(s, v), acc.word(s, v + 1), acc.word(s, v + 2), acc.word(s, v + 3));
}

// How a policy's partial sums add up and become an entry: FP32 sums with RN
// adds and combine_accumulators (main and correction); integer sums exactly,
// in any order, and numerics::int8_combine.
template <class Policy, bool Integer = policy_traits<Policy>::integer_sums>
struct PartialArithmetic {
  static __device__ __forceinline__ std::uint32_t add(std::uint32_t a, std::uint32_t b) {
    return __float_as_uint(__fadd_rn(__uint_as_float(a), __uint_as_float(b)));
  }
  template <int Count>
  static __device__ __forceinline__ float entry(const std::uint32_t (&sums)[Count], int exponent) {
    const float correction = Count > 1 ? __uint_as_float(sums[Count - 1]) : 0.0f;
    return combine_accumulators<!policy_traits<Policy>::scales_rows_and_columns>(
        __uint_as_float(sums[0]), correction, policy_traits<Policy>::lo_scale_log2, exponent);
  }
};
template <class Policy>
struct PartialArithmetic<Policy, true> {
  static __device__ __forceinline__ std::uint32_t add(std::uint32_t a, std::uint32_t b) { return a + b; }
  template <int Count>
  static __device__ __forceinline__ float entry(const std::uint32_t (&sums)[Count], int exponent) {
    static_assert(Count == 3, "the sums of weights 1, 2^-8 and 2^-16");
    return numerics::int8_combine(static_cast<std::int32_t>(sums[0]), static_cast<std::int32_t>(sums[1]),
                                  static_cast<std::int32_t>(sums[2]), exponent);
  }
};

__device__ __forceinline__ std::uint32_t component(const uint4& q, int i) {
  return i == 0 ? q.x : i == 1 ? q.y : i == 2 ? q.z : q.w;
}

// The stream-K tail's tiles, one thread per four words of a consumer
// thread's sums (four entries: rows r, r + 8 and columns c, c + 1 of one n8
// block), so that the contributors' loads of many entries are in flight at
// once. The slots' partial sums are added in slot order, the same on every
// run; each entry then goes through the epilogue's arithmetic with its row's
// and column's flags and exponents, and alpha_beta.
template <class Policy, class Tile>
__global__ void __launch_bounds__(128) stream_k_fixup_kernel(const FusedGemmParams p, const StreamKArgs sk) {
  wait_for_previous_kernel();
  allow_next_kernel();
  if (!path_selected(p.path_word, p.path)) return;
  using traits = policy_traits<Policy>;
  using Sums = ConsumerSums<Policy, Tile>;
  using Arithmetic = PartialArithmetic<Policy>;
  constexpr int quads = Sums::size / 4;  // groups of four words per consumer thread and sum
  const int thread = threadIdx.x;
  const int quad = blockIdx.x % quads;  // the n8 block
  const int consumer = blockIdx.x / quads % Tile::consumers;
  const int rank = blockIdx.x / (quads * Tile::consumers) % Tile::cluster;
  const int j = blockIdx.x / (quads * Tile::consumers * Tile::cluster);  // rest tile
  const int first = sk.tail.first_slot(j), last = sk.tail.last_slot(j);

  uint4 sum[Sums::count];
#pragma unroll
  for (int s = 0; s < Sums::count; ++s) {
    const int at = (s * quads + quad) * 128 + thread;
    sum[s] = partial_sums<Policy, Tile>(sk, 2 * first + sk.tail.part(first, j), rank, consumer)[at];
  }
#pragma unroll 4
  for (int slot = first + 1; slot <= last; ++slot) {
    const uint4* from = partial_sums<Policy, Tile>(sk, 2 * slot + sk.tail.part(slot, j), rank, consumer);
#pragma unroll
    for (int s = 0; s < Sums::count; ++s) {
      const uint4 x = from[(s * quads + quad) * 128 + thread];
      sum[s] = make_uint4(Arithmetic::add(sum[s].x, x.x), Arithmetic::add(sum[s].y, x.y), Arithmetic::add(sum[s].z, x.z),
                          Arithmetic::add(sum[s].w, x.w));
    }
  }

  const TileCoord tile = block_tile<Tile>(p, sk.tail.whole + j, rank);
  const int warp = thread / 32, lane = thread % 32;
#pragma unroll
  for (int h = 0; h < 2; ++h)
#pragma unroll
    for (int w = 0; w < 2; ++w) {  // register 2 h + w of the n8 block, as in the kernel's epilogue
      const index_t row = static_cast<index_t>(tile.m) * Tile::bm + consumer * 64 + warp * 16 + h * 8 + lane / 4;
      const index_t col = static_cast<index_t>(tile.n) * Tile::bn + quad * 8 + (lane % 4) * 2 + w;
      if (row >= p.m || col >= p.n || p.a_nonfinite[row] != 0 || p.b_nonfinite[col] != 0) continue;
      const int exponent = traits::scales_rows_and_columns ? p.a_exponent[row] + p.b_exponent[col] : 0;
      std::uint32_t entry_sums[Sums::count];
#pragma unroll
      for (int s = 0; s < Sums::count; ++s) entry_sums[s] = component(sum[s], 2 * h + w);
      const float v = Arithmetic::entry(entry_sums, exponent);
      float* c = p.c + row + col * p.ldc;
      *c = apply_alpha_beta(v, p.alpha, p.beta, c);
    }
}

}  // namespace egemm::cuda::hopper
