// The host oracle's sum of EmulatedFP32's routed outliers for one entry of C, which the CUDA pass matches bit for bit.
#pragma once

#include <algorithm>
#include <utility>
#include <vector>

#include "egemm/gemm_args.hpp"
#include "egemm/numerics/outliers.hpp"

namespace egemm::host {

// C(i, j) += alpha * (the products of the routed outliers of row i of op(A)
// with column j of op(B), then those of column j's routed outliers with row
// i's other elements), summed in float64 in that order, each list in depth
// order, and rounded once: EmulatedFP32's sparse outliers, which its pieces
// left out (the dense part's entry is already in C). An outlier meeting an
// outlier is counted once, in the first sum. The CUDA backend's outlier pass
// (backends/cuda/special_entries/outlier_item.hpp) does the same operations.
inline void outlier_entry(const GemmArgs& g, const std::vector<std::pair<index_t, float>>& row_outliers,
                          const std::vector<std::pair<index_t, float>>& column_outliers, index_t i, index_t j) {
  double correction = 0.0;
  for (const auto& [p, v] : row_outliers) correction = numerics::add_outlier_product(correction, v, g.b[g.b_offset(p, j)]);
  for (const auto& [p, v] : column_outliers) {
    const bool met = std::any_of(row_outliers.begin(), row_outliers.end(), [p = p](const auto& o) { return o.first == p; });
    if (!met) correction = numerics::add_outlier_product(correction, g.a[g.a_offset(i, p)], v);
  }
  float* c = g.c + g.c_offset(i, j);
  *c = numerics::add_outlier_correction(*c, g.alpha, correction);
}

}  // namespace egemm::host
