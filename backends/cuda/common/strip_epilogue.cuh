// The epilogue both fused kernels share: a warp writes C from accumulators in
// the layout that mma.sync m16n8 and wgmma have in common. A strip is a warp's
// 16 rows: lane l holds rows r0 + l/4 and r0 + l/4 + 8 and, per n8 block j,
// columns 8 j + 2 (l % 4) + {0, 1}; entry (j, h, w) is row r0 + l/4 + 8 h,
// column c0 + 8 j + 2 (l % 4) + w. A kernel hands its accumulators over as a
// strip view:
//   static constexpr int n8_blocks;                  // n8 blocks across the strip
//   template <bool AllNormal>                        // entry (j, h, w): its sums combined and
//   float entry(int j, int h, int w, int e) const;   // scaled by 2^e (AllNormal: a normal power)
// (combined_entry for the FP32 sums, numerics::int8_combine for Int8Slices' integers).
// Entries in a row or column with Inf/NaN are left to the special-value pass,
// so it reads the caller's C, not ours.
// The entries go to a sink: StoreToC writes them into C; the Hopper kernel's
// staged epilogue puts them in shared memory for a TMA store
// (sm90/consumer_epilogue.cuh). A sink has
//   template <bool ReadsC>
//   void put(const FusedGemmParams&, float* c, float v, bool written, bool inside, int j, int h, int w);
//   void end_batch(int batch);  // n8 blocks strip_batch * batch .. are all put
// c: the entry's place in C, valid when `inside` (row < m, column < n);
// written: inside and not left to the special-value pass. Every lane of the
// warp (and of its warpgroup) makes the same calls.
#pragma once

#include "backends/cuda/common/fused_gemm_params.hpp"
#include "egemm/numerics/epilogue.hpp"
#include "egemm/numerics/pow2.hpp"
#include "egemm/policy.hpp"

