// How EmulatedFP32 picks its path per call, from statistics the split pass
// gathers anyway (each row's largest and smallest nonzero finite magnitude).
//
// The scaled FP16 path maps a row's largest magnitude into [2^14, 2^15) (or
// a few powers of two lower: numerics/row_exponent.hpp); an element keeps
// all 22 bits of its split while it stays an FP16 normal there, i.e. while
// it is at least 2^-28..2^-29 of its row's largest. A
// "wide" row, with a larger spread, would lose low-order bits of its small
// elements, which can matter when they meet large elements of the other
// operand. A few wide rows (columns) are cheaper to fix than to avoid: the
// entries of C they touch are recomputed from the FP32 inputs with float64
// accumulation after the tensor-core gemm (one rounding at the end: more
// accurate than FP32). One tiny element in a large matrix is common in real
// data (1 in 33 million values of the kMeans case study), and would otherwise
// send the whole call to the 2x slower TF32 path. Beyond 1/64 of the rows (or
// columns) wide, the call takes the TF32 path (FP32's exponent range in every
// piece, half the tensor-core rate of FP16); where a row also lies beyond
// TF32's largest finite value (within 2^-11 of FLT_MAX) or entirely below
// 2^-112 (FP32 subnormals, which TF32 pieces hold to a spacing of 2^-136,
// at most ~10 bits; the scaled FP16 path lifts such rows exactly), native
// FP32. The rule never trades accuracy for speed: no row's range makes a path
// less accurate than FP32 SIMT. (Depth does, normwise, below k ~ 8:
// docs/numerics.md, section 6.)
#pragma once

#include <cstdint>
#include <vector>

#include "egemm/config.hpp"
#include "egemm/gemm_args.hpp"
#include "egemm/numerics/int8_cross_rule.hpp"
#include "egemm/numerics/int8_digits.hpp"
#include "egemm/numerics/int8_entries_rule.hpp"
#include "egemm/numerics/outliers.hpp"
#include "egemm/numerics/row_exponent.hpp"
#include "egemm/numerics/split.hpp"
#include "egemm/numerics/tf32.hpp"

