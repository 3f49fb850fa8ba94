// EmulatedFP32's second split on the FP16 path reads and writes exactly what its lists ask: its indexing run on the host.
//
// backends/cuda/split/resplit_plan.hpp, driven as settle_row and
// fp16_resplit_operand (backends/cuda/split/split_kernels.cu) drive it: the
// lists built in a random arrival order, then every item of both walks (a
// listed row at a time where rows are k-contiguous, 8-row groups where rows
// are contiguous) played thread by thread.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <numeric>
#include <random>
#include <set>
#include <utility>
#include <vector>

#include "backends/cuda/split/resplit_plan.hpp"

namespace egemm {
namespace {

namespace plan = cuda::resplit;

// One operand's lists as the path choice leaves them.
struct Lists {
  std::vector<std::uint32_t> list, panel_rows, groups;
  std::uint32_t resplit_count = 0, zero_count = 0;
};

// settle_row's bookkeeping for rows `again` (split again) and `zero_only`
// (outliers zeroed), the rows arriving in a random order.
Lists build_lists(index_t rows, const std::set<index_t>& again, const std::set<index_t>& zero_only, std::mt19937& rng) {
  Lists l;
  l.list.assign(static_cast<std::size_t>(rows), 0xdeadbeefu);
  l.panel_rows.assign(static_cast<std::size_t>((rows + 31) / 32), 0);
  l.groups.assign(static_cast<std::size_t>(4 * l.panel_rows.size()), 0xdeadbeefu);
  std::uint32_t group_count = 0;
  std::vector<index_t> order(static_cast<std::size_t>(rows));
  std::iota(order.begin(), order.end(), index_t{0});
  std::shuffle(order.begin(), order.end(), rng);
  for (const index_t row : order) {
    if (again.count(row) != 0) {
      l.list[l.resplit_count++] = static_cast<std::uint32_t>(row);
      std::uint32_t& mask = l.panel_rows[static_cast<std::size_t>(row / 32)];
      const std::uint32_t before = mask;
      mask |= plan::row_bit(row);
      if (plan::opens_group(before, row)) l.groups[group_count++] = plan::group_of(row);
    } else if (zero_only.count(row) != 0) {
      l.list[static_cast<std::size_t>(plan::zero_only_slot(rows, l.zero_count++))] = static_cast<std::uint32_t>(row);
    }
  }
  l.groups.resize(group_count);
  return l;
}

struct Case {
  index_t rows;
  double again_share, zero_share;
};

TEST(ResplitPlan, EachWalkWritesEveryListedRowOnceAndReadsOnlyWhatItNeeds) {
  std::mt19937 rng(20250);
  const Case cases[] = {{1, 1.0, 0.0},   {7, 0.3, 0.3},   {8, 0.5, 0.2},    {9, 1.0, 0.0},   {31, 0.1, 0.5},
                        {33, 0.05, 0.3}, {45, 0.2, 0.2},  {300, 0.08, 0.5}, {1000, 0.01, 0.1}, {1000, 0.5, 0.3},
                        {4099, 0.003, 0.5}, {64, 0.0, 0.6}, {96, 1.0, 0.0}};
  for (const Case& c : cases)
    for (int trial = 0; trial < 20; ++trial) {
      SCOPED_TRACE(::testing::Message() << c.rows << " rows, trial " << trial);
      std::set<index_t> again, zero_only;
      std::bernoulli_distribution pick_again(c.again_share), pick_zero(c.zero_share);
      for (index_t r = 0; r < c.rows; ++r) {
        if (pick_again(rng))
          again.insert(r);
        else if (pick_zero(rng))
          zero_only.insert(r);
      }
      if (trial == 0 && c.again_share > 0) {  // the last row (in the last, partial, panel and group) listed
        zero_only.erase(c.rows - 1);
        again.insert(c.rows - 1);
      }
      const Lists l = build_lists(c.rows, again, zero_only, rng);
      ASSERT_EQ(l.resplit_count, again.size());
      ASSERT_EQ(l.zero_count, zero_only.size());

      // The two lists share resplit_list from its two ends and hold what was listed.
      std::set<index_t> front, back;
      for (std::uint32_t n = 0; n < l.resplit_count; ++n) front.insert(l.list[n]);
      for (std::uint32_t n = 0; n < l.zero_count; ++n)
        back.insert(l.list[static_cast<std::size_t>(plan::zero_only_slot(c.rows, n))]);
      EXPECT_EQ(front, again);
      EXPECT_EQ(back, zero_only);

      // The groups listed: exactly those holding a row split again, each once.
      std::set<std::uint32_t> want_groups;
      for (const index_t r : again) want_groups.insert(plan::group_of(r));
      EXPECT_EQ(std::set<std::uint32_t>(l.groups.begin(), l.groups.end()), want_groups);
      EXPECT_EQ(l.groups.size(), want_groups.size());

      for (const index_t k_panels : {index_t{1}, index_t{3}}) {
        // Rows k-contiguous: thread row r of each item.
        std::map<std::pair<index_t, index_t>, int> written;  // (row, k panel) -> times
        const index_t row_items = plan::item_count(l.resplit_count, plan::item_rows, k_panels);
        for (index_t item = 0; item < row_items; ++item) {
          const plan::Item at = plan::item_at(item, k_panels);
          ASSERT_LT(at.k_panel, k_panels);
          for (int r = 0; r < plan::item_rows; ++r) {
            const index_t entry = plan::row_entry(at.chunk, r);
            if (entry >= l.resplit_count) continue;
            ++written[{l.list[static_cast<std::size_t>(entry)], at.k_panel}];
          }
        }
        EXPECT_EQ(written.size(), again.size() * static_cast<std::size_t>(k_panels));
        for (const auto& [where, times] : written) {
          EXPECT_EQ(times, 1) << "row " << where.first << " k panel " << where.second;
          EXPECT_EQ(again.count(where.first), 1u) << "row " << where.first << " written but not listed";
        }

        // Rows contiguous: each item stages panel row pr (loads) and writes the listed ones of them.
        std::map<std::pair<index_t, index_t>, int> read, group_written;
        const index_t group_items = plan::item_count(static_cast<std::uint32_t>(l.groups.size()), plan::groups_per_item, k_panels);
        for (index_t item = 0; item < group_items; ++item) {
          const plan::Item at = plan::item_at(item, k_panels);
          index_t staged[plan::item_rows];
          for (int pr = 0; pr < plan::item_rows; ++pr) {
            const index_t entry = plan::group_entry(at.chunk, pr);
            staged[pr] = entry < static_cast<index_t>(l.groups.size())
                             ? plan::group_row(l.groups[static_cast<std::size_t>(entry)], pr)
                             : c.rows;  // nothing
            if (staged[pr] < c.rows) ++read[{staged[pr], at.k_panel}];
          }
          for (int r = 0; r < plan::item_rows; ++r) {
            const index_t entry = plan::group_entry(at.chunk, r);
            if (entry >= static_cast<index_t>(l.groups.size())) continue;
            const index_t row = plan::group_row(l.groups[static_cast<std::size_t>(entry)], r);
            if (row >= c.rows || !plan::listed_in(l.panel_rows[static_cast<std::size_t>(row / 32)], row)) continue;
            ++group_written[{row, at.k_panel}];
          }
        }
        EXPECT_EQ(group_written, written) << "both walks write the same rows, once each";
        std::size_t want_read = 0;
        for (const std::uint32_t g : want_groups)
          want_read += static_cast<std::size_t>(std::min<index_t>(8, c.rows - index_t{g} * 8));
        EXPECT_EQ(read.size(), want_read * static_cast<std::size_t>(k_panels)) << "the listed groups' rows are read";
        for (const auto& [where, times] : read) {
          EXPECT_EQ(times, 1) << "row " << where.first << " read twice";
          EXPECT_EQ(want_groups.count(plan::group_of(where.first)), 1u) << "row " << where.first << " read, its group unlisted";
        }
      }
    }
}

// A row's bit, group and group row, and when its bit opens its group: a
// mask of the panel's other groups' rows does, one of its own group's does not.
TEST(ResplitPlan, GroupsOfAPanelAreItsFourEights) {
  for (index_t row = 0; row < 256; ++row) {
    EXPECT_EQ(plan::group_of(row), static_cast<std::uint32_t>(row / 8));
    EXPECT_EQ(plan::group_row(plan::group_of(row), static_cast<int>(row % 32)), row);
    const std::uint32_t others = ~(0xffu << (row % 32 / 8 * 8));
    EXPECT_TRUE(plan::opens_group(others, row));
    EXPECT_FALSE(plan::opens_group(others | plan::row_bit(row ^ 1), row));
    EXPECT_TRUE(plan::listed_in(plan::row_bit(row), row));
    EXPECT_FALSE(plan::listed_in(plan::row_bit(row + 1), row));
  }
}

}  // namespace
}  // namespace egemm