namespace egemm::cuda {

// The strip's two rows per lane: where they are, whether they are written,
// their exponents.
struct StripRows {
  index_t row[2];
  bool inside[2], written[2];
  int exponent[2];
};

// A main and a correction sum combined and scaled by 2^exponent
// (combine_accumulators). AllNormal: 2^exponent is a normal power of two, so
// the unscaling is one multiply, without the test for the out-of-line branch.
template <class Policy, bool AllNormal>
__device__ __forceinline__ float combined_entry(float main, float correction, int exponent) {
  constexpr int lo_scale_log2 = policy_traits<Policy>::lo_scale_log2;
  constexpr bool may_overflow = !policy_traits<Policy>::scales_rows_and_columns;
  return AllNormal ? add_correction<may_overflow>(main, correction, lo_scale_log2) * numerics::pow2_normal(exponent)
                   : combine_accumulators<may_overflow>(main, correction, lo_scale_log2, exponent);
}

// Entries straight into C, alpha/beta applied; those left to the
// special-value pass are not touched.
struct StoreToC {
  template <bool ReadsC>
  __device__ __forceinline__ void put(const FusedGemmParams& p, float* c, float v, bool written, bool, int, int,
                                      int) const {
    if (written) *c = alpha_beta<ReadsC>(v, p.alpha, p.beta, c);
  }
  __device__ __forceinline__ void end_batch(int) const {}
};

// n8 blocks per batch of the walk below: 8 columns a lane (32 a warp), 16
// loads in flight (a batch of 8 spilled in one instance).
inline constexpr int strip_batch = 4;

template <class Policy>
__device__ __forceinline__ StripRows strip_rows(const FusedGemmParams& p, index_t row0, int lane) {
  StripRows rows;
#pragma unroll
  for (int h = 0; h < 2; ++h) {
    rows.row[h] = row0 + h * 8 + lane / 4;
    rows.inside[h] = rows.row[h] < p.m;
    const index_t at = rows.inside[h] ? rows.row[h] : 0;  // clamped: no branch around the loads
    rows.written[h] = rows.inside[h] && __ldg(p.a_nonfinite + at) == 0;
    rows.exponent[h] = policy_traits<Policy>::scales_rows_and_columns ? __ldg(p.a_exponent + at) : 0;
  }
  return rows;
}

// The stores of one batch of n8 blocks (j0..j0 + Batch - 1). AllNormal: every
// entry's exponent is a normal power of two (is_normal_pow2), so the
// unscaling is one multiply (the out-of-line branch's test, with its call
// and reconvergence per entry, had made the epilogue ~34 instructions an entry).
template <bool ReadsC, bool AllNormal, int Batch, class Policy, class Strip, class Sink>
__device__ __forceinline__ void write_batch(const Strip& strip, const FusedGemmParams& p, const StripRows& rows,
                                            index_t col0, int lane, int j0, const bool (&col_written)[Batch][2],
                                            const int (&col_exponent)[Batch][2], const Sink& sink) {
#pragma unroll
  for (int b = 0; b < Batch; ++b)
#pragma unroll
    for (int w = 0; w < 2; ++w) {
      const index_t col = col0 + (j0 + b) * 8 + (lane % 4) * 2 + w;
      const bool col_inside = col < p.n;
      float* c_col = p.c + (col_inside ? col : 0) * p.ldc;
#pragma unroll
      for (int h = 0; h < 2; ++h) {
        const float v = strip.template entry<AllNormal>(j0 + b, h, w, rows.exponent[h] + col_exponent[b][w]);
        sink.template put<ReadsC>(p, c_col + rows.row[h], v, col_written[b][w] && rows.written[h],
                                  col_inside && rows.inside[h], j0 + b, h, w);
      }
    }
}

// One walk over the strip, beta's test outside it. The columns' flags and
// exponents are loaded a batch of n8 blocks at a time (clamped indices past n,
// no branch), all of a batch's loads before any of its predicated stores, so
// that a batch waits for one load latency instead of one per column. (Per-entry
// loads behind branches, and ldexpf inline, made the Hopper kernel's epilogue
// ~17 us a tile at ~47 instructions an entry.)
template <bool ReadsC, class Policy, class Strip, class Sink>
__device__ __forceinline__ void write_strip(const Strip& strip, const FusedGemmParams& p, const StripRows& rows,
                                            index_t col0, int lane, const Sink& sink) {
  constexpr int batch = strip_batch;
  static_assert(Strip::n8_blocks % batch == 0, "whole batches");
#pragma unroll
  for (int j0 = 0; j0 < Strip::n8_blocks; j0 += batch) {
    bool col_written[batch][2];
    int col_exponent[batch][2];
#pragma unroll
    for (int b = 0; b < batch; ++b)
#pragma unroll
      for (int w = 0; w < 2; ++w) {
        const index_t col = col0 + (j0 + b) * 8 + (lane % 4) * 2 + w;
        const bool inside = col < p.n;
        const index_t at = inside ? col : 0;
        col_written[b][w] = inside & (__ldg(p.b_nonfinite + at) == 0);  // no short circuit: no branch
        col_exponent[b][w] = policy_traits<Policy>::scales_rows_and_columns ? __ldg(p.b_exponent + at) : 0;
      }
    // Rows or columns scaled beyond 2^+-126 are rare: one test for the warp's batch.
    bool normal = true;
#pragma unroll
    for (int b = 0; b < batch; ++b)
#pragma unroll
      for (int w = 0; w < 2; ++w)
#pragma unroll
        for (int h = 0; h < 2; ++h) normal &= numerics::is_normal_pow2(rows.exponent[h] + col_exponent[b][w]);
    if (__all_sync(0xffffffffu, normal))
      write_batch<ReadsC, true, batch, Policy>(strip, p, rows, col0, lane, j0, col_written, col_exponent, sink);
    else
      write_batch<ReadsC, false, batch, Policy>(strip, p, rows, col0, lane, j0, col_written, col_exponent, sink);
    sink.end_batch(j0 / batch);
  }
}

// The strip whose first row is row0 and first column col0, into `sink` (C itself by default).
template <class Policy, class Strip, class Sink = StoreToC>
__device__ __forceinline__ void write_strip(const Strip& strip, const FusedGemmParams& p, index_t row0, index_t col0,
                                            int lane, const Sink& sink = Sink{}) {
  const StripRows rows = strip_rows<Policy>(p, row0, lane);
  if (p.beta == 0.0f)
    write_strip<false, Policy>(strip, p, rows, col0, lane, sink);
  else
    write_strip<true, Policy>(strip, p, rows, col0, lane, sink);
}

}  // namespace egemm::cuda
