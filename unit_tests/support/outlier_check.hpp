// What EmulatedFP32's sparse outliers make of a product, worked out from the
// operands for the tests: each row's routed outliers, the operands without
// them, and C as the dense part's result plus the outliers' float64 sums.
#pragma once

#include <utility>
#include <vector>

#include "egemm/gemm_args.hpp"
#include "egemm/numerics/outliers.hpp"
#include "egemm/path_selection.hpp"

namespace egemm::test {

using OutlierList = std::vector<std::pair<index_t, float>>;  // (depth, value), in depth order

// Row r's routed outliers (empty where the row keeps them in its pieces).
inline OutlierList routed_outliers(const OperandRows& rows, index_t r) {
  OutlierList out;
  if (!emulated_fp32_routes_outliers(rows, r)) return out;
  const std::uint32_t threshold = numerics::float_bits(row_outliers(rows, r).threshold);
  for (index_t p = 0; p < rows.depth; ++p)
    if (numerics::is_outlier_candidate(rows(r, p), threshold)) out.emplace_back(p, rows(r, p));
  return out;
}

// Every row's of op(A) (`of_a`) or column's of op(B).
inline std::vector<OutlierList> routed_outliers(const GemmArgs& g, bool of_a) {
  const OperandRows rows = of_a ? g.a_rows() : g.b_cols();
  std::vector<OutlierList> out(static_cast<std::size_t>(rows.rows));
  for (index_t r = 0; r < rows.rows; ++r) out[static_cast<std::size_t>(r)] = routed_outliers(rows, r);
  return out;
}

// The stored element of A (B) that holds op(A)(i, p) (op(B)(p, j)).
inline index_t a_index(const GemmArgs& g, index_t i, index_t p) { return g.a_offset(i, p); }
inline index_t b_index(const GemmArgs& g, index_t p, index_t j) { return g.b_offset(p, j); }

// C(i, j) = c_dense(i, j) plus alpha times the routed outliers' products, in
// the order the library adds them (row's, then column's not met by the row's),
// wherever a routed row meets a column, or a routed column a row; the other
// entries c_dense's. `c_dense`: the same call on the operands without their
// routed outliers (ld g.ldc).
inline std::vector<float> dense_plus_outliers(const GemmArgs& g, const std::vector<float>& c_dense) {
  const std::vector<OutlierList> rows = routed_outliers(g, true), cols = routed_outliers(g, false);
  std::vector<float> c = c_dense;
  for (index_t j = 0; j < g.n; ++j)
    for (index_t i = 0; i < g.m; ++i) {
      const OutlierList &row = rows[static_cast<std::size_t>(i)], &col = cols[static_cast<std::size_t>(j)];
      if (row.empty() && col.empty()) continue;
      double correction = 0.0;
      for (const auto& [p, v] : row) correction = numerics::add_outlier_product(correction, v, g.b[b_index(g, p, j)]);
      for (const auto& [p, v] : col) {
        bool met = false;
        for (const auto& o : row) met = met || o.first == p;
        if (!met) correction = numerics::add_outlier_product(correction, g.a[a_index(g, i, p)], v);
      }
      float& entry = c[static_cast<std::size_t>(i + j * g.ldc)];
      entry = numerics::add_outlier_correction(entry, g.alpha, correction);
    }
  return c;
}

// Copies of A's and B's storage with the routed outliers zeroed.
inline std::pair<std::vector<float>, std::vector<float>> without_routed_outliers(const GemmArgs& g,
                                                                                std::vector<float> a,
                                                                                std::vector<float> b) {
  const std::vector<OutlierList> rows = routed_outliers(g, true), cols = routed_outliers(g, false);
  for (index_t i = 0; i < g.m; ++i)
    for (const auto& o : rows[static_cast<std::size_t>(i)]) a[static_cast<std::size_t>(a_index(g, i, o.first))] = 0.0f;
  for (index_t j = 0; j < g.n; ++j)
    for (const auto& o : cols[static_cast<std::size_t>(j)]) b[static_cast<std::size_t>(b_index(g, o.first, j))] = 0.0f;
  return {std::move(a), std::move(b)};
}

}  // namespace egemm::test
