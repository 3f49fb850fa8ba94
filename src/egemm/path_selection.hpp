// How EmulatedFP32 picks its path per call, from statistics the split pass
// gathers anyway (each row's largest and smallest nonzero finite magnitude).
//
// The scaled FP16 path maps a row's largest magnitude into [2^14, 2^15); an
// element keeps all 22 bits of its split while it stays an FP16 normal
// there, i.e. while it is at least 2^-28..2^-29 of its row's largest. A row
// with a wider spread would lose low-order bits of its small elements, which
// can matter when they meet large elements of the other operand, so such
// calls take the TF32 path (FP32's exponent range in every piece, half the
// tensor-core rate of FP16). Magnitudes beyond TF32's largest finite value
// (within 2^-11 of FLT_MAX) take native FP32. The rule never trades accuracy
// for speed: every path it picks is at least as accurate as FP32 SIMT.
#pragma once

#include <cstdint>

#include "egemm/config.hpp"
#include "egemm/gemm_args.hpp"
#include "egemm/numerics/split.hpp"
#include "egemm/numerics/tf32.hpp"

namespace egemm {

enum class EmulationPath : std::uint8_t { fp16_scaled, tf32_full_range, native_fp32 };

constexpr const char* path_name(EmulationPath p) {
  return p == EmulationPath::fp16_scaled ? "fp16_scaled" : p == EmulationPath::tf32_full_range ? "tf32_full_range"
                                                                                              : "native_fp32";
}

// Summary of one row of op(A) or column of op(B) (finite values only).
struct RowRange {
  float max_abs = 0.0f;
  float min_abs_nonzero = 0.0f;  // 0 when the row has no nonzero finite value
};

// All 22 bits of every element survive the scaled FP16 split of this row.
EGEMM_INLINE bool fits_fp16_scaled(RowRange r) {
  if (r.min_abs_nonzero == 0.0f) return true;
  return numerics::scale_by_pow2(r.min_abs_nonzero, -numerics::range_exponent(r.max_abs)) >= 0x1p-14f;
}
EGEMM_INLINE bool fits_tf32(RowRange r) { return r.max_abs <= numerics::tf32_max_finite; }

// Per-operand verdicts, reduced over all rows (columns).
struct OperandRangeVerdict {
  bool fp16_scaled = true;
  bool tf32 = true;
  void add(RowRange r) {
    fp16_scaled = fp16_scaled && fits_fp16_scaled(r);
    tf32 = tf32 && fits_tf32(r);
  }
};

EGEMM_INLINE EmulationPath choose_emulation_path(OperandRangeVerdict a, OperandRangeVerdict b) {
  if (a.fp16_scaled && b.fp16_scaled) return EmulationPath::fp16_scaled;
  if (a.tf32 && b.tf32) return EmulationPath::tf32_full_range;
  return EmulationPath::native_fp32;
}

// The path EmulatedFP32 takes for these operands (host memory), e.g. to
// inspect or test the choice. Validates like egemm::gemm.
EmulationPath emulated_fp32_path(char trans_a, char trans_b, index_t m, index_t n, index_t k, const float* a,
                                 index_t lda, const float* b, index_t ldb);

// The verdict for one operand given as rows (host memory).
OperandRangeVerdict range_verdict(const OperandRows& rows);

}  // namespace egemm
