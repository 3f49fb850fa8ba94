// GPU tests of calls whose scratch cannot be had whole.
//
// Such a call runs in panels of C on one smaller workspace, or, where not even the smallest panels' scratch fits, hands the
// product to cuBLAS SGEMM: either way it completes within its tag's bound,
// every entry of C written once and nothing outside C touched, and
// EGEMM_LOG=debug says which. The tuning's scratch_limit stands in for a
// full GPU here, on every tag that takes scratch and every transpose;
// test_cuda_large_operands.cpp runs the real thing (CudaOutOfMemory.*).
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <exception>
#include <string>
#include <vector>

#include "backends/cuda/runtime/scratch_panels.hpp"
#include "device_support.hpp"

namespace egemm {
namespace {

// What EGEMM_LOG=debug prints while `call` runs (synchronised after).
template <class Call>
std::string debug_log_of(Call call) {
  const test::ScopedDebugLog debug;
  ::testing::internal::CaptureStderr();
  call();
  test::cuda_ok(cudaDeviceSynchronize(), "sync");
  return ::testing::internal::GetCapturedStderr();
}

// The number before `key` in the log (-1 where the key is not there).
double logged_number_before(const std::string& log, const std::string& key) {
  const std::size_t at = log.find(key);
  if (at == std::string::npos) return -1.0;
  const std::size_t start = log.find_last_of(" ", at - 1);
  return std::strtod(log.c_str() + start + 1, nullptr);
}

// The whole call's scratch as the log names it, in bytes.
double logged_scratch_bytes(const std::string& log) {
  return logged_number_before(log, " MiB of scratch not available") * (1 << 20);
}

// "-> <count> panels of <rows> x <cols>": the shape (0 x 0 where none).
cuda::PanelShape logged_panels(const std::string& log, index_t& count) {
  const std::string key = " panels of ";
  const std::size_t at = log.find(key);
  count = static_cast<index_t>(logged_number_before(log, key));
  if (at == std::string::npos) return {};
  char* end = nullptr;
  const index_t rows = std::strtoll(log.c_str() + at + key.size(), &end, 10);
  const index_t cols = std::strtoll(end + 3, nullptr, 10);  // " x "
  return {rows, cols};
}

struct Outcome {
  std::vector<float> c;  // all of C, padding rows included
  std::string log;
};

// The tag's product on device copies of g's operands, C starting as g's,
// with a call's scratch limited to `limit` bytes.
template <class Policy>
Outcome run_with_scratch_limit(const GemmArgs& g, std::size_t limit) {
  const cuda::ScopedTuning limited([&](cuda::Tuning& t) { t.scratch_limit = limit; });
  test::DeviceBuffer<float> a(test::a_elems(g)), b(test::b_elems(g)), c(test::c_elems(g));
  a.upload(g.a, a.size());
  b.upload(g.b, b.size());
  c.upload(g.c, c.size());
  Outcome out;
  out.log = debug_log_of([&] { test::gemm_on_device(Policy{}, g, a.get(), b.get(), c.get(), nullptr); });
  out.c = c.download();
  return out;
}

// Every entry of C within `bound` of the float64 reference, padding rows as they were.
void expect_within(const GemmArgs& g, const std::vector<float>& c_before, const std::vector<float>& c,
                   const std::vector<double>& bound) {
  std::vector<double> ref(static_cast<std::size_t>(g.m * g.n));
  reference::gemm_fp64(g, ref.data());
  int reported = 0;
  for (index_t j = 0; j < g.n; ++j)
    for (index_t i = 0; i < g.ldc; ++i) {
      const std::size_t at = static_cast<std::size_t>(i + j * g.ldc);
      if (i >= g.m) {
        if (test::bits_of(c[at]) != test::bits_of(c_before[at]) && reported++ < 5)
          ADD_FAILURE() << "padding row " << i << " of column " << j << " was written";
        continue;
      }
      const double r = ref[i + j * g.m], err = std::fabs(c[at] - r);
      if (!(err <= bound[i + j * g.m]) && reported++ < 5)
        ADD_FAILURE() << "C(" << i << "," << j << ") = " << c[at] << ", float64 " << r << ", error " << err
                      << " > bound " << bound[i + j * g.m];
    }
  EXPECT_EQ(reported, 0) << reported << " entries wrong";
}

// One tag on one case: with a limit of one byte the call hands off to SGEMM
// (FP32's bound), and the log names the whole call's scratch W; with a limit
// of W / 2 it runs in several panels, within the tag's bound. Int8Slices'
// panels are the host's whole call bit for bit (its sums are exact and its
// scaling is per row and column).
template <class Policy>
void check_low_memory(const test::GemmCase& gc) {
  constexpr PolicyId id = policy_traits<Policy>::id;
  const std::uint64_t seed = test::fresh_seed();
  SCOPED_TRACE(::testing::Message() << policy_traits<Policy>::name << " " << gc.trans_a << gc.trans_b << " m=" << gc.m
                                    << " n=" << gc.n << " k=" << gc.k << " seed=" << seed);
  const test::GemmInputs in = test::make_inputs(gc, seed);
  const GemmArgs& g = in.args;
  const std::vector<float>& c_before = in.c.data;

  const Outcome handed_off = run_with_scratch_limit<Policy>(g, 1);
  EXPECT_NE(handed_off.log.find("-> native_fp32 (no panels fit)"), std::string::npos) << handed_off.log;
  expect_within(g, c_before, handed_off.c, test::error_bound(PolicyId::native_fp32, g, c_before));

  const double whole = logged_scratch_bytes(handed_off.log);
  ASSERT_GT(whole, 0.0) << "the log names no scratch: " << handed_off.log;
  const Outcome panels = run_with_scratch_limit<Policy>(g, static_cast<std::size_t>(whole / 2));
  index_t count = 0;
  const cuda::PanelShape shape = logged_panels(panels.log, count);
  EXPECT_GT(count, 1) << panels.log;
  EXPECT_EQ(count, cuda::panel_count(g.m, g.n, shape)) << panels.log;
  expect_within(g, c_before, panels.c, test::error_bound_any_path(id, g, c_before));
  if (id == PolicyId::int8_slices) {
    std::vector<float> host = c_before;
    test::run_on_host(Int8Slices{}, g, host.data());
    int differ = 0;
    for (std::size_t e = 0; e < host.size(); ++e) differ += test::bits_of(host[e]) != test::bits_of(panels.c[e]);
    EXPECT_EQ(differ, 0) << "entries where Int8Slices' panels differ from the host's whole call";
  }
}

// Odd extents (the last panels partial), padded leading dimensions, alpha
// and beta both in play.
std::vector<test::GemmCase> low_memory_cases() {
  std::vector<test::GemmCase> cases;
  for (char ta : {'N', 'T'})
    for (char tb : {'N', 'T'}) cases.push_back({ta, tb, 1000, 700, 300, -0.75f, 2.5f, 3});
  return cases;
}

TEST(CudaLowMemory, EveryTagCompletesInPanelsOrThroughSgemm) {
  EGEMM_REQUIRE_GPU();
  const cuda::ScopedTuning on_tensor_cores([](cuda::Tuning& t) { t.small_gemm_fallback = false; });
  for (const test::GemmCase& gc : low_memory_cases()) {
    check_low_memory<EmulatedFP32>(gc);
    check_low_memory<NormwiseFP32>(gc);
    check_low_memory<Int8Slices>(gc);
    check_low_memory<FullRangeTF32x3>(gc);
    check_low_memory<RoundSplit4>(gc);
    check_low_memory<TruncateSplit4>(gc);
    check_low_memory<Half>(gc);
  }
}

// With the hand-off at small sizes on (the default), EmulatedFP32 stops
// cutting C where a panel would be too small for the tensor cores to win
// and hands the whole product to SGEMM, as its call of the panel's shape
// would; with the hand-off off, the same limit runs panels of one granule.
// (No stream-K partial sums: the scratch is the split's alone, which the
// panels' extents set.)
TEST(CudaLowMemory, EmulatedFP32TakesSgemmBeforePanelsTooSmallToWin) {
  EGEMM_REQUIRE_GPU();
  const cuda::ScopedTuning whole_tiles([](cuda::Tuning& t) { t.sm90_stream_k = cuda::StreamK::never; });
  const index_t m = 2048, n = 2048, k = 512, g = cuda::panel_granule;
  const test::GemmInputs in = test::make_inputs({'N', 'N', m, n, k, 1.0f, 0.0f, 0}, test::fresh_seed());
  const auto run = [&](bool hand_off_small_calls, std::size_t limit) {
    const cuda::ScopedTuning fallback([&](cuda::Tuning& t) { t.small_gemm_fallback = hand_off_small_calls; });
    return run_with_scratch_limit<EmulatedFP32>(in.args, limit);
  };
  {
    const cuda::ScopedTuning defaults([](cuda::Tuning& t) { t.small_gemm_fallback = true; });
    ASSERT_TRUE(emulated_fp32_uses_tensor_cores(m, n, k));
    ASSERT_FALSE(emulated_fp32_uses_tensor_cores(g, g, k)) << "one granule of C is to hand off to SGEMM";
  }
  const double whole = logged_scratch_bytes(run(false, 1).log);
  ASSERT_GT(whole, 0.0);
  // Panels of g x g take (g + g) / (m + n) = 1/8 of the whole's split, of g x 2g 3/16: room for the first only.
  const auto limit = static_cast<std::size_t>(0.15 * whole);

  const Outcome panels = run(false, limit);
  index_t count = 0;
  const cuda::PanelShape shape = logged_panels(panels.log, count);
  EXPECT_EQ(shape, (cuda::PanelShape{g, g})) << panels.log;
  EXPECT_EQ(count, (m / g) * (n / g)) << panels.log;
  expect_within(in.args, in.c.data, panels.c, test::error_bound_any_path(PolicyId::emulated_fp32, in.args, in.c.data));

  const Outcome sgemm = run(true, limit);
  EXPECT_NE(sgemm.log.find("-> native_fp32 (smaller panels would not pay)"), std::string::npos) << sgemm.log;
  expect_within(in.args, in.c.data, sgemm.c, test::error_bound(PolicyId::native_fp32, in.args, in.c.data));
}

// Panels keep the stream form's promises: a call in panels on a stream of
// its own is captured into a CUDA graph (no host synchronisation anywhere on
// the way) whose replay writes C within the bound.
TEST(CudaLowMemory, PanelsAreCapturedIntoAGraph) {
  EGEMM_REQUIRE_GPU();
  const cuda::ScopedTuning on_tensor_cores([](cuda::Tuning& t) { t.small_gemm_fallback = false; });
  const test::GemmInputs in = test::make_inputs({'T', 'N', 1000, 700, 300, 1.0f, 0.5f, 2}, test::fresh_seed());
  const GemmArgs& g = in.args;
  const double whole = logged_scratch_bytes(run_with_scratch_limit<EmulatedFP32>(g, 1).log);
  ASSERT_GT(whole, 0.0);
  const cuda::ScopedTuning limited([&](cuda::Tuning& t) { t.scratch_limit = static_cast<std::size_t>(whole / 2); });
  test::DeviceBuffer<float> a(test::a_elems(g)), b(test::b_elems(g)), c(test::c_elems(g));
  a.upload(g.a, a.size());
  b.upload(g.b, b.size());
  c.upload(g.c, c.size());
  const test::OwnedStream stream;
  cudaGraph_t graph = nullptr;
  std::string log;
  {
    const test::ScopedDebugLog debug;
    ::testing::internal::CaptureStderr();
    test::cuda_ok(cudaStreamBeginCapture(stream.get(), cudaStreamCaptureModeThreadLocal), "cudaStreamBeginCapture");
    try {
      test::gemm_on_device(EmulatedFP32{}, g, a.get(), b.get(), c.get(), stream.get());
    } catch (const std::exception& e) {
      ADD_FAILURE() << "egemm::gemm in panels could not be captured: " << e.what();
    }
    const cudaError_t ended = cudaStreamEndCapture(stream.get(), &graph);
    log = ::testing::internal::GetCapturedStderr();
    ASSERT_EQ(ended, cudaSuccess) << cudaGetErrorString(ended) << "\n" << log;
  }
  EXPECT_NE(log.find(" panels of "), std::string::npos) << log;
  cudaGraphExec_t exec = nullptr;
  test::cuda_ok(cudaGraphInstantiate(&exec, graph, 0), "cudaGraphInstantiate");
  test::cuda_ok(cudaGraphLaunch(exec, stream.get()), "cudaGraphLaunch");
  test::cuda_ok(cudaStreamSynchronize(stream.get()), "replay");
  (void)cudaGraphExecDestroy(exec);
  (void)cudaGraphDestroy(graph);
  expect_within(g, in.c.data, c.download(), test::error_bound_any_path(PolicyId::emulated_fp32, g, in.c.data));
}

// A call whose scratch fits runs whole and logs nothing about scratch.
TEST(CudaLowMemory, ACallThatFitsRunsWhole) {
  EGEMM_REQUIRE_GPU();
  const cuda::ScopedTuning on_tensor_cores([](cuda::Tuning& t) { t.small_gemm_fallback = false; });
  const test::GemmInputs in = test::make_inputs({'N', 'T', 500, 400, 300, 1.0f, 0.0f, 0}, test::fresh_seed());
  const Outcome out = run_with_scratch_limit<EmulatedFP32>(in.args, 0);  // no limit
  EXPECT_EQ(out.log.find("of scratch not available"), std::string::npos) << out.log;
  EXPECT_NE(out.log.find("cuda EmulatedFP32 NT m=500 n=400 k=300 -> fp16_scaled"), std::string::npos) << out.log;
}

}  // namespace
}  // namespace egemm
