// Int8Slices on the GPU: its integer sums are exact, so every kernel (the
// Hopper INT8 wgmma kernel, the mma.sync kernel other GPUs run) and both
// splits (one read from DRAM, the lagged split; two reads) must give the
// host oracle's bits, entry for entry, on fresh random inputs with C
// poisoned; also at the deepest k an int32 sum holds, with the largest
// digits, and past it (where the call runs EmulatedFP32).
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "device_support.hpp"
#include "egemm/numerics/int8_digits.hpp"

namespace egemm {
namespace {

// C from the device equals C from the host oracle, bit for bit (padding rows
// included), NaN for NaN.
void expect_device_bits_equal_host(const test::GemmCase& c, const test::GemmInputs& in) {
  std::vector<float> host(in.c.data), device(in.c.data);
  GemmArgs g = in.args;
  test::run_on_host(Int8Slices{}, g, host.data());
  g.c = device.data();
  test::run_on_device(Int8Slices{}, g, nullptr);
  int differ = 0;
  for (index_t j = 0; j < c.n; ++j)
    for (index_t i = 0; i < in.c.ld; ++i) {
      const float d = device[i + j * in.c.ld], h = host[i + j * in.c.ld];
      const bool both_nan = std::isnan(d) && std::isnan(h);  // a NaN's sign and payload: no gemm promises them
      if (std::memcmp(&d, &h, sizeof d) != 0 && !both_nan && differ++ < 5)
        ADD_FAILURE() << "C(" << i << "," << j << "): device " << d << ", host " << h;
    }
  EXPECT_EQ(differ, 0) << differ << " entries differ";
}

TEST(CudaInt8Slices, EveryKernelGivesTheHostOraclesBits) {
  EGEMM_REQUIRE_GPU();
  const test::GemmCase cases[] = {
      {'N', 'N', 1, 1, 1, 1.0f, 0.0f, 0},       {'N', 'T', 7, 9, 33, 1.0f, 0.0f, 3},
      {'T', 'N', 33, 35, 200, -0.75f, 2.0f, 1}, {'T', 'T', 130, 129, 257, 1.0f, 0.5f, 0},
      {'N', 'T', 300, 260, 1000, 1.0f, 0.0f, 1}, {'N', 'N', 129, 400, 70, -0.75f, -2.5f, 0},
      {'T', 'N', 512, 512, 4096, 1.0f, 0.0f, 0},  // k contiguous, 16-byte loads
      {'N', 'T', 256, 192, 640, 1.0f, 0.0f, 4},   // rows contiguous, 16-byte loads through shared memory
  };
  test::for_each_digits_kernel_and_split([&](const std::string& variant) {
    for (const test::GemmCase& c : cases) {
      const std::uint64_t seed = test::fresh_seed();
      SCOPED_TRACE(::testing::Message() << variant << " " << c.trans_a << c.trans_b << " m=" << c.m << " n=" << c.n
                                        << " k=" << c.k << " seed=" << seed);
      test::GemmInputs in = test::make_inputs(c, seed);
      if (c.beta == 0.0f) test::poison(in.c);
      expect_device_bits_equal_host(c, in);
      if (::testing::Test::HasFailure()) return;
    }
  });
}

// The stream-K tail (forced on): its stretches' int32 partial sums added by
// the fixup kernel are the same exact integers, so the bits stay the host's.
// 1300 x 1100: fewer tiles than slots, all of them split by k; 2304 x 2048:
// two whole rounds of cluster pairs and a split rest.
TEST(CudaInt8Slices, StreamKTailGivesTheHostOraclesBits) {
  EGEMM_REQUIRE_GPU();
  if (!test::hopper_kernel_runs_here()) GTEST_SKIP() << "not an sm_90 GPU with sm_90a code: no stream-K tail here";
  const cuda::ScopedTuning forced([](cuda::Tuning& t) { t.sm90_stream_k = cuda::StreamK::always; });
  for (const test::GemmCase& c : {test::GemmCase{'N', 'T', 1300, 1100, 3000, 1.0f, 0.0f, 0},
                                  test::GemmCase{'T', 'N', 2304, 2048, 512, -0.5f, 2.0f, 1}}) {
    const std::uint64_t seed = test::fresh_seed();
    SCOPED_TRACE(::testing::Message() << "m=" << c.m << " n=" << c.n << " k=" << c.k << " seed=" << seed);
    test::GemmInputs in = test::make_inputs(c, seed);
    if (c.beta == 0.0f) test::poison(in.c);
    expect_device_bits_equal_host(c, in);
  }
}

// Calls on several streams at once: the lagged splits' blocks wait for each
// other's panels across kernels sharing the GPU (a block waits only on panels
// whose blocks have started and never wait before arriving, so none can hold
// the slots the others need). Each result equals the same call's alone.
TEST(CudaInt8Slices, ConcurrentCallsOnManyStreamsFinishWithTheSameBits) {
  EGEMM_REQUIRE_GPU();
  const test::GemmCase c{'N', 'N', 384, 256, 12288, 1.0f, 0.0f, 0};  // 96 k panels a row panel
  test::GemmInputs in = test::make_inputs(c, test::fresh_seed());
  test::DeviceBuffer<float> a(in.a.data), b(in.b.data);
  std::vector<float> alone(in.c.data);
  GemmArgs g = in.args;
  g.c = alone.data();
  test::run_on_device(Int8Slices{}, g, nullptr);
  constexpr int streams = 8;
  std::vector<test::OwnedStream> owned(streams);
  // Poisoned: beta = 0 reads none of C, and an entry no call wrote fails the comparison.
  const std::vector<float> poisoned(in.c.data.size(), test::poison_value());
  std::vector<std::unique_ptr<test::DeviceBuffer<float>>> outputs;
  for (int s = 0; s < streams; ++s) {
    outputs.push_back(std::make_unique<test::DeviceBuffer<float>>(poisoned));
    test::gemm_on_device(Int8Slices{}, g, a.get(), b.get(), outputs.back()->get(), owned[s].get());
  }
  test::cuda_ok(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
  for (int s = 0; s < streams; ++s) {
    const std::vector<float> got = outputs[s]->download();
    for (index_t j = 0; j < c.n; ++j)
      EXPECT_EQ(std::memcmp(got.data() + j * in.c.ld, alone.data() + j * in.c.ld, c.m * sizeof(float)), 0)
          << "stream " << s << ", column " << j;
  }
}

// Rows of very different magnitudes (each row's exponent on its own), rows
// of zeros, and Inf/NaN rows (left to the special-value pass) on both kernels.
TEST(CudaInt8Slices, ScaledRowsZerosAndSpecialValuesGiveTheHostOraclesBits) {
  EGEMM_REQUIRE_GPU();
  const test::GemmCase c{'N', 'N', 200, 150, 300, 1.0f, 0.0f, 0};
  test::for_each_digits_kernel_and_split([&](const std::string& variant) {
    test::GemmInputs in = test::make_inputs(c, test::fresh_seed());
    for (index_t i = 0; i < c.m; ++i)
      for (index_t p = 0; p < c.k; ++p) in.a(i, p) = std::ldexp(in.a(i, p), static_cast<int>(i % 61) * 4 - 120);
    for (index_t p = 0; p < c.k; ++p) {
      in.a(3, p) = 0.0f;  // a zero row of op(A)
      in.b(p, 4) = 0.0f;  // a zero column of op(B)
    }
    in.a(10, 17) = std::numeric_limits<float>::infinity();
    in.b(40, 20) = std::numeric_limits<float>::quiet_NaN();
    in.a(11, 0) = std::numeric_limits<float>::max();  // a row whose exponent is FP32's largest
    test::poison(in.c);
    SCOPED_TRACE(variant);
    expect_device_bits_equal_host(c, in);
  });
}

// The deepest sum an int32 holds (int8_slices_max_depth values of k), every
// element the digits (-126, -128, -128): the largest of the three sums is
// (128^2 + 2 126 128) k, within 2^31. One past it, the call is EmulatedFP32's.
TEST(CudaInt8Slices, TheDeepestSumStaysExactAndDeeperOnesRunEmulatedFP32) {
  EGEMM_REQUIRE_GPU();
  const float x = std::ldexp(-(126.0f * 65536 + 128 * 256 + 128), -23);  // the row's maximum: e = 0
  ASSERT_EQ(numerics::int8_row_exponent(std::fabs(x)), 0);
  for (const cuda::Sm90Kernel kernel : test::each_digits_kernel_switch()) {
    const cuda::ScopedTuning choice([&](cuda::Tuning& t) { t.sm90_kernel = kernel; });
    SCOPED_TRACE(test::fused_kernel_switch_label(kernel));
    const index_t k = int8_slices_max_depth, m = 130, n = 3;
    test::GemmInputs in = test::make_inputs({'N', 'T', m, n, k, 1.0f, 0.0f, 0}, test::fresh_seed());
    std::fill(in.a.data.begin(), in.a.data.end(), x);
    std::fill(in.b.data.begin(), in.b.data.end(), x);
    test::poison(in.c);
    expect_device_bits_equal_host({'N', 'T', m, n, k, 1.0f, 0.0f, 0}, in);
    // k (N^2 - the dropped digit products (d1 d2' + d2 d1') 2^8 + d2 d2') 2^-46, rounded once.
    const __int128 n_scaled = -(126 * 65536 + 128 * 256 + 128), d12 = 128 * 128;
    const __int128 kept = static_cast<__int128>(k) * (n_scaled * n_scaled - 2 * d12 * 256 - d12);
    const float want = static_cast<float>(std::ldexp(static_cast<long double>(kept), -46));  // exact in 64 bits
    std::vector<float> host(in.c.data);
    test::run_on_host(Int8Slices{}, in.args, host.data());
    EXPECT_EQ(host[0], want);
  }
  const test::GemmCase deeper{'N', 'T', 40, 30, int8_slices_max_depth + 1, 1.0f, 0.0f, 0};
  test::GemmInputs in = test::make_inputs(deeper, test::fresh_seed());
  std::vector<float> as_int8(in.c.data), as_emulated(in.c.data);
  GemmArgs g = in.args;
  g.c = as_int8.data();
  test::run_on_device(Int8Slices{}, g, nullptr);
  g.c = as_emulated.data();
  test::run_on_device(EmulatedFP32{}, g, nullptr);
  EXPECT_EQ(std::memcmp(as_int8.data(), as_emulated.data(), as_int8.size() * sizeof(float)), 0);
}

}  // namespace
}  // namespace egemm
