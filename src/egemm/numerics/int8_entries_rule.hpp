// NormwiseFP32's entries rule: the digits only where enough entries of C
// carry its norm for the cross rule's expectation to hold call by call.
// Shared by the host oracle and the GPU's route kernel (a max and an
// integer count: the same in any order).
#pragma once

#include <cstdint>

#include "egemm/config.hpp"
#include "egemm/numerics/int8_cross_rule.hpp"
#include "egemm/numerics/int8_digits.hpp"

namespace egemm::numerics {

// Q (the cross rule) is an expectation over C's entries; where a few of
// them carry C's norm, the two errors are a few random draws, and the
// digits' exceeds FP32's in a good share of calls even at a small Q (the
// host study's rows each with its own scale 2^U[-20, 20], 64 x 48 x 4096:
// Q ~ 0.04, yet 9 calls of 100 above FP32's error, up to 3.5x, where
// EmulatedFP32 had 4, up to 1.24x; with N entries the ratio of squared
// errors is the model's times an F(N, N) draw). So the digits only where
// at least 64 entries carry a share near the largest: the rows of op(A)
// whose L1 mass is at least a quarter of the largest row's, times such
// columns of op(B). A row's L1 mass is its weight W = sum |N| / 256 times
// 2^e, up to a common factor (N = x 2^(23 - e)).
inline constexpr long long int8_min_norm_entries = 64;
EGEMM_INLINE double int8_row_mass(std::uint32_t weight, int e) {
  return mul_rn(static_cast<double>(weight), pow2_double(e));  // exact: W < 2^32
}
EGEMM_INLINE bool int8_row_carries_norm(double mass, double largest) {
  return mass > 0.0 && mul_rn(4.0, mass) >= largest;
}
EGEMM_INLINE bool int8_norm_spread_over_entries(long long rows_a, long long columns_b) {
  return rows_a * columns_b >= int8_min_norm_entries;
}

}  // namespace egemm::numerics
