// What every warp of the mma.sync kernel loads for one mma step: its rows of
// A's and columns of B's pieces as ldmatrix fragments, each piece once (every
// product term then reads these registers). Byte-generic: 16 bytes of k a
// chunk whatever the piece format (8 FP16, 4 TF32 or 16 INT8 values).
#pragma once

#include <cstdint>
#include <utility>

#include "backends/cuda/sm80/mma_sm80.hpp"
#include "backends/cuda/sm80/smem_pipeline.hpp"
#include "egemm/policy.hpp"

namespace egemm::cuda {

// Calls f(std::integral_constant<int, t>) for each product term t, so term
// properties stay compile-time constants in device code.
template <class F, int... T>
__device__ __forceinline__ void for_each_term(F&& f, std::integer_sequence<int, T...>) {
  (f(std::integral_constant<int, T>{}), ...);
}

// Every entry of a warp's sums (sum, m fragment, n fragment, register) set to zero.
template <class T, int Sums, int M, int N>
__device__ __forceinline__ void zero_fragments(T (&sums)[Sums][M][N][4]) {
#pragma unroll
  for (int s = 0; s < Sums; ++s)
#pragma unroll
    for (int mi = 0; mi < M; ++mi)
#pragma unroll
      for (int ni = 0; ni < N; ++ni)
#pragma unroll
        for (int v = 0; v < 4; ++v) sums[s][mi][ni][v] = T(0);
}

template <class Policy, class Tile>
struct WarpFragments {
  static constexpr int pieces = policy_traits<Policy>::pieces_per_operand;
  std::uint32_t a[pieces][Tile::m_frags][4];
  std::uint32_t b[pieces][Tile::n_frags][2];

  // The warp's A rows and B columns for mma step `step` (chunks 2 step, 2 step + 1)
  // of a stage, each piece once: every product term then reads these registers.
  __device__ __forceinline__ void load(unsigned char* smem, int stage, int step, int warp_row, int warp_col,
                                       int lane) {
    using Layout = StageLayout<Tile, pieces>;
#pragma unroll
    for (int piece = 0; piece < pieces; ++piece) {
      const unsigned char* as = Layout::a(smem, stage, piece);
      const unsigned char* bs = Layout::b(smem, stage, piece);
#pragma unroll
      for (int mi = 0; mi < Tile::m_frags; ++mi)  // lanes 0-15: rows 0-15 of the first chunk; 16-31: of the second
        sm80::ldmatrix_x4(a[piece][mi], as + swizzled_offset(warp_row + mi * 16 + lane % 16, step * 2 + lane / 16));
#pragma unroll
      for (int nj = 0; nj < Tile::n_frags / 2; ++nj) {  // two n8 fragments per ldmatrix
        std::uint32_t r[4];
        const int row = warp_col + nj * 16 + (lane / 16) * 8 + lane % 8, chunk = step * 2 + (lane / 8) % 2;
        sm80::ldmatrix_x4(r, bs + swizzled_offset(row, chunk));
        b[piece][2 * nj][0] = r[0];
        b[piece][2 * nj][1] = r[1];
        b[piece][2 * nj + 1][0] = r[2];
        b[piece][2 * nj + 1][1] = r[3];
      }
    }
  }
};

}  // namespace egemm::cuda
