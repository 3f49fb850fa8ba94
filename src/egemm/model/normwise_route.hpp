// Where NormwiseFP32's route to the digits pays on the GPU: its cost against
// the digits' gain over EmulatedFP32.
//
// The route adds to a call (an H100, session 20, run 4, 8192^3): the
// digits' split writing each 32-row panel's column sums (+69 us on 477), and
// the kernel that sums them per depth index (252 us): a few dozen blocks,
// each thread walking every row panel of op(A) and op(B) in order, about
// 0.5 us a row panel however deep k is. The digits run the gemm ~10% faster
// than EmulatedFP32 (Int8Slices against EmulatedFP32, sessions 17-19). With
// the call's time 2 m n k / R (R ~ 220 TFLOP/s), the walk costs
//   0.5 us (m + n) / 32  /  (2 m n k / R)  ~  1.7e6 (m + n) / (m n k)
// of it, which is at most ~5% (the split's share and the other launches
// take the rest of the gain) where m n k / (m + n) >= 2^25: 8192^3 (4.34x
// SGEMM against EmulatedFP32's ~4.1x), deeper or larger products, (4N, N, N)
// from N = 8192. Below it (4096^3 measured 3.33x against ~3.5x) the GPU runs
// EmulatedFP32 directly. This follows the walk's latency, not a law of the
// route: a wider walk would move the line (docs/performance.md).
#pragma once

#include "egemm/gemm_args.hpp"

namespace egemm::model {

inline constexpr double normwise_route_min_intensity = 0x1p25;  // m n k / (m + n)

inline bool normwise_route_pays(index_t m, index_t n, index_t k) {
  if (m <= 0 || n <= 0 || k <= 0) return false;
  const double dm = static_cast<double>(m), dn = static_cast<double>(n);
  return dm * dn * static_cast<double>(k) >= normwise_route_min_intensity * (dm + dn);
}

}  // namespace egemm::model
