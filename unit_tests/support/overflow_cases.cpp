// The overflow and underflow cases and their check against FP32 gemm's entries.
#include "support/overflow_cases.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "egemm/numerics/tf32.hpp"
#include "egemm/reference.hpp"
#include "support/gemm_check.hpp"

namespace egemm::test {
namespace {

// A logical op(A) (m x k) or op(B) (k x n) filled by `value(row, col)`.
template <class Value>
Matrix filled(index_t rows, index_t cols, Value value) {
  Matrix x(rows, cols);
  for (index_t j = 0; j < cols; ++j)
    for (index_t i = 0; i < rows; ++i) x(i, j) = value(i, j);
  return x;
}

class Draw {
 public:
  explicit Draw(std::uint64_t seed) : gen_(seed) {}
  float in(float lo, float hi) { return std::uniform_real_distribution<float>(lo, hi)(gen_); }
  float sign() { return std::uniform_int_distribution<int>(0, 1)(gen_) ? 1.0f : -1.0f; }
  std::uint64_t seed() { return gen_(); }

 private:
  std::mt19937_64 gen_;
};

// Near 3e38: its product with another such value overflows, its product with
// 1 or less does not.
float huge(Draw& d) { return d.in(2.9e38f, 3.1e38f); }

}  // namespace

GemmArgs OverflowCase::args() {
  return make_gemm_args("test", trans_a, trans_b, m, n, k, alpha, a.ptr(), a.ld, b.ptr(), b.ld, beta, c.ptr(), c.ld);
}

std::vector<OverflowCase> overflow_cases(char trans_a, char trans_b, index_t m, index_t n, index_t k, bool wide,
                                         std::uint64_t seed) {
  Draw d(seed);
  std::vector<OverflowCase> cases;
  // Stores op(A), op(B) as the transposes ask, with the wide elements.
  auto add = [&](const char* name, Matrix op_a, Matrix op_b, float alpha, float beta, Matrix c) {
    if (wide) {
      for (index_t i = 0; i < m; ++i) op_a(i, k - 1) = std::ldexp(op_a(i, k - 1), -40);
      for (index_t j = 0; j < n; ++j) op_b(k - 2, j) = std::ldexp(op_b(k - 2, j), -40);
    }
    OverflowCase x;
    x.name = name;
    x.trans_a = trans_a;
    x.trans_b = trans_b;
    x.m = m, x.n = n, x.k = k, x.alpha = alpha, x.beta = beta;
    x.a = trans_a == 'N' ? op_a : transposed(op_a);
    x.b = trans_b == 'N' ? op_b : transposed(op_b);
    x.c = c;
    x.order_dependent.assign(static_cast<std::size_t>(m * n), 0);
    cases.push_back(std::move(x));
  };
  auto uniform = [&](index_t rows, index_t cols) { return random_matrix(rows, cols, d.seed()); };
  // Uniform in [-0.5, 0.5): a huge element times these stays below 1.6e38,
  // so an entry meeting two of them (one in its row, one in its column) is
  // finite, and only the entries the case aims at overflow.
  auto half_uniform = [&](index_t rows, index_t cols) {
    Matrix x = uniform(rows, cols);
    for (float& v : x.data) v *= 0.5f;
    return x;
  };
  auto range = [&](index_t rows, index_t cols, float lo, float hi) {
    return filled(rows, cols, [&](index_t, index_t) { return d.in(lo, hi); });
  };
  // Each row of op(A) one random sign: every entry of a same-signed sum
  // overflows (or not) with its row's sign.
  auto signed_rows = [&](Matrix x) {
    for (index_t i = 0; i < x.rows; ++i) {
      const float s = d.sign();
      for (index_t p = 0; p < x.cols; ++p) x(i, p) *= s;
    }
    return x;
  };
  const Matrix poisoned_c = [&] {
    Matrix c(m, n);
    poison(c);
    return c;
  }();

  {  // One product overflows (3e38 * 3e38 in a row [3e38, 1e-30, ...]), the rest of its row and column stay finite.
    Matrix a = half_uniform(m, k), b = half_uniform(k, n);
    const index_t i = m / 3, j = n / 2;
    a(i, 0) = d.sign() * huge(d);
    a(i, 1) = 1e-30f;
    b(0, j) = d.sign() * huge(d);
    b(1, j) = 1.0f;
    add("product_overflows", a, b, 1.0f, 0.0f, poisoned_c);
  }
  {  // The TF32 pieces: big * big overflows in the main sum and small * big in
     // the correction, with the other sign (b's small piece zero).
    Matrix a = half_uniform(m, k), b = half_uniform(k, n);
    const index_t rows[] = {3, m - 5}, cols[] = {n / 4, n - 2}, at[] = {5, k / 2};
    for (int q = 0; q < 2; ++q) {
      const float t = numerics::round_to_tf32(huge(d)), u = numerics::round_to_tf32(huge(d));
      const float sa = d.sign(), sb = d.sign();
      // t (1 - 2^-13) rounds to t: small = -t 2^-13, against big's sign.
      float& x = q == 0 ? a(rows[q], at[q]) : b(at[q], cols[q]);
      float& y = q == 0 ? b(at[q], cols[q]) : a(rows[q], at[q]);
      x = sa * (t - std::ldexp(t, -13));
      y = sb * u;
    }
    add("correction_term_overflows", a, b, 1.0f, 0.0f, poisoned_c);
  }
  // Every product overflows: +-Inf everywhere (the sign of the row).
  add("every_product_overflows", signed_rows(range(m, k, 1e21f, 2e21f)), range(k, n, 1e21f, 2e21f), 1.0f, 0.0f,
      poisoned_c);
  // An overflowed sum times a tiny alpha is still Inf in FP32.
  add("overflowed_sum_times_tiny_alpha", signed_rows(range(m, k, 1e21f, 2e21f)), range(k, n, 1e21f, 2e21f), 1e-30f,
      0.0f, poisoned_c);
  // Products up to 8e36, sums of at least 6e38: the sum overflows.
  add("sum_overflows", signed_rows(range(m, k, 2e17f, 4e17f)), range(k, n, 1e19f, 2e19f), 1.0f, 0.0f, poisoned_c);
  {  // Products overflow with both signs: the first half -(1e42..1.8e42), the second +(3e42..4.8e42).
    Matrix b = filled(k, n, [&](index_t p, index_t) { return p < k / 2 ? -d.in(1e21f, 1.5e21f) : d.in(3e21f, 4e21f); });
    add("products_overflow_with_both_signs", range(m, k, 1e21f, 1.2e21f), b, 1.0f, 0.0f, poisoned_c);
    cases.back().order_dependent.assign(static_cast<std::size_t>(m * n), 1);
  }
  // Sums in [2.0e38, 2.9e38] (products 2^119 [1, 1.44)), each row one sign.
  auto near_max_a = [&] { return signed_rows(range(m, k, 0x1p60f, 0x1.333334p60f)); };
  auto near_max_b = [&] { return range(k, n, 0x1p59f, 0x1.333334p59f); };
  add("alpha_pushes_a_finite_sum_over", near_max_a(), near_max_b(), 2.0f, 0.0f, poisoned_c);
  add("alpha_keeps_a_near_max_sum_finite", near_max_a(), near_max_b(), 0.5f, 0.0f, poisoned_c);
  // beta C in +-[3.0e38, 3.3e38): Inf where it meets a sum of its sign, finite where of the other.
  add("beta_c_near_max", near_max_a(), near_max_b(), 1.0f, 1.0f,
      filled(m, n, [&](index_t, index_t) { return d.sign() * d.in(3.0e38f, 3.3e38f); }));
  // beta C overflows on its own (2 * [2e38, 3e38)) against finite sums: Inf of C's sign.
  add("beta_c_overflows", near_max_a(), near_max_b(), 1.0f, 2.0f,
      filled(m, n, [&](index_t, index_t) { return d.sign() * d.in(2e38f, 3e38f); }));
  // An overflowed sum meets an overflowed beta C: NaN where their signs differ, as in FP32.
  add("overflowed_sum_meets_overflowed_beta_c", signed_rows(range(m, k, 1e21f, 2e21f)), range(k, n, 1e21f, 2e21f),
      1.0f, 2.0f, filled(m, n, [&](index_t, index_t) { return d.sign() * d.in(2e38f, 3e38f); }));
  {  // Inputs ~1e-20: products ~1e-40 (FP32 subnormals), sums subnormal.
    auto tiny = [&](index_t rows, index_t cols) {
      Matrix x = uniform(rows, cols);
      for (float& v : x.data) v *= 1e-20f;
      return x;
    };
    add("subnormal_products", tiny(m, k), tiny(k, n), 1.0f, 0.0f, poisoned_c);
  }
  return cases;
}

float fp32_gemm_entry(const GemmArgs& g, const std::vector<float>& c_before, index_t i, index_t j) {
  const float s = fp32_sum(g, i, j);
  return g.beta == 0.0f ? g.alpha * s : std::fmaf(g.alpha, s, g.beta * c_before[g.c_offset(i, j)]);
}

void check_fp32_behaviour(PolicyId policy, OverflowCase& x, const std::vector<float>& got, BetaC beta_c) {
  const GemmArgs g = x.args();
  const std::vector<float>& c_before = x.c.data;
  std::vector<double> ref(static_cast<std::size_t>(x.m * x.n));
  reference::gemm_fp64(g, ref.data());
  const std::vector<double> bound = error_bound(policy, g, c_before);
  const double subnormal_rounding = static_cast<double>(x.k + 1) * 0x1p-150;
  int reported = 0;
  for (index_t j = 0; j < x.n; ++j)
    for (index_t i = 0; i < x.m; ++i) {
      const float v = got[static_cast<std::size_t>(g.c_offset(i, j))];
      const float want = fp32_gemm_entry(g, c_before, i, j);
      const std::size_t at = static_cast<std::size_t>(i + j * x.m);
      const double err = std::fabs(static_cast<double>(v) - ref[at]);
      const auto matches = [&](float expected) {
        if (x.order_dependent[at]) return !std::isfinite(v);
        if (std::isnan(expected)) return std::isnan(v);
        if (std::isinf(expected)) return v == expected;
        return std::isfinite(v) && err <= bound[at] + subnormal_rounding;
      };
      // cuBLAS may fuse beta C into its last FMA (beta C never rounded on its own): where beta C
      // alone overflows, its entry may stay finite, or stay the sum's Inf where the rounded
      // order meets Inf - Inf.
      const bool ok = matches(want) || (beta_c == BetaC::rounded_or_fused && g.beta != 0.0f &&
                                        matches(std::fmaf(g.beta, c_before[g.c_offset(i, j)],
                                                          g.alpha * fp32_sum(g, i, j))));
      if (!ok && reported++ < 5)
        ADD_FAILURE() << x.name << ": C(" << i << "," << j << ") = " << v << ", FP32 gemm gives " << want
                      << (x.order_dependent[at] ? " (or NaN or the other Inf, by its order: not finite)" : "")
                      << ", float64 " << ref[at] << ", error " << err << ", bound " << bound[at];
    }
  EXPECT_EQ(reported, 0) << x.name << ": " << reported << " entries unlike FP32 gemm";
}

}  // namespace egemm::test
