// Where NormwiseFP32's route to the digits pays on the GPU: its cost against
// the digits' gain over EmulatedFP32.
//
// The digits run the gemm 9-14% faster than EmulatedFP32 from 4096^3 up
// (Int8Slices against EmulatedFP32; at 2048^3 not at all). The route costs
// the column sums, written by the split and read back by the cross kernel:
// (m + n) k / 32 entries, bytes that grow like the operands' against the
// gemm's m n k, so a share of the call that goes like 1 / h with
// h = m n / (m + n); and a few fixed costs (EmulatedFP32's gated sequence
// starting and leaving, the launches: ~15 us at 4096^3) that a shallow
// product does not repay. Hence two conditions: h >= 2^11 and
// h k = m n k / (m + n) >= 2^23.
//
// Measured with perf_tests/gemm_suite on an H200 (the route forced, against
// EmulatedFP32 in the same run): 2048^3 (h = 1024) -16%, 2048 x 2048 x 4096
// -9%, 2048 x 2048 x 8192 -2%, 8192 x 2048 x 2048 (h = 1638) -3%; 4096^3
// (h = 2048, h k = 2^23) +1.7%, 4096 x 4096 x 8192 +6.6%, 16384 x 4096 x 4096
// +8%, 8192 x 8192 x 2048 (h k = 2^23) +10%, 8192^3 +7.8%; on an H100 (the
// route as decided) 4096^3 184 against 180 TFLOP/s, 4096 x 4096 x 8192 200
// against 187; on another H100 4096^3 182 against 190 in the median and
// 184 against 173 sustained: at the line the margin is within the suite's
// run-to-run spread. Below it the GPU runs EmulatedFP32 directly.
#pragma once

#include "egemm/gemm_args.hpp"

namespace egemm::model {

inline constexpr double normwise_route_min_h = 0x1p11;         // m n / (m + n)
inline constexpr double normwise_route_min_intensity = 0x1p23;  // m n k / (m + n)

inline bool normwise_route_pays(index_t m, index_t n, index_t k) {
  if (m <= 0 || n <= 0 || k <= 0) return false;
  const double dm = static_cast<double>(m), dn = static_cast<double>(n);
  const double h = dm * dn / (dm + dn);
  return h >= normwise_route_min_h && h * static_cast<double>(k) >= normwise_route_min_intensity;
}

}  // namespace egemm::model
