// Double-precision test operands for EmulatedFP64: column-major matrices with
// a leading dimension, fresh random fills (uniform, normal, wide exponents).
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

#include "egemm/gemm_args.hpp"

namespace egemm::test {

struct Matrix64 {
  index_t rows = 0, cols = 0, ld = 0;
  std::vector<double> data;
  Matrix64() = default;
  Matrix64(index_t r, index_t c, index_t ld_ = 0) : rows(r), cols(c), ld(ld_ ? ld_ : std::max<index_t>(1, r)) {
    data.assign(static_cast<std::size_t>(ld * std::max<index_t>(c, 1)), 0.0);
  }
  double& operator()(index_t i, index_t j) { return data[i + j * ld]; }
  double operator()(index_t i, index_t j) const { return data[i + j * ld]; }
  double* ptr() { return data.data(); }
  const double* ptr() const { return data.data(); }
};

enum class Fill64 { uniform, normal, wide };

inline const char* fill_name(Fill64 f) {
  return f == Fill64::uniform ? "uniform" : f == Fill64::normal ? "normal" : "wide";
}

// Uniform [-1, 1), standard normal, or u 2^e (u uniform [1, 2), random sign,
// e uniform in [-30, 30]: every row spans 60 binades). Padding rows (between
// rows and ld) hold NaN, so reading them shows.
inline Matrix64 random_matrix64(index_t rows, index_t cols, std::uint64_t seed, Fill64 fill = Fill64::uniform,
                                index_t ld = 0) {
  Matrix64 m(rows, cols, ld);
  std::mt19937_64 gen(seed);
  std::uniform_real_distribution<double> u(-1.0, 1.0), one_two(1.0, 2.0);
  std::normal_distribution<double> nrm(0.0, 1.0);
  std::uniform_int_distribution<int> e(-30, 30), sign(0, 1);
  for (index_t j = 0; j < cols; ++j)
    for (index_t i = 0; i < m.ld; ++i) {
      double v = std::numeric_limits<double>::quiet_NaN();
      if (i < rows) {
        switch (fill) {
          case Fill64::uniform: v = u(gen); break;
          case Fill64::normal: v = nrm(gen); break;
          case Fill64::wide: v = (sign(gen) ? -1.0 : 1.0) * std::ldexp(one_two(gen), e(gen)); break;
        }
      }
      m(i, j) = v;
    }
  return m;
}

}  // namespace egemm::test
