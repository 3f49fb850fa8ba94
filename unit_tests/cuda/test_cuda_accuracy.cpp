// The accuracy claim: on uniform [-1, 1] inputs EmulatedFP32's relative
// Frobenius error against float64 is no larger than cuBLAS SGEMM's on the
// same inputs (float64 reference from cublasDgemm); nor on "wide" inputs
// (exponents spread over 2^-16..2^16: the full-range TF32 path), at sizes
// whose split runs in several waves of blocks; on every fused kernel the GPU
// can run (on Hopper also the mma.sync kernel every other GPU runs: a fold
// rounding toward zero there stays within the small shapes' bounds and shows
// only in this comparison with SGEMM at these sizes).
#include <cublas_v2.h>
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "device_support.hpp"

namespace egemm {
namespace {

void cublas_ok(cublasStatus_t s, const char* what) {
  if (s != CUBLAS_STATUS_SUCCESS) throw std::runtime_error(std::string(what) + ": cuBLAS status " + std::to_string(s));
}

double rel_frobenius(const std::vector<float>& c, const std::vector<double>& ref) {
  double err2 = 0.0, ref2 = 0.0;
  for (std::size_t i = 0; i < c.size(); ++i) {
    err2 += (c[i] - ref[i]) * (c[i] - ref[i]);
    ref2 += ref[i] * ref[i];
  }
  return std::sqrt(err2 / ref2);
}

TEST(CudaAccuracy, EmulatedFP32NoWorseThanCublasSgemm) {
  EGEMM_REQUIRE_GPU();
  cublasHandle_t handle = nullptr;
  cublas_ok(cublasCreate(&handle), "cublasCreate");
  for (bool wide : {false, true})
  for (index_t size : {1024, 2048, 4096}) {
    const std::uint64_t seed = test::fresh_seed();
    SCOPED_TRACE(std::string(wide ? "wide" : "uniform") + " size " + std::to_string(size) + " seed " + std::to_string(seed));
    const std::size_t count = static_cast<std::size_t>(size * size);
    std::vector<float> a(count), b(count);
    std::mt19937_64 gen(seed);
    std::uniform_real_distribution<float> u(-1.0f, 1.0f), mant(1.0f, 2.0f);
    std::uniform_int_distribution<int> exponent(-16, 16);
    auto draw = [&] { return wide ? std::copysign(std::ldexp(mant(gen), exponent(gen)), u(gen)) : u(gen); };
    for (float& x : a) x = draw();
    for (float& x : b) x = draw();
    std::vector<double> a64(a.begin(), a.end()), b64(b.begin(), b.end());

    test::DeviceBuffer<float> da(a), db(b), dc(count);
    test::DeviceBuffer<double> da64(a64), db64(b64), dref(count);
    const int n = static_cast<int>(size);
    const double one = 1.0, zero = 0.0;
    cublas_ok(cublasDgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, da64.get(), n, db64.get(), n, &zero,
                          dref.get(), n),
              "cublasDgemm");
    const std::vector<double> ref = dref.download();

    const float onef = 1.0f, zerof = 0.0f;
    cublas_ok(cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &onef, da.get(), n, db.get(), n, &zerof, dc.get(), n),
              "cublasSgemm");
    const double sgemm_error = rel_frobenius(dc.download(), ref);

    for (const cuda::Sm90Kernel kernel : test::each_fused_kernel_switch()) {
      const std::string which = test::fused_kernel_switch_label(kernel);
      SCOPED_TRACE(which);
      const cuda::ScopedTuning forced([&](cuda::Tuning& t) { t.sm90_kernel = kernel; });
      test::cuda_ok(cudaMemset(dc.get(), 0xFF, count * sizeof(float)), "poison C");  // NaN
      gemm(EmulatedFP32{}, 'N', 'N', size, size, size, 1.0f, da.get(), size, db.get(), size, 0.0f, dc.get(), size,
           nullptr);
      test::cuda_ok(cudaDeviceSynchronize(), "sync");
      const double emulated_error = rel_frobenius(dc.download(), ref);
      std::printf("[ accuracy ] %lld^3 %s, %s: EmulatedFP32 rel. Frobenius error %.3e, cuBLAS SGEMM %.3e\n",
                  static_cast<long long>(size), wide ? "wide (2^-16..2^16)" : "uniform[-1,1]", which.c_str(),
                  emulated_error, sgemm_error);
      EXPECT_LE(emulated_error, sgemm_error);
    }
  }
  cublasDestroy(handle);
}

}  // namespace
}  // namespace egemm
