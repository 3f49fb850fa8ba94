// The interposer where the application loaded cuBLAS with dlopen(RTLD_LOCAL) and looks it up with dlsym (Python extensions, XLA).
//
// The fake cuBLAS here carries the soname libcublas.so.<major> and is not
// linked: RTLD_NEXT cannot see it, the interposer must find it by soname,
// and its own lookups must not be answered by its dlsym hook (which would
// hand back the interposer's own functions: a pass-through would recurse).
#include <dlfcn.h>
#include <gtest/gtest.h>

#include "fakes.hpp"

namespace {

TEST(InterposerLocalCublas, DlsymAnswersWithTheInterposerWhichForwardsToTheLocallyLoadedCublas) {
  void* cublas = dlopen(EGEMM_TEST_LOCAL_FAKE_CUBLAS, RTLD_NOW | RTLD_LOCAL);
  ASSERT_NE(cublas, nullptr) << dlerror();
  using GemmEx = cublasStatus_t (*)(cublasHandle_t, cublasOperation_t, cublasOperation_t, int, int, int, const void*,
                                    const void*, cudaDataType, int, const void*, cudaDataType, int, const void*, void*,
                                    cudaDataType, int, cublasComputeType_t, cublasGemmAlgo_t);
  const auto gemm_ex = reinterpret_cast<GemmEx>(dlsym(cublas, "cublasGemmEx"));
  ASSERT_NE(gemm_ex, nullptr);
  Dl_info where{};
  ASSERT_NE(dladdr(reinterpret_cast<void*>(gemm_ex), &where), 0);
  EXPECT_NE(std::string(where.dli_fname).find("libegemm_cublas"), std::string::npos)
      << "dlsym(cuBLAS handle) did not answer with the interposer's cublasGemmEx: " << where.dli_fname;
  const auto calls = reinterpret_cast<std::vector<fake::Call>& (*)()>(dlsym(cublas, "_ZN4fake12cublas_callsEv"));
  ASSERT_NE(calls, nullptr);
  // TF32 compute: passed through, to the fake loaded above.
  fake::Handle h;
  const float alpha = 1.0f, beta = 0.0f;
  const float* a = reinterpret_cast<const float*>(0x1000);
  ASSERT_EQ(gemm_ex(fake::as_handle(h), CUBLAS_OP_N, CUBLAS_OP_N, 128, 128, 128, &alpha, a, CUDA_R_32F, 128, a,
                    CUDA_R_32F, 128, &beta, reinterpret_cast<float*>(0x3000), CUDA_R_32F, 128,
                    CUBLAS_COMPUTE_32F_FAST_TF32, CUBLAS_GEMM_DEFAULT),
            CUBLAS_STATUS_SUCCESS);
  ASSERT_EQ(calls().size(), 1u);
  EXPECT_EQ(calls()[0].entry, "cublasGemmEx");
  // EGEMM_CUBLAS_HOOK_DLSYM unset: the hook is on; dlsym of anything else is untouched.
  EXPECT_EQ(dlsym(cublas, "cublasGetMathMode"), dlvsym(cublas, "cublasGetMathMode", EGEMM_TEST_CUBLAS_SONAME));
}

}  // namespace
