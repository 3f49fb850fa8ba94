// Reference values for EmulatedFP64's tests: dot products accurate to about
// 2^-106 (Ogita, Rump and Oishi's Dot2: error-free products and sums in
// double-double), DGEMM's own arithmetic (float64 fused multiply-adds in k
// order), and error statistics over sampled entries.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "egemm/gemm_args.hpp"

namespace egemm::test {

// sum_p a[p sa] b[p sb] in double-double, rounded to double: with k <= 2^20
// its error is below 2^-53 |sum| + 2^-86 sum |a b|, far under any gemm's.
inline double exact_dot(const double* a, index_t sa, const double* b, index_t sb, index_t k) {
  double hi = 0.0, lo = 0.0;
  for (index_t p = 0; p < k; ++p) {
    const double x = a[p * sa], y = b[p * sb];
    const double prod = x * y;
    const double prod_err = std::fma(x, y, -prod);  // x y = prod + prod_err exactly
    const double s = hi + prod;
    const double bb = s - hi;
    const double sum_err = (hi - (s - bb)) + (prod - bb);  // hi + prod = s + sum_err exactly
    hi = s;
    lo += sum_err + prod_err;
  }
  return hi + lo;
}

// DGEMM's arithmetic for one entry: float64 fused multiply-adds in k order.
inline double fma_dot(const double* a, index_t sa, const double* b, index_t sb, index_t k) {
  double s = 0.0;
  for (index_t p = 0; p < k; ++p) s = std::fma(a[p * sa], b[p * sb], s);
  return s;
}

// Strides of op(A)'s rows and op(B)'s columns for the dot products above.
struct DotOperands {
  const double* a;
  index_t a_row, a_step;
  const double* b;
  index_t b_col, b_step;
  const double* a_of(index_t i) const { return a + i * a_row; }
  const double* b_of(index_t j) const { return b + j * b_col; }
};
inline DotOperands dot_operands(const GemmArgs64& g) {
  const OperandRows64 a = g.a_rows(), b = g.b_cols();
  return {a.base, a.row_stride, a.depth_stride, b.base, b.row_stride, b.depth_stride};
}

// Sampled entries (all of them where there are at most `count`).
struct Entry {
  index_t i, j;
};
inline std::vector<Entry> sample_entries(index_t m, index_t n, std::size_t count, std::uint64_t seed) {
  std::vector<Entry> e;
  if (static_cast<double>(m) * static_cast<double>(n) <= static_cast<double>(count)) {
    for (index_t j = 0; j < n; ++j)
      for (index_t i = 0; i < m; ++i) e.push_back({i, j});
    return e;
  }
  std::mt19937_64 gen(seed);
  std::uniform_int_distribution<index_t> ri(0, m - 1), rj(0, n - 1);
  for (std::size_t s = 0; s < count; ++s) e.push_back({ri(gen), rj(gen)});
  return e;
}

// Errors of computed entries against exact ones: relative Frobenius over
// the sample, and the largest error relative to the sample's largest |exact|.
struct SampleError {
  double rel_frobenius = 0.0;
  double max_rel_to_max = 0.0;
  std::size_t entries = 0;
};
inline SampleError sample_error(const std::vector<double>& computed, const std::vector<double>& exact) {
  SampleError s;
  double e2 = 0.0, r2 = 0.0, emax = 0.0, rmax = 0.0;
  for (std::size_t t = 0; t < exact.size(); ++t) {
    const double d = computed[t] - exact[t];
    e2 += d * d;
    r2 += exact[t] * exact[t];
    emax = std::max(emax, std::fabs(d));
    rmax = std::max(rmax, std::fabs(exact[t]));
  }
  s.rel_frobenius = r2 > 0.0 ? std::sqrt(e2 / r2) : std::sqrt(e2);
  s.max_rel_to_max = rmax > 0.0 ? emax / rmax : emax;
  s.entries = exact.size();
  return s;
}

}  // namespace egemm::test
