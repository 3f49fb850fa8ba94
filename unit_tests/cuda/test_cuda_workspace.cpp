// The contract a call's one allocation rests on (backends/cuda/runtime/workspace.hpp):
// a measuring carver hands out nothing and counts what a launching carver
// over a workspace of that size then hands out, piece for piece; taking more
// than was measured is refused. Plain host code: runs without a GPU (CI too).
#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <vector>

#include "backends/cuda/runtime/workspace.hpp"

namespace egemm {
namespace {

using cuda::WorkspaceCarver;

// A launch sequence's takes, as the call's two passes make them.
std::vector<void*> take_pieces(WorkspaceCarver& carver) {
  return {carver.take<std::uint16_t>(1000), carver.take<int>(3), carver.take<float>(0), carver.take<std::uint32_t>(257)};
}

TEST(CudaWorkspace, MeasuringCountsWhatLaunchingHandsOut) {
  WorkspaceCarver sizer;
  EXPECT_TRUE(sizer.measures_only());
  for (void* p : take_pieces(sizer)) EXPECT_EQ(p, nullptr) << "a measuring carver handed out memory";
  // 2000 bytes -> 2048, 12 -> 256, 0 -> 0, 1028 -> 1280: every piece 256-byte aligned.
  ASSERT_EQ(sizer.size(), std::size_t{2048 + 256 + 0 + 1280});

  alignas(256) static unsigned char workspace[2048 + 256 + 1280];
  WorkspaceCarver scratch(workspace, sizer.size());
  EXPECT_FALSE(scratch.measures_only());
  const std::vector<void*> pieces = take_pieces(scratch);
  EXPECT_EQ(pieces[0], workspace);
  EXPECT_EQ(pieces[1], workspace + 2048);
  EXPECT_EQ(pieces[3], workspace + 2048 + 256);
  EXPECT_EQ(scratch.size(), sizer.size());
}

TEST(CudaWorkspace, TakingMoreThanWasMeasuredIsRefused) {
  alignas(256) static unsigned char workspace[512];
  WorkspaceCarver scratch(workspace, sizeof workspace);
  EXPECT_NE(scratch.take<float>(64), nullptr);
  EXPECT_NE(scratch.take<float>(64), nullptr);
  EXPECT_THROW(scratch.take<float>(1), std::logic_error);
}

// Launches of which only one works share scratch: both take from one mark,
// and the carver ends past the larger; the launching pass hands out the
// same overlapping pieces and may not end past what was measured.
TEST(CudaWorkspace, AlternativesShareTheirScratch) {
  const auto take_alternatives = [](WorkspaceCarver& carver) {
    std::vector<void*> pieces{carver.take<float>(10)};  // 256 bytes
    const std::size_t mark = carver.size();
    pieces.push_back(carver.take<float>(128));  // 512 bytes
    const std::size_t first_end = carver.size();
    carver.rewind_to(mark);
    pieces.push_back(carver.take<float>(64));  // 256 bytes
    carver.extend_to(first_end);
    return pieces;
  };
  WorkspaceCarver sizer;
  (void)take_alternatives(sizer);
  ASSERT_EQ(sizer.size(), std::size_t{256 + 512});

  alignas(256) static unsigned char workspace[256 + 512];
  WorkspaceCarver scratch(workspace, sizer.size());
  const std::vector<void*> pieces = take_alternatives(scratch);
  EXPECT_EQ(pieces[1], workspace + 256);
  EXPECT_EQ(pieces[2], workspace + 256) << "the second alternative did not reuse the first's scratch";
  EXPECT_EQ(scratch.size(), sizer.size());
  WorkspaceCarver small(workspace, 256 + 256);
  (void)small.take<float>(10);
  EXPECT_THROW(small.extend_to(256 + 512), std::logic_error);
}

// A launching carver over an empty workspace (the kernel-alone launch of a
// kernel that needs no scratch) still launches: it is not a measuring one.
TEST(CudaWorkspace, AnEmptyWorkspaceIsNotAMeasuringOne) {
  WorkspaceCarver scratch(nullptr, 0);
  EXPECT_FALSE(scratch.measures_only());
  EXPECT_EQ(scratch.take<float>(0), nullptr);
  EXPECT_THROW(scratch.take<float>(1), std::logic_error);
}

}  // namespace
}  // namespace egemm
