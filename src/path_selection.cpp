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
  for (index_t r = 0; r < rows.rows; ++r) {
    const int e = numerics::int8_row_exponent(row_range(rows, r).max_abs);
    std::uint32_t weight = 0;
    for (index_t p = 0; p < rows.depth; ++p)
      weight += numerics::int8_row_weight(numerics::int8_scaled_integer(rows(r, p), e));
    if (!numerics::int8_digits_hold_row(weight, rows.depth)) return false;
  }
  return true;
}

namespace {

// One operand's sums of every depth index p over its rows (numerics/
// int8_cross_rule.hpp), as the GPU forms them: per 32-row panel, its rows in
// order, then the panels in order.
struct ColumnSums {
  std::vector<double> squares, weights;
  std::vector<std::uint32_t> nonzeros;
};

ColumnSums column_sums(const OperandRows& rows) {
  const auto k = static_cast<std::size_t>(rows.depth);
  ColumnSums total{std::vector<double>(k), std::vector<double>(k), std::vector<std::uint32_t>(k)};
  ColumnSums panel = total;
  constexpr index_t panel_rows = numerics::int8_cross_panel_rows;
  for (index_t r0 = 0; r0 < rows.rows; r0 += panel_rows) {
    std::fill(panel.squares.begin(), panel.squares.end(), 0.0);
    std::fill(panel.weights.begin(), panel.weights.end(), 0.0);
    std::fill(panel.nonzeros.begin(), panel.nonzeros.end(), 0u);
    for (index_t r = r0; r < std::min(r0 + panel_rows, rows.rows); ++r) {
      const int e = numerics::int8_row_exponent(row_range(rows, r).max_abs);
      for (std::size_t p = 0; p < k; ++p) {
        const float x = rows(r, static_cast<index_t>(p));
        panel.squares[p] = numerics::add_rn(panel.squares[p], numerics::int8_column_square(x));
        panel.weights[p] = numerics::add_rn(panel.weights[p], numerics::int8_column_weight(x, e));
        panel.nonzeros[p] += numerics::int8_counts(x) ? 1u : 0u;
      }
    }
    for (std::size_t p = 0; p < k; ++p) {
      total.squares[p] = numerics::add_rn(total.squares[p], panel.squares[p]);
      total.weights[p] = numerics::add_rn(total.weights[p], panel.weights[p]);
      total.nonzeros[p] += panel.nonzeros[p];
    }
  }
  return total;
}

}  // namespace

numerics::Int8CrossTerms int8_cross_terms(const OperandRows& a_rows, const OperandRows& b_cols) {
  const ColumnSums a = column_sums(a_rows), b = column_sums(b_cols);
  constexpr index_t block = numerics::int8_cross_block;
  numerics::Int8CrossTerms total;
  std::vector<numerics::Int8CrossTerms> v(block);
  for (index_t p0 = 0; p0 < a_rows.depth; p0 += block) {
    for (index_t t = 0; t < block; ++t) {
      const auto p = static_cast<std::size_t>(p0 + t);
      v[t] = p0 + t < a_rows.depth ? numerics::int8_cross_terms(a.squares[p], a.weights[p], a.nonzeros[p], b.squares[p],
                                                                 b.weights[p], b.nonzeros[p])
                                   : numerics::Int8CrossTerms{};
    }
    for (index_t s = block / 2; s > 0; s /= 2)
      for (index_t t = 0; t < s; ++t) v[t] = numerics::add_rn(v[t], v[t + s]);
    total = numerics::add_rn(total, v[0]);
  }
  return total;
}

EmulationPath normwise_fp32_path(const GemmArgs& g) {
  if (g.k <= int8_slices_max_depth && int8_digits_hold(g.a_rows()) && int8_digits_hold(g.b_cols()) &&
      numerics::int8_digits_hold_product(int8_cross_terms(g.a_rows(), g.b_cols()), g.m, g.n))
    return EmulationPath::int8_digits;
  return choose_emulation_path(range_verdict(g.a_rows()), range_verdict(g.b_cols()));
}

EmulationPath normwise_fp32_path(char trans_a, char trans_b, index_t m, index_t n, index_t k, const float* a,
                                 index_t lda, const float* b, index_t ldb) {
  return normwise_fp32_path(make_operand_args("egemm::normwise_fp32_path", trans_a, trans_b, m, n, k, a, lda, b, ldb));
}

}  // namespace egemm
