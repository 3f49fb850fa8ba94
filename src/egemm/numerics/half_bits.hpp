// Bit-exact IEEE binary16 conversions in plain integer arithmetic.
//
// The host fallback and the CUDA split kernels both call these functions, so
// the pieces they produce are identical bit for bit: the host backend can then
// serve as the oracle for the device split (Ginkgo's "reference" idea).
#pragma once

#include <cstdint>
#include <cstring>

#include "egemm/config.hpp"

#if defined(__CUDACC__)
#include <cuda_fp16.h>
#endif

namespace egemm::numerics {

EGEMM_INLINE std::uint32_t float_bits(float x) {
#if defined(__CUDA_ARCH__)
  return __float_as_uint(x);
#else
  std::uint32_t u;
  std::memcpy(&u, &x, sizeof u);
  return u;
#endif
}

EGEMM_INLINE float bits_to_float(std::uint32_t u) {
#if defined(__CUDA_ARCH__)
  return __uint_as_float(u);
#else
  float x;
  std::memcpy(&x, &u, sizeof x);
  return x;
#endif
}

EGEMM_INLINE bool is_finite(float x) { return (float_bits(x) & 0x7f800000u) != 0x7f800000u; }

inline constexpr std::uint16_t half_positive_infinity = 0x7c00;
inline constexpr std::uint16_t half_max_finite = 0x7bff;  // 65504

enum class HalfRounding { nearest_even, toward_zero };

// float -> binary16 with the given rounding; NaN stays NaN (quiet), Inf stays Inf.
// Matches __float2half_rn / __float2half_rz, including subnormal results.
EGEMM_INLINE std::uint16_t float_to_half_bits(float x, HalfRounding rounding) {
#if defined(__CUDA_ARCH__)
  // The conversion instruction rounds finite values exactly as below (IEEE,
  // subnormal halves included, RZ overflow to 65504) in one instruction
  // instead of ~25 branchy ones; NaN goes the long way to keep its payload.
  if (is_finite(x))
    return __half_as_ushort(rounding == HalfRounding::nearest_even ? __float2half_rn(x) : __float2half_rz(x));
#endif
  const std::uint32_t u = float_bits(x);
  const std::uint32_t sign = (u >> 16) & 0x8000u;
  const std::uint32_t ax = u & 0x7fffffffu;
  const bool nearest = rounding == HalfRounding::nearest_even;

  if (ax >= 0x7f800000u) {  // Inf or NaN
    return static_cast<std::uint16_t>(sign | 0x7c00u | (ax > 0x7f800000u ? 0x200u | ((ax >> 13) & 0x3ffu) : 0u));
  }
  if (nearest && ax >= 0x477ff000u) return static_cast<std::uint16_t>(sign | 0x7c00u);  // >= 65520 rounds to Inf
  if (!nearest && ax >= 0x47800000u) return static_cast<std::uint16_t>(sign | half_max_finite);
  if (ax < 0x38800000u) {  // below 2^-14: a subnormal half (or zero)
    if (ax < 0x33000000u) return static_cast<std::uint16_t>(sign);  // below 2^-25
    const std::uint32_t exponent = ax >> 23;
    const std::uint32_t mantissa = (ax & 0x7fffffu) | 0x800000u;
    const std::uint32_t shift = 126u - exponent;  // value * 2^24 = mantissa >> shift
    std::uint32_t q = mantissa >> shift;
    const std::uint32_t rest = mantissa & ((1u << shift) - 1u);
    const std::uint32_t tie = 1u << (shift - 1u);
    if (nearest && (rest > tie || (rest == tie && (q & 1u)))) ++q;
    return static_cast<std::uint16_t>(sign | q);
  }
  std::uint32_t h = (ax - 0x38000000u) >> 13;  // rebias 127 -> 15, drop 13 mantissa bits
  const std::uint32_t rest = ax & 0x1fffu;
  if (nearest && (rest > 0x1000u || (rest == 0x1000u && (h & 1u)))) ++h;  // a carry into the exponent is right
  return static_cast<std::uint16_t>(sign | h);
}

// binary16 -> float, exact for every input.
EGEMM_INLINE float half_bits_to_float(std::uint16_t h) {
#if defined(__CUDA_ARCH__)
  if ((h & 0x7c00u) != 0x7c00u) return __half2float(__ushort_as_half(h));  // exact for every finite half
#endif
  const std::uint32_t sign = static_cast<std::uint32_t>(h & 0x8000u) << 16;
  const std::uint32_t exponent = (h >> 10) & 0x1fu;
  std::uint32_t mantissa = h & 0x3ffu;
  if (exponent == 0x1fu) return bits_to_float(sign | 0x7f800000u | (mantissa << 13));
  if (exponent != 0) return bits_to_float(sign | ((exponent + 112u) << 23) | (mantissa << 13));
  if (mantissa == 0) return bits_to_float(sign);
  int e = 113;  // normalise the subnormal: value = mantissa * 2^-24
  while ((mantissa & 0x400u) == 0) {
    mantissa <<= 1;
    --e;
  }
  return bits_to_float(sign | (static_cast<std::uint32_t>(e) << 23) | ((mantissa & 0x3ffu) << 13));
}

EGEMM_INLINE float round_to_half(float x, HalfRounding rounding = HalfRounding::nearest_even) {
  return half_bits_to_float(float_to_half_bits(x, rounding));
}


}  // namespace egemm::numerics
