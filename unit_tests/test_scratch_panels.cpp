// Host tests of the panels of C a CUDA call runs in when its scratch does not fit.
//
// backends/cuda/runtime/scratch_panels.hpp: the shapes a call tries shrink to
// one granule and stop, the panels cover C exactly once, and each panel is
// the same gemm on its rows and columns: the host backend's panels, put
// together, are its whole call bit for bit, for every transpose.
#include <gtest/gtest.h>

#include <algorithm>
#include <optional>
#include <ostream>
#include <vector>

#include "backends/cuda/runtime/scratch_panels.hpp"
#include "support/gemm_check.hpp"

namespace egemm {
namespace cuda {
void PrintTo(const PanelShape& p, std::ostream* os) { *os << p.rows << " x " << p.cols; }
}  // namespace cuda
namespace {

using cuda::panel_granule;
using cuda::PanelShape;

// Every shape tried after the whole m x n, in order.
std::vector<PanelShape> shapes_tried(index_t m, index_t n) {
  std::vector<PanelShape> shapes;
  for (std::optional<PanelShape> p = cuda::smaller_panels({m, n}); p; p = cuda::smaller_panels(*p)) shapes.push_back(*p);
  return shapes;
}

TEST(ScratchPanels, HalvesTheLongerSideDownToOneGranule) {
  const std::vector<PanelShape> want = {{8192, 16384}, {8192, 8192}, {4096, 8192}, {4096, 4096}, {2048, 4096},
                                        {2048, 2048},  {1024, 2048}, {1024, 1024}, {512, 1024},  {512, 512},
                                        {256, 512},    {256, 256}};
  EXPECT_EQ(shapes_tried(16384, 16384), want);
  // Odd extents: halves rounded up to the granule; the shorter side waits until it is the longer.
  const std::vector<PanelShape> odd = {{512, 300}, {256, 300}, {256, 256}};
  EXPECT_EQ(shapes_tried(1000, 300), odd);
  const std::vector<PanelShape> thin = {{257, 20224}, {257, 10240}, {257, 5120}, {257, 2560}, {257, 1280},
                                        {257, 768},   {257, 512},   {257, 256},  {256, 256}};
  EXPECT_EQ(shapes_tried(257, 40000), thin);
  EXPECT_TRUE(shapes_tried(256, 256).empty()) << "one granule each way: nothing smaller to try";
  EXPECT_TRUE(shapes_tried(100, 3).empty());
}

// Each shape has a side smaller than the one before, every side is a
// multiple of the granule or the whole extent, and the last shape is one
// granule (or the whole extent, where smaller) each way.
TEST(ScratchPanels, EveryStepShrinksASideAndTheLastIsOneGranule) {
  for (index_t m : {1, 255, 256, 257, 1000, 4097, 70001})
    for (index_t n : {1, 300, 8192, 33333}) {
      SCOPED_TRACE(::testing::Message() << "m=" << m << " n=" << n);
      PanelShape before{m, n};
      for (const PanelShape& p : shapes_tried(m, n)) {
        EXPECT_TRUE((p.rows < before.rows && p.cols == before.cols) || (p.cols < before.cols && p.rows == before.rows));
        EXPECT_TRUE(p.rows % panel_granule == 0 || p.rows == m);
        EXPECT_TRUE(p.cols % panel_granule == 0 || p.cols == n);
        before = p;
      }
      EXPECT_EQ(before.rows, std::min(m, panel_granule));
      EXPECT_EQ(before.cols, std::min(n, panel_granule));
    }
}

// The panels cover every entry of C once, their count is panel_count's.
TEST(ScratchPanels, PanelsCoverCOnce) {
  for (const PanelShape p : {PanelShape{5, 3}, PanelShape{13, 11}, PanelShape{4, 20}, PanelShape{1, 1}}) {
    const index_t m = 13, n = 11, ldc = 16;
    std::vector<int> hits(static_cast<std::size_t>(ldc * n), 0);
    std::vector<float> c(hits.size());
    const GemmArgs g{Op::none, Op::none, m, n, 7, 1.0f, nullptr, m, nullptr, 7, 0.0f, c.data(), ldc};
    index_t panels = 0;
    cuda::for_each_panel(g, p, [&](const GemmArgs& part) {
      ++panels;
      EXPECT_LE(part.m, p.rows);
      EXPECT_LE(part.n, p.cols);
      EXPECT_EQ(part.ldc, ldc);
      for (index_t j = 0; j < part.n; ++j)
        for (index_t i = 0; i < part.m; ++i) ++hits[static_cast<std::size_t>(part.c + part.c_offset(i, j) - c.data())];
    });
    EXPECT_EQ(panels, cuda::panel_count(m, n, p));
    for (index_t j = 0; j < n; ++j)
      for (index_t i = 0; i < ldc; ++i)
        EXPECT_EQ(hits[static_cast<std::size_t>(i + j * ldc)], i < m ? 1 : 0) << "C(" << i << "," << j << ")";
  }
}

// The host backend on each panel (rows of op(A), columns of op(B), alpha and
// beta as given) writes what its whole call writes, bit for bit: NativeFP32
// (an FP32 dot product per entry) and Int8Slices (row and column exponents,
// exact integer sums), whose entries depend on their own row and column only.
TEST(ScratchPanels, PanelsOfAHostCallAreTheWholeCallBitForBit) {
  const PanelShape shape{7, 5};
  for (char ta : {'N', 'T'})
    for (char tb : {'N', 'T'}) {
      const test::GemmCase gc{ta, tb, 19, 12, 33, -0.75f, 2.5f, 3};
      const std::uint64_t seed = test::fresh_seed();
      SCOPED_TRACE(::testing::Message() << ta << tb << " seed=" << seed);
      const test::GemmInputs in = test::make_inputs(gc, seed);
      const auto compare = [&](auto tag) {
        std::vector<float> whole = in.c.data, panels = in.c.data;
        test::run_on_host(tag, in.args, whole.data());
        GemmArgs into_panels = in.args;
        into_panels.c = panels.data();
        cuda::for_each_panel(into_panels, shape, [&](const GemmArgs& part) { test::run_on_host(tag, part, part.c); });
        int differ = 0;
        for (std::size_t e = 0; e < whole.size(); ++e) differ += test::bits_of(whole[e]) != test::bits_of(panels[e]);
        EXPECT_EQ(differ, 0) << policy_traits<decltype(tag)>::name << ": entries that differ from the whole call";
      };
      compare(NativeFP32{});
      compare(Int8Slices{});
    }
}

}  // namespace
}  // namespace egemm
