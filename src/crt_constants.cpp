// EmulatedFP64's reconstruction constants (numerics/crt_moduli.hpp), computed exactly in 128-bit integers.
#include <math.h>

#include <cstdlib>
#include <string>

#include "egemm/errors.hpp"
#include "egemm/numerics/crt_moduli.hpp"
#include "egemm/policy.hpp"

namespace egemm::numerics::crt {

static_assert(policy_traits<EmulatedFP64>::moduli == default_moduli &&
                  policy_traits<EmulatedFP64>::norm_bits == norm_bits(default_moduli),
              "EmulatedFP64's traits state the arithmetic's defaults");

namespace {

using u128 = unsigned __int128;

// x^-1 mod m for x coprime to m (extended Euclid on small numbers).
long long inverse_mod(long long x, long long m) {
  long long a = x % m, b = m, u = 1, v = 0;
  while (b != 0) {
    const long long t = a / b;
    a -= t * b;
    u -= t * v;
    long long s = a;
    a = b;
    b = s;
    s = u;
    u = v;
    v = s;
  }
  return ((u % m) + m) % m;
}

void to_limbs(u128 v, uint32_t out[4]) {
  for (int j = 0; j < 4; ++j) out[j] = static_cast<uint32_t>(v >> (32 * j));
}

// floor(2^24 w / M) for w < M < 2^126, by long division (2^24 w may not fit 128 bits).
uint32_t scaled_fraction(u128 w, u128 M) {
  uint32_t q = 0;
  for (int bit = 0; bit < 24; ++bit) {
    w <<= 1;  // < 2M < 2^127
    q <<= 1;
    if (w >= M) {
      w -= M;
      q |= 1;
    }
  }
  return q;
}

}  // namespace

Constants make_constants(int moduli) {
  if (moduli < min_moduli || moduli > max_moduli)
    throw invalid_argument("EmulatedFP64: the number of moduli must be in [8, 16], got " + std::to_string(moduli));
  Constants c{};
  c.moduli = moduli;
  c.beta = norm_bits(moduli);
  u128 M = 1;
  for (int l = 0; l < moduli; ++l) M *= static_cast<u128>(modulus(l));
  to_limbs(-M, c.neg_m);  // 2^128 - M
  for (int l = 0; l < moduli; ++l) {
    const long long m = modulus(l);
    const u128 Ml = M / static_cast<u128>(m);
    const long long y = inverse_mod(static_cast<long long>(Ml % static_cast<u128>(m)), m);
    const u128 w = (Ml * static_cast<u128>(y)) % M;  // Ml y < (M / m) m = M < 2^126
    to_limbs(w, c.w[l]);
    c.w_over_m[l] = scaled_fraction(w, M);
  }
  for (int l = moduli; l < max_moduli; ++l) c.w_over_m[l] = 0;
  return c;
}

int moduli_for_calls() {
  static const int moduli = [] {
    const char* v = std::getenv("EGEMM_FP64_MODULI");
    if (v == nullptr || *v == '\0') return default_moduli;
    char* end = nullptr;
    const long n = std::strtol(v, &end, 10);
    if (*end != '\0' || n < min_moduli || n > max_moduli)
      throw invalid_argument(std::string("EGEMM_FP64_MODULI must be an integer in [8, 16], got '") + v + "'");
    return static_cast<int>(n);
  }();
  return moduli;
}

}  // namespace egemm::numerics::crt
