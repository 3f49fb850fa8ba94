// The device split must produce the host oracle's pieces bit for bit (both
// call the same numerics; this checks the kernels' indexing, transposes,
// padding, row scaling and flags), whatever the layout of the operand; and
// EmulatedFP32's split (guessed exponents, statistics gathered on the way,
// the path chosen on the device, the rows whose guess failed split again)
// must end where the host's split of the chosen path does.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "backends/cuda/route/emulation_path.hpp"
#include "backends/cuda/split/split_operand.hpp"
#include "backends/host/packed_operand.hpp"
#include "device_support.hpp"
#include "egemm/numerics/half_bits.hpp"
#include "egemm/numerics/outliers.hpp"
#include "egemm/numerics/row_exponent.hpp"
#include "egemm/path_selection.hpp"

namespace egemm {
namespace {

index_t round_up(index_t v, index_t multiple) { return (v + multiple - 1) / multiple * multiple; }

// One operand on the device: its values (as stored), its split form and statistics words.
struct DeviceOperand {
  OperandRows host_rows;
  test::DeviceBuffer<float> src;
  test::DeviceBuffer<std::uint32_t> hi, lo;  // room for TF32 pieces
  test::DeviceBuffer<int> exponent;
  test::DeviceBuffer<std::uint32_t> panel_marks;
  test::DeviceBuffer<std::uint32_t> outlier_thresholds;
  test::DeviceBuffer<uint2> outlier_slots;
  cuda::SplitOperand dst;

