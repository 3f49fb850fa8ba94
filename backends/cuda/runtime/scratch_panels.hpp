// Panels of C for a CUDA call whose scratch does not fit whole in device memory.
//
// A panel of C is a gemm of its own over the whole of k (workspace.hpp runs
// them): the rows of op(A) and columns of op(B) it needs, the same alpha and
// beta. No entry is summed in parts, so no rounding is added, and each tag's
// bound (docs/numerics.md) holds per panel as it does for the whole. The
// split's scratch is (rows + columns) x k pieces, so halving the longer side
// of the panel frees the most. Plain C++: the host tests check it
// (unit_tests/test_scratch_panels.cpp).
#pragma once

#include <algorithm>
#include <optional>

#include "egemm/gemm_args.hpp"

namespace egemm::cuda {

// Panels start at multiples of this, a multiple of the split's 128-row
// padding and so of every kernel's tile (cuda_gemm.cu checks it): only the
// last panel of a row or column of panels is partial, as in a whole call.
inline constexpr index_t panel_granule = 256;

// Every panel of C is rows x cols, but the last of each row or column of panels.
struct PanelShape {
  index_t rows = 0, cols = 0;
};

inline bool operator==(const PanelShape& x, const PanelShape& y) { return x.rows == y.rows && x.cols == y.cols; }

// The next, smaller panels to try after `p`: its longer side halved (rounded
// up to the granule), or the other side where the longer one is one granule
// already; none when both are. Every step shrinks a side, so a call tries
// at most about log2(m / 256) + log2(n / 256) shapes.
inline std::optional<PanelShape> smaller_panels(PanelShape p) {
  const auto halved = [](index_t extent) {
    return std::max(panel_granule, ((extent + 1) / 2 + panel_granule - 1) / panel_granule * panel_granule);
  };
  const bool rows_first = p.rows >= p.cols;
  for (int side = 0; side < 2; ++side) {
    index_t& extent = (side == 0) == rows_first ? p.rows : p.cols;
    const index_t smaller = halved(extent);
    if (smaller < extent) {
      extent = smaller;
      return p;
    }
  }
  return std::nullopt;
}

// How many panels of shape `p` cover an m x n C.
inline index_t panel_count(index_t m, index_t n, PanelShape p) {
  return ((m + p.rows - 1) / p.rows) * ((n + p.cols - 1) / p.cols);
}

// The call `g` restricted to rows [row0, row0 + rows) and columns
// [col0, col0 + cols) of C: the matching rows of op(A) and columns of op(B).
inline GemmArgs panel_args(const GemmArgs& g, index_t row0, index_t rows, index_t col0, index_t cols) {
  GemmArgs p = g;
  p.m = rows;
  p.n = cols;
  p.a = g.a + g.a_offset(row0, 0);
  p.b = g.b + g.b_offset(0, col0);
  p.c = g.c + g.c_offset(row0, col0);
  return p;
}

// Calls visit(panel_args(...)) for every panel of shape `p`, a column of
// panels after another (consecutive panels share op(B)'s columns).
template <class Visit>
void for_each_panel(const GemmArgs& g, PanelShape p, Visit&& visit) {
  for (index_t col0 = 0; col0 < g.n; col0 += p.cols)
    for (index_t row0 = 0; row0 < g.m; row0 += p.rows)
      visit(panel_args(g, row0, std::min(p.rows, g.m - row0), col0, std::min(p.cols, g.n - col0)));
}

}  // namespace egemm::cuda
