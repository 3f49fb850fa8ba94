// EmulatedFP64's arithmetic (Ozaki scheme II), shared by the host oracle and
// the CUDA kernels so both compute the same bits: the moduli, each row's
// scaling from exactly reproducible statistics, the integers and their
// int8 residues, and the exact Chinese-remainder reconstruction.
//
// A row x of op(A) (column of op(B)) becomes X = RN(x 2^s), s chosen so that
// ||X||_2 <= 2^beta + sqrt(k) / 2. By Cauchy-Schwarz every entry of the
// integer product satisfies |C'| <= ||X_a|| ||X_b|| < M / 2, M the product
// of the N moduli, so C' is fixed by its residues modulo the moduli, and
// C' mod m_l = sum_p (X_a mod m_l)(X_b mod m_l) mod m_l: one INT8 product per
// modulus (residues in [-128, 127], |products| <= 2^14, exact int32 sums for
// k < 2^17). docs/numerics.md, "EmulatedFP64", has the error analysis.
#pragma once

#include <math.h>
#include <stdint.h>

#include "egemm/config.hpp"

namespace egemm::numerics::crt {

// At most 16 moduli: their product stays below 2^126, so the reconstruction
// works in 128-bit integers.
inline constexpr int max_moduli = 16;
inline constexpr int min_moduli = 8;

// Pairwise coprime, <= 256, largest first (256 = 2^8, 255 = 3 5 17,
// 253 = 11 23, 247 = 13 19, 217 = 7 31, the rest prime).
EGEMM_INLINE constexpr int modulus(int l) {
  switch (l) {
    case 0: return 256;
    case 1: return 255;
    case 2: return 253;
    case 3: return 251;
    case 4: return 247;
    case 5: return 241;
    case 6: return 239;
    case 7: return 233;
    case 8: return 229;
    case 9: return 227;
    case 10: return 223;
    case 11: return 217;
    case 12: return 211;
    case 13: return 199;
    case 14: return 197;
    default: return 193;
  }
}

// Deepest k whose int32 sums of residue products are exact: k 2^14 < 2^31.
inline constexpr long long max_depth = (1LL << 17) - 1;

// The statistics' fixed point: magnitudes of x 2^-E in units of 2^-40 and
// squares of them in units of 2^-20 (squared: units of 2^-40), floored and
// summed as integers, so the sums do not depend on the order they are taken
// in (k < 2^17: sums < 2^57). Taken from x's bits: exact, and the same on
// host and device.
inline constexpr int stat_fraction_bits = 40;

// What the split gathers per row: E with max |x| < 2^E (or none: all zero),
// the fixed-point sums, and whether a value is Inf or NaN.
struct RowStats {
  int exponent;          // E; zero_row_exponent for a row of zeros
  uint64_t squares;      // sum q^2, q = floor(|x| 2^(20 - E))
  uint64_t magnitudes;   // sum floor(|x| 2^(40 - E))
  bool nonfinite;
};

// E of a row without a nonzero finite value.
inline constexpr int zero_row_exponent = -(1 << 20);

// |x| = mant 2^e2 for a finite x (mant < 2^53; subnormals have no implicit bit).
EGEMM_INLINE void decompose(double x, uint64_t& mant, int& e2) {
#if defined(__CUDA_ARCH__)
  const auto bits = static_cast<uint64_t>(__double_as_longlong(x));
#else
  uint64_t bits;
  __builtin_memcpy(&bits, &x, sizeof bits);
#endif
  const int field = static_cast<int>((bits >> 52) & 0x7FF);
  const uint64_t fraction = bits & ((uint64_t(1) << 52) - 1);
  mant = field == 0 ? fraction : fraction | (uint64_t(1) << 52);
  e2 = (field == 0 ? 1 : field) - 1075;
}

// Number of bits of v (0 for 0).
EGEMM_INLINE int bit_length(uint64_t v) {
#if defined(__CUDA_ARCH__)
  return 64 - __clzll(static_cast<long long>(v));
#else
  return v == 0 ? 0 : 64 - __builtin_clzll(v);
#endif
}

// The exponent E of one finite nonzero value: 2^(E-1) <= |x| < 2^E.
EGEMM_INLINE int value_exponent(double x) {
  uint64_t mant;
  int e2;
  decompose(x, mant, e2);
  return e2 + bit_length(mant);
}

// floor(mant 2^shift) for mant < 2^53 (0 where the shift drops every bit).
EGEMM_INLINE uint64_t shifted(uint64_t mant, int shift) {
  if (shift >= 0) return shift >= 63 ? 0 : mant << shift;  // callers keep results below 2^63
  return shift <= -64 ? 0 : mant >> -shift;
}

// One value's contribution to the fixed-point sums, given the row's E (|x| < 2^E).
EGEMM_INLINE void add_to_sums(double x, int row_exponent, uint64_t& squares, uint64_t& magnitudes) {
  uint64_t mant;
  int e2;
  decompose(x, mant, e2);
  const uint64_t m40 = shifted(mant, e2 + stat_fraction_bits - row_exponent);  // < 2^40
  const uint64_t q20 = m40 >> 20;
  squares += q20 * q20;
  magnitudes += m40;
}

// beta: the 2-norm bound of the scaled rows, 2 beta + 2 <= log2 M (so
// (2^beta + sqrt(k)/2)^2 < M / 4 for k < 2^17, beta >= 30), from the
// moduli's product. Index: the number of moduli.
EGEMM_INLINE constexpr int norm_bits(int moduli) {
  switch (moduli) {
    case 8: return 30;
    case 9: return 34;
    case 10: return 38;
    case 11: return 42;
    case 12: return 46;
    case 13: return 50;
    case 14: return 54;
    case 15: return 57;
    case 16: return 61;
    default: return 0;
  }
}

// The row's scale s: X = RN(x 2^s). With q = floor(|x| 2^(20-E)), x^2 2^-2E <
// (q + 1)^2 2^-40, and sum q <= magnitudes / 2^20, so sum x^2 < U 2^(2E - 40)
// with U = squares + 2 (magnitudes >> 20) + k < 2^L (L its bit length):
// ||x|| < 2^(ceil((L - 40)/2) + E), and ||x 2^s|| <= 2^beta with
// s = beta - E - ceil((L - 40) / 2). A zero row: s = 0.
EGEMM_INLINE int row_scale(const RowStats& r, long long k, int beta) {
  if (r.magnitudes == 0) return 0;
  const int L = bit_length(r.squares + 2 * (r.magnitudes >> 20) + static_cast<uint64_t>(k));
  const int half = L - stat_fraction_bits >= 0 ? (L - stat_fraction_bits + 1) / 2 : -((stat_fraction_bits - L) / 2);
  return beta - r.exponent - half;
}

// Whether the row spreads its mass over too few of its values for the
// moduli's norm bound: rho^2 = k ||x||_2^2 / ||x||_1^2 (1 for equal
// magnitudes, 4/3 uniform, pi/2 normal, up to k for one value) above
// 4^spread_log2. Such rows' entries are computed in float64 instead. From
// the fixed-point sums: the same answer on host and device.
EGEMM_INLINE bool row_too_wide(const RowStats& r, long long k, int spread_log2) {
  if (r.nonfinite) return false;  // recomputed anyway
  if (r.magnitudes == 0) return false;  // a zero row (a nonzero one's largest value adds >= 2^39)
  const double lhs = static_cast<double>(k) * static_cast<double>(r.squares) * 0x1p40;  // squares: units of 2^-40
  const double l1 = static_cast<double>(r.magnitudes);
  return lhs > ::ldexp(l1 * l1, 2 * spread_log2);
}

// Whether a product of a row of op(A) and a column of op(B) (exponents
// Ea, Eb) may overflow FP64 in DGEMM's sum: |partial sums| < k 2^(Ea + Eb).
// DGEMM's answer there (Inf, or NaN from Inf - Inf, where the exact sum may
// be finite) is what the entry must be, so such entries are computed with
// float64 fused multiply-adds, as DGEMM does.
EGEMM_INLINE bool products_may_overflow(int ea, int eb, long long k) {
  if (ea == zero_row_exponent || eb == zero_row_exponent) return false;
  return ea + eb + bit_length(static_cast<uint64_t>(k)) > 1023;
}

// X = RN(x 2^s) as a signed integer, |X| <= 2^beta + 1/2 (< 2^62), round
// half to even, from x's bits (exact: no floating-point rounding on the way).
EGEMM_INLINE long long scaled_integer(double x, int s) {
  uint64_t mant;
  int e2;
  decompose(x, mant, e2);
  const int shift = e2 + s;  // X = mant 2^shift
  uint64_t v;
  if (shift >= 0) {
    v = shift >= 63 ? 0 : mant << shift;  // |X| <= 2^62: the shift never drops a bit
  } else if (shift <= -55) {
    v = 0;  // below half a unit
  } else {
    const int r = -shift;
    const uint64_t q = mant >> r;
    const uint64_t rem = mant - (q << r);
    const uint64_t half = uint64_t(1) << (r - 1);
    v = q + ((rem > half || (rem == half && (q & 1u) != 0)) ? 1u : 0u);
  }
  return x < 0 ? -static_cast<long long>(v) : static_cast<long long>(v);
}

// 2^bits mod m.
EGEMM_INLINE constexpr unsigned pow2_mod(int bits, unsigned m) {
  unsigned r = 1;
  for (int i = 0; i < bits; ++i) r = (r * 2u) % m;
  return r;
}

// The residues are read from X's eight bytes, all non-negative digits:
// X = sum_i b_i 2^(8i) - 2^62, with b_0..b_6 X's low seven bytes and b_7 =
// (X >> 56) + 64 in [0, 128] (|X| <= 2^62). As two 32-bit words, b_0..b_3
// and b_4..b_7, they are what a byte dot product (dp4a on the GPU) takes.
struct ResidueWords {
  uint32_t lo, hi;
};

EGEMM_INLINE ResidueWords residue_words(long long X) {
  const auto u = static_cast<unsigned long long>(X);
  // Adding 2^30 to the high word adds 64 to its top byte (X >> 56, in [-64, 64]) and nothing
  // to the bytes below it.
  return {static_cast<uint32_t>(u), static_cast<uint32_t>(u >> 32) + 0x40000000u};
}

// c + sum of the four products of a's and b's bytes (unsigned): one dp4a.
EGEMM_INLINE uint32_t byte_dot(uint32_t a, uint32_t b, uint32_t c) {
#if defined(__CUDA_ARCH__)
  return __dp4a(a, b, c);
#else
  for (int i = 0; i < 32; i += 8) c += ((a >> i) & 0xFFu) * ((b >> i) & 0xFFu);
  return c;
#endif
}

EGEMM_INLINE uint32_t mul_high(uint32_t a, uint32_t b) {
#if defined(__CUDA_ARCH__)
  return __umulhi(a, b);
#else
  return static_cast<uint32_t>((static_cast<uint64_t>(a) * b) >> 32);
#endif
}

// Modulus l's constants for residue_offset: its digits' weights 2^(8i) mod m packed as bytes
// (low word: i = 0..3, high word: i = 4..7), the addend (128 - 2^62) mod m, and
// ceil(2^32 / m) for the remainder by multiplication.
template <int L>
struct ResidueConstants {
  static constexpr unsigned m = static_cast<unsigned>(modulus(L));
  static constexpr uint32_t weights(int first) {
    return pow2_mod(8 * first, m) | (pow2_mod(8 * (first + 1), m) << 8) | (pow2_mod(8 * (first + 2), m) << 16) |
           (pow2_mod(8 * (first + 3), m) << 24);
  }
  static constexpr uint32_t lo_weights = weights(0), hi_weights = weights(4);
  static constexpr uint32_t addend = (128u % m + m - pow2_mod(62, m)) % m;
  static constexpr uint32_t reciprocal = static_cast<uint32_t>(((1ULL << 32) + m - 1) / m);
};

// (X + 128) mod m_l in [0, m_l), from X's words: t = addend + sum_i b_i (2^(8i) mod m) (two
// dp4a; t <= 254 + 254 (7 255 + 128) < 2^19), then t mod m as the high half of
// (ceil(2^32/m) t mod 2^32) m, exact for t < 2^24 and m <= 256 (Lemire, Kaser and Kurz,
// "Faster remainder by direct computation", 2019: 32 >= 24 + log2 m). Four integer operations
// per residue, none a division. 256: the low byte of X + 128.
template <int L>
EGEMM_INLINE uint32_t residue_offset(const ResidueWords& x) {
  using K = ResidueConstants<L>;
  if constexpr (K::m == 256) {
    return (x.lo + 128u) & 0xFFu;
  } else {
    const uint32_t t = byte_dot(x.hi, K::hi_weights, byte_dot(x.lo, K::lo_weights, K::addend));
    return mul_high(K::reciprocal * t, K::m);
  }
}

// X mod m_l as an int8: residue_offset - 128, in [-128, m_l - 129] (its byte is the offset
// residue's with the top bit flipped). Any representative in int8 range serves: the
// reconstruction reduces each product mod m_l again, so C' does not depend on which one.
template <int L>
EGEMM_INLINE signed char residue(const ResidueWords& x) {
  return static_cast<signed char>(static_cast<int>(residue_offset<L>(x)) - 128);
}

template <int L>
EGEMM_INLINE signed char residue(long long X) {
  return residue<L>(residue_words(X));
}

// The reconstruction's constants for N moduli: M (as 4 32-bit limbs, low
// first), 2^128 - M, and per modulus w_l = (M / m_l) ((M / m_l)^-1 mod m_l)
// mod M (w_l = 1 mod m_l, 0 mod the others) in limbs and w_l / M in double.
// Made on the host (make_constants) and passed to the kernels by value.
struct Constants {
  int moduli;
  int beta;
  uint32_t neg_m[4];                 // 2^128 - M
  uint32_t w[max_moduli][4];
  uint32_t w_over_m[max_moduli];     // floor(2^24 w_l / M)
};

// The moduli a call uses: 15 (beta = 57, four bits of margin over DGEMM's
// rounding on rows of similar magnitudes), or EGEMM_FP64_MODULI (8..16;
// fewer than 15 flag every uneven row for float64, docs/numerics.md).
inline constexpr int default_moduli = 15;
int moduli_for_calls();

// The constants for `moduli` moduli (min_moduli..max_moduli), computed
// exactly in 128-bit integers (src/crt_constants.cpp).
Constants make_constants(int moduli);

// Rows may spread their mass this far (row_too_wide) at `moduli` moduli:
// rho <= 2^(beta - 55), so that the moduli's rounding error stays below
// DGEMM's on such rows (docs/numerics.md, "EmulatedFP64").
EGEMM_INLINE constexpr int spread_log2_for(int moduli) {
  return norm_bits(moduli) - 55 > 0 ? norm_bits(moduli) - 55 : 0;
}

// C' from its residues P_l (any integers congruent to C' mod m_l, |P_l| <=
// 2^31 - 2^14, as k < 2^17 keeps them): r_l = P_l mod m_l in [0, m_l);
// S = sum r_l w_l = C' mod M; q = the integer nearest S / M, from
// sum r_l floor(2^24 w_l / M) / 2^24 (short of S / M by less than
// 16 256 2^-24 = 2^-12, and S / M lies within |C'| / M of an integer, at
// most 0.084-0.224 for 8 to 16 moduli, below the 1/2 - 2^-12 the rounding needs: |C'| < 2^(2 beta + 1) <= M / 2^(log2 M - 2 beta - 1)); C' = S - q M
// computed modulo 2^128 (exact: |C'| < 2^126), returned rounded to double
// once (round to nearest even). All integer multiply-adds; the caller's
// loop over l is unrolled, so each m_l is a constant (its remainder a
// multiply, not a division).
struct Accumulator {
  unsigned long long limb[4] = {0, 0, 0, 0};  // sums of r_l w_l's 32-bit limbs: < 16 2^8 2^32 = 2^44
  unsigned long long quotient = 0;            // sum r_l floor(2^24 w_l / M) < 2^36
};

template <int L>
EGEMM_INLINE void accumulate(Accumulator& acc, int P, const Constants& k) {
  constexpr unsigned m = static_cast<unsigned>(modulus(L));
  unsigned r;
  if constexpr (m == 256) {
    r = static_cast<unsigned>(P) & 0xFFu;
  } else {
    // P + a multiple of m that makes it non-negative and stays below 2^32: one unsigned remainder.
    constexpr unsigned offset = (0x80000000u / m) * m;  // > 2^31 - m
    r = (static_cast<unsigned>(P) + offset) % m;
  }
  const auto ru = static_cast<unsigned long long>(r);
  acc.limb[0] += ru * k.w[L][0];
  acc.limb[1] += ru * k.w[L][1];
  acc.limb[2] += ru * k.w[L][2];
  acc.limb[3] += ru * k.w[L][3];
  acc.quotient += ru * k.w_over_m[L];
}

// 2^e for e in FP64's normal range, from its bits.
EGEMM_INLINE double pow2(int e) {
  const auto bits = static_cast<unsigned long long>(e + 1023) << 52;
#if defined(__CUDA_ARCH__)
  return __longlong_as_double(static_cast<long long>(bits));
#else
  double d;
  __builtin_memcpy(&d, &bits, sizeof d);
  return d;
#endif
}

// The same numbers by FP64 multiplication, for the GPU's split (two DMULs and
// one conversion, where the bit forms above take dozens of 64-bit integer
// operations): 2^e as two factors, each in FP64's normal range for |e| <=
// 2044, so that (x first) second = x 2^e exactly wherever |x 2^e| >= 2^-1022
// (where it is smaller, either product may round, but the result stays below
// 2^-1022 and every caller takes its floor or its nearest integer: 0 either
// way). unit_tests/test_emulated_fp64.cpp checks both forms agree.
struct Pow2Pair {
  double first, second;
};

EGEMM_INLINE Pow2Pair pow2_pair(int e) {
  const int half = e / 2;
  return {pow2(half), pow2(e - half)};
}

// scaled_integer(x, s) for a finite x, with f = pow2_pair(s): RN(x 2^s), ties to even (x 2^s
// is exact or below 2^-1022; |x 2^s| <= 2^62 fits the conversion).
EGEMM_INLINE long long scaled_integer(double x, const Pow2Pair& f) {
  const double y = (x * f.first) * f.second;
#if defined(__CUDA_ARCH__)
  return __double2ll_rn(y);
#else
  return static_cast<long long>(::nearbyint(y));  // the default rounding: to nearest, ties to even
#endif
}

// add_to_sums(x, E, ...) for a finite x with |x| < 2^E, with f = pow2_pair(40 - E):
// floor(|x| 2^(40 - E)) (< 2^40) by truncating the scaled magnitude.
EGEMM_INLINE void add_to_sums(double x, const Pow2Pair& f, uint64_t& squares, uint64_t& magnitudes) {
  const double y = (::fabs(x) * f.first) * f.second;
#if defined(__CUDA_ARCH__)
  const uint64_t m40 = __double2ull_rz(y);
#else
  const auto m40 = static_cast<uint64_t>(y);
#endif
  const uint64_t q20 = m40 >> 20;
  squares += q20 * q20;
  magnitudes += m40;
}

// A 128-bit magnitude (4 limbs) rounded to the nearest double: its top 64
// bits with the rest folded into a sticky bit, converted once (64 > 53 + 2
// bits, so the conversion's rounding is the correct one), then scaled.
EGEMM_INLINE double magnitude_to_double(const uint32_t v[4]) {
  const unsigned long long hi = (static_cast<unsigned long long>(v[3]) << 32) | v[2];
  const unsigned long long lo = (static_cast<unsigned long long>(v[1]) << 32) | v[0];
  if (hi == 0) return static_cast<double>(lo);
  const int lz = 64 - bit_length(hi);
  const unsigned long long top = lz == 0 ? hi : (hi << lz) | (lo >> (64 - lz));
  const unsigned long long rest = lz == 0 ? lo : lo << lz;
  const unsigned long long sticky = rest != 0 ? 1ULL : 0ULL;
  return static_cast<double>(top | sticky) * pow2(64 - lz);  // exact: a power of two below 2^65
}

// C' rounded to double.
EGEMM_INLINE double reconstruct(const Accumulator& acc, const Constants& k) {
  const unsigned long long q = (acc.quotient + (1ULL << 23)) >> 24;  // the nearest integer: < 2^12
  unsigned long long t[4];
  for (int j = 0; j < 4; ++j) t[j] = acc.limb[j] + q * k.neg_m[j];  // < 2^44 + 2^44
  uint32_t v[4];
  unsigned long long carry = 0;
  for (int j = 0; j < 4; ++j) {
    const unsigned long long s = t[j] + carry;
    v[j] = static_cast<uint32_t>(s);
    carry = s >> 32;
  }  // the carry out of limb 3 is dropped: arithmetic modulo 2^128
  const bool negative = (v[3] & 0x80000000u) != 0;
  if (negative) {  // two's complement negation
    unsigned long long c = 1;
    for (int j = 0; j < 4; ++j) {
      const unsigned long long s = static_cast<unsigned long long>(static_cast<uint32_t>(~v[j])) + c;
      v[j] = static_cast<uint32_t>(s);
      c = s >> 32;
    }
  }
  const double mag = magnitude_to_double(v);
  return negative ? -mag : mag;
}

// x 2^e for an integer-valued x (|x| in [1, 2^127) or 0): one multiplication
// where 2^e is normal; else through 2^-1000 first (exact for such x), then
// the rest, or past FP64's range (0 or Inf with x's sign). x itself is C'
// already rounded to 53 bits, so a subnormal result may differ from C' 2^e
// correctly rounded by one subnormal ulp (a second rounding); host and GPU agree bit for bit.
EGEMM_INLINE double unscale(double x, int e) {
  if (e >= -1022 && e <= 1023) return x * pow2(e);
  if (e > 1023) return x * pow2(1023) * 2.0;  // |x| >= 1: overflows as the true value does
  const double y = x * pow2(-1000);            // exact: |y| in [2^-1000, 2^-873)
  const int rest = e + 1000;                   // < -22
  if (rest >= -1022) return y * pow2(rest);
  return y * 0.0;  // below 2^-1895: rounds to a zero of x's sign
}

// C = alpha v (beta == 0: C not read), else fma(alpha, v, beta C).
EGEMM_INLINE double alpha_beta(double v, double alpha, double beta, const double* c) {
#if defined(__CUDA_ARCH__)
  if (beta == 0.0) return __dmul_rn(alpha, v);
  return __fma_rn(alpha, v, __dmul_rn(beta, *c));
#else
  if (beta == 0.0) return alpha * v;
  return ::fma(alpha, v, beta * *c);
#endif
}

}  // namespace egemm::numerics::crt
