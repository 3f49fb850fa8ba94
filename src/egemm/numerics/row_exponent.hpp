// The power of two EmulatedFP32 scales each row of op(A) (column of op(B))
// by before its FP16 split, shared by the host fallback and the CUDA kernels
// so both pick the same one.
//
// The exact choice, range_exponent(row max), needs the whole row read before
// any of it can be split: on the GPU a statistics pass over both operands
// ahead of the split pass, a third of the split's DRAM traffic. Instead the
// exponent is guessed from the row's first few values, with a few bits of
// headroom above their largest, and the split gathers the statistics while
// it writes the pieces. The guess is kept whenever it is as good as the exact
// choice for this row: the scaled maximum lands in [2^11, 2^15) (no FP16
// overflow, products below 2^30, at most 2^3 below where the exact choice
// puts it) and the scaled smallest nonzero stays an FP16 normal (every
// element keeps hi's 11 bits). Rows where it is not are split again
// with range_exponent; on ordinary data (uniform, Gaussian) that is a few
// rows in ten thousand.
#pragma once

#include <math.h>

#include "egemm/config.hpp"
#include "egemm/numerics/half_bits.hpp"
#include "egemm/numerics/split.hpp"

namespace egemm::numerics {

// How many of a row's leading values the guess reads.
inline constexpr int exponent_guess_values = 32;
// Powers of two of room the guess leaves above their largest magnitude: the
// row's maximum may be up to 2^3 times its prefix's (Gaussian rows of 8192:
// about 2x) before the guess fails.
inline constexpr int exponent_guess_headroom = 3;

// floor(log2 x) for a finite x > 0 (subnormals included).
EGEMM_INLINE int floor_log2(float x) {
  int e2 = 0;
  (void)::frexpf(x, &e2);  // x = f * 2^e2, f in [0.5, 1)
  return e2 - 1;
}

// The guessed exponent, from the largest finite magnitude among the row's
// first exponent_guess_values values. An all-zero prefix guesses a row of
// order one (largest magnitude in [0.5, 8)), the common scale of real data.
EGEMM_INLINE int guessed_exponent(float prefix_max_abs_finite) {
  return range_exponent(prefix_max_abs_finite > 0.0f ? prefix_max_abs_finite : 0.5f) + exponent_guess_headroom;
}

// Whether scaling by 2^-e puts the row's largest finite magnitude in
// [2^(14 - headroom), 2^15) (no FP16 overflow; as close to the top as the
// exact exponent, give or take the headroom, so small elements keep as many
// bits of lo) and keeps its smallest nonzero one at or above 2^-14 (0: none).
EGEMM_INLINE bool exponent_holds_row(int e, float max_abs_finite, float min_abs_nonzero) {
  if (!(max_abs_finite > 0.0f)) return true;  // nothing to split
  const int exact = floor_log2(max_abs_finite) - 14;  // range_exponent
  if (e < exact || e > exact + exponent_guess_headroom) return false;
  return !(min_abs_nonzero > 0.0f) || floor_log2(min_abs_nonzero) >= e - 14;
}

// The exponent the row is split with: the guess if it holds the row, else
// the exact range_exponent.
EGEMM_INLINE int row_exponent(int guess, float max_abs_finite, float min_abs_nonzero) {
  return exponent_holds_row(guess, max_abs_finite, min_abs_nonzero) ? guess : range_exponent(max_abs_finite);
}

}  // namespace egemm::numerics
