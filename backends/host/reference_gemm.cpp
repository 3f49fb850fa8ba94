// The float64 reference and the error measures (public API: egemm/reference.hpp).
#include <algorithm>
#include <cmath>
#include <vector>

#include "egemm/reference.hpp"

namespace egemm::reference {

void gemm_fp64(const GemmArgs& g, double* ref) {
  const OperandRows a = g.a_rows(), b = g.b_cols();
  // op(A) and op(B)^T repacked k-contiguous in double, so the inner loop is a
  // unit-stride dot product whatever the transposes.
  std::vector<double> at(static_cast<std::size_t>(g.m * g.k)), bt(static_cast<std::size_t>(g.n * g.k));
#pragma omp parallel for schedule(static)
  for (index_t i = 0; i < g.m; ++i)
    for (index_t p = 0; p < g.k; ++p) at[i * g.k + p] = a(i, p);
#pragma omp parallel for schedule(static)
  for (index_t j = 0; j < g.n; ++j)
    for (index_t p = 0; p < g.k; ++p) bt[j * g.k + p] = b(j, p);

#pragma omp parallel for schedule(static)
  for (index_t j = 0; j < g.n; ++j) {
    const double* bj = bt.data() + j * g.k;
    for (index_t i = 0; i < g.m; ++i) {
      const double* ai = at.data() + i * g.k;
      double s = 0.0;
      if (g.alpha != 0.0f)
        for (index_t p = 0; p < g.k; ++p) s += ai[p] * bj[p];
      double v = static_cast<double>(g.alpha) * s;
      if (g.beta != 0.0f) v += static_cast<double>(g.beta) * g.c[g.c_offset(i, j)];
      ref[i + j * g.m] = v;
    }
  }
}

ErrorStats compare(const float* c, index_t ldc, const double* ref, index_t m, index_t n) {
  ErrorStats s;
  double err2 = 0.0, ref2 = 0.0;
  for (index_t j = 0; j < n; ++j)
    for (index_t i = 0; i < m; ++i) {
      const double x = c[i + j * ldc], r = ref[i + j * m];
      if (std::isnan(x) != std::isnan(r)) ++s.nan_mismatch;
      if (std::isfinite(x) != std::isfinite(r)) ++s.nonfinite_mismatch;
      if (!std::isfinite(x) || !std::isfinite(r)) continue;
      err2 += (x - r) * (x - r);
      ref2 += r * r;
      s.max_abs = std::max(s.max_abs, std::fabs(x - r));
    }
  s.rel_frobenius = ref2 > 0.0 ? std::sqrt(err2 / ref2) : std::sqrt(err2);
  return s;
}

}  // namespace egemm::reference
