// When EmulatedFP32 on the tensor cores beats FP32 SGEMM: a two-term cost
// model, the part of the analytic model that picks the path per call.
//
// The emulation does the product `emulation_speedup` times faster than SGEMM
// but first streams every element of op(A) and op(B) through the split:
// ~16 bytes of DRAM traffic each (row statistics read 4, split read 4, FP16
// hi + lo written 4, read back by the gemm at least once 4). Per call,
//   t_sgemm     = 2 m n k / R
//   t_emulation = 2 m n k / (s R) + 16 (m + n) k / BW
// k cancels (both the saving and the split grow with it), so emulation pays
// exactly when the harmonic-mean-like size m n / (m + n) exceeds
//   h* = 8 R s / ((s - 1) BW).
// On an H100 (R = 51 TFLOP/s, BW = 3.35 TB/s, s = 1.68 for the mma.sync
// kernel) h* is about 300: square C from ~600 up, never when one side is 64
// (the kMeans distance gemm: 64 centroids x 32768 points ran at 0.4x SGEMM,
// perf_tests/results/2026-11-22-h100-final.md). The one-wave rule (a C too
// small to occupy every SM) is the other half of the decision; it lives with
// the kernel, which knows its tile.
#pragma once

#include <limits>

#include "egemm/gemm_args.hpp"

namespace egemm::model {

struct CrossoverModel {
  double sgemm_flop_per_s = 0;          // cuBLAS SGEMM's large-size rate on the device
  double memory_bytes_per_s = 0;        // DRAM bandwidth
  double emulation_speedup = 1;         // the emulation kernel's large-size rate / SGEMM's
  double split_bytes_per_element = 16;  // DRAM traffic per element of op(A) and op(B) (see above)
};

inline double sgemm_seconds(const CrossoverModel& d, index_t m, index_t n, index_t k) {
  return 2.0 * static_cast<double>(m) * static_cast<double>(n) * static_cast<double>(k) / d.sgemm_flop_per_s;
}

inline double emulation_seconds(const CrossoverModel& d, index_t m, index_t n, index_t k) {
  const double split = d.split_bytes_per_element * static_cast<double>(m + n) * static_cast<double>(k);
  return sgemm_seconds(d, m, n, k) / d.emulation_speedup + split / d.memory_bytes_per_s;
}

// The size h* above which m n / (m + n) must lie; infinite when the kernel is
// no faster than SGEMM.
inline double crossover_size(const CrossoverModel& d) {
  if (d.emulation_speedup <= 1.0) return std::numeric_limits<double>::infinity();
  return d.split_bytes_per_element / 2.0 * d.sgemm_flop_per_s * d.emulation_speedup /
         ((d.emulation_speedup - 1.0) * d.memory_bytes_per_s);
}

inline bool emulation_pays(const CrossoverModel& d, index_t m, index_t n, index_t k) {
  return m > 0 && n > 0 && k > 0 && emulation_seconds(d, m, n, k) < sgemm_seconds(d, m, n, k);
}

}  // namespace egemm::model
