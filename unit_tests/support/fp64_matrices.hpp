// Double-precision test operands for EmulatedFP64: fresh random fills of
// Matrix64 (uniform, normal, wide exponents), and one gemm case's operands.
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

#include "egemm/gemm_args.hpp"
#include "matrices.hpp"

namespace egemm::test {

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

// One FP64 gemm case: transposes, extents, alpha, beta, leading dimensions
// `pad` past the rows, the operands' fill.
struct Fp64Case {
  char ta, tb;
  index_t m, n, k;
  double alpha, beta;
  index_t pad = 0;
  Fill64 fill = Fill64::uniform;
};

struct Fp64Operands {
  Matrix64 a, b, c;
};

// A and B stored as the transposes say, C m x n; fresh fills from `seed`. With
// beta == 0, C is NaN: the call must not read it and must write every entry.
inline Fp64Operands fp64_operands(const Fp64Case& t, std::uint64_t seed) {
  const index_t ar = t.ta == 'N' ? t.m : t.k, ac = t.ta == 'N' ? t.k : t.m;
  const index_t br = t.tb == 'N' ? t.k : t.n, bc = t.tb == 'N' ? t.n : t.k;
  Fp64Operands o{random_matrix64(ar, ac, seed, t.fill, ar + t.pad), random_matrix64(br, bc, seed + 1, t.fill, br + t.pad),
                 random_matrix64(t.m, t.n, seed + 2, Fill64::uniform, t.m + t.pad)};
  if (t.beta == 0.0)
    for (double& v : o.c.data) v = std::numeric_limits<double>::quiet_NaN();
  return o;
}

}  // namespace egemm::test
