// The mma.sync kernel's sums for a policy of integer digits (Int8Slices, on
// GPUs without the Hopper kernel): a warp's int32 sums, one per weight, every
// digit product as mma.m16n8k32.s8 from the fragments each piece loads once;
// exact, so nothing folds. And the strip view the shared epilogue reads.
#pragma once

#include <cstdint>
#include <utility>

#include "backends/cuda/common/fused_gemm_params.hpp"
#include "backends/cuda/common/strip_epilogue.cuh"
#include "backends/cuda/sm80/mma_sm80.hpp"
#include "backends/cuda/sm80/warp_fragments.cuh"
#include "egemm/numerics/int8_digits.hpp"
#include "egemm/policy.hpp"

namespace egemm::cuda {

template <class Policy, class Tile>
struct WarpIntegerSums {
  using traits = policy_traits<Policy>;
  using Frags = WarpFragments<Policy, Tile>;
  static constexpr int count = traits::terms[traits::products - 1].accumulator + 1;  // sums, by weight
  std::int32_t sum[count][Tile::m_frags][Tile::n_frags][4];

  __device__ __forceinline__ void zero() { zero_fragments(sum); }

  // Every mma step of one k-tile (32 values of k a step). Terms outermost:
  // the m x n independent mmas of a term hide each other's latency.
  __device__ __forceinline__ void k_tile(unsigned char* smem, int stage, int warp_row, int warp_col, int lane) {
    Frags f;
#pragma unroll 1
    for (int step = 0; step < Tile::mma_steps; ++step) {
      f.load(smem, stage, step, warp_row, warp_col, lane);
      for_each_term(
          [&](auto t) {
            constexpr ProductTerm term = traits::terms[decltype(t)::value];
            constexpr int ap = static_cast<int>(term.a), bp = static_cast<int>(term.b);
#pragma unroll
            for (int mi = 0; mi < Tile::m_frags; ++mi)
#pragma unroll
              for (int ni = 0; ni < Tile::n_frags; ++ni) sm80::mma_s8_s32(sum[term.accumulator][mi][ni], f.a[ap][mi], f.b[bp][ni]);
          },
          std::make_integer_sequence<int, traits::products>{});
    }
  }
};

// Strip mi (16 rows) of the warp's sums (the layout of MmaStrip).
template <class Policy, class Tile>
struct MmaIntegerStrip {
  using Sums = WarpIntegerSums<Policy, Tile>;
  static_assert(Sums::count == 3, "int8_combine takes the sums of weights 1, 2^-8 and 2^-16");
  static constexpr int n8_blocks = Tile::n_frags;
  const Sums& sums;
  int mi;
  template <bool AllNormal>
  __device__ __forceinline__ float entry(int j, int h, int w, int exponent) const {
    const int v = 2 * h + w;
    return numerics::int8_combine(sums.sum[0][mi][j][v], sums.sum[1][mi][j][v], sums.sum[2][mi][j][v], exponent);
  }
};

// The warp's warp_m x warp_n entries of C, one strip of 16 rows per m fragment.
template <class Policy, class Format, class Tile>
__device__ __forceinline__ void epilogue(const WarpIntegerSums<Policy, Tile>& sums, const FusedGemmParams& p,
                                         index_t row0, index_t col0, int lane) {
#pragma unroll
  for (int mi = 0; mi < Tile::m_frags; ++mi)
    write_strip<Policy>(MmaIntegerStrip<Policy, Tile>{sums, mi}, p, row0 + mi * 16, col0, lane);
}

}  // namespace egemm::cuda
