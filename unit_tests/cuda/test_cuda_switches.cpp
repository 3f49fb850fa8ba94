// The EGEMM_* switches a call reads (backends/cuda/runtime/tuning.hpp): within one
// call each keeps the value it was first read with, whatever happens to the
// environment meanwhile (the call's two passes over its launch sequence must
// agree); outside a call each read is fresh. Plain host code: runs without a
// GPU (CI too).
#include <gtest/gtest.h>

#include <cstdlib>

#include "backends/cuda/runtime/tuning.hpp"
#include "device_support.hpp"

namespace egemm {
namespace {

using cuda::CallSwitches;
using cuda::Sm90Kernel;
using cuda::StreamK;
using cuda::switches;

TEST(CudaSwitches, ACallKeepsEachValueItRead) {
  const test::ScopedEnv forced("EGEMM_SM90_STREAM_K", "1");
  {
    const CallSwitches call;
    EXPECT_EQ(switches().sm90_stream_k(), StreamK::always);
    const test::ScopedEnv changed("EGEMM_SM90_STREAM_K", "0");  // as another thread's setenv, mid-call
    EXPECT_EQ(switches().sm90_stream_k(), StreamK::always);
    {
      const CallSwitches nested;  // a call inside the call keeps the outer one's values
      EXPECT_EQ(switches().sm90_stream_k(), StreamK::always);
    }
    EXPECT_EQ(switches().sm90_stream_k(), StreamK::always);
    // A switch first read after the change is read as it is then.
    const test::ScopedEnv slots("EGEMM_SM90_SLOTS", "12");
    EXPECT_EQ(switches().sm90_slots(), 12);
  }
  EXPECT_EQ(switches().sm90_stream_k(), StreamK::always);
  const test::ScopedEnv off("EGEMM_SM90_STREAM_K", "0");
  EXPECT_EQ(switches().sm90_stream_k(), StreamK::never) << "outside a call each read is fresh";
}

// EGEMM_FAULT_LAUNCH=n faults the n-th launch of each call, counted from
// the call's start; unset, none.
TEST(CudaSwitches, FaultLaunchCountsTheCallsLaunches) {
  {
    const test::ScopedEnv unset("EGEMM_FAULT_LAUNCH", nullptr);
    const CallSwitches call;
    for (int launch = 1; launch <= 4; ++launch) EXPECT_FALSE(switches().fault_this_launch()) << "unset";
  }
  for (const char* none : {"0", "-2", ""}) {
    const test::ScopedEnv off("EGEMM_FAULT_LAUNCH", none);
    const CallSwitches call;
    for (int launch = 1; launch <= 4; ++launch) EXPECT_FALSE(switches().fault_this_launch()) << "'" << none << "'";
  }
  const test::ScopedEnv third("EGEMM_FAULT_LAUNCH", "3");
  for (int round = 0; round < 2; ++round) {  // each call counts from its own start
    const CallSwitches call;
    EXPECT_FALSE(switches().fault_this_launch());
    EXPECT_FALSE(switches().fault_this_launch());
    EXPECT_TRUE(switches().fault_this_launch());
    EXPECT_FALSE(switches().fault_this_launch());
  }
}

TEST(CudaSwitches, ValuesReadAsTheReadmeSays) {
  {
    const test::ScopedEnv v("EGEMM_SM90_KERNEL", "0");
    EXPECT_EQ(switches().sm90_kernel(), Sm90Kernel::mma_sync);
  }
  {
    const test::ScopedEnv v("EGEMM_SM90_GROUP", "99999999999");
    EXPECT_EQ(switches().sm90_group(), 65535) << "a group that would overflow the raster is bounded";
  }
  {
    const test::ScopedEnv v("EGEMM_SM90_GROUP", "");
    EXPECT_EQ(switches().sm90_group(), 0) << "empty is unset";
  }
  {
    const test::ScopedEnv v("EGEMM_SM90_SLOTS", "-3");
    EXPECT_EQ(switches().sm90_slots(), 1);
  }
  {
    const test::ScopedEnv v("EGEMM_SM90_TILE", "128x128x3");
    EXPECT_EQ(switches().sm90_tile(), "128x128x3");
  }
  {
    const test::ScopedEnv v("EGEMM_SM90_C_STORE", "registers");
    EXPECT_FALSE(switches().sm90_c_through_tma());
  }
  {
    const test::ScopedEnv a("EGEMM_SMALL_GEMM_FALLBACK", "0"), b("EGEMM_SGEMM_PLANS", "0"),
        c("EGEMM_SM90_PERSISTENT", "0"), d("EGEMM_SM90_CLUSTER", "1"), e("EGEMM_INT8_ONE_READ_SPLIT", "0");
    EXPECT_FALSE(switches().small_gemm_fallback());
    EXPECT_FALSE(switches().sgemm_plans());
    EXPECT_FALSE(switches().sm90_persistent());
    EXPECT_EQ(switches().sm90_cluster(), 1);
    EXPECT_FALSE(switches().int8_one_read_split());
  }
  {
    const test::ScopedEnv unset("EGEMM_INT8_ONE_READ_SPLIT", nullptr);
    EXPECT_TRUE(switches().int8_one_read_split());
  }
}

// The tests' ScopedEnv with a null value runs its scope with the variable
// unset (the library's own choice), whatever the caller exported.
TEST(CudaSwitches, ScopedEnvWithoutAValueUnsetsForItsScope) {
  const test::ScopedEnv exported("EGEMM_SM90_KERNEL", "0");
  {
    const test::ScopedEnv unset("EGEMM_SM90_KERNEL", nullptr);
    EXPECT_EQ(std::getenv("EGEMM_SM90_KERNEL"), nullptr);
    EXPECT_EQ(switches().sm90_kernel(), Sm90Kernel::model);
  }
  EXPECT_EQ(switches().sm90_kernel(), Sm90Kernel::mma_sync);
}

}  // namespace
}  // namespace egemm
