// EmulatedFP32's path choice and NormwiseFP32's route on the host, from the operands' row statistics.
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

RowOutliers row_outliers(const OperandRows& rows, index_t r) {
  numerics::TopTwo prefix;
  for (index_t p = 0; p < std::min<index_t>(rows.depth, numerics::exponent_guess_values); ++p)
    prefix.add(numerics::is_finite(rows(r, p)) ? std::fabs(rows(r, p)) : 0.0f);
  RowOutliers out;
  out.threshold = numerics::outlier_threshold(prefix.second);
  const std::uint32_t threshold_bits = numerics::float_bits(out.threshold);
  for (index_t p = 0; p < rows.depth; ++p) {
    const float x = rows(r, p);
    if (numerics::is_outlier_candidate(x, threshold_bits))
      ++out.count;
    else if (numerics::is_finite(x))
      out.bulk_max = std::max(out.bulk_max, std::fabs(x));
  }
  return out;
}

bool emulated_fp32_routes_outliers(const OperandRows& rows, index_t r) {
  const RowOutliers o = row_outliers(rows, r);
  return o.count > 0 && routes_outliers(row_range(rows, r), o.bulk_max, o.count, rows.depth);
}

int emulated_fp32_row_exponent(const OperandRows& rows, index_t r) {
  const RowRange range = row_range(rows, r);
  const RowOutliers o = row_outliers(rows, r);
  const float max_abs = routes_outliers(range, o.bulk_max, o.count, rows.depth) ? o.bulk_max : range.max_abs;
  return numerics::row_exponent(emulated_fp32_guessed_exponent(rows, r), max_abs, range.min_abs_nonzero);
}

OperandRangeVerdict range_verdict(const OperandRows& rows) {
  OperandRangeVerdict v;
  for (index_t r = 0; r < rows.rows; ++r) {
    const RowRange range = row_range(rows, r);
    const RowOutliers o = row_outliers(rows, r);
    v.add(range, routes_outliers(range, o.bulk_max, o.count, rows.depth), o.count);
  }
  return v;
}

EmulationPath emulated_fp32_path(char trans_a, char trans_b, index_t m, index_t n, index_t k, const float* a,
                                 index_t lda, const float* b, index_t ldb) {
  return emulated_fp32_choice(trans_a, trans_b, m, n, k, a, lda, b, ldb).path;
}

EmulatedFp32Choice emulated_fp32_choice(char trans_a, char trans_b, index_t m, index_t n, index_t k, const float* a,
                                        index_t lda, const float* b, index_t ldb) {
  const GemmArgs g = make_operand_args("egemm::emulated_fp32_path", trans_a, trans_b, m, n, k, a, lda, b, ldb);
  EmulatedFp32Choice c;
  c.a = range_verdict(g.a_rows());
  c.b = range_verdict(g.b_cols());
  c.path = choose_emulation_path(c.a, c.b);
  return c;
}

namespace {

// A row's Int8Slices exponent and weight W = sum |N| / 256, as the split sums them.
struct RowDigits {
  int exponent = 0;
  std::uint32_t weight = 0;
};

std::vector<RowDigits> row_digits(const OperandRows& rows) {
  std::vector<RowDigits> out(static_cast<std::size_t>(rows.rows));
  for (index_t r = 0; r < rows.rows; ++r) {
    RowDigits& d = out[static_cast<std::size_t>(r)];
    d.exponent = numerics::int8_row_exponent(row_range(rows, r).max_abs);
    for (index_t p = 0; p < rows.depth; ++p)
      d.weight += numerics::int8_row_weight(numerics::int8_scaled_integer(rows(r, p), d.exponent));
  }
  return out;
}

bool every_row_holds(const std::vector<RowDigits>& rows, index_t k) {
  return std::all_of(rows.begin(), rows.end(),
                     [k](const RowDigits& d) { return numerics::int8_digits_hold_row(d.weight, k); });
}

// Row r's exponent, as row_digits found it (the cross rule's sums reuse it),
// or from the row's range alone (without row_digits' weights).
auto exponents_of(const std::vector<RowDigits>& rows) {
  return [&rows](index_t r) { return rows[static_cast<std::size_t>(r)].exponent; };
}
auto exponents_by_range(const OperandRows& rows) {
  return [&rows](index_t r) { return numerics::int8_row_exponent(row_range(rows, r).max_abs); };
}

// The rows that carry the norm (numerics::int8_row_carries_norm).
long long rows_carrying_norm(const std::vector<RowDigits>& rows) {
  double largest = 0.0;
  for (const RowDigits& d : rows) largest = std::max(largest, numerics::int8_row_mass(d.weight, d.exponent));
  return std::count_if(rows.begin(), rows.end(), [largest](const RowDigits& d) {
    return numerics::int8_row_carries_norm(numerics::int8_row_mass(d.weight, d.exponent), largest);
  });
}

}  // namespace

bool int8_digits_hold(const OperandRows& rows) {
  // Beyond the digits' exact sums (and the weights' int32) they never hold.
  return rows.depth <= int8_slices_max_depth && every_row_holds(row_digits(rows), rows.depth);
}