  DeviceOperand(const test::Matrix& stored, bool rows_contiguous, index_t rows, index_t depth,
                test::DeviceBuffer<std::uint32_t>& words, index_t first_word)
      : host_rows(rows_contiguous ? OperandRows{stored.ptr(), rows, depth, 1, stored.ld}
                                  : OperandRows{stored.ptr(), rows, depth, stored.ld, 1}),
        src(stored.data),
        hi(static_cast<std::size_t>(round_up(rows, 32) * round_up(depth, 64))),
        lo(hi.size()),
        exponent(static_cast<std::size_t>(round_up(rows, 32))),
        panel_marks(static_cast<std::size_t>(round_up(rows, 32) / 32 * ((round_up(depth, 64) + 127) / 128))),
        outlier_thresholds(static_cast<std::size_t>(round_up(rows, 32))),
        outlier_slots(static_cast<std::size_t>(round_up(rows, 32) * numerics::outlier_slots)) {
    // Poisoned, so that a piece, a padding zero or an exponent the split did not write shows
    // (lo-less rules leave lo as it is).
    test::cuda_ok(cudaMemset(hi.get(), 0x55, hi.size() * 4), "memset");
    test::cuda_ok(cudaMemset(lo.get(), 0x55, lo.size() * 4), "memset");
    test::cuda_ok(cudaMemset(exponent.get(), 0x55, exponent.size() * sizeof(int)), "memset");
    dst.piece[0] = hi.get();
    dst.piece[1] = lo.get();
    dst.rows = rows;
    dst.depth = depth;
    dst.rows_pad = round_up(rows, 32);
    dst.depth_pad = round_up(depth, 64);
    dst.exponent = exponent.get();
    dst.panel_in_tf32 = panel_marks.get();
    dst.outlier_threshold_bits = outlier_thresholds.get();
    dst.outlier_slots = outlier_slots.get();
    EXPECT_EQ(panel_marks.size(), static_cast<std::size_t>(cuda::split_panels(dst)));
    cuda::place_split_stats(dst, words.get() + first_word);
  }
  OperandRows device_rows() const {
    OperandRows r = host_rows;
    r.base = src.get();
    return r;
  }
};

// Every piece of the device's split equals the host's (pieces as the floats
// they represent), padding zero; every exponent too.
void expect_pieces_match(const DeviceOperand& op, const host::PackedOperand& want, bool tf32) {
  const std::vector<std::uint32_t> dev_hi = op.hi.download(), dev_lo = op.lo.download();
  auto piece_value = [&](const std::vector<std::uint32_t>& piece, std::size_t d) {
    if (tf32) return numerics::bits_to_float(piece[d]);
    std::uint16_t u;
    std::memcpy(&u, reinterpret_cast<const unsigned char*>(piece.data()) + 2 * d, sizeof u);
    return numerics::half_bits_to_float(u);
  };
  const index_t rows = op.dst.rows, depth = op.dst.depth;
  int mismatches = 0;
  for (index_t i = 0; i < op.dst.rows_pad; ++i)
    for (index_t p = 0; p < op.dst.depth_pad; ++p) {
      const std::size_t d = static_cast<std::size_t>(i * op.dst.depth_pad + p);
      const bool inside = i < rows && p < depth;
      const float want_hi = inside ? want.data[static_cast<std::size_t>(i * depth + p)] : 0.0f;
      if (test::bits_of(piece_value(dev_hi, d)) != test::bits_of(want_hi) && mismatches++ < 5)
        ADD_FAILURE() << "hi(" << i << "," << p << ") = " << piece_value(dev_hi, d) << ", host " << want_hi;
      if (want.pieces == 2) {
        const float want_lo = inside ? want.data[static_cast<std::size_t>(rows * depth + i * depth + p)] : 0.0f;
        if (test::bits_of(piece_value(dev_lo, d)) != test::bits_of(want_lo) && mismatches++ < 5)
          ADD_FAILURE() << "lo(" << i << "," << p << ") = " << piece_value(dev_lo, d) << ", host " << want_lo;
      }
    }
  EXPECT_EQ(mismatches, 0);
  const std::vector<int> dev_e = op.exponent.download();
  for (index_t i = 0; i < op.dst.rows_pad; ++i) EXPECT_EQ(dev_e[i], i < rows ? want.exponent[i] : 0) << "exponent of row " << i;
}

// FP16 and TF32 pieces share a buffer (element e at byte 2e or 4e): the
// FP16 panels whose bytes a TF32 panel's overlap, as the second split finds
// them, against every FP16 element's bytes mapped one by one. Needs no GPU.
TEST(CudaSplit, Fp16PanelsOverATf32PanelAreFoundExactly) {
  for (index_t rows_pad : {32, 64, 96, 160})
    for (index_t depth_pad : {64, 128, 192, 320, 512}) {
      cuda::SplitOperand op;
      op.rows_pad = rows_pad;
      op.depth_pad = depth_pad;
      const index_t k_panels = cuda::split_k_panels(op), panels = cuda::split_panels(op);
      // overlap[t * panels + f]: TF32 panel t shares bytes with FP16 panel f.
      std::vector<char> brute(static_cast<std::size_t>(panels * panels), 0), found(brute.size(), 0);
      auto panel_of = [&](index_t row, index_t k) { return row / 32 * k_panels + k / 128; };
      for (index_t r = 0; r < rows_pad; ++r)
        for (index_t k = 0; k < depth_pad; ++k) {
          const index_t tf32_element = (r * depth_pad + k) / 2;  // FP16 bytes 2e, 2e + 1 lie in TF32 element e / 2
          const index_t tr = tf32_element / depth_pad, tk = tf32_element % depth_pad;
          if (tr < rows_pad) brute[static_cast<std::size_t>(panel_of(tr, tk) * panels + panel_of(r, k))] = 1;
        }
      for (index_t tr = 0; tr < rows_pad; ++tr)
        for (index_t k0 = 0; k0 < depth_pad; k0 += 128) {
          const index_t t = panel_of(tr, k0);
          cuda::fp16_panels_over_tf32_row(op, tr, k0, std::min<index_t>(k0 + 128, depth_pad),
                                          [&](index_t row_panel, index_t k_panel) {
                                            ASSERT_LT(k_panel, k_panels);
                                            found[static_cast<std::size_t>(t * panels + row_panel * k_panels + k_panel)] = 1;
                                          });
        }
      EXPECT_EQ(found, brute) << rows_pad << " x " << depth_pad;
    }
}

TEST(CudaSplit, BitwiseEqualToHostSplit) {
  EGEMM_REQUIRE_GPU();
  struct Rule {
    SplitRule rule;
    const char* name;
  };
  const Rule rules[] = {{SplitRule::round, "round"},
                        {SplitRule::truncate, "truncate"},
                        {SplitRule::round_hi_only, "round_hi_only"},
                        {SplitRule::tf32, "tf32"}};
  const index_t rows = 45, depth = 70;
  for (const auto& [rule, name] : rules)
    for (bool rows_contiguous : {true, false}) {
      SCOPED_TRACE(std::string(name) + (rows_contiguous ? " rows contiguous" : " depth contiguous"));
      // Magnitudes 2^-30 .. 2^20 reach FP16 subnormals and overflow.
      test::Matrix stored = rows_contiguous ? test::random_wide_matrix(rows, depth, test::fresh_seed(), -30, 20)
                                            : test::random_wide_matrix(depth, rows, test::fresh_seed(), -30, 20);
      auto at = [&](index_t i, index_t p) -> float& { return rows_contiguous ? stored(i, p) : stored(p, i); };
      at(2, 3) = std::numeric_limits<float>::infinity();
      at(5, 69) = std::numeric_limits<float>::quiet_NaN();
      at(7, 1) = -0.0f;
      at(44, 0) = 65519.0f;  // rounds to 65504 or Inf depending on the rule
      at(8, 8) = std::numeric_limits<float>::max();

      test::DeviceBuffer<std::uint32_t> words(static_cast<std::size_t>(cuda::split_stats_words(rows) + 1));
      test::cuda_ok(cudaMemset(words.get(), 0, words.size() * 4), "memset");
      DeviceOperand op(stored, rows_contiguous, rows, depth, words, 0);
      std::uint32_t* any_flag = words.get() + cuda::split_stats_words(rows);
      cuda::launch_split(op.device_rows(), rule, op.dst, any_flag, nullptr);
      test::cuda_ok(cudaDeviceSynchronize(), "sync");

      const host::PackedOperand want = host::pack_operand(op.host_rows, /*width=*/1, rule, /*scale_rows=*/false);
      expect_pieces_match(op, want, rule == SplitRule::tf32);
      const std::vector<std::uint32_t> w = words.download();
      std::uint32_t any = 0;
      for (index_t i = 0; i < rows; ++i) {
        EXPECT_EQ(w[2 * rows + i] != 0, want.nonfinite[i] != 0) << "non-finite flag of row " << i;
        any |= want.nonfinite[i];
      }
      EXPECT_EQ(w.back() != 0, any != 0) << "any-non-finite flag";
    }
}

// Operands whose rows exercise every outcome of the guess: kept (uniform
// rows, an all-zero prefix on order-one values, a zero row, Inf in the
// prefix, 65519 in front), and replaced (a late outlier, a zero prefix on
// values of 2^20, a tiny late element that the exact exponent still holds),
// a wide row (float64 on the FP16 path) and a NaN. Row 5 must be the only
// wide one (45 or 70 rows: one recomputed row at most), so the random values
// stay at least 2^-8 in magnitude: beside row 1's 1000, a uniform draw below
// 2^-18 would make row 1 wide too (in about 1 run of this test in 200).
// With `outliers`, rows 10 and 11 also hold one value 2^30 above the rest
// past their first values, row 12 one among them: wide for that value alone,
// they take the outlier route (zero there in the pieces, scaled by their bulk).
test::Matrix fp16_path_operand(index_t rows, index_t depth, bool rows_contiguous, bool outliers = false) {
  test::Matrix m = rows_contiguous ? test::random_matrix(rows, depth, test::fresh_seed())
                                   : test::random_matrix(depth, rows, test::fresh_seed());
  for (float& x : m.data)
    if (std::fabs(x) < 0x1p-8f) x = std::copysign(0x1p-8f, x);  // the NaN padding rows, if any, stay NaN
  auto at = [&](index_t i, index_t p) -> float& { return rows_contiguous ? m(i, p) : m(p, i); };
  at(1, depth - 50) = 1000.0f;
  for (index_t p = 0; p < numerics::exponent_guess_values; ++p) at(2, p) = at(3, p) = 0.0f;
  for (index_t p = numerics::exponent_guess_values; p < depth; ++p) at(3, p) *= 0x1p20f;
  at(4, depth - 100) = 0x1p-27f;
  at(5, depth / 3) = 0x1p-40f;  // wide
  if (outliers) {
    at(10, depth - 7) = 0x1.8p30f;
    at(11, 40) = -0x1p30f;
    at(12, 5) = 0x1p31f;
  }
  at(6, 3) = std::numeric_limits<float>::infinity();
  at(7, depth - 10) = std::numeric_limits<float>::quiet_NaN();
  for (index_t p = 0; p < depth; ++p) at(8, p) = p % 2 ? 0.0f : -0.0f;
  for (index_t p = 0; p < depth; ++p) at(9, p) *= 0x1p15f;
  at(9, 0) = 65519.0f;
  return m;
}

// `missed`: how many rows of each operand at least should miss their guess on the FP16 path.
void check_emulated_split(const test::Matrix& a_stored, bool a_rows_contiguous, index_t a_rows,
                          const test::Matrix& b_stored, bool b_rows_contiguous, index_t b_rows, index_t depth,
                          EmulationPath expected_path, std::uint32_t missed = 4) {
  const index_t words_a = cuda::split_stats_words(a_rows), words_b = cuda::split_stats_words(b_rows);
  test::DeviceBuffer<std::uint32_t> words(static_cast<std::size_t>(words_a + words_b + 3));
  test::cuda_ok(cudaMemset(words.get(), 0, words.size() * 4), "memset");
  DeviceOperand a(a_stored, a_rows_contiguous, a_rows, depth, words, 0);
  DeviceOperand b(b_stored, b_rows_contiguous, b_rows, depth, words, words_a);
  std::uint32_t* flags = words.get() + words_a + words_b;  // any-non-finite, path word, block counter
  cuda::launch_emulated_fp32_split(a.device_rows(), b.device_rows(), a.dst, b.dst, flags + 1, flags + 2, flags,
                                   nullptr);
  test::cuda_ok(cudaDeviceSynchronize(), "sync");
  const std::vector<std::uint32_t> w = words.download();

  const EmulationPath path = choose_emulation_path(range_verdict(a.host_rows), range_verdict(b.host_rows));
  ASSERT_EQ(path, expected_path) << "the test's operands should take " << path_name(expected_path);
  EXPECT_EQ(cuda::path_from_word(w[words_a + words_b + 1]), path) << "the device's path";
  if (path == EmulationPath::native_fp32) return;  // no pieces are used
  bool any = false;
  for (const DeviceOperand* op : {&a, &b}) {
    SCOPED_TRACE(op == &a ? "op(A)" : "op(B)^T");
    const bool tf32 = path == EmulationPath::tf32_full_range;
    const host::PackedOperand want = tf32 ? host::pack_operand(op->host_rows, 1, SplitRule::tf32, false)
                                          : host::pack_operand(op->host_rows, 1, SplitRule::round_scaled_lo, true);
    expect_pieces_match(*op, want, tf32);
    if (tf32) {
      const std::vector<std::uint32_t> marks = op->panel_marks.download();
      std::printf("[ split ] %s: %d of %d panels written as TF32 by the split, the rest by the second split\n",
                  op == &a ? "op(A)" : "op(B)^T", static_cast<int>(std::count(marks.begin(), marks.end(), 1u)),
                  static_cast<int>(marks.size()));
    }
    const index_t rows = op->dst.rows, first = op == &a ? 0 : words_a;
    std::uint32_t resplit = 0, zeroed = 0;
    for (index_t i = 0; i < rows; ++i) {
      bool nonfinite = false;
      const RowRange range = row_range(op->host_rows, i, &nonfinite);
      any = any || nonfinite;
      // EmulatedFP32's word holds the largest below the row's outlier threshold (its bulk's).
      const RowOutliers outliers = row_outliers(op->host_rows, i);
      const bool routed = routes_outliers(range, outliers.bulk_max, outliers.count, depth);  // settled before the path
      EXPECT_EQ(w[first + i], test::bits_of(outliers.bulk_max)) << "largest |x| of row " << i << " below its outliers";
      EXPECT_EQ(w[first + rows + i], range.min_abs_nonzero == 0.0f ? 0u : ~test::bits_of(range.min_abs_nonzero))
          << "smallest nonzero |x| of row " << i;
      const std::uint32_t flag = w[first + 2 * rows + i];
      EXPECT_EQ((flag & cuda::row_nonfinite) != 0, nonfinite) << "non-finite flag of row " << i;
      EXPECT_EQ((flag & cuda::row_recomputed) != 0, !tf32 && !routed && !fits_fp16_scaled(range))
          << "float64 flag of row " << i;
      const std::uint32_t state = *(w.data() + (op->dst.outlier_state - words.get()) + i);
      EXPECT_EQ((state & cuda::outlier_routed) != 0, routed) << "outlier route of row " << i;
      if (routed) EXPECT_EQ(state & cuda::outlier_count_mask, outliers.count) << "outliers of row " << i;
      const bool miss = emulated_fp32_row_exponent(op->host_rows, i) != emulated_fp32_guessed_exponent(op->host_rows, i);
      resplit += miss;
      zeroed += routed && !miss;
    }
    EXPECT_EQ(*(w.data() + (op->dst.resplit_count - words.get())), resplit) << "rows split again";
    EXPECT_EQ(*(w.data() + (op->dst.outlier_zero_count - words.get())), zeroed) << "routed rows with their guess";
    if (!tf32) EXPECT_GE(resplit, missed) << "the test's rows that should miss their guess";
  }
  EXPECT_EQ(w[words_a + words_b] != 0, any) << "any-non-finite flag";
}

TEST(CudaSplit, EmulatedFp32SplitEqualsTheHostsOnTheFp16Path) {
  EGEMM_REQUIRE_GPU();
  const index_t depth = 300;  // three k-panels, the last partial
  for (bool a_rows_contiguous : {true, false}) {
    SCOPED_TRACE(a_rows_contiguous ? "op(A) rows contiguous" : "op(A) depth contiguous");
    const test::Matrix a = fp16_path_operand(45, depth, a_rows_contiguous);
    const test::Matrix b = fp16_path_operand(70, depth, !a_rows_contiguous);
    check_emulated_split(a, a_rows_contiguous, 45, b, !a_rows_contiguous, 70, depth, EmulationPath::fp16_scaled);
  }
}

// Many rows touched again by the second split, in every layout (op(A) and
// op(B)^T each with rows or depth contiguous: the four transposes), m and n
// not multiples of 8: rows with 1 to 4 values 2^30 above the rest past their
// first 32 (routed, guess held: only the outliers' pieces zeroed), with one
// among their first 32 (routed, guess missed: split again), with their values
// past the first 32 scaled by 2^5 (guess missed, not routed; the last row
// among them, in the last, partial, panel and 8-row group), the rest uniform
// and kept. Depth 1100 (16-byte loads along k where rows are k-contiguous)
// and 1027 (4-byte loads), neither a multiple of the panel.
test::Matrix second_split_operand(index_t rows, index_t depth, bool rows_contiguous) {
  const std::uint64_t seed = test::fresh_seed();
  test::Matrix m = rows_contiguous ? test::random_matrix(rows, depth, seed) : test::random_matrix(depth, rows, seed);
  for (float& x : m.data)
    if (std::fabs(x) < 0x1p-8f) x = std::copysign(0x1p-8f, x);  // no row wide but for its outliers
  auto at = [&](index_t i, index_t p) -> float& { return rows_contiguous ? m(i, p) : m(p, i); };
  auto outlier = [&](index_t i, index_t p) { at(i, p) = std::copysign(0x1p30f * (0.5f + std::fabs(at(i, p))), at(i, p)); };
  std::mt19937_64 rng(seed + 7);
  std::uniform_int_distribution<int> kind(0, 9);
  std::uniform_int_distribution<index_t> late(numerics::exponent_guess_values, depth - 1), early(0, numerics::exponent_guess_values - 1);
  const int most = numerics::max_outliers_per_row(depth);
  for (index_t i = 0; i < rows; ++i) {
    const int k = i == rows - 1 ? 9 : i == rows - 2 ? 0 : kind(rng);
    if (k <= 2) {
      for (int o = 0; o <= (i + k) % most; ++o) outlier(i, late(rng));
    } else if (k == 3) {
      outlier(i, early(rng));
    } else if (k == 9) {
      for (index_t p = numerics::exponent_guess_values; p < depth; ++p) at(i, p) *= 0x1p5f;
    }
  }
  return m;
}

TEST(CudaSplit, EmulatedFp32SecondSplitEqualsTheHostsForManyTouchedRows) {
  EGEMM_REQUIRE_GPU();
  for (index_t depth : {1100, 1027})
    for (bool a_rows_contiguous : {true, false}) {
      SCOPED_TRACE(::testing::Message() << "depth " << depth << (a_rows_contiguous ? ", op(A) rows contiguous" : ", op(A) depth contiguous"));
      const index_t a_rows = 301, b_rows = 213;
      const test::Matrix a = second_split_operand(a_rows, depth, a_rows_contiguous);
      const test::Matrix b = second_split_operand(b_rows, depth, !a_rows_contiguous);
      check_emulated_split(a, a_rows_contiguous, a_rows, b, !a_rows_contiguous, b_rows, depth, EmulationPath::fp16_scaled,
                           /*missed=*/10);
      if (::testing::Test::HasFailure()) return;
    }
}

// Rows wide only for one outlier each: split by their bulks with the outlier
// zeroed, as the host oracle packs them.
TEST(CudaSplit, EmulatedFp32SplitLeavesRoutedOutliersOut) {
  EGEMM_REQUIRE_GPU();
  const index_t depth = 300;  // at most one outlier a row (k / 256)
  for (bool a_rows_contiguous : {true, false}) {
    SCOPED_TRACE(a_rows_contiguous ? "op(A) rows contiguous" : "op(A) depth contiguous");
    const test::Matrix a = fp16_path_operand(45, depth, a_rows_contiguous, true);
    const test::Matrix b = fp16_path_operand(70, depth, !a_rows_contiguous, true);
    check_emulated_split(a, a_rows_contiguous, 45, b, !a_rows_contiguous, 70, depth, EmulationPath::fp16_scaled);
  }
}

TEST(CudaSplit, EmulatedFp32SplitEqualsTheHostsOnTheFullRangePaths) {
  EGEMM_REQUIRE_GPU();
  const index_t depth = 200;
  for (bool beyond_tf32 : {false, true}) {
    SCOPED_TRACE(beyond_tf32 ? "a value beyond TF32's range: native" : "wide rows: TF32");
    test::Matrix a = test::random_wide_matrix(45, depth, test::fresh_seed(), -30, 20);
    const test::Matrix b = test::random_wide_matrix(depth, 70, test::fresh_seed(), -30, 20);
    if (beyond_tf32) a(3, 100) = std::numeric_limits<float>::max();
    check_emulated_split(a, true, 45, b, false, 70, depth,
                         beyond_tf32 ? EmulationPath::native_fp32 : EmulationPath::tf32_full_range);
  }
}

// More panels than the GPU runs at once: the first blocks show the rows
// wide and the later ones write TF32 pieces at once, the second split redoes
// only the panels that went out in FP16; the result is the host's either way.
TEST(CudaSplit, WideOperandsSwitchToTf32PiecesMidSplit) {
  EGEMM_REQUIRE_GPU();
  struct Shape {
    index_t a_rows, b_rows, depth;
  };
  // Which panels go out in FP16 depends on timing: several shapes, three times each.
  for (const Shape& s : {Shape{2048, 1024, 1024}, Shape{2048, 2048, 2048}, Shape{4096, 1024, 1024}})
    for (int trial = 0; trial < 3; ++trial) {
      SCOPED_TRACE(std::to_string(s.a_rows) + " x " + std::to_string(s.b_rows) + " x " + std::to_string(s.depth));
      const test::Matrix a = test::random_wide_matrix(s.a_rows, s.depth, test::fresh_seed(), -30, 20);
      const test::Matrix b = test::random_wide_matrix(s.depth, s.b_rows, test::fresh_seed(), -30, 20);
      check_emulated_split(a, true, s.a_rows, b, false, s.b_rows, s.depth, EmulationPath::tf32_full_range);
    }
}

}  // namespace
}  // namespace egemm
