// The CUDA outlier pass's item logic run lane after lane on the host, against the host oracle bit for bit.
//
// backends/cuda/special_entries/outlier_item.hpp, driven as outlier_entries.cuh
// drives it per warp; the oracle is backends/host/outlier_entry.hpp.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <memory>
#include <random>
#include <utility>
#include <vector>

#include "backends/cuda/special_entries/outlier_item.hpp"
#include "backends/host/outlier_entry.hpp"
#include "egemm/numerics/half_bits.hpp"
#include "egemm/numerics/outliers.hpp"
#include "support/matrices.hpp"

namespace egemm {
namespace {

using cuda::ItemLines;
using cuda::ItemMasks;
using cuda::OutlierLines;

struct HostSlot {  // the device's uint2: (depth, value bits)
  std::uint32_t x, y;
};

// One operand's lines as the split leaves them: outlier_state, slots (a
// routed line's sorted by depth, the rest of each row's stale), flags; and the
// host oracle's lists of the routed ones.
struct Lines {
  std::vector<std::uint32_t> state, nonfinite;
  std::vector<HostSlot> slots;
  std::vector<std::vector<std::pair<index_t, float>>> routed;
  bool is_routed(index_t l) const { return (state[l] & cuda::outlier_routed) != 0; }
  OutlierLines<HostSlot> view() const {
    return {state.data(), slots.data(), nonfinite.data(), static_cast<index_t>(state.size())};
  }
};

float random_outlier(std::mt19937_64& rng) {
  std::uniform_real_distribution<float> mantissa(1.0f, 2.0f);
  std::uniform_int_distribution<int> exponent(-30, 30);
  const float v = std::ldexp(mantissa(rng), exponent(rng));
  return rng() % 2 ? v : -v;
}

// `rows` lines of depth k: a `routed` fraction routed with 1 to 8 outliers at
// distinct depths below `depths` (few depths: rows' and columns' outliers
// meet), the others with candidates counted but not routed; some flagged for
// the other passes (Inf/NaN, wide, both).
Lines random_lines(index_t rows, index_t k, double routed, index_t depths, std::mt19937_64& rng) {
  Lines out;
  out.state.assign(rows, 0u);
  out.nonfinite.assign(rows, 0u);
  out.slots.resize(rows * numerics::outlier_slots);
  out.routed.assign(rows, {});
  std::uniform_real_distribution<double> u(0.0, 1.0);
  for (index_t r = 0; r < rows; ++r) {
    for (int t = 0; t < numerics::outlier_slots; ++t)  // stale: read past the count, they would show
      out.slots[r * numerics::outlier_slots + t] = {static_cast<std::uint32_t>(rng() % k), numerics::float_bits(random_outlier(rng))};
    if (u(rng) < 0.08) out.nonfinite[r] = 1u + static_cast<std::uint32_t>(rng() % 3);
    if (u(rng) >= routed) {
      out.state[r] = static_cast<std::uint32_t>(rng() % 20);  // candidates, not routed
      continue;
    }
    const double d = u(rng);
    int count = d < 0.5 ? 1 : d < 0.7 ? 2 : d < 0.8 ? 3 : d < 0.87 ? 4 : 5 + static_cast<int>(rng() % 4);
    const index_t pool = std::min(k, depths);
    count = static_cast<int>(std::min<index_t>(count, pool));
    std::vector<std::uint32_t> at;
    while (static_cast<int>(at.size()) < count) {
      const auto p = static_cast<std::uint32_t>(rng() % pool);
      if (std::find(at.begin(), at.end(), p) == at.end()) at.push_back(p);
    }
    std::sort(at.begin(), at.end());
    for (int t = 0; t < count; ++t) {
      const float v = random_outlier(rng);
      out.slots[r * numerics::outlier_slots + t] = {at[t], numerics::float_bits(v)};
      out.routed[r].emplace_back(at[t], v);
    }
    out.state[r] = static_cast<std::uint32_t>(count) | cuda::outlier_routed;
  }
  return out;
}

// What the items exercised, so that the test shows it reached every branch.
struct Reached {
  long lanes_over_columns = 0, lanes_over_rows = 0, met = 0, long_rows = 0, long_columns = 0, entries = 0;
};

// outlier_entries.cuh's loop over items, its ballots an OR over the lanes and
// its __syncwarp the end of each lane loop; the warp's scratch kept from item
// to item as in shared memory. Offset: the depth offsets' type (at_depth).
template <class Offset>
void emulated_pass(const GemmArgs& g, const Lines& a, const Lines& b, Reached& reached) {
  const cuda::OperandStrides s = cuda::operand_strides(g);
  const OutlierLines<HostSlot> rows = a.view(), columns = b.view();
  auto lines = std::make_unique<ItemLines<HostSlot>>();
  const index_t row_groups = (g.m + 31) / 32, items = row_groups * ((g.n + 31) / 32);
  for (index_t item = 0; item < items; ++item) {
    const index_t i0 = item % row_groups * 32, j0 = item / row_groups * 32;
    std::uint32_t row_state[32], column_state[32];
    ItemMasks m{0u, 0u, 0u, 0u};
    for (int lane = 0; lane < 32; ++lane) {
      row_state[lane] = cuda::line_state(rows, i0 + lane);
      column_state[lane] = cuda::line_state(columns, j0 + lane);
      m.rows |= static_cast<unsigned>(cuda::line_routed(row_state[lane])) << lane;
      m.columns |= static_cast<unsigned>(cuda::line_routed(column_state[lane])) << lane;
    }
    if (m.rows == 0 && m.columns == 0) continue;
    for (int lane = 0; lane < 32; ++lane) {
      const bool row_elsewhere = cuda::line_elsewhere(rows, i0 + lane);
      const bool column_elsewhere = cuda::line_elsewhere(columns, j0 + lane);
      cuda::stage_line(rows, i0 + lane, row_state[lane], *lines, 0, lane);
      cuda::stage_line(columns, j0 + lane, column_state[lane], *lines, 1, lane);
      m.rows_elsewhere |= static_cast<unsigned>(row_elsewhere) << lane;
      m.columns_elsewhere |= static_cast<unsigned>(column_elsewhere) << lane;
    }
    const bool over_rows = cuda::bit_count(m.rows) > cuda::routed_rows_for_lanes_over_columns;
    if (m.rows != 0) ++(over_rows ? reached.lanes_over_rows : reached.lanes_over_columns);
    for (int lane = 0; lane < 32; ++lane) cuda::outlier_item_lane<Offset>(g, s, *lines, m, i0, j0, lane);
  }
}

// The host backend's outlier loop (host_gemm.cpp): every entry of a routed
// row or column that no other pass takes, through the oracle's outlier_entry.
void oracle_pass(const GemmArgs& g, const Lines& a, const Lines& b, Reached& reached) {
  for (index_t j = 0; j < g.n; ++j)
    for (index_t i = 0; i < g.m; ++i) {
      if (a.routed[i].empty() && b.routed[j].empty()) continue;
      if (a.nonfinite[i] != 0 || b.nonfinite[j] != 0) continue;
      host::outlier_entry(g, a.routed[i], b.routed[j], i, j);
      ++reached.entries;
      for (const auto& [p, v] : b.routed[j])
        for (const auto& [q, w] : a.routed[i]) reached.met += p == q;
    }
  for (const auto& list : a.routed) reached.long_rows += list.size() > cuda::outlier_slots_ahead;
  for (const auto& list : b.routed) reached.long_columns += list.size() > cuda::outlier_slots_ahead;
}

std::vector<float> random_floats(std::size_t count, std::mt19937_64& rng) {
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  std::vector<float> v(count);
  for (float& x : v) x = u(rng);
  return v;
}

// Random shapes (partial items at both edges), transposes, leading dimensions
// with padding, alpha, densities from none to nearly every line routed (both
// of the item's branches), lines of up to 8 outliers (past the ones an entry
// loads ahead), outliers meeting outliers, and flagged lines: C, padding
// included, is the oracle's bit for bit.
TEST(OutlierItem, LaneByLaneIsTheHostOracleBitForBit) {
  const std::uint64_t seed = test::fresh_seed();
  SCOPED_TRACE(::testing::Message() << "seed " << seed);
  std::mt19937_64 rng(seed);
  const double fractions[] = {0.0, 0.03, 0.12, 0.5, 0.97};
  const float alphas[] = {1.0f, -0.75f, 3.5e-3f, 0x1p20f};
  Reached reached;
  for (int c = 0; c < 600; ++c) {
    const index_t m = 1 + static_cast<index_t>(rng() % 100), n = 1 + static_cast<index_t>(rng() % 100);
    const index_t k = 1 + static_cast<index_t>(rng() % 200);
    const bool ta = rng() % 2, tb = rng() % 2;
    const index_t lda = (ta ? k : m) + static_cast<index_t>(rng() % 3);
    const index_t ldb = (tb ? n : k) + static_cast<index_t>(rng() % 3);
    const index_t ldc = m + static_cast<index_t>(rng() % 3);
    const index_t depths = rng() % 3 == 0 ? 10 : k;
    SCOPED_TRACE(::testing::Message() << "case " << c << ": " << m << "x" << n << "x" << k << (ta ? " T" : " N")
                                      << (tb ? "T" : "N"));
    const std::vector<float> a = random_floats(static_cast<std::size_t>(lda * (ta ? m : k)), rng);
    const std::vector<float> b = random_floats(static_cast<std::size_t>(ldb * (tb ? k : n)), rng);
    const std::vector<float> c0 = random_floats(static_cast<std::size_t>(ldc * n), rng);
    const Lines rows = random_lines(m, k, fractions[rng() % 5], depths, rng);
    const Lines columns = random_lines(n, k, fractions[rng() % 5], depths, rng);
    std::vector<float> want = c0, got = c0, got_wide = c0;
    GemmArgs g{ta ? Op::transpose : Op::none, tb ? Op::transpose : Op::none, m, n, k, alphas[rng() % 4],
               a.data(), lda, b.data(), ldb, 0.5f, want.data(), ldc};
    oracle_pass(g, rows, columns, reached);
    g.c = got.data();
    emulated_pass<std::uint32_t>(g, rows, columns, reached);  // offsets in 32 bits, as the device forms them here
    g.c = got_wide.data();
    Reached unused;
    emulated_pass<index_t>(g, rows, columns, unused);  // and in 64, as for operands past 2^32 elements a line
    ASSERT_EQ(std::memcmp(got_wide.data(), got.data(), got.size() * sizeof(float)), 0);
    ASSERT_EQ(std::memcmp(want.data(), got.data(), want.size() * sizeof(float)), 0) << [&] {
      for (index_t j = 0; j < n; ++j)
        for (index_t i = 0; i < ldc; ++i)
          if (numerics::float_bits(want[i + j * ldc]) != numerics::float_bits(got[i + j * ldc]))
            return ::testing::Message() << "first difference at (" << i << ", " << j << "): " << got[i + j * ldc]
                                        << " for " << want[i + j * ldc];
      return ::testing::Message();
    }();
  }
  EXPECT_GT(reached.lanes_over_columns, 0);
  EXPECT_GT(reached.lanes_over_rows, 0);
  EXPECT_GT(reached.met, 0);
  EXPECT_GT(reached.long_rows, 0);
  EXPECT_GT(reached.long_columns, 0);
  EXPECT_GT(reached.entries, 10000);
}

// 32-bit depth offsets exactly where (k - 1) times op(A)'s and op(B)'s depth strides fit.
TEST(OutlierItem, DepthOffsetsAre32BitExactlyWhereTheyFit) {
  const auto fits = [](Op ta, Op tb, index_t m, index_t n, index_t k, index_t lda, index_t ldb) {
    const GemmArgs g{ta, tb, m, n, k, 1.0f, nullptr, lda, nullptr, ldb, 0.0f, nullptr, m};
    return cuda::outlier_offsets_fit(g, cuda::operand_strides(g));
  };
  constexpr index_t most = 0xffffffffll;
  EXPECT_TRUE(fits(Op::none, Op::none, 8, 8, 1, 8, 1));                    // one depth: offset 0
  EXPECT_TRUE(fits(Op::transpose, Op::none, 8, 8, most + 1, most + 1, most + 1));  // unit strides: depth <= 2^32 - 1
  EXPECT_FALSE(fits(Op::transpose, Op::none, 8, 8, most + 2, most + 2, most + 2));
  EXPECT_TRUE(fits(Op::none, Op::none, 65536, 8, 65536, 65537, 65536));    // op(A)'s stride lda: 65535 * 65537 < 2^32
  EXPECT_FALSE(fits(Op::none, Op::none, 65536, 8, 65537, 65537, 65537));   // 65536 * 65537 > 2^32 - 1
  EXPECT_FALSE(fits(Op::transpose, Op::transpose, 8, 70000, 70000, 70000, 70000));  // op(B)'s stride ldb
}

}  // namespace
}  // namespace egemm
