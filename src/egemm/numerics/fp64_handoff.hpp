// When EmulatedFP64 hands a call to DGEMM on the data's word: the rules, from
// counts of flagged rows of op(A) and columns of op(B) (those of a fixed sample
// of them, then those of the splits), that the CUDA backend evaluates on the
// device and the host oracle on the host.
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
// (0.98x DGEMM, decided by the sample below) and stay emulated at 8192^3 (1.13x DGEMM).
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

// Whether one operand's `flagged` rows (of `rows`) alone hand the call off.
EGEMM_INLINE bool operand_hands_off(long long rows, long long flagged) { return flagged > max_kept_flagged_rows(rows); }

// --- the sample: deciding before the splits -----------------------------------------------
//
// Before either split, a fixed sample of each operand's rows is flagged exactly as
// the split would flag them. Where the sample's share of float64 sums is more than
// sample_margin times the hand-off's, the call hands off at once and the splits
// read nothing; the rest goes to the splits' full counts. The sample is groups of
// sample_group consecutive rows (32 bytes of a strided row's column: whole sectors),
// every sample_stride-th group, about sample_target_rows rows of an operand whatever
// its size (all of them below 2 sample_target_rows): the estimate's noise depends on
// the sample's size, not the operand's. Wide inputs flag their rows evenly: the
// suite's at 4096^3 flag ~3% of them (4x the threshold), at 8192^3 ~0.35% (below it).
// A sample of 512 rows that sees a share above 2/128 (more than ~8 flagged rows of
// the two) from a true share at or below 1/128 (~4 expected) is a Poisson tail of
// ~2% on independent rows; such a call runs DGEMM, never less accurate than DGEMM.
inline constexpr long long sample_group = 4;
inline constexpr long long sample_target_rows = 512;
inline constexpr long long sample_margin = 2;

// Every sample_stride(rows)-th group of sample_group rows is sampled.
EGEMM_INLINE long long sample_stride(long long rows) {
  const long long s = rows / sample_target_rows;
  return s > 1 ? s : 1;
}

// Whether row r of an operand of `rows` rows is in the sample.
EGEMM_INLINE bool in_sample(long long r, long long rows) { return (r / sample_group) % sample_stride(rows) == 0; }

// The sampled rows of an operand of `rows` rows (< 2 sample_target_rows + sample_group).
EGEMM_INLINE long long sample_size(long long rows) {
  const long long period = sample_stride(rows) * sample_group, rest = rows % period;
  return rows / period * sample_group + (rest < sample_group ? rest : sample_group);
}

// Whether the sample alone hands the call off: `sampled_rows` flagged rows of op(A)'s
// sample and `sampled_cols` of op(B)'s, their share of the sample's C above
// sample_margin / handoff_share. Where both samples are whole operands (fewer than
// 2 sample_target_rows rows each) it implies hands_off_to_dgemm.
EGEMM_INLINE bool sample_hands_off(long long m, long long n, long long sampled_rows, long long sampled_cols) {
  const long long sm = sample_size(m), sn = sample_size(n);
  return handoff_share * float64_entries(sm, sn, sampled_rows, sampled_cols) > sample_margin * sm * sn;
}

// The branch both backends take: DGEMM where the sample hands the call off, else
// where the splits' full counts do.
EGEMM_INLINE bool call_hands_off(long long m, long long n, long long sampled_rows, long long sampled_cols,
                                 long long flagged_rows, long long flagged_cols) {
  return sample_hands_off(m, n, sampled_rows, sampled_cols) || hands_off_to_dgemm(m, n, flagged_rows, flagged_cols);
}

}  // namespace egemm::numerics::crt
