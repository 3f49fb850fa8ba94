// The device split must produce the host oracle's pieces bit for bit (both
// call the same numerics; this checks the kernels' indexing, transposes,
// padding, row scaling and flags), whatever the layout of the operand.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

#include "backends/cuda/split_operand.hpp"
#include "backends/host/packed_operand.hpp"
#include "device_support.hpp"
#include "egemm/numerics/half_bits.hpp"

namespace egemm {
namespace {

std::uint32_t bits(float x) {
  std::uint32_t u;
  std::memcpy(&u, &x, sizeof u);
  return u;
}

struct Rule {
  SplitRule rule;
  bool scale_rows;
  const char* name;
};

TEST(CudaSplit, BitwiseEqualToHostSplit) {
  EGEMM_REQUIRE_GPU();
  const Rule rules[] = {{SplitRule::round_scaled_lo, true, "round_scaled_lo+scaling"},
                        {SplitRule::round, false, "round"},
                        {SplitRule::truncate, false, "truncate"},
                        {SplitRule::round_hi_only, false, "round_hi_only"},
                        {SplitRule::tf32, false, "tf32"}};
  const index_t rows = 45, depth = 70, rows_pad = 128, depth_pad = 96;
  for (const Rule& r : rules)
    for (bool rows_contiguous : {true, false}) {
      SCOPED_TRACE(std::string(r.name) + (rows_contiguous ? " rows contiguous" : " depth contiguous"));
      // Stored rows_contiguous ? rows x depth : depth x rows, with a padded leading dimension;
      // magnitudes 2^-30 .. 2^20 reach FP16 subnormals, overflow and the scaling's range.
      test::Matrix stored = rows_contiguous ? test::random_wide_matrix(rows, depth, test::fresh_seed(), -30, 20)
                                            : test::random_wide_matrix(depth, rows, test::fresh_seed(), -30, 20);
      const OperandRows host_rows = rows_contiguous ? OperandRows{stored.ptr(), rows, depth, 1, stored.ld}
                                                    : OperandRows{stored.ptr(), rows, depth, stored.ld, 1};
      auto at = [&](index_t i, index_t p) -> float& { return rows_contiguous ? stored(i, p) : stored(p, i); };
      at(2, 3) = std::numeric_limits<float>::infinity();
      at(5, 69) = std::numeric_limits<float>::quiet_NaN();
      at(7, 1) = -0.0f;
      at(44, 0) = 65519.0f;  // rounds to 65504 or Inf depending on the rule
      at(8, 8) = std::numeric_limits<float>::max();

      test::DeviceBuffer<float> d_src(stored.data);
      const bool tf32 = r.rule == SplitRule::tf32;  // pieces stored as floats, else FP16 bits
      const std::size_t piece_words = static_cast<std::size_t>(rows_pad * depth_pad);
      test::DeviceBuffer<std::uint32_t> hi(piece_words), lo(piece_words);  // room for either form
      test::DeviceBuffer<int> exponent(static_cast<std::size_t>(rows_pad));
      test::DeviceBuffer<std::uint32_t> stats(static_cast<std::size_t>(3 * rows + 1));
      test::cuda_ok(cudaMemset(stats.get(), 0, stats.size() * sizeof(std::uint32_t)), "memset");
      test::cuda_ok(cudaMemset(lo.get(), 0x55, piece_words * 4), "memset");  // lo-less rules leave it
      cuda::SplitOperand dst;
      dst.piece[0] = hi.get();
      dst.piece[1] = lo.get();
      dst.rows = rows;
      dst.depth = depth;
      dst.rows_pad = rows_pad;
      dst.depth_pad = depth_pad;
      dst.max_abs_bits = stats.get();
      dst.min_abs_inv_bits = stats.get() + rows;
      dst.nonfinite = stats.get() + 2 * rows;
      dst.exponent = exponent.get();
      OperandRows device_rows = host_rows;
      device_rows.base = d_src.get();
      // Scaling needs the stats pass first; the other rules record the non-finite flags in the split.
      std::uint32_t* any_flag = stats.get() + 3 * rows;
      if (r.scale_rows) {
        cuda::launch_row_stats(device_rows, dst, any_flag, nullptr);
        cuda::launch_split(device_rows, r.rule, true, dst, /*path_word=*/nullptr, /*any_nonfinite=*/nullptr, nullptr);
      } else {
        cuda::launch_split(device_rows, r.rule, false, dst, /*path_word=*/nullptr, any_flag, nullptr);
      }
      test::cuda_ok(cudaDeviceSynchronize(), "sync");

      const std::vector<std::uint32_t> dev_hi = hi.download(), dev_lo = lo.download();
      const std::vector<int> dev_e = exponent.download();
      const std::vector<std::uint32_t> dev_stats = stats.download();
      const host::PackedOperand want = host::pack_operand(host_rows, /*width=*/1, r.rule, r.scale_rows);
      // Element (i, p) of a device piece, as the float it represents.
      auto piece_value = [&](const std::vector<std::uint32_t>& piece, std::size_t d) {
        if (tf32) return numerics::bits_to_float(piece[d]);
        std::uint16_t u;
        std::memcpy(&u, reinterpret_cast<const unsigned char*>(piece.data()) + 2 * d, sizeof u);
        return numerics::half_bits_to_float(u);
      };

      int mismatches = 0;
      for (index_t i = 0; i < rows_pad; ++i)
        for (index_t p = 0; p < depth_pad; ++p) {
          const std::size_t d = static_cast<std::size_t>(i * depth_pad + p);
          const bool inside = i < rows && p < depth;
          const float want_hi = inside ? want.data[static_cast<std::size_t>(i * depth + p)] : 0.0f;
          if (bits(piece_value(dev_hi, d)) != bits(want_hi) && mismatches++ < 5)
            ADD_FAILURE() << "hi(" << i << "," << p << ") = " << piece_value(dev_hi, d) << ", host " << want_hi;
          if (want.pieces == 2) {
            const float want_lo = inside ? want.data[static_cast<std::size_t>(rows * depth + i * depth + p)] : 0.0f;
            if (bits(piece_value(dev_lo, d)) != bits(want_lo) && mismatches++ < 5)
              ADD_FAILURE() << "lo(" << i << "," << p << ") = " << piece_value(dev_lo, d) << ", host " << want_lo;
          }
        }
      EXPECT_EQ(mismatches, 0);
      std::uint32_t any = 0;
      for (index_t i = 0; i < rows_pad; ++i) {
        EXPECT_EQ(dev_e[i], i < rows ? want.exponent[i] : 0) << "exponent of row " << i;
        if (i >= rows) continue;
        EXPECT_EQ(dev_stats[2 * rows + i] != 0, want.nonfinite[i] != 0) << "non-finite flag of row " << i;
        any |= want.nonfinite[i];
      }
      EXPECT_EQ(dev_stats[3 * rows] != 0, any != 0) << "any-non-finite flag";
    }
}

}  // namespace
}  // namespace egemm
