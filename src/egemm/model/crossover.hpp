// When EmulatedFP32 on the tensor cores beats FP32 SGEMM: a small cost model,
// the part of the analytic model that picks the path per call.
//
// The emulation first streams every element of op(A) and op(B) through the
// split: ~16 bytes of DRAM traffic each (the split reads 4 and writes the
// FP16 hi + lo, 4; the gemm reads those back at least once, 4; the model
// charges 4 more, a separate statistics pass's read, which keeps it on the
// cautious side of the crossover: every figure below was fitted with 16). Its kernel
// then runs s_inf times faster than SGEMM on deep products, less on shallow
// ones: each tile also pays a fixed cost (pipeline fill, the epilogue's
// combine and scaling) worth k0 steps of depth, so at depth k it runs
// s(k) = s_inf k / (k + k0) times faster. Per call,
//   t_sgemm     = 2 m n k / R
//   t_emulation = 2 m n k / (s(k) R) + 16 (m + n) k / BW
// Emulation pays when s(k) > 1 and m n / (m + n) exceeds
//   h*(k) = 8 R s(k) / ((s(k) - 1) BW).
// On an H100 (R = 51 TFLOP/s, BW = 3.35 TB/s; the mma.sync kernel alone ran
// 8192^3 in 11.3 ms against SGEMM's 21.96, s_inf = 1.9; k0 = 165 fitted to
// the kNN distance gemm 65536 x 4096 x 128, which ran at 0.81x SGEMM) h* is
// ~270 for deep products (square C from ~540 up), 400 at k = 512, 900 at
// k = 256, and emulation never pays below k ~ 190 or for a 64-row C (kMeans'
// distance gemm ran at 0.4x). The Hopper TMA kernel (s_inf = 3.9, k0 = 525)
// moves h* down to ~170 and the depth floor to k ~ 180 (rates measured with
// perf_tests/gemm_suite on an H100; the backend's per-device rates are in
// backends/cuda/route/crossover_rates.cu; test_crossover_model checks the model).
// A C of few tiles keeps only some of the GPU's block slots busy: with
// `tiles` tiles for `slots` slots the kernel runs in ceil(tiles / slots)
// waves, so at u = tiles / (ceil(tiles / slots) slots) of its rate (the
// kernel, which knows its tile, counts them). On an H200 (132 SMs, one
// 128 x 128 tile each) a 1024 x 1024 C has u = 64 / 132: the model gives
// s(1024) u = 1.25 and the emulation ran at 1.5-1.6x SGEMM's speed; at
// k = 512 (0.94) it ran at 0.85x, 768^3 (u = 36 / 132: 0.63) at 0.94x,
// 512^3 at 0.47x (queued calls, docs/performance.md).
#pragma once

#include <limits>

#include "egemm/gemm_args.hpp"

namespace egemm::model {

struct CrossoverModel {
  double sgemm_flop_per_s = 0;          // cuBLAS SGEMM's large-size rate on the device
  double memory_bytes_per_s = 0;        // DRAM bandwidth
  double emulation_speedup = 1;         // s_inf: the emulation kernel's rate / SGEMM's on deep products
  double depth_overhead = 0;            // k0: a tile's fixed cost in steps of depth
  double split_bytes_per_element = 16;  // DRAM traffic per element of op(A) and op(B) (see above)
};

inline double sgemm_seconds(const CrossoverModel& d, index_t m, index_t n, index_t k) {
  return 2.0 * static_cast<double>(m) * static_cast<double>(n) * static_cast<double>(k) / d.sgemm_flop_per_s;
}

// s(k): the kernel's speedup over SGEMM at depth k.
inline double kernel_speedup(const CrossoverModel& d, index_t k) {
  const double depth = static_cast<double>(k);
  return d.emulation_speedup * depth / (depth + d.depth_overhead);
}

// u: the share of the GPU's block slots the kernel's waves keep busy (1: full waves).
inline double wave_utilisation(index_t tiles, index_t slots) {
  if (tiles <= 0 || slots <= 0) return 0.0;
  const index_t waves = (tiles + slots - 1) / slots;
  return static_cast<double>(tiles) / (static_cast<double>(waves) * static_cast<double>(slots));
}

inline double emulation_seconds(const CrossoverModel& d, index_t m, index_t n, index_t k, double utilisation = 1.0) {
  const double split = d.split_bytes_per_element * static_cast<double>(m + n) * static_cast<double>(k);
  return sgemm_seconds(d, m, n, k) / (kernel_speedup(d, k) * utilisation) + split / d.memory_bytes_per_s;
}

// h*(k): the size m n / (m + n) must exceed; infinite where the kernel is no
// faster than SGEMM at this depth.
inline double crossover_size(const CrossoverModel& d, index_t k) {
  const double s = kernel_speedup(d, k);
  if (s <= 1.0) return std::numeric_limits<double>::infinity();
  return d.split_bytes_per_element / 2.0 * d.sgemm_flop_per_s * s / ((s - 1.0) * d.memory_bytes_per_s);
}

inline bool emulation_pays(const CrossoverModel& d, index_t m, index_t n, index_t k, double utilisation = 1.0) {
  return m > 0 && n > 0 && k > 0 && utilisation > 0.0 &&
         emulation_seconds(d, m, n, k, utilisation) < sgemm_seconds(d, m, n, k);
}

}  // namespace egemm::model
