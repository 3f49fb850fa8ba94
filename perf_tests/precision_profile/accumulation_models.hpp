// CPU models of how a tensor core might sum one k-step, D = sum_k a_k b_k + c.
// The profiler compares the hardware's FP32 result with each bit for bit (the
// EGEMM-TC paper's §3.1); the host unit tests check the models themselves.
//
// Products of two FP16, BF16 or TF32 values are exact in double, so every
// model starts from the exact products.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace egemm::profile {

// Round a double to FP32 toward zero (nearest is the plain cast).
inline float to_float_rz(double x) {
  const float f = static_cast<float>(x);  // nearest
  if (std::isinf(f) || static_cast<double>(f) == x) return f;
  if (std::fabs(static_cast<double>(f)) > std::fabs(x)) return std::nextafter(f, 0.0f);
  return f;
}

// The sum of a k-step's terms rounded once to FP32. Neumaier's compensated
// sum carries it to ~106 bits, far past FP32's 24: a double rounding could
// only bite on a sum within 2^-80 of an FP32 midpoint.
inline double exact_sum(const std::vector<double>& terms) {
  double s = 0.0, comp = 0.0;
  for (double t : terms) {
    const double u = s + t;
    comp += std::fabs(s) >= std::fabs(t) ? (s - u) + t : (t - u) + s;
    s = u;
  }
  return s + comp;
}
inline float exact_sum_rn(const std::vector<double>& terms) { return static_cast<float>(exact_sum(terms)); }

// (ii) / (iii): c first, then each product, FP32 round-to-nearest (or toward
// zero) after every add.
inline float sequential_fp32(float c, const std::vector<double>& products, bool truncate) {
  float s = c;
  for (double p : products) {
    // Exact in double while s and p are within 2^29 of each other (24 + 22 + 29 <= 53 bits wide
    // after alignment, with headroom): the profiler's designs keep products within 2^+-12.
    const double sum = static_cast<double>(s) + p;
    s = truncate ? to_float_rz(sum) : static_cast<float>(sum);
  }
  return s;
}

// (iv): every term (products and c) aligned to the largest exponent among them
// and truncated to 24 + extra_bits significant bits there, the aligned terms
// summed exactly, the sum truncated to FP32 (the literature's model of the
// Volta..Hopper adder, with `extra_bits` guard bits).
inline float aligned_truncated_sum(float c, const std::vector<double>& products, int extra_bits) {
  std::vector<double> terms(products);
  terms.push_back(c);
  int emax = std::numeric_limits<int>::min();
  for (double t : terms)
    if (t != 0.0) emax = std::max(emax, std::ilogb(t));
  if (emax == std::numeric_limits<int>::min()) return c;
  const double quantum = std::ldexp(1.0, emax - 23 - extra_bits);
  double sum = 0.0;
  for (double t : terms) sum += std::trunc(t / quantum) * quantum;  // exact: few bits above the quantum
  return to_float_rz(sum);
}

// (v): the model every H100 result matched (mma.sync and wgmma, FP16, BF16 and
// TF32, 2.76 million outputs of egemm_precision_profile; its summary is in
// perf_tests/results/h100/README.md).
// A product a_k b_k enters as an exact fixed-point significand in [1,4) at
// scale 2^(ea+eb) (ea, eb the operands' exponents: the product is NOT
// renormalised, so a significand >= 2 has its leading bit one place above its
// scale); c at scale 2^ec. The anchor E is the largest scale among the nonzero
// terms; every term is truncated toward zero (sign-magnitude) at 2^(E-25)
// -- 24 + `extra_bits` (2) bits below the anchor's units bit -- the truncated
// terms are summed exactly and the sum truncated (RZ) to FP32.
// `scales[k]` = ea + eb of product k (ignored where the product is zero).
inline float scaled_truncated_sum(float c, const std::vector<double>& products, const std::vector<int>& scales,
                                  int extra_bits = 2) {
  int anchor = std::numeric_limits<int>::min();
  for (std::size_t k = 0; k < products.size(); ++k)
    if (products[k] != 0.0) anchor = std::max(anchor, scales[k]);
  if (c != 0.0f) anchor = std::max(anchor, std::ilogb(c));
  if (anchor == std::numeric_limits<int>::min()) return c;
  const double quantum = std::ldexp(1.0, anchor - 23 - extra_bits);
  double sum = std::trunc(static_cast<double>(c) / quantum) * quantum;
  for (double p : products) sum += std::trunc(p / quantum) * quantum;  // exact: <= 28 bits per term
  return to_float_rz(sum);
}

// (i): FP16 arithmetic throughout (products and sums rounded to FP16), the
// paper's d_HALF; an FP16 result widened to float.
float half_arithmetic(float c, const std::vector<double>& products);

struct Model {
  std::string name;
  // products[k] = a_k b_k; scales[k] = ilogb(a_k) + ilogb(b_k) (only the
  // scaled model looks at it)
  float (*predict)(float c, const std::vector<double>& products, const std::vector<int>& scales);
};

// Every candidate, in the order the report lists them.
std::vector<Model> all_models();

// Significant bits of `got` that agree with `exact` (24 for equality, fewer as
// the relative error grows; 0 when not even the sign/magnitude agree).
inline double agreeing_bits(float got, double exact) {
  if (static_cast<double>(got) == exact) return 24.0;
  if (exact == 0.0 || !std::isfinite(got)) return 0.0;
  const double rel = std::fabs(static_cast<double>(got) - exact) / std::fabs(exact);
  return std::clamp(-std::log2(rel), 0.0, 24.0);
}

}  // namespace egemm::profile
