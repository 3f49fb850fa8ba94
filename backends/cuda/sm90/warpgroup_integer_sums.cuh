// A consumer warpgroup's sums for a policy of integer digits (Int8Slices):
// one int32 64 x bn sum per weight, each digit product as chained INT8 wgmmas
// from the stage ring. Integer sums are exact, so nothing folds: the tensor
// core's own accumulation is the whole sum. And the view of them the shared
// epilogue reads, which turns each entry's sums into one FP32 rounding.
#pragma once

#include <cstdint>
#include <type_traits>
#include <utility>

#include "backends/cuda/sm80/warp_fragments.cuh"  // for_each_term
#include "backends/cuda/sm90/warpgroup_accumulators.cuh"
#include "backends/cuda/sm90/wgmma.hpp"
#include "backends/cuda/split/split_operand.hpp"  // max_pieces
#include "egemm/numerics/int8_digits.hpp"
#include "egemm/policy.hpp"

namespace egemm::cuda::hopper {

template <class Policy, class Tile>
struct WarpgroupIntegerSums {
  using traits = policy_traits<Policy>;
  static constexpr int count = traits::terms[traits::products - 1].accumulator + 1;  // sums, by weight
  static constexpr int k_steps = Tile::row_bytes / 32;  // 32-byte k slices per k-tile row
  static constexpr int size = Tile::bn / 2;  // int32 per thread of a 64 x bn sum
  std::uint32_t sum[count][size];

  // Sum s's entry v as a 32-bit word (the stream-K tail's partial sums).
  __device__ __forceinline__ std::uint32_t word(int s, int v) const { return sum[s][v]; }

  // Every sum starts afresh in its tile's first k-tile (accumulate = 0).
  __device__ __forceinline__ void zero_main() {}

  __device__ __forceinline__ void fence_all() {
#pragma unroll
    for (int s = 0; s < count; ++s) fence_registers(sum[s]);
  }

  static __device__ __forceinline__ void term_k_tile(std::uint32_t (&d)[size], std::uint32_t a, std::uint32_t b,
                                                     int accumulate) {
    const std::uint64_t da = smem_descriptor<Tile::row_bytes>(a), db = smem_descriptor<Tile::row_bytes>(b);
    wgmma_k32_bytes_s8(d, da, db, accumulate);
#pragma unroll
    for (int s = 1; s < k_steps; ++s) wgmma_k32_bytes_s8(d, da + 2 * s, db + 2 * s, 1);
  }

  // Each entry's three sums as the one exact integer they stand for
  // (numerics::int8_exact_sum), a float64 in the registers of the first two;
  // the third's hold zero. The sums' registers stay live across the
  // epilogue (the next tile's wgmmas name them), so the float64 takes their
  // place rather than two more an entry: the epilogue's own then fit.
  __device__ __forceinline__ void fold_to_exact() {
    static_assert(count == 3 && Tile::element_bytes == 1, "the sums of weights 1, 2^-8 and 2^-16");
#pragma unroll
    for (int v = 0; v < size; ++v) {
      const double e = numerics::int8_exact_sum(static_cast<std::int32_t>(sum[0][v]), static_cast<std::int32_t>(sum[1][v]),
                                                static_cast<std::int32_t>(sum[2][v]));
      sum[0][v] = static_cast<std::uint32_t>(__double2loint(e));
      sum[1][v] = static_cast<std::uint32_t>(__double2hiint(e));
      sum[2][v] = 0u;
    }
  }
  __device__ __forceinline__ double exact(int v) const {
    return __hiloint2double(static_cast<int>(sum[1][v]), static_cast<int>(sum[0][v]));
  }

  // Every product of k-tile kt in one group; returns with at most that group
  // in flight (the previous k-tile's wgmmas have all completed).
  __device__ __forceinline__ void k_tile(const std::uint32_t (&a)[max_pieces], const std::uint32_t (&b)[max_pieces],
                                         int kt, int) {
    const bool first = kt == 0;
    fence_all();
    wgmma_fence();
    for_each_term(
        [&](auto t) {
          constexpr int i = decltype(t)::value;
          constexpr ProductTerm term = traits::terms[i];
          term_k_tile(sum[term.accumulator], a[static_cast<int>(term.a)], b[static_cast<int>(term.b)],
                      !(first && starts_accumulator<traits>(i)));
        },
        std::make_integer_sequence<int, traits::products>{});
    wgmma_commit();
    wgmma_wait<1>();
    fence_all();
  }
};

// A warp's 16 rows of the sums as the shared epilogue sees them (the layout
// of WgmmaStrip), after WarpgroupIntegerSums::fold_to_exact: each entry
// scaled and rounded once to FP32.
template <class Policy, class Tile>
struct WgmmaIntegerStrip {
  using Sums = WarpgroupIntegerSums<Policy, Tile>;
  static constexpr int n8_blocks = Sums::size / 4;
  const Sums& sums;
  template <bool AllNormal>
  __device__ __forceinline__ float entry(int j, int h, int w, int exponent) const {
    return numerics::int8_scale_round(sums.exact(4 * j + 2 * h + w), exponent);
  }
};

// A consumer warpgroup's sums: FP32 accumulators with the fold, or exact
// integer sums (Int8Slices).
template <class Policy, class Tile>
using ConsumerSums = std::conditional_t<policy_traits<Policy>::integer_sums, WarpgroupIntegerSums<Policy, Tile>,
                                        WarpgroupAccumulators<Policy, Tile>>;

}  // namespace egemm::cuda::hopper
