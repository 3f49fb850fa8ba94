// The CUDA backend's tuning overrides (backends/cuda/runtime/tuning.hpp):
// within one call each keeps the value the call started with, whatever
// another thread sets meanwhile (the call's two passes over its launch
// sequence must agree); outside a call each read sees the latest change; values out of
// range are bounded. Plain host code: runs without a GPU (CI too).
#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <memory>
#include <thread>

#include "backends/cuda/runtime/tuning.hpp"
#include "device_support.hpp"

namespace egemm {
namespace {

using cuda::CallTuning;
using cuda::ScopedTuning;
using cuda::StreamK;
using cuda::Tuning;
using cuda::tuning;

TEST(CudaTuning, ACallKeepsTheValuesItStartedWith) {
  const ScopedTuning forced([](Tuning& t) { t.sm90_stream_k = StreamK::always; });
  {
    auto call = std::make_unique<CallTuning>();
    EXPECT_EQ(tuning().sm90_stream_k, StreamK::always);
    const ScopedTuning changed([](Tuning& t) {  // as another thread's change, mid-call
      t.sm90_stream_k = StreamK::never;
      t.sm90_slots = 12;
    });
    EXPECT_EQ(tuning().sm90_stream_k, StreamK::always);
    EXPECT_EQ(tuning().sm90_slots, 0);
    {
      const CallTuning nested;  // a call inside the call keeps the outer one's values
      EXPECT_EQ(tuning().sm90_stream_k, StreamK::always);
    }
    EXPECT_EQ(tuning().sm90_stream_k, StreamK::always);
    call.reset();
    EXPECT_EQ(tuning().sm90_stream_k, StreamK::never) << "outside a call each read is fresh";
    EXPECT_EQ(tuning().sm90_slots, 12);
  }
  EXPECT_EQ(tuning().sm90_stream_k, StreamK::always) << "a scope restores what it changed";
  EXPECT_EQ(tuning().sm90_slots, 0);
}

// Outside a call a thread keeps its copy of the overrides until they change
// (no lock on the read): every change shows in every thread's next read,
// including a thread that read before the change, and a change back too.
TEST(CudaTuning, OutsideACallEveryChangeShowsInEveryThreadsNextRead) {
  const int before = tuning().sm90_slots;
  int seen_by_other = -1;
  std::thread([&] { seen_by_other = tuning().sm90_slots; }).join();
  EXPECT_EQ(seen_by_other, before);
  {
    const ScopedTuning changed([](Tuning& t) { t.sm90_slots = 7; });
    EXPECT_EQ(tuning().sm90_slots, 7);
    std::thread([&] { seen_by_other = tuning().sm90_slots; }).join();
    EXPECT_EQ(seen_by_other, 7);
    const ScopedTuning again([](Tuning& t) { t.sm90_slots = 9; });
    EXPECT_EQ(tuning().sm90_slots, 9);
  }
  EXPECT_EQ(tuning().sm90_slots, before) << "the scopes' restores are changes too";
  for (int round = 0; round < 3; ++round) {  // a thread that read first, then a change, then its read
    std::atomic<int> stage{0};
    int first = -1, second = -1;
    std::thread reader([&] {
      first = tuning().sm90_slots;
      stage = 1;
      while (stage.load() != 2) std::this_thread::yield();
      second = tuning().sm90_slots;
    });
    while (stage.load() != 1) std::this_thread::yield();
    {
      const ScopedTuning changed([&](Tuning& t) { t.sm90_slots = 20 + round; });
      stage = 2;
      reader.join();
    }
    EXPECT_EQ(first, before);
    EXPECT_EQ(second, 20 + round);
  }
}

// fault_launch = n faults the n-th launch of each call, counted from the
// call's start; 0 or less, none.
TEST(CudaTuning, FaultLaunchCountsTheCallsLaunches) {
  for (const int none : {0, -2}) {
    const ScopedTuning off([&](Tuning& t) { t.fault_launch = none; });
    const CallTuning call;
    for (int launch = 1; launch <= 4; ++launch) EXPECT_FALSE(cuda::fault_this_launch()) << none;
  }
  const ScopedTuning third([](Tuning& t) { t.fault_launch = 3; });
  for (int round = 0; round < 2; ++round) {  // each call counts from its own start
    const CallTuning call;
    EXPECT_FALSE(cuda::fault_this_launch());
    EXPECT_FALSE(cuda::fault_this_launch());
    EXPECT_TRUE(cuda::fault_this_launch());
    EXPECT_FALSE(cuda::fault_this_launch());
  }
}

TEST(CudaTuning, ValuesOutOfRangeAreBounded) {
  const ScopedTuning wild([](Tuning& t) {
    t.sm90_group = 1 << 30;
    t.sm90_slots = -3;
    t.sm90_cluster = 7;
  });
  EXPECT_EQ(tuning().sm90_group, 65535) << "a group that would overflow the raster is bounded";
  EXPECT_EQ(tuning().sm90_slots, 0) << "a negative cap is none";
  EXPECT_EQ(tuning().sm90_cluster, 2) << "clusters are pairs or single blocks";
}

// The defaults are the library's own choices.
TEST(CudaTuning, DefaultsAreTheLibrarysChoices) {
  const Tuning t;
  EXPECT_EQ(t.sm90_kernel, cuda::Sm90Kernel::model);
  EXPECT_TRUE(t.sm90_tile.empty());
  EXPECT_EQ(t.sm90_cluster, 2);
  EXPECT_TRUE(t.sm90_persistent);
  EXPECT_EQ(t.sm90_stream_k, StreamK::model);
  EXPECT_TRUE(t.sm90_c_through_tma && t.int8_one_read_split && t.sgemm_plans && t.dependent_launch);
  EXPECT_EQ(t.fault_launch, 0);
  EXPECT_EQ(t.scratch_limit, 0u) << "no limit on a call's scratch but the device's memory";
  EXPECT_FALSE(t.small_gemm_fallback.has_value());
}

// EGEMM_SMALL_GEMM_FALLBACK is read once per process; an override wins over it.
TEST(CudaTuning, SmallGemmFallbackOverrideWinsOverTheEnvironment) {
  const bool from_environment = cuda::small_gemm_fallback();
  {
    const ScopedTuning off([](Tuning& t) { t.small_gemm_fallback = false; });
    EXPECT_FALSE(cuda::small_gemm_fallback());
  }
  {
    const ScopedTuning on([](Tuning& t) { t.small_gemm_fallback = true; });
    EXPECT_TRUE(cuda::small_gemm_fallback());
  }
  {
    const test::ScopedEnv changed("EGEMM_SMALL_GEMM_FALLBACK", from_environment ? "0" : "1");
    EXPECT_EQ(cuda::small_gemm_fallback(), from_environment) << "read once per process";
  }
}

// The tests' ScopedEnv with a null value runs its scope with the variable
// unset (the library's own choice), whatever the caller exported.
TEST(CudaTuning, ScopedEnvWithoutAValueUnsetsForItsScope) {
  const test::ScopedEnv exported("EGEMM_LOG", "debug");
  {
    const test::ScopedEnv unset("EGEMM_LOG", nullptr);
    EXPECT_EQ(std::getenv("EGEMM_LOG"), nullptr);
  }
  EXPECT_NE(std::getenv("EGEMM_LOG"), nullptr);
}

}  // namespace
}  // namespace egemm
