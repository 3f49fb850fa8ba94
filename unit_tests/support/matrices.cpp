// Random and poisoned test matrices, and each policy's a-priori error bound.
#include "support/matrices.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>

#include "backends/cuda/common/fold_length.hpp"
#include "egemm/numerics/int8_digits.hpp"
#include "egemm/numerics/split.hpp"
#include "egemm/path_selection.hpp"

namespace egemm::test {

std::uint64_t fresh_seed() {
  static std::uint64_t counter = 0;
  const auto now = static_cast<std::uint64_t>(std::chrono::high_resolution_clock::now().time_since_epoch().count());
  return (static_cast<std::uint64_t>(std::random_device{}()) << 32) ^ now ^ (++counter * 0x9E3779B97F4A7C15ull);
}

Matrix random_matrix(index_t rows, index_t cols, std::uint64_t seed, index_t ld) {
  Matrix m(rows, cols, ld);
  std::mt19937_64 gen(seed);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  for (index_t j = 0; j < cols; ++j)
    for (index_t i = 0; i < m.ld; ++i) m(i, j) = i < rows ? u(gen) : std::numeric_limits<float>::quiet_NaN();
  return m;
}

Matrix random_wide_matrix(index_t rows, index_t cols, std::uint64_t seed, int emin, int emax) {
  Matrix m(rows, cols);
  std::mt19937_64 gen(seed);
  std::uniform_real_distribution<float> u(1.0f, 2.0f);
  std::uniform_int_distribution<int> e(emin, emax);
  std::bernoulli_distribution negative(0.5);
  for (index_t j = 0; j < cols; ++j)
    for (index_t i = 0; i < rows; ++i) m(i, j) = (negative(gen) ? -1.0f : 1.0f) * std::ldexp(u(gen), e(gen));
  return m;
}

AlignedOperands small_halves_meeting(std::uint64_t seed, bool interleaved) {
  constexpr index_t m = 48, n = 40, k = 16384;
  std::mt19937 gen(static_cast<std::uint32_t>(seed));
  std::uniform_real_distribution<float> uniform(-1.0f, 1.0f), large(0.5f, 1.0f);
  const auto in_large_part = [&](index_t p) { return interleaved ? p % 2 == 0 : p < k / 2; };
  AlignedOperands o{Matrix(m, k), Matrix(k, n)};
  for (index_t p = 0; p < k; ++p) {
    for (index_t i = 0; i < m; ++i)
      o.a(i, p) = in_large_part(p) ? large(gen) * (uniform(gen) < 0.0f ? -1.0f : 1.0f) : 1e-3f * uniform(gen);
    for (index_t j = 0; j < n; ++j) o.b(p, j) = in_large_part(p) ? 0.0f : uniform(gen);
  }
  return o;
}

Matrix transposed(const Matrix& x) {
  Matrix t(x.cols, x.rows);
  for (index_t j = 0; j < x.cols; ++j)
    for (index_t i = 0; i < x.rows; ++i) t(j, i) = x(i, j);
  return t;
}

void poison(Matrix& c) { std::fill(c.data.begin(), c.data.end(), poison_value()); }

namespace {

struct SplitModel {
  double rel;         // relative representation error of a piece sum
  double floor_log2;  // absolute floor, in the (possibly scaled) split domain
  double lo_rel;      // |lo| <= lo_rel |x| + 2^lo_floor_log2 (dropped products only)
  bool drops_lo_lo;
  bool scaled;
  int products;
  bool fold;
  bool integer;  // Int8Slices: exact sums, digit products below 2^-16 dropped
};

template <class Policy>
SplitModel model_of() {
  using t = policy_traits<Policy>;
  return {std::ldexp(1.0, t::representation_error_log2), static_cast<double>(t::absolute_floor_log2), 0x1p-11,
          t::dropped_product_log2 > detail::exact, t::scales_rows_and_columns, t::products, t::fold_main_each_k_step,
          t::integer_sums};
}

SplitModel model_of(PolicyId id) {
  SplitModel m{};
  for_each_policy([&](auto tag) {
    if (policy_traits<decltype(tag)>::id == id) m = model_of<decltype(tag)>();
  });
  if (id == PolicyId::full_range_tf32x3) m = model_of<FullRangeTF32x3>();
  return m;
}

// The power of two each row of `rows` is scaled by (0 when the policy does not scale).
std::vector<int> row_exponents(const OperandRows& rows, const SplitModel& s) {
  std::vector<int> e(static_cast<std::size_t>(rows.rows), 0);
  if (!s.scaled) return e;
  for (index_t r = 0; r < rows.rows; ++r)
    e[r] = s.integer ? numerics::int8_row_exponent(row_range(rows, r).max_abs) : emulated_fp32_row_exponent(rows, r);
  return e;
}

}  // namespace

// The policy whose algorithm actually runs: EmulatedFP32 picks one per
// call, NormwiseFP32 Int8Slices or EmulatedFP32's pick.
PolicyId effective_policy(PolicyId policy, const GemmArgs& g) {
  if (policy == PolicyId::normwise_fp32) {
    if (normwise_fp32_path(g) == EmulationPath::int8_digits) return PolicyId::int8_slices;
    policy = PolicyId::emulated_fp32;
  }
  if (policy != PolicyId::emulated_fp32) return policy;
  switch (choose_emulation_path(range_verdict(g.a_rows()), range_verdict(g.b_cols()))) {
    case EmulationPath::fp16_scaled: return PolicyId::emulated_fp32;
    case EmulationPath::tf32_full_range: return PolicyId::full_range_tf32x3;
    case EmulationPath::native_fp32: return PolicyId::native_fp32;
    case EmulationPath::int8_digits: break;  // not EmulatedFP32's
  }
  return policy;
}

std::vector<double> error_bound(PolicyId policy, const GemmArgs& g, const std::vector<float>& c_before) {
  const SplitModel s = model_of(effective_policy(policy, g));
  const OperandRows a = g.a_rows(), b = g.b_cols();
  const std::vector<int> ea = row_exponents(a, s), eb = row_exponents(b, s);
  const double u = accumulation_unit;
  // Adds an entry's accumulation path can round: k per running term, or (folded)
  // the f values of one fold inside the tensor core plus one RN add per fold;
  // the correction sum is 2^-10 smaller. The fold length f depends on the
  // kernel that runs (16 on the host and the mma.sync kernel, 64 on the wgmma
  // kernel): the bound takes the largest count over every fold length in use,
  // so it holds whichever kernel the device picks.
  const double k = static_cast<double>(g.k);
  double fold_adds = 0.0;
  for (int f : cuda::fold_lengths) fold_adds = std::max(fold_adds, f + std::ceil(k / f));
  const double main_adds = s.integer ? 0.0 : s.fold ? fold_adds : s.products * k;  // integer sums are exact
  const double gamma = u * (main_adds + (s.fold ? 2.0 * k * 0x1p-10 : 0.0)) * 1.01;

  std::vector<double> bound(static_cast<std::size_t>(g.m * g.n));
  // O(m n k) in float64: threads keep the GPU tests' 1000^3 cases from waiting on it.
#pragma omp parallel for schedule(static)
  for (index_t j = 0; j < g.n; ++j)
    for (index_t i = 0; i < g.m; ++i) {
      const double fa = std::ldexp(1.0, static_cast<int>(s.floor_log2) + ea[i]);
      const double fb = std::ldexp(1.0, static_cast<int>(s.floor_log2) + eb[j]);
      // |lo| <= 2^-11 |x| + (the piece floor 2^11 times coarser, where hi itself is subnormal).
      const int lo_floor = static_cast<int>(s.floor_log2) + 11;
      const double lfa = std::ldexp(1.0, lo_floor + ea[i]), lfb = std::ldexp(1.0, lo_floor + eb[j]);
      double repr = 0.0, sum_abs = 0.0;
      for (index_t p = 0; p < g.k; ++p) {
        const double x = std::fabs(static_cast<double>(a(i, p))), y = std::fabs(static_cast<double>(b(j, p)));
        const double dx = s.rel * x + fa, dy = s.rel * y + fb;
        repr += dx * y + (x + dx) * dy;
        if (s.drops_lo_lo) repr += (s.lo_rel * x + lfa) * (s.lo_rel * y + lfb);
        // Int8Slices drops d1 d2' + d2 d1' (weight 2^-24) and d2 d2' (2^-32) of digits of at most 2^7:
        // (2^23 + 2^14) 2^(ea + eb - 46).
        if (s.integer) repr += std::ldexp(1.0 + 0x1p-9, ea[i] + eb[j] - 23);
        sum_abs += x * y;
      }
      const double alpha = std::fabs(static_cast<double>(g.alpha));
      double e = alpha * (repr * (1.0 + u) + (gamma + 3.0 * u) * sum_abs * 1.01);
      if (g.beta != 0.0f) e += 2.0 * u * std::fabs(static_cast<double>(g.beta) * c_before[g.c_offset(i, j)]);
      bound[i + j * g.m] = e + std::numeric_limits<float>::denorm_min();
    }
  return bound;
}

std::vector<double> error_bound_any_path(PolicyId policy, const GemmArgs& g, const std::vector<float>& c_before) {
  std::vector<PolicyId> paths = {policy};
  if (policy == PolicyId::emulated_fp32 || policy == PolicyId::normwise_fp32)
    paths = {PolicyId::emulated_fp32, PolicyId::full_range_tf32x3};
  if (policy == PolicyId::normwise_fp32) paths.push_back(PolicyId::int8_slices);
  std::vector<double> bound(static_cast<std::size_t>(g.m * g.n), 0.0);
  for (PolicyId p : paths) {
    const std::vector<double> b = error_bound(p, g, c_before);
    for (std::size_t e = 0; e < bound.size(); ++e) bound[e] = std::max(bound[e], b[e]);
  }
  return bound;
}

}  // namespace egemm::test
