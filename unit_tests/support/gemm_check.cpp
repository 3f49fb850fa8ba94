// The shared gemm checks: case operands, C against the float64 reference and the bound, special scalars, subnormal rows.
#include "support/gemm_check.hpp"

#include <cmath>
#include <limits>
#include <random>
#include <sstream>


namespace egemm::test {

GemmInputs make_inputs(const GemmCase& c, std::uint64_t seed) {
  const index_t a_rows = c.trans_a == 'N' ? c.m : c.k, a_cols = c.trans_a == 'N' ? c.k : c.m;
  const index_t b_rows = c.trans_b == 'N' ? c.k : c.n, b_cols = c.trans_b == 'N' ? c.n : c.k;
  GemmInputs in;
  in.a = random_matrix(a_rows, a_cols, seed, std::max<index_t>(1, a_rows) + c.pad);
  in.b = random_matrix(b_rows, b_cols, seed + 1, std::max<index_t>(1, b_rows) + c.pad);
  in.c = random_matrix(c.m, c.n, seed + 2, std::max<index_t>(1, c.m) + c.pad);
  in.args = make_gemm_args("test", c.trans_a, c.trans_b, c.m, c.n, c.k, c.alpha, in.a.ptr(), in.a.ld, in.b.ptr(),
                           in.b.ld, c.beta, in.c.ptr(), in.c.ld);
  return in;
}

double check_gemm(PolicyId policy, const GemmCase& c, const std::function<void(const GemmArgs&)>& run) {
  const std::uint64_t seed = fresh_seed();
  std::ostringstream what;
  what << policy_name(policy) << " " << c.trans_a << c.trans_b << " m=" << c.m << " n=" << c.n << " k=" << c.k
       << " alpha=" << c.alpha << " beta=" << c.beta << " pad=" << c.pad << " seed=" << seed;
  SCOPED_TRACE(what.str());

  GemmInputs in = make_inputs(c, seed);
  const std::vector<float> c_before = in.c.data;
  std::vector<double> ref(static_cast<std::size_t>(c.m * c.n));
  reference::gemm_fp64(in.args, ref.data());
  const std::vector<double> bound = error_bound(policy, in.args, c_before);
  if (c.beta == 0.0f) poison(in.c);  // C must not be read, and every entry must be written

  run(in.args);

  int reported = 0;
  for (index_t j = 0; j < c.n; ++j) {
    for (index_t i = 0; i < in.c.ld; ++i) {
      const float v = in.c(i, j);
      if (i >= c.m) {  // padding rows: never written
        EXPECT_TRUE(std::isnan(v)) << "padding row " << i << " of column " << j << " was written";
        continue;
      }
      const double r = ref[i + j * c.m], err = std::fabs(v - r);
      if (!(std::isfinite(v) && err <= bound[i + j * c.m]) && reported++ < 5)
        ADD_FAILURE() << "C(" << i << "," << j << ") = " << v << ", float64 reference " << r << ", error " << err
                      << " > bound " << bound[i + j * c.m];
    }
  }
  EXPECT_EQ(reported, 0) << reported << " entries outside the bound";
  return reference::compare(in.c.ptr(), in.c.ld, ref.data(), c.m, c.n).rel_frobenius;
}


float fp32_sum(const GemmArgs& g, index_t i, index_t j) {
  float s = 0.0f;
  for (index_t p = 0; p < g.k; ++p) s = std::fmaf(g.a[g.a_offset(i, p)], g.b[g.b_offset(p, j)], s);
  return s;
}

const std::vector<SpecialScalars>& special_scalar_cases() {
  constexpr float inf = std::numeric_limits<float>::infinity(), nan = std::numeric_limits<float>::quiet_NaN();
  static const std::vector<SpecialScalars> cases = {{nan, 0.0f}, {inf, 0.0f},  {-inf, 0.5f}, {1.0f, nan},
                                                    {1.0f, inf}, {inf, -inf}, {0.0f, nan},  {0.0f, -inf}};
  return cases;
}

void check_special_scalars(PolicyId policy, const GemmCase& c, const std::function<void(const GemmArgs&)>& run) {
  const std::uint64_t seed = fresh_seed();
  std::ostringstream what;
  what << policy_name(policy) << " " << c.trans_a << c.trans_b << " m=" << c.m << " n=" << c.n << " k=" << c.k
       << " alpha=" << c.alpha << " beta=" << c.beta << " seed=" << seed;
  SCOPED_TRACE(what.str());

  GemmInputs in = make_inputs(c, seed);
  const std::vector<float> c_before = in.c.data;
  GemmArgs product = in.args;  // AB alone, and its bound
  product.alpha = 1.0f;
  product.beta = 0.0f;
  std::vector<double> ab(static_cast<std::size_t>(c.m * c.n));
  reference::gemm_fp64(product, ab.data());
  const std::vector<double> bound = error_bound(policy, product, c_before);
  if (c.beta == 0.0f) poison(in.c);

  run(in.args);

  int reported = 0;
  for (index_t j = 0; j < c.n; ++j)
    for (index_t i = 0; i < c.m; ++i) {
      const double p = ab[i + j * c.m];
      if (std::fabs(p) <= 4.0 * bound[i + j * c.m]) continue;
      const double scaled = c.alpha == 0.0f ? 0.0 : static_cast<double>(c.alpha) * p;
      const double want = c.beta == 0.0f ? scaled : scaled + static_cast<double>(c.beta) * c_before[i + j * in.c.ld];
      const float got = in.c(i, j);
      const bool same = std::isnan(want) ? std::isnan(got)
                        : std::isinf(want) ? static_cast<double>(got) == want
                                           : std::isfinite(got);
      if (!same && reported++ < 5)
        ADD_FAILURE() << "C(" << i << "," << j << ") = " << got << ", FP32 BLAS gives " << want;
    }
  EXPECT_EQ(reported, 0) << reported << " entries in the wrong class";
}

void check_subnormal_rows(bool with_wide_rows, const std::function<void(const GemmArgs&)>& run) {
  const index_t m = 24, n = 9, k = 40;
  const std::uint64_t seed = fresh_seed();
  SCOPED_TRACE(::testing::Message() << "seed " << seed << (with_wide_rows ? ", with wide rows" : ""));
  Matrix a = random_matrix(m, k, seed), b = random_matrix(k, n, seed + 1), c(m, n);
  for (index_t i = 0; i < m; i += 2)  // even rows: all subnormal, 2^-127 .. 2^-138
    for (index_t p = 0; p < k; ++p) a(i, p) = std::ldexp(a(i, p), -127 - static_cast<int>(i % 12));
  a(2, 5) = 0x1p-149f;  // the smallest subnormal
  if (with_wide_rows)  // rows 1 and 3: normal and subnormal mixed (more than the one the FP16 path recomputes)
    for (index_t p = 0; p < k; p += 3) a(1, p) = std::ldexp(a(1, p), -140), a(3, p) = std::ldexp(a(3, p), -135);
  poison(c);
  const GemmArgs g = make_gemm_args("test", 'N', 'N', m, n, k, 1.0f, a.ptr(), a.ld, b.ptr(), b.ld, 0.0f, c.ptr(), c.ld);
  std::vector<double> ref(static_cast<std::size_t>(m * n));
  reference::gemm_fp64(g, ref.data());
  const std::vector<double> bound = error_bound(PolicyId::emulated_fp32, g, std::vector<float>(c.data.size(), 0.0f));
  run(g);
  int subnormal_results = 0, reported = 0;
  for (index_t j = 0; j < n; ++j)
    for (index_t i = 0; i < m; ++i) {
      const double r = ref[i + j * m], err = std::fabs(c(i, j) - r);
      bool ok = err <= bound[i + j * m] + static_cast<double>(k + 1) * 0x1p-150;
      if (std::fabs(r) < 0x1p-126) {
        ++subnormal_results;
        ok = ok && err <= std::fabs(fp32_sum(g, i, j) - r) + 0x1p-140;
      }
      if (!ok && reported++ < 5)
        ADD_FAILURE() << "C(" << i << "," << j << ") = " << c(i, j) << ", float64 " << r << ", error " << err;
    }
  EXPECT_EQ(reported, 0) << reported << " entries less accurate than FP32";
  EXPECT_GT(subnormal_results, n * m / 4) << "the even rows' results should be subnormal";
}

std::vector<GemmCase> random_cases(int count, index_t max_extent) {
  std::mt19937_64 gen(fresh_seed());
  std::uniform_int_distribution<index_t> extent(0, max_extent), pad(0, 3);
  std::uniform_int_distribution<int> coin(0, 1), scalar(0, 3);
  constexpr float scalars[] = {0.0f, 1.0f, -0.75f, 2.5f};
  std::vector<GemmCase> cases;
  for (int i = 0; i < count; ++i)
    cases.push_back({coin(gen) ? 'N' : 'T', coin(gen) ? 'N' : 'T', extent(gen), extent(gen), extent(gen),
                     scalars[scalar(gen)], scalars[scalar(gen)], pad(gen)});
  return cases;
}

void check_trailing_update(PolicyId policy, const std::function<void(Matrix& m, index_t n, index_t b)>& update) {
  const index_t n = 40, b = 12, ld = n + 1;
  const std::uint64_t seed = fresh_seed();
  SCOPED_TRACE(::testing::Message() << policy_name(policy) << " trailing update, seed " << seed);
  Matrix m = random_matrix(n, n, seed, ld);
  const Matrix before = m;
  ASSERT_NO_THROW(update(m, n, b));
  // The same product on the untouched copy: the float64 reference and the policy's bound.
  float* const c0 = const_cast<float*>(before.ptr()) + b + b * ld;
  const GemmArgs g = make_gemm_args("test", 'N', 'N', n - b, n - b, b, -1.0f, before.ptr() + b, ld,
                                    before.ptr() + b * ld, ld, 1.0f, c0, ld);
  std::vector<double> ref(static_cast<std::size_t>((n - b) * (n - b)));
  reference::gemm_fp64(g, ref.data());
  const std::vector<double> bound = error_bound(policy, g, std::vector<float>(before.data.begin() + b + b * ld, before.data.end()));
  int reported = 0;
  for (index_t j = 0; j < n; ++j)
    for (index_t i = 0; i < ld; ++i) {
      const bool updated = i >= b && i < n && j >= b;
      const std::size_t at = static_cast<std::size_t>((i - b) + (j - b) * (n - b));
      const bool ok = updated ? std::fabs(m(i, j) - ref[at]) <= bound[at]
                              : (m(i, j) == before(i, j) || (std::isnan(m(i, j)) && std::isnan(before(i, j))));
      if (!ok && reported++ < 5)
        ADD_FAILURE() << (updated ? "A22" : "an operand block") << " (" << i << "," << j << ") = " << m(i, j)
                      << (updated ? ", float64 " + std::to_string(ref[at]) : ", was " + std::to_string(before(i, j)));
    }
  EXPECT_EQ(reported, 0);
}

}  // namespace egemm::test