namespace {

using numerics::Int8ColumnSum;
using numerics::Int8CrossTerms;
constexpr index_t cross_lanes = numerics::int8_cross_lanes;

// The fold of a strided sum's lanes (numerics/int8_cross_rule.hpp):
// v[l] += v[l + s] for s = 16, 8, ..., 1.
template <class Sum>
Sum fold_lanes(std::vector<Sum> v) {
  for (std::size_t s = v.size() / 2; s > 0; s /= 2)
    for (std::size_t l = 0; l < s; ++l) v[l] = numerics::add_rn(v[l], v[l + s]);
  return v[0];
}

// One operand's row panels' column sums (each a partial over its 32 rows),
// fed panel after panel into their strided sum at every depth index p.
class PanelLanes {
 public:
  explicit PanelLanes(index_t depth)
      : lane_(cross_lanes, std::vector<Int8ColumnSum>(static_cast<std::size_t>(depth))) {}

  void add_panel(index_t panel, const Int8ColumnSum* sums) {
    std::vector<Int8ColumnSum>& lane = lane_[static_cast<std::size_t>(panel % cross_lanes)];
    for (std::size_t p = 0; p < lane.size(); ++p) lane[p] = numerics::add_rn(lane[p], sums[p]);
  }

  std::vector<Int8ColumnSum> totals() const {
    std::vector<Int8ColumnSum> total(lane_[0].size()), at_p(cross_lanes);
    for (std::size_t p = 0; p < total.size(); ++p) {
      for (index_t l = 0; l < cross_lanes; ++l) at_p[l] = lane_[l][p];
      total[p] = fold_lanes(at_p);
    }
    return total;
  }

 private:
  std::vector<std::vector<Int8ColumnSum>> lane_;
};

// One operand's column sums at every depth index p, as the GPU forms them
// (exponent_of(r): row r's Int8Slices exponent).
template <class ExponentOf>
std::vector<Int8ColumnSum> column_sums(const OperandRows& rows, ExponentOf exponent_of) {
  PanelLanes lanes(rows.depth);
  std::vector<Int8ColumnSum> panel(static_cast<std::size_t>(rows.depth));
  constexpr index_t panel_rows = numerics::int8_cross_panel_rows;
  for (index_t r0 = 0; r0 < rows.rows; r0 += panel_rows) {
    std::fill(panel.begin(), panel.end(), Int8ColumnSum{});
    for (index_t r = r0; r < std::min(r0 + panel_rows, rows.rows); ++r) {
      const int e = exponent_of(r);
      for (std::size_t p = 0; p < panel.size(); ++p)
        panel[p] = numerics::add_rn(panel[p], numerics::int8_column_part(rows(r, static_cast<index_t>(p)), e));
    }
    lanes.add_panel(r0 / panel_rows, panel.data());
  }
  return lanes.totals();
}

// The terms of every p, in groups of 32 folded by halving, the groups'
// strided sum.
Int8CrossTerms cross_terms_of(const std::vector<Int8ColumnSum>& a, const std::vector<Int8ColumnSum>& b) {
  const auto k = static_cast<index_t>(a.size());
  std::vector<Int8CrossTerms> lane(cross_lanes), group(cross_lanes);
  for (index_t p0 = 0; p0 < k; p0 += cross_lanes) {
    for (index_t t = 0; t < cross_lanes; ++t)
      group[t] = p0 + t < k ? numerics::int8_cross_terms(a[p0 + t], b[p0 + t]) : Int8CrossTerms{};
    Int8CrossTerms& sum = lane[p0 / cross_lanes % cross_lanes];
    sum = numerics::add_rn(sum, fold_lanes(group));
  }
  return fold_lanes(lane);
}

}  // namespace

Int8CrossTerms int8_cross_terms(const OperandRows& a_rows, const OperandRows& b_cols) {
  return cross_terms_of(column_sums(a_rows, exponents_by_range(a_rows)),
                        column_sums(b_cols, exponents_by_range(b_cols)));
}

Int8CrossTerms int8_cross_terms_of_panels(const std::vector<Int8ColumnSum>& a_panels,
                                          const std::vector<Int8ColumnSum>& b_panels, index_t depth) {
  const auto totals = [depth](const std::vector<Int8ColumnSum>& panels) {
    PanelLanes lanes(depth);
    for (std::size_t at = 0; at < panels.size(); at += static_cast<std::size_t>(depth))
      lanes.add_panel(static_cast<index_t>(at / static_cast<std::size_t>(depth)), panels.data() + at);
    return lanes.totals();
  };
  return cross_terms_of(totals(a_panels), totals(b_panels));
}

EmulationPath normwise_fp32_path(const GemmArgs& g) {
  if (g.k <= int8_slices_max_depth) {
    const std::vector<RowDigits> a = row_digits(g.a_rows()), b = row_digits(g.b_cols());
    if (every_row_holds(a, g.k) && every_row_holds(b, g.k) &&
        numerics::int8_norm_spread_over_entries(rows_carrying_norm(a), rows_carrying_norm(b)) &&
        numerics::int8_digits_hold_product(cross_terms_of(column_sums(g.a_rows(), exponents_of(a)),
                                                          column_sums(g.b_cols(), exponents_of(b))),
                                           g.m, g.n))
      return EmulationPath::int8_digits;
  }
  return choose_emulation_path(range_verdict(g.a_rows()), range_verdict(g.b_cols()));
}

EmulationPath normwise_fp32_path(char trans_a, char trans_b, index_t m, index_t n, index_t k, const float* a,
                                 index_t lda, const float* b, index_t ldb) {
  return normwise_fp32_path(make_operand_args("egemm::normwise_fp32_path", trans_a, trans_b, m, n, k, a, lda, b, ldb));
}

}  // namespace egemm
