// Precision policies: empty tag types that choose how an FP32 product is
// computed, and a traits class that says what each one does.
//
// Tags carry nothing at run time. Everything a caller, a test or a benchmark
// needs to know about a tag (how operands are split, which piece products are
// formed, how they are accumulated, how accurate the split is, which inputs it
// covers) lives in policy_traits<Tag>, so code enumerates `all_policies`
// instead of naming tags.
#pragma once

#include <cstdint>
#include <limits>
#include <tuple>
#include <type_traits>

namespace egemm {

// --- the tags ----------------------------------------------------------------

// Default. FP16 hi + FP16 lo (lo scaled by 2^11 so it stays normal, Ootomo),
// three products; the hi*hi sum of every k-step is added to an FP32 register
// with a round-to-nearest add, so the tensor core's truncating accumulation
// never spans more than one k-step. Rows of A and columns of B are scaled by
// powers of two into FP16's range, so any finite FP32 input is accepted.
struct EmulatedFP32 {};

// The EGEMM-TC paper's Algorithm 1: round-split into FP16 hi/lo and four
// products lo*lo, lo*hi, hi*lo, hi*hi accumulated in one FP32 accumulator.
struct RoundSplit4 {};

// Markidis et al.: hi = FP16 truncation of x, lo = FP16(x - hi), four products.
struct TruncateSplit4 {};

// Plain FP16 inputs (round to nearest), FP32 accumulation: one product.
struct Half {};

// No emulation: the ordinary FP32 gemm (SIMT on the GPU, stock KokkosBlas::gemm).
struct NativeFP32 {};

// Full FP32 exponent range without scaling: TF32 big + TF32 small pieces,
// three products big*big, big*small, small*big (Ootomo; CUTLASS's 3xTF32),
// main term folded per k-step like EmulatedFP32. What EmulatedFP32 switches to
// when a row's dynamic range is too wide for its scaled FP16 pieces.
struct FullRangeTF32x3 {};

// Integer slices (Ozaki's scheme on INT8 tensor cores): each row of A and
// column of B scaled by a power of two so that its largest element fills 23
// bits, rounded to an integer and cut into three signed 8-bit digits; six
// INT8 products (the digit pairs of weight 2^-16 and above) summed exactly in
// int32, one rounding at the end. INT8 tensor cores do twice the operations
// of FP16 ones per clock and per joule. Accurate to about 2^-24 of each row's
// largest element: better than FP32 on rows of similar magnitudes, worse on
// rows whose elements spread over many powers of two (EmulatedFP32 keeps 22
// bits of every element). Depths beyond int8_slices_max_depth run EmulatedFP32.
struct Int8Slices {};

// FP32's accuracy in norm, at INT8 speed where the data allows it: Int8Slices'
// digits when every row of op(A) and column of op(B) is narrow enough
// (numerics::int8_digits_hold_row: the row's 2^e / mean|x| at most
// sqrt(k) / 10) and the two operands' column sums show the digits' error at
// most ~0.75x FP32's in norm (numerics::int8_digits_hold_product: where a
// row's small elements meet the other operand's mass and its large ones
// meet zeros, however they lie along k) and at least 64 entries of C carry
// its norm (numerics::int8_norm_spread_over_entries), EmulatedFP32
// otherwise; chosen per call from the digits' own statistics (on the GPU,
// on the device).
// Normwise, not entry by entry: an element 2^s below its row's largest keeps
// ~24 - s bits (EmulatedFP32 keeps 22 of every element; docs/numerics.md,
// section 8). On the GPU, products where the route cannot pay for itself
// (model/normwise_route.hpp: below 4096^3 for square ones) run EmulatedFP32
// directly, as EmulatedFP32 hands tiny ones to SGEMM.
struct NormwiseFP32 {};

// Double precision (double in, double out) on the INT8 tensor cores: Ozaki
// scheme II. Each row of op(A) and column of op(B) is scaled by a power of
// two and rounded to an integer (its 2-norm at most 2^beta), the integers'
// product is formed exactly from its residues modulo N pairwise coprime
// moduli <= 256 (one INT8 product per modulus, exact int32 sums) and put
// back together by the Chinese remainder theorem in exact integer
// arithmetic, then rounded once to double (egemm/numerics/crt_moduli.hpp,
// docs/numerics.md, section 9). Error normwise below DGEMM's on rows of
// similar magnitudes; entries of rows and columns whose values spread too
// far, hold Inf/NaN or may overflow are compensated float64 sums, at least
// as accurate as DGEMM's (numerics/float64_sum.hpp); on the GPU, shapes
// below 4096 run cuBLAS DGEMM (egemm::emulated_fp64_uses_tensor_cores).
struct EmulatedFP64 {};

// The FP32 tags (float in, float out). Code that enumerates tags to run
// float gemms iterates this list; all_fp64_policies holds the double ones.
using all_policies =
    std::tuple<EmulatedFP32, RoundSplit4, TruncateSplit4, Half, NativeFP32, FullRangeTF32x3, Int8Slices, NormwiseFP32>;
using all_fp32_policies = all_policies;
using all_fp64_policies = std::tuple<EmulatedFP64>;


// --- what a tag means ----------------------------------------------------------

enum class PolicyId : std::uint8_t {
  emulated_fp32,
  round_split4,
  truncate_split4,
  half,
  native_fp32,
  full_range_tf32x3,
  int8_slices,
  normwise_fp32,
  emulated_fp64
};

// How one FP32 value becomes its pieces.
enum class SplitRule : std::uint8_t {
  none,            // the value itself (NativeFP32)
  round_hi_only,   // hi = RN_fp16(x)                         (Half)
  round,           // hi = RN_fp16(x),  lo = RN_fp16(x - hi)           (paper)
  truncate,        // hi = RZ_fp16(x),  lo = RN_fp16(x - hi)           (Markidis)
  round_scaled_lo, // hi = RN_fp16(x),  lo = RN_fp16((x - hi) * 2^11)  (Ootomo)
  tf32,            // hi = RN_tf32(x),  lo = RN_tf32(x - hi)           (3xTF32)
  int8_digits,     // N = RN(x * 2^(23 - e)) = hi 2^16 + lo 2^8 + lowest, signed 8-bit digits (Int8Slices)
  crt_residues     // N = RN(x * 2^s), its int8 residues modulo the CRT moduli (EmulatedFP64)
};

enum class Piece : std::uint8_t { hi, lo, lowest };  // lowest: the third digit (Int8Slices)

// One tensor-core product of a piece of A with a piece of B, and the
// accumulator it goes to (0: main, 1: correction, weighted by 2^-lo_scale_log2;
// Int8Slices: sum s weighted by 2^(-8 s)).
struct ProductTerm {
  Piece a;
  Piece b;
  int accumulator;
};

template <class Policy>
struct policy_traits;  // undefined: not a policy

namespace detail {

inline constexpr int exact = -1000;  // log2 of an error term that does not exist

// What most tags share; each specialisation below states only where it differs.
struct traits_defaults {
  using value_type = float;  // the element type of A, B and C
  static constexpr bool emulated = true;
  static constexpr bool integer_sums = false;  // int32 sums of integer digits (Int8Slices)
  static constexpr int lo_scale_log2 = 0;
  static constexpr bool fold_main_each_k_step = false;
  static constexpr bool scales_rows_and_columns = false;
  static constexpr int dropped_product_log2 = exact;
  static constexpr float max_abs_input = 65504.0f;  // FP16's largest finite value
};

// The paper's four piece products into one accumulator, in its order.
struct four_products : traits_defaults {
  static constexpr int pieces_per_operand = 2;
  static constexpr int products = 4;
  static constexpr ProductTerm terms[products] = {
      {Piece::lo, Piece::lo, 0}, {Piece::lo, Piece::hi, 0}, {Piece::hi, Piece::lo, 0}, {Piece::hi, Piece::hi, 0}};
  static constexpr int absolute_floor_log2 = -25;  // lo becomes FP16-subnormal below |x| ~ 2^-3
};

// hi*hi folded into FP32 every k-step, hi*lo + lo*hi in a correction
// accumulator, lo*lo (at most 2^-22 |ab|) dropped.
struct three_products_folded : traits_defaults {
  static constexpr int pieces_per_operand = 2;
  static constexpr int products = 3;
  static constexpr ProductTerm terms[products] = {{Piece::hi, Piece::hi, 0}, {Piece::hi, Piece::lo, 1}, {Piece::lo, Piece::hi, 1}};
  static constexpr bool fold_main_each_k_step = true;
  static constexpr int representation_error_log2 = -22;
  static constexpr int dropped_product_log2 = -22;
};

struct one_product : traits_defaults {
  static constexpr int pieces_per_operand = 1;
  static constexpr int products = 1;
  static constexpr ProductTerm terms[products] = {{Piece::hi, Piece::hi, 0}};
};

}  // namespace detail

// Field by field: id and name; split rule; pieces_per_operand, products,
// terms (which pieces, which accumulator); lo_scale_log2 (lo stored times
// 2^lo_scale_log2, the correction accumulator weighted back by its inverse);
// fold_main_each_k_step; scales_rows_and_columns (power-of-two row/column
// scaling into FP16's range). Error model, for docs and tests:
// |x - (hi + lo)| <= 2^representation_error_log2 |x| + 2^absolute_floor_log2
// (in the scaled domain when rows are scaled), the dropped products are at
// most 2^dropped_product_log2 |ab|, inputs up to max_abs_input.

template <>
struct policy_traits<EmulatedFP32> : detail::three_products_folded {
  static constexpr PolicyId id = PolicyId::emulated_fp32;
  static constexpr const char* name = "EmulatedFP32";
  static constexpr const char* summary = "FP16 hi + 2^11-scaled lo, 3 products, per-k-step RN fold, row/col scaling";
  static constexpr SplitRule split = SplitRule::round_scaled_lo;
  static constexpr int lo_scale_log2 = 11;
  static constexpr bool scales_rows_and_columns = true;
  static constexpr int absolute_floor_log2 = -36;  // relative to a row maximum in [2^14, 2^15)
  static constexpr float max_abs_input = std::numeric_limits<float>::max();
};

template <>
struct policy_traits<RoundSplit4> : detail::four_products {
  static constexpr PolicyId id = PolicyId::round_split4;
  static constexpr const char* name = "RoundSplit4";
  static constexpr const char* summary = "EGEMM-TC Algorithm 1: FP16 round-split, 4 products, one accumulator";
  static constexpr SplitRule split = SplitRule::round;
  static constexpr int representation_error_log2 = -22;
};

template <>
struct policy_traits<TruncateSplit4> : detail::four_products {
  static constexpr PolicyId id = PolicyId::truncate_split4;
  static constexpr const char* name = "TruncateSplit4";
  static constexpr const char* summary = "Markidis: FP16 truncate-split, 4 products, one accumulator";
  static constexpr SplitRule split = SplitRule::truncate;
  static constexpr int representation_error_log2 = -21;  // one bit less than round-split
};

template <>
struct policy_traits<Half> : detail::one_product {
  static constexpr PolicyId id = PolicyId::half;
  static constexpr const char* name = "Half";
  static constexpr const char* summary = "plain FP16 inputs, FP32 accumulation, 1 product";
  static constexpr SplitRule split = SplitRule::round_hi_only;
  static constexpr int representation_error_log2 = -11;
  static constexpr int absolute_floor_log2 = -25;
};

template <>
struct policy_traits<NativeFP32> : detail::one_product {
  static constexpr PolicyId id = PolicyId::native_fp32;
  static constexpr const char* name = "NativeFP32";
  static constexpr const char* summary = "no emulation: ordinary FP32 gemm";
  static constexpr bool emulated = false;
  static constexpr SplitRule split = SplitRule::none;
  static constexpr int representation_error_log2 = detail::exact;
  static constexpr int absolute_floor_log2 = detail::exact;
  static constexpr float max_abs_input = std::numeric_limits<float>::max();
};

template <>
struct policy_traits<FullRangeTF32x3> : detail::three_products_folded {
  static constexpr PolicyId id = PolicyId::full_range_tf32x3;
  static constexpr const char* name = "FullRangeTF32x3";
  static constexpr const char* summary = "TF32 big + small, 3 products, per-k-step RN fold, full FP32 exponent range";
  static constexpr SplitRule split = SplitRule::tf32;
  static constexpr int absolute_floor_log2 = -137;  // small becomes TF32-subnormal near FP32's smallest normals
  static constexpr float max_abs_input = 0x1.ffcp127f;  // TF32's largest finite value
};

// Int8Slices: the digits of N = RN(x 2^(23 - e)), |N| <= int8_slices_max_scaled
// (0x7F7F7F: every digit, the top one included, within [-127, 127] after
// the two lower ones take [-128, 127]), e the row's exponent
// (numerics/int8_digits.hpp). Sums of products of weight 2^-16 and above:
// d0 d0 (sum 0), d0 d1 + d1 d0 (sum 1), d1 d1 + d0 d2 + d2 d0 (sum 2).
// Three products of at most 2^14 per value of k: a sum stays an exact int32
// up to int8_slices_max_depth values of k (a multiple of the 128-value k-tile).
inline constexpr int int8_slices_max_scaled = 0x7F7F7F;
inline constexpr long long int8_slices_max_depth = (0x7FFFFFFFLL / (3LL << 14)) / 128 * 128;  // 43648

template <>
struct policy_traits<Int8Slices> : detail::traits_defaults {
  static constexpr PolicyId id = PolicyId::int8_slices;
  static constexpr const char* name = "Int8Slices";
  static constexpr const char* summary = "3 signed 8-bit digits a value, 6 INT8 products, exact int32 sums, row/col scaling";
  static constexpr SplitRule split = SplitRule::int8_digits;
  static constexpr bool integer_sums = true;
  static constexpr int pieces_per_operand = 3;
  static constexpr int products = 6;
  static constexpr ProductTerm terms[products] = {{Piece::hi, Piece::hi, 0},     {Piece::hi, Piece::lo, 1},
                                                   {Piece::lo, Piece::hi, 1},     {Piece::lo, Piece::lo, 2},
                                                   {Piece::hi, Piece::lowest, 2}, {Piece::lowest, Piece::hi, 2}};
  static constexpr int digit_bits = 8;  // sum s weighs 2^(-digit_bits s)
  static constexpr bool scales_rows_and_columns = true;
  static constexpr int representation_error_log2 = detail::exact;  // the error is absolute, below
  static constexpr int absolute_floor_log2 = -24;  // |x - N 2^(e - 23)| <= 2^(e - 24), 2^e above the row's maximum
  static constexpr float max_abs_input = std::numeric_limits<float>::max();
};

// NormwiseFP32 runs one of two policies per call; its traits are those of
// the one it falls back to (tests and tools ask which runs: normwise_fp32_path).
template <>
struct policy_traits<NormwiseFP32> : policy_traits<EmulatedFP32> {
  static constexpr PolicyId id = PolicyId::normwise_fp32;
  static constexpr const char* name = "NormwiseFP32";
  static constexpr const char* summary = "Int8Slices where every row's digits match FP32 normwise, else EmulatedFP32";
};

// EmulatedFP64: double operands; the moduli, the scaling and the choice of
// their number live in numerics/crt_moduli.hpp. No piece terms: one INT8
// product per modulus, residue of A times residue of B.
template <>
struct policy_traits<EmulatedFP64> {
  using value_type = double;
  static constexpr PolicyId id = PolicyId::emulated_fp64;
  static constexpr const char* name = "EmulatedFP64";
  static constexpr const char* summary = "Ozaki scheme II: CRT residues mod N coprime moduli <= 256, INT8 products, exact CRT";
  static constexpr bool emulated = true;
  static constexpr SplitRule split = SplitRule::crt_residues;
  static constexpr bool integer_sums = true;
  static constexpr bool scales_rows_and_columns = true;
  static constexpr int moduli = 15;     // INT8 products per call (EGEMM_FP64_MODULI overrides, 8..16)
  static constexpr int norm_bits = 57;  // beta: every scaled row's 2-norm at most 2^57
  static constexpr double max_abs_input = std::numeric_limits<double>::max();
};

// Whether term i of Traits is the first to write its accumulator (where a
// tensor-core sum starts afresh instead of adding to the old value).
template <class Traits>
constexpr bool starts_accumulator(int i) {
  for (int j = 0; j < i; ++j)
    if (Traits::terms[j].accumulator == Traits::terms[i].accumulator) return false;
  return true;
}

template <class T, class = void>
struct is_policy : std::false_type {};
template <class T>
struct is_policy<T, std::void_t<decltype(policy_traits<T>::id)>> : std::true_type {};
template <class T>
inline constexpr bool is_policy_v = is_policy<std::remove_cv_t<std::remove_reference_t<T>>>::value;

// Whether Policy is a tag for operands of type T (float: the FP32 tags;
// double: EmulatedFP64). The gemm overloads take only these pairs.
template <class Policy, class T, class = void>
struct is_policy_for : std::false_type {};
template <class Policy, class T>
struct is_policy_for<Policy, T, std::enable_if_t<is_policy_v<Policy>>>
    : std::is_same<typename policy_traits<std::remove_cv_t<std::remove_reference_t<Policy>>>::value_type, T> {};
template <class Policy, class T>
inline constexpr bool is_policy_for_v = is_policy_for<Policy, T>::value;

// Calls f(Policy{}) for every policy in all_policies.
template <class F>
constexpr void for_each_policy(F&& f) {
  std::apply([&](auto... tag) { (f(tag), ...); }, all_policies{});
}

// Calls f(Policy{}) for every double-precision policy (all_fp64_policies).
template <class F>
constexpr void for_each_fp64_policy(F&& f) {
  std::apply([&](auto... tag) { (f(tag), ...); }, all_fp64_policies{});
}

// The name of a run-time policy id (for logs, tables and errors).
constexpr const char* policy_name(PolicyId id) {
  const char* found = "unknown";
  const auto look = [&](auto tag) {
    if (policy_traits<decltype(tag)>::id == id) found = policy_traits<decltype(tag)>::name;
  };
  for_each_policy(look);
  for_each_fp64_policy(look);
  return found;
}

}  // namespace egemm