namespace egemm {

// int8_digits: NormwiseFP32's Int8Slices digits (never EmulatedFP32's own choice).
enum class EmulationPath : std::uint8_t { fp16_scaled, tf32_full_range, native_fp32, int8_digits };

constexpr const char* path_name(EmulationPath p) {
  switch (p) {
    case EmulationPath::fp16_scaled: return "fp16_scaled";
    case EmulationPath::tf32_full_range: return "tf32_full_range";
    case EmulationPath::native_fp32: return "native_fp32";
    case EmulationPath::int8_digits: return "int8_digits";
  }
  return "unknown";
}

// Summary of one row of op(A) or column of op(B) (finite values only).
struct RowRange {
  float max_abs = 0.0f;
  float min_abs_nonzero = 0.0f;  // 0 when the row has no nonzero finite value
};

// All 22 bits of every element survive the scaled FP16 split of this row
// (scaled by its exact range exponent, every element an FP16 normal).
EGEMM_INLINE bool fits_fp16_scaled(RowRange r) {
  return numerics::exponent_holds_row(numerics::range_exponent(r.max_abs), r.max_abs, r.min_abs_nonzero);
}
// TF32 pieces hold the row as FP32 does: its largest magnitude is within
// TF32's range and not so small that the pieces fall to TF32's coarse
// subnormal grid (numerics::tf32_min_full_precision; an all-zero row fits).
EGEMM_INLINE bool fits_tf32(RowRange r) {
  return r.max_abs <= numerics::tf32_max_finite && !(r.max_abs > 0.0f && r.max_abs < numerics::tf32_min_full_precision);
}

// A row's sparse outliers (numerics/outliers.hpp): the candidates' threshold,
// how many there are, and the largest finite magnitude below the threshold
// (the row's bulk; its smallest nonzero magnitude is the row's).
struct RowOutliers {
  float threshold = numerics::bits_to_float(0x7f800000u);  // +Inf: no candidate
  float bulk_max = 0.0f;
  unsigned count = 0;
};

// Whether a row with range `full` takes the outlier route: it does not fit
// the scaled FP16 split, it would without its candidates, and they are at
// most max_outliers_per_row(k). Its candidates are then zeroed in its pieces,
// its exponent follows the bulk, and their products are added in float64.
EGEMM_INLINE bool routes_outliers(RowRange full, float bulk_max, unsigned count, index_t k) {
  return count > 0 && count <= static_cast<unsigned>(numerics::max_outliers_per_row(k)) && !fits_fp16_scaled(full) &&
         fits_fp16_scaled(RowRange{bulk_max, full.min_abs_nonzero});
}

// Per-operand verdicts, reduced over all rows (columns).
struct OperandRangeVerdict {
  index_t rows = 0;
  index_t wide_rows = 0;     // rows that do not fit the scaled FP16 split (routed rows fit)
  index_t outlier_rows = 0;  // rows that take the outlier route
  index_t outliers = 0;      // ... and their outliers, in all
  bool tf32 = true;          // every row within TF32's range
  EGEMM_INLINE void add(RowRange r, bool routed = false, unsigned row_outliers = 0) {
    ++rows;
    if (routed) {
      ++outlier_rows;
      outliers += row_outliers;
    } else if (!fits_fp16_scaled(r)) {
      ++wide_rows;
    }
    tf32 = tf32 && fits_tf32(r);
  }
};

// How many wide rows of `rows` the FP16 path recomputes rather than giving
// the call to TF32: 1/64 of them (at least one). At that share the float64
// recomputation costs a few percent of the tensor-core gemm.
EGEMM_INLINE index_t max_recomputed_rows(index_t rows) { return rows / 64 > 1 ? rows / 64 : 1; }

EGEMM_INLINE EmulationPath choose_emulation_path(bool fp16_scaled, bool tf32) {
  return fp16_scaled ? EmulationPath::fp16_scaled : tf32 ? EmulationPath::tf32_full_range : EmulationPath::native_fp32;
}

EGEMM_INLINE EmulationPath choose_emulation_path(OperandRangeVerdict a, OperandRangeVerdict b) {
  return choose_emulation_path(a.wide_rows <= max_recomputed_rows(a.rows) && b.wide_rows <= max_recomputed_rows(b.rows),
                               a.tf32 && b.tf32);
}

// The path EmulatedFP32 takes for these operands (host memory), e.g. to
// inspect or test the choice. Validates like egemm::gemm.
EmulationPath emulated_fp32_path(char trans_a, char trans_b, index_t m, index_t n, index_t k, const float* a,
                                 index_t lda, const float* b, index_t ldb);

// The path with each operand's verdict: how many rows of op(A) (columns of
// op(B)) are wide, how many take the outlier route and with how many
// outliers (host memory; validates like egemm::gemm).
struct EmulatedFp32Choice {
  EmulationPath path = EmulationPath::fp16_scaled;
  OperandRangeVerdict a, b;
};
EmulatedFp32Choice emulated_fp32_choice(char trans_a, char trans_b, index_t m, index_t n, index_t k, const float* a,
                                        index_t lda, const float* b, index_t ldb);

// Whether every row of `rows` (host memory; k = rows.depth) passes
// numerics::int8_digits_hold_row: its Int8Slices digits are at least as
// accurate as FP32 there. False for k beyond int8_slices_max_depth.
bool int8_digits_hold(const OperandRows& rows);

// NormwiseFP32's cross terms of op(A)'s rows and op(B)'s columns (host
// memory, the same depth), summed in the GPU's order
// (numerics/int8_cross_rule.hpp).
numerics::Int8CrossTerms int8_cross_terms(const OperandRows& a_rows, const OperandRows& b_cols);

// The same from each operand's per-row-panel column sums (panel q's at
// q * depth + p, as the digits' split writes them): what the GPU's cross
// kernel sums, for checking it.
numerics::Int8CrossTerms int8_cross_terms_of_panels(const std::vector<numerics::Int8ColumnSum>& a_panels,
                                                    const std::vector<numerics::Int8ColumnSum>& b_panels,
                                                    index_t depth);

// The path NormwiseFP32 takes (host memory): int8_digits where every row of
// op(A) and column of op(B) holds, at least 64 entries of C carry its norm
// (numerics::int8_norm_spread_over_entries), their cross terms pass
// numerics::int8_digits_hold_product and k is within int8_slices_max_depth;
// else EmulatedFP32's. The first form validates like egemm::gemm.
EmulationPath normwise_fp32_path(char trans_a, char trans_b, index_t m, index_t n, index_t k, const float* a,
                                 index_t lda, const float* b, index_t ldb);
EmulationPath normwise_fp32_path(const GemmArgs& g);

// One row's range (host memory); `nonfinite` is set when it holds Inf or NaN.
RowRange row_range(const OperandRows& rows, index_t r, bool* nonfinite = nullptr);

// The exponent guessed for row r from its first values (host memory;
// numerics::guessed_exponent of their largest finite magnitude).
int emulated_fp32_guessed_exponent(const OperandRows& rows, index_t r);

// Row r's sparse outliers (host memory; numerics/outliers.hpp).
RowOutliers row_outliers(const OperandRows& rows, index_t r);

// Whether row r takes the outlier route (routes_outliers of its range and outliers).
bool emulated_fp32_routes_outliers(const OperandRows& rows, index_t r);

// The exponent EmulatedFP32's FP16 split scales row r by (host memory;
// numerics::row_exponent of the row's guess and range, the bulk's range
// for a row that takes the outlier route).
int emulated_fp32_row_exponent(const OperandRows& rows, index_t r);

// The verdict for one operand given as rows (host memory), outlier routes included.
OperandRangeVerdict range_verdict(const OperandRows& rows);

}  // namespace egemm
