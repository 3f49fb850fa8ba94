#include "egemm/path_selection.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

namespace egemm {

RowRange row_range(const OperandRows& rows, index_t r, bool* nonfinite) {
  RowRange range;
  bool bad = false;
  for (index_t p = 0; p < rows.depth; ++p) {
    const float x = std::fabs(rows(r, p));
    if (!numerics::is_finite(x)) bad = true;
    if (!numerics::is_finite(x) || x == 0.0f) continue;
    range.max_abs = std::max(range.max_abs, x);
    range.min_abs_nonzero = range.min_abs_nonzero == 0.0f ? x : std::min(range.min_abs_nonzero, x);
  }
  if (nonfinite != nullptr) *nonfinite = bad;
  return range;
}

int emulated_fp32_guessed_exponent(const OperandRows& rows, index_t r) {
  float prefix_max = 0.0f;
  for (index_t p = 0; p < std::min<index_t>(rows.depth, numerics::exponent_guess_values); ++p)
    if (numerics::is_finite(rows(r, p))) prefix_max = std::max(prefix_max, std::fabs(rows(r, p)));
  return numerics::guessed_exponent(prefix_max);
}

int emulated_fp32_row_exponent(const OperandRows& rows, index_t r) {
  const RowRange range = row_range(rows, r);
  return numerics::row_exponent(emulated_fp32_guessed_exponent(rows, r), range.max_abs, range.min_abs_nonzero);
}

OperandRangeVerdict range_verdict(const OperandRows& rows) {
  OperandRangeVerdict v;
  for (index_t r = 0; r < rows.rows; ++r) v.add(row_range(rows, r));
  return v;
}

EmulationPath emulated_fp32_path(char trans_a, char trans_b, index_t m, index_t n, index_t k, const float* a,
                                 index_t lda, const float* b, index_t ldb) {
  const GemmArgs g = make_operand_args("egemm::emulated_fp32_path", trans_a, trans_b, m, n, k, a, lda, b, ldb);
  return choose_emulation_path(range_verdict(g.a_rows()), range_verdict(g.b_cols()));
}

bool int8_digits_hold(const OperandRows& rows) {
  if (rows.depth > int8_slices_max_depth) return false;  // beyond the digits' exact sums (and the weights' int32)
  const index_t k = rows.depth;
  constexpr index_t panel = numerics::int8_rule_panel_k;
  const std::uint32_t full_panel_floor = numerics::int8_panel_min_weight(static_cast<int>(panel), k);
  for (index_t r = 0; r < rows.rows; ++r) {
    const int e = numerics::int8_row_exponent(row_range(rows, r).max_abs);
    std::uint32_t weight = 0;
    for (index_t p0 = 0; p0 < k; p0 += panel) {
      const int values = static_cast<int>(std::min(panel, k - p0));
      std::uint32_t panel_weight = 0;
      for (index_t p = p0; p < p0 + values; ++p)
        panel_weight += numerics::int8_row_weight(numerics::int8_scaled_integer(rows(r, p), e));
      if (values == panel && !numerics::int8_digits_hold_panel(panel_weight, full_panel_floor)) return false;
      weight += panel_weight;
    }
    if (!numerics::int8_digits_hold_row(weight, k)) return false;
  }
  return true;
}

EmulationPath normwise_fp32_path(const GemmArgs& g) {
  if (g.k <= int8_slices_max_depth && int8_digits_hold(g.a_rows()) && int8_digits_hold(g.b_cols()))
    return EmulationPath::int8_digits;
  return choose_emulation_path(range_verdict(g.a_rows()), range_verdict(g.b_cols()));
}

EmulationPath normwise_fp32_path(char trans_a, char trans_b, index_t m, index_t n, index_t k, const float* a,
                                 index_t lda, const float* b, index_t ldb) {
  return normwise_fp32_path(make_operand_args("egemm::normwise_fp32_path", trans_a, trans_b, m, n, k, a, lda, b, ldb));
}

}  // namespace egemm
