// When EmulatedFP64 hands a call to DGEMM on the data's word: the rule, from the
// split's counts of flagged rows of op(A) and columns of op(B), that the CUDA
// backend evaluates on the device and the host oracle on the host.
#pragma once

#include "egemm/config.hpp"

namespace egemm::numerics::crt {

// The entries of C computed as float64 sums (numerics/float64_sum.hpp) when
// `flagged_rows` rows of op(A) and `flagged_cols` columns of op(B) are flagged
// (Inf/NaN, or too wide for the moduli: row_too_wide).
EGEMM_INLINE long long float64_entries(long long m, long long n, long long flagged_rows, long long flagged_cols) {
  return flagged_rows * n + flagged_cols * m - flagged_rows * flagged_cols;
}

// A call hands off when more than 1/handoff_share of C would be float64 sums.
// Those sums run on the CUDA cores at ~8 TFLOP/s on an H200 against DGEMM's
// ~60, so a share f of C costs ~7 f DGEMMs on top of the emulated call, which
// at 8192^3 is 0.77 of a DGEMM (14.1 against 18.3 ms) and at 4096^3 about one:
// 1/128 keeps the emulated call within ~5% of DGEMM at 4096^3 and below it at
// 8192^3 (~0.83 DGEMM), while a call past it hands off to what DGEMM costs plus
// the split's read of the operands. Inf/NaN rows count too: their entries are
// the float64 sums' or DGEMM's, the same IEEE outcome. Measured on an H200
// (perf_tests/gemm_suite, sustained): the suite's wide inputs hand off at 4096^3
// (0.97x DGEMM) and stay emulated at 8192^3 (1.13x DGEMM).
inline constexpr long long handoff_share = 128;

// Whether the call runs cuBLAS DGEMM instead of the moduli (every entry then is DGEMM's).
// Extents up to 2^22 and counts up to them keep every product below 2^63.
EGEMM_INLINE bool hands_off_to_dgemm(long long m, long long n, long long flagged_rows, long long flagged_cols) {
  return handoff_share * float64_entries(m, n, flagged_rows, flagged_cols) > m * n;
}

// The most flagged rows an operand of `rows` rows (m for op(A), n for op(B))
// can have in a call that stays emulated: one more hands the call off whatever
// the other operand holds (float64_entries >= flagged_rows * n, so
// hands_off_to_dgemm holds once handoff_share * flagged_rows > m). The split
// stops forming residues past it, and the float64 pass sizes its lists by it.
EGEMM_INLINE long long max_kept_flagged_rows(long long rows) { return rows / handoff_share; }

}  // namespace egemm::numerics::crt
