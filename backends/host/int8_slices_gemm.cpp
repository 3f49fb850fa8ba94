// Int8Slices on the CPU: digit rows, exact int32 sums, one rounding per entry.
#include "backends/host/int8_slices_gemm.hpp"

#include <math.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "egemm/numerics/epilogue.hpp"
#include "egemm/numerics/int8_digits.hpp"
#include "egemm/path_selection.hpp"

namespace egemm::host {
namespace {

// An operand as digit rows: digit[s][r * depth + p] is digit s of element
// (r, p); the row's exponent and whether it holds Inf or NaN.
struct DigitRows {
  index_t rows = 0, depth = 0;
  std::vector<std::int8_t> digit[3];
  std::vector<int> exponent;
  std::vector<std::uint8_t> nonfinite;
};

DigitRows digit_rows(const OperandRows& src) {
  DigitRows d;
  d.rows = src.rows;
  d.depth = src.depth;
  const std::size_t size = static_cast<std::size_t>(src.rows * src.depth);
  for (auto& digit : d.digit) digit.resize(size);
  d.exponent.resize(static_cast<std::size_t>(src.rows));
  d.nonfinite.resize(static_cast<std::size_t>(src.rows));
#pragma omp parallel for schedule(static)
  for (index_t r = 0; r < src.rows; ++r) {
    bool nonfinite = false;
    const int e = numerics::int8_row_exponent(row_range(src, r, &nonfinite).max_abs);
    d.exponent[r] = e;
    d.nonfinite[r] = nonfinite ? 1 : 0;
    for (index_t p = 0; p < src.depth; ++p) {
      const numerics::Int8Digits x = numerics::int8_digits(src(r, p), e);
      const std::size_t at = static_cast<std::size_t>(r * src.depth + p);
      d.digit[0][at] = x.d0;
      d.digit[1][at] = x.d1;
      d.digit[2][at] = x.d2;
    }
  }
  return d;
}

}  // namespace

NonfiniteLines int8_slices_gemm(const GemmArgs& g) {
  const DigitRows a = digit_rows(g.a_rows()), b = digit_rows(g.b_cols());
  const index_t k = g.k;
#pragma omp parallel for collapse(2) schedule(static)
  for (index_t j = 0; j < g.n; ++j)
    for (index_t i = 0; i < g.m; ++i) {
      if (a.nonfinite[i] || b.nonfinite[j]) continue;  // the special-value pass's
      const std::int8_t *a0 = &a.digit[0][i * k], *a1 = &a.digit[1][i * k], *a2 = &a.digit[2][i * k];
      const std::int8_t *b0 = &b.digit[0][j * k], *b1 = &b.digit[1][j * k], *b2 = &b.digit[2][j * k];
      // int32 as on the tensor cores; k <= int8_slices_max_depth keeps every sum exact.
      std::int32_t p0 = 0, p1 = 0, p2 = 0;
      for (index_t p = 0; p < k; ++p) {
        p0 += a0[p] * b0[p];
        p1 += a0[p] * b1[p] + a1[p] * b0[p];
        p2 += a1[p] * b1[p] + a0[p] * b2[p] + a2[p] * b0[p];
      }
      const float v = numerics::int8_combine(p0, p1, p2, a.exponent[i] + b.exponent[j]);
      float* c = g.c + g.c_offset(i, j);
      *c = apply_alpha_beta(v, g.alpha, g.beta, c);
    }
  return {a.nonfinite, b.nonfinite};
}

}  // namespace egemm::host
