// The interposer over a fake cuBLAS and a fake engine, on the host: what it forwards unchanged, what it takes, and its guard.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>

#include "fakes.hpp"
#include "src/cublas_interposer/policy_setting.hpp"

extern "C" unsigned long long egemm_cublas_taken_calls(void);

namespace {

using fake::all_bits;
using fake::Call;

// Distinct, recognisable pointers: the fakes never dereference the matrices.
const float* const A = reinterpret_cast<const float*>(0x1000);
const float* const B = reinterpret_cast<const float*>(0x2000);
float* const C = reinterpret_cast<float*>(0x3000);
const cudaStream_t kStream = reinterpret_cast<cudaStream_t>(0x4000);
const float kAlpha = 1.5f, kBeta = 0.25f;

class Interposer : public ::testing::Test {
 protected:
  void SetUp() override {
    fake::cublas_calls().clear();
    fake::engine_calls().clear();
    fake::engine_queries() = 0;
    handle.stream = kStream;
  }
  // The only call that reached cuBLAS is `entry` with exactly these arguments; EGEMM got nothing.
  void expect_forwarded_unchanged(const char* entry, const std::vector<std::uint64_t>& args) {
    ASSERT_GE(fake::cublas_calls().size(), 1u);
    EXPECT_EQ(fake::cublas_calls()[0].entry, entry);
    EXPECT_EQ(fake::cublas_calls()[0].args, args);
    EXPECT_TRUE(fake::engine_calls().empty()) << "EGEMM ran a call it was to pass through";
  }
  fake::Handle handle;
};

// --- taken: EGEMM gets the call with the handle's stream; its own cuBLAS call reaches cuBLAS ---

TEST_F(Interposer, SgemmIsTakenOnTheHandlesStreamAndEgemmsOwnCublasCallReachesCublas) {
  const auto taken = egemm_cublas_taken_calls();
  ASSERT_EQ(cublasSgemm_v2(fake::as_handle(handle), CUBLAS_OP_T, CUBLAS_OP_N, 128, 96, 40, &kAlpha, A, 40, B, 41,
                           &kBeta, C, 130),
            CUBLAS_STATUS_SUCCESS);
  ASSERT_EQ(fake::engine_calls().size(), 1u);
  EXPECT_EQ(fake::engine_calls()[0].args,
            all_bits(static_cast<int>(egemm::PolicyId::emulated_fp32), 'T', 'N', int64_t{128}, int64_t{96},
                     int64_t{40}, kAlpha, A, int64_t{40}, B, int64_t{41}, kBeta, C, int64_t{130},
                     static_cast<void*>(kStream)));
  // The fake engine called cublasSgemm_v2 as EGEMM's hand-off does: it reached the
  // fake cuBLAS (not the engine again), and cuBLAS's own nested cublasLtMatmul did too.
  ASSERT_EQ(fake::cublas_calls().size(), 2u);
  EXPECT_EQ(fake::cublas_calls()[0].entry, "cublasSgemm_v2");
  EXPECT_EQ(fake::cublas_calls()[1].entry, "cublasLtMatmul");
  EXPECT_EQ(egemm_cublas_taken_calls(), taken + 1);
}

TEST_F(Interposer, GemmExFp32WithCompute32FIsTaken) {
  ASSERT_EQ(cublasGemmEx(fake::as_handle(handle), CUBLAS_OP_N, CUBLAS_OP_N, 64, 64, 64, &kAlpha, A, CUDA_R_32F, 64, B,
                         CUDA_R_32F, 64, &kBeta, C, CUDA_R_32F, 64, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_ALGO3),
            CUBLAS_STATUS_SUCCESS);
  EXPECT_EQ(fake::engine_calls().size(), 1u);
}

TEST_F(Interposer, StridedBatchesAreTakenItemByItemAtTheirOffsets) {
  ASSERT_EQ(cublasSgemmStridedBatched(fake::as_handle(handle), CUBLAS_OP_N, CUBLAS_OP_T, 64, 80, 16, &kAlpha, A, 64,
                                      1000, B, 80, 2000, &kBeta, C, 64, 3000, 3),
            CUBLAS_STATUS_SUCCESS);
  ASSERT_EQ(fake::engine_calls().size(), 3u);
  for (int i = 0; i < 3; ++i)
    EXPECT_EQ(fake::engine_calls()[i].args,
              all_bits(0, 'N', 'T', int64_t{64}, int64_t{80}, int64_t{16}, kAlpha, A + i * 1000, int64_t{64},
                       B + i * 2000, int64_t{80}, kBeta, C + i * 3000, int64_t{64}, static_cast<void*>(kStream)));
  ASSERT_EQ(cublasGemmStridedBatchedEx(fake::as_handle(handle), CUBLAS_OP_N, CUBLAS_OP_N, 64, 64, 64, &kAlpha, A,
                                       CUDA_R_32F, 64, 4096, B, CUDA_R_32F, 64, 4096, &kBeta, C, CUDA_R_32F, 64, 4096,
                                       2, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT),
            CUBLAS_STATUS_SUCCESS);
  EXPECT_EQ(fake::engine_calls().size(), 5u);
}

// Every handle-based entry point, called with arguments EGEMM would take
// under the default handle (128^3 FP32, host scalars; FP64 for the D-entries),
// and the arguments cuBLAS must receive when the call passes through.
struct EntryCall {
  const char* entry;
  std::function<void()> call;
  std::vector<std::uint64_t> args;
  bool fp32;
};
std::vector<EntryCall> handle_entry_calls(cublasHandle_t h) {
  static const double dalpha = 2.0, dbeta = 0.5;
  const double* dA = reinterpret_cast<const double*>(A);
  const double* dB = reinterpret_cast<const double*>(B);
  double* dC = reinterpret_cast<double*>(C);
  const auto N = CUBLAS_OP_N, T = CUBLAS_OP_T;
  const int64_t s = 128, L = 16384;
  return {
      {"cublasSgemm_v2", [=] { cublasSgemm_v2(h, N, T, 128, 128, 128, &kAlpha, A, 128, B, 128, &kBeta, C, 128); },
       all_bits(h, N, T, 128, 128, 128, &kAlpha, A, 128, B, 128, &kBeta, C, 128), true},
      {"cublasSgemm_v2_64", [=] { cublasSgemm_v2_64(h, N, T, s, s, s, &kAlpha, A, s, B, s, &kBeta, C, s); },
       all_bits(h, N, T, s, s, s, &kAlpha, A, s, B, s, &kBeta, C, s), true},
      {"cublasSgemmStridedBatched",
       [=] { cublasSgemmStridedBatched(h, T, N, 128, 128, 128, &kAlpha, A, 128, L, B, 128, L, &kBeta, C, 128, L, 2); },
       all_bits(h, T, N, 128, 128, 128, &kAlpha, A, 128, 16384LL, B, 128, 16384LL, &kBeta, C, 128, 16384LL, 2), true},
      {"cublasSgemmStridedBatched_64",
       [=] { cublasSgemmStridedBatched_64(h, T, N, s, s, s, &kAlpha, A, s, L, B, s, L, &kBeta, C, s, L, int64_t{2}); },
       all_bits(h, T, N, s, s, s, &kAlpha, A, s, 16384LL, B, s, 16384LL, &kBeta, C, s, 16384LL, int64_t{2}), true},
      {"cublasGemmEx",
       [=] {
         cublasGemmEx(h, T, T, 128, 128, 128, &kAlpha, A, CUDA_R_32F, 128, B, CUDA_R_32F, 128, &kBeta, C, CUDA_R_32F,
                      128, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
       },
       all_bits(h, T, T, 128, 128, 128, &kAlpha, A, CUDA_R_32F, 128, B, CUDA_R_32F, 128, &kBeta, C, CUDA_R_32F, 128,
                CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT),
       true},
      {"cublasGemmEx_64",
       [=] {
         cublasGemmEx_64(h, T, T, s, s, s, &kAlpha, A, CUDA_R_32F, s, B, CUDA_R_32F, s, &kBeta, C, CUDA_R_32F, s,
                         CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
       },
       all_bits(h, T, T, s, s, s, &kAlpha, A, CUDA_R_32F, s, B, CUDA_R_32F, s, &kBeta, C, CUDA_R_32F, s,
                CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT),
       true},
      {"cublasGemmStridedBatchedEx",
       [=] {
         cublasGemmStridedBatchedEx(h, N, N, 128, 128, 128, &kAlpha, A, CUDA_R_32F, 128, L, B, CUDA_R_32F, 128, L,
                                    &kBeta, C, CUDA_R_32F, 128, L, 2, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
       },
       all_bits(h, N, N, 128, 128, 128, &kAlpha, A, CUDA_R_32F, 128, 16384LL, B, CUDA_R_32F, 128, 16384LL, &kBeta, C,
                CUDA_R_32F, 128, 16384LL, 2, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT),
       true},
      {"cublasGemmStridedBatchedEx_64",
       [=] {
         cublasGemmStridedBatchedEx_64(h, N, N, s, s, s, &kAlpha, A, CUDA_R_32F, s, L, B, CUDA_R_32F, s, L, &kBeta, C,
                                       CUDA_R_32F, s, L, int64_t{2}, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
       },
       all_bits(h, N, N, s, s, s, &kAlpha, A, CUDA_R_32F, s, 16384LL, B, CUDA_R_32F, s, 16384LL, &kBeta, C, CUDA_R_32F,
                s, 16384LL, int64_t{2}, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT),
       true},
      {"cublasDgemm_v2", [=] { cublasDgemm_v2(h, N, N, 128, 128, 128, &dalpha, dA, 128, dB, 128, &dbeta, dC, 128); },
       all_bits(h, N, N, 128, 128, 128, &dalpha, dA, 128, dB, 128, &dbeta, dC, 128), false},
      {"cublasDgemm_v2_64", [=] { cublasDgemm_v2_64(h, N, N, s, s, s, &dalpha, dA, s, dB, s, &dbeta, dC, s); },
       all_bits(h, N, N, s, s, s, &dalpha, dA, s, dB, s, &dbeta, dC, s), false},
  };
}

// --- the handle's settings, types and shapes EGEMM does not take: forwarded unchanged ---

TEST_F(Interposer, EveryFp32EntryPointIsTakenUnderTheDefaultHandle) {
  for (const EntryCall& e : handle_entry_calls(fake::as_handle(handle))) {
    if (!e.fp32) continue;
    SetUp();
    e.call();
    EXPECT_FALSE(fake::engine_calls().empty()) << e.entry << " was not taken";
  }
}

TEST_F(Interposer, EveryEntryPointUnderATf32OrPedanticHandleOrDeviceScalarsIsForwardedUnchanged) {
  const auto check = [&](const char* setting) {
    for (const EntryCall& e : handle_entry_calls(fake::as_handle(handle))) {
      fake::cublas_calls().clear();
      e.call();
      SCOPED_TRACE(std::string(e.entry) + " under " + setting);
      expect_forwarded_unchanged(e.entry, e.args);
    }
  };
  handle.math = CUBLAS_TF32_TENSOR_OP_MATH;
  check("a TF32 handle");
  handle.math = CUBLAS_PEDANTIC_MATH;
  check("a pedantic handle");
  handle.math = CUBLAS_DEFAULT_MATH;
  handle.pointer_mode = CUBLAS_POINTER_MODE_DEVICE;
  check("device pointer mode");
  EXPECT_EQ(fake::engine_queries(), 0);
}

TEST_F(Interposer, SgemmUnderReducedPrecisionMathModesIsForwardedUnchanged) {
  for (cublasMath_t math : {CUBLAS_TF32_TENSOR_OP_MATH, CUBLAS_PEDANTIC_MATH, CUBLAS_TENSOR_OP_MATH,
                            CUBLAS_FP32_EMULATED_BF16X9_MATH}) {
    SetUp();
    handle.math = math;
    ASSERT_EQ(cublasSgemm_v2(fake::as_handle(handle), CUBLAS_OP_N, CUBLAS_OP_N, 128, 128, 128, &kAlpha, A, 128, B, 128,
                             &kBeta, C, 128),
              CUBLAS_STATUS_SUCCESS);
    expect_forwarded_unchanged("cublasSgemm_v2", all_bits(fake::as_handle(handle), CUBLAS_OP_N, CUBLAS_OP_N, 128, 128,
                                                          128, &kAlpha, A, 128, B, 128, &kBeta, C, 128));
    // cuBLAS's own nested cublasLtMatmul (FP32, compute 32F: takeable) was forwarded too.
    ASSERT_EQ(fake::cublas_calls().size(), 2u);
    EXPECT_EQ(fake::cublas_calls()[1].entry, "cublasLtMatmul");
    EXPECT_EQ(fake::engine_queries(), 0);
  }
}

TEST_F(Interposer, DisallowReducedPrecisionReductionBitStillTakes) {
  handle.math = static_cast<cublasMath_t>(CUBLAS_DEFAULT_MATH | CUBLAS_MATH_DISALLOW_REDUCED_PRECISION_REDUCTION);
  cublasSgemm_v2(fake::as_handle(handle), CUBLAS_OP_N, CUBLAS_OP_N, 128, 128, 128, &kAlpha, A, 128, B, 128, &kBeta, C,
                 128);
  EXPECT_EQ(fake::engine_calls().size(), 1u);
}

TEST_F(Interposer, DevicePointerModeIsForwardedUnchanged) {
  handle.pointer_mode = CUBLAS_POINTER_MODE_DEVICE;
  const float* d_alpha = reinterpret_cast<const float*>(0x5000);
  const float* d_beta = reinterpret_cast<const float*>(0x6000);
  cublasSgemm_v2(fake::as_handle(handle), CUBLAS_OP_N, CUBLAS_OP_N, 128, 128, 128, d_alpha, A, 128, B, 128, d_beta, C,
                 128);
  expect_forwarded_unchanged("cublasSgemm_v2", all_bits(fake::as_handle(handle), CUBLAS_OP_N, CUBLAS_OP_N, 128, 128,
                                                        128, d_alpha, A, 128, B, 128, d_beta, C, 128));
}

TEST_F(Interposer, ShapesTheEngineDoesNotTakeAreForwardedUnchanged) {
  cublasSgemm_v2_64(fake::as_handle(handle), CUBLAS_OP_N, CUBLAS_OP_T, 8, 128, 128, &kAlpha, A, 8, B, 128, &kBeta, C,
                    8);
  expect_forwarded_unchanged("cublasSgemm_v2_64", all_bits(fake::as_handle(handle), CUBLAS_OP_N, CUBLAS_OP_T,
                                                           int64_t{8}, int64_t{128}, int64_t{128}, &kAlpha, A,
                                                           int64_t{8}, B, int64_t{128}, &kBeta, C, int64_t{8}));
  EXPECT_EQ(fake::engine_queries(), 1);
}

TEST_F(Interposer, ABatchTheEngineDoesNotTakeIsForwardedWhole) {
  cublasSgemmStridedBatched(fake::as_handle(handle), CUBLAS_OP_N, CUBLAS_OP_N, 32, 32, 32, &kAlpha, A, 32, 1024, B, 32,
                            1024, &kBeta, C, 32, 1024, 64);
  expect_forwarded_unchanged("cublasSgemmStridedBatched",
                             all_bits(fake::as_handle(handle), CUBLAS_OP_N, CUBLAS_OP_N, 32, 32, 32, &kAlpha, A, 32,
                                      1024LL, B, 32, 1024LL, &kBeta, C, 32, 1024LL, 64));
  SetUp();
  cublasSgemmStridedBatched_64(fake::as_handle(handle), CUBLAS_OP_N, CUBLAS_OP_N, 32, 32, 32, &kAlpha, A, 32, 1024, B,
                               32, 1024, &kBeta, C, 32, 1024, 64);
  expect_forwarded_unchanged("cublasSgemmStridedBatched_64",
                             all_bits(fake::as_handle(handle), CUBLAS_OP_N, CUBLAS_OP_N, int64_t{32}, int64_t{32},
                                      int64_t{32}, &kAlpha, A, int64_t{32}, 1024LL, B, int64_t{32}, 1024LL, &kBeta, C,
                                      int64_t{32}, 1024LL, int64_t{64}));
}

TEST_F(Interposer, EngineFailureHandsTheCallToCublasUnchanged) {
  cublasSgemm_v2(fake::as_handle(handle), CUBLAS_OP_N, CUBLAS_OP_N, fake::engine_failing_m, 128, 128, &kAlpha, A, 77,
                 B, 128, &kBeta, C, 77);
  ASSERT_EQ(fake::engine_calls().size(), 1u);  // EGEMM tried and refused; C untouched by it
  ASSERT_GE(fake::cublas_calls().size(), 1u);
  EXPECT_EQ(fake::cublas_calls()[0].args, all_bits(fake::as_handle(handle), CUBLAS_OP_N, CUBLAS_OP_N,
                                                   int(fake::engine_failing_m), 128, 128, &kAlpha, A, 77, B, 128,
                                                   &kBeta, C, 77));
}

TEST_F(Interposer, GemmExOtherThanFp32WithCompute32FIsForwardedUnchanged) {
  struct Case {
    cudaDataType a, b, c;
    cublasComputeType_t compute;
  };
  for (const Case& k : {Case{CUDA_R_32F, CUDA_R_32F, CUDA_R_32F, CUBLAS_COMPUTE_32F_FAST_TF32},
                        Case{CUDA_R_32F, CUDA_R_32F, CUDA_R_32F, CUBLAS_COMPUTE_32F_FAST_16F},
                        Case{CUDA_R_32F, CUDA_R_32F, CUDA_R_32F, CUBLAS_COMPUTE_32F_FAST_16BF},
                        Case{CUDA_R_32F, CUDA_R_32F, CUDA_R_32F, CUBLAS_COMPUTE_32F_PEDANTIC},
                        Case{CUDA_R_32F, CUDA_R_32F, CUDA_R_32F, CUBLAS_COMPUTE_32F_EMULATED_16BFX9},
                        Case{CUDA_R_16F, CUDA_R_16F, CUDA_R_32F, CUBLAS_COMPUTE_32F},
                        Case{CUDA_R_16BF, CUDA_R_16BF, CUDA_R_16BF, CUBLAS_COMPUTE_32F},
                        Case{CUDA_R_64F, CUDA_R_64F, CUDA_R_64F, CUBLAS_COMPUTE_64F}}) {
    SetUp();
    cublasGemmEx(fake::as_handle(handle), CUBLAS_OP_T, CUBLAS_OP_T, 128, 128, 128, &kAlpha, A, k.a, 128, B, k.b, 128,
                 &kBeta, C, k.c, 128, k.compute, CUBLAS_GEMM_DEFAULT_TENSOR_OP);
    expect_forwarded_unchanged("cublasGemmEx",
                               all_bits(fake::as_handle(handle), CUBLAS_OP_T, CUBLAS_OP_T, 128, 128, 128, &kAlpha, A,
                                        k.a, 128, B, k.b, 128, &kBeta, C, k.c, 128, k.compute,
                                        CUBLAS_GEMM_DEFAULT_TENSOR_OP));
    SetUp();
    cublasGemmEx_64(fake::as_handle(handle), CUBLAS_OP_T, CUBLAS_OP_T, 128, 128, 128, &kAlpha, A, k.a, 128, B, k.b,
                    128, &kBeta, C, k.c, 128, k.compute, CUBLAS_GEMM_DEFAULT);
    expect_forwarded_unchanged("cublasGemmEx_64",
                               all_bits(fake::as_handle(handle), CUBLAS_OP_T, CUBLAS_OP_T, int64_t{128}, int64_t{128},
                                        int64_t{128}, &kAlpha, A, k.a, int64_t{128}, B, k.b, int64_t{128}, &kBeta, C,
                                        k.c, int64_t{128}, k.compute, CUBLAS_GEMM_DEFAULT));
    SetUp();
    cublasGemmStridedBatchedEx(fake::as_handle(handle), CUBLAS_OP_N, CUBLAS_OP_N, 128, 128, 128, &kAlpha, A, k.a, 128,
                               1 << 14, B, k.b, 128, 1 << 14, &kBeta, C, k.c, 128, 1 << 14, 4, k.compute,
                               CUBLAS_GEMM_DEFAULT);
    expect_forwarded_unchanged("cublasGemmStridedBatchedEx",
                               all_bits(fake::as_handle(handle), CUBLAS_OP_N, CUBLAS_OP_N, 128, 128, 128, &kAlpha, A,
                                        k.a, 128, 16384LL, B, k.b, 128, 16384LL, &kBeta, C, k.c, 128, 16384LL, 4,
                                        k.compute, CUBLAS_GEMM_DEFAULT));
    SetUp();
    cublasGemmStridedBatchedEx_64(fake::as_handle(handle), CUBLAS_OP_N, CUBLAS_OP_N, 128, 128, 128, &kAlpha, A, k.a,
                                  128, 1 << 14, B, k.b, 128, 1 << 14, &kBeta, C, k.c, 128, 1 << 14, 4, k.compute,
                                  CUBLAS_GEMM_DEFAULT);
    expect_forwarded_unchanged("cublasGemmStridedBatchedEx_64",
                               all_bits(fake::as_handle(handle), CUBLAS_OP_N, CUBLAS_OP_N, int64_t{128}, int64_t{128},
                                        int64_t{128}, &kAlpha, A, k.a, int64_t{128}, 16384LL, B, k.b, int64_t{128},
                                        16384LL, &kBeta, C, k.c, int64_t{128}, 16384LL, int64_t{4}, k.compute,
                                        CUBLAS_GEMM_DEFAULT));
    EXPECT_EQ(fake::engine_queries(), 0);
  }
}

TEST_F(Interposer, ConjugateOnlyTransposeAndBadSizesAreLeftToCublas) {
  cublasSgemm_v2(fake::as_handle(handle), CUBLAS_OP_CONJG, CUBLAS_OP_N, 128, 128, 128, &kAlpha, A, 128, B, 128, &kBeta,
                 C, 128);
  expect_forwarded_unchanged("cublasSgemm_v2", all_bits(fake::as_handle(handle), CUBLAS_OP_CONJG, CUBLAS_OP_N, 128,
                                                        128, 128, &kAlpha, A, 128, B, 128, &kBeta, C, 128));
  SetUp();
  cublasSgemm_v2(fake::as_handle(handle), CUBLAS_OP_N, CUBLAS_OP_N, 128, 128, 128, &kAlpha, A, 127, B, 128, &kBeta, C,
                 128);
  expect_forwarded_unchanged("cublasSgemm_v2", all_bits(fake::as_handle(handle), CUBLAS_OP_N, CUBLAS_OP_N, 128, 128,
                                                        128, &kAlpha, A, 127, B, 128, &kBeta, C, 128));
  SetUp();
  cublasSgemm_v2(fake::as_handle(handle), CUBLAS_OP_N, CUBLAS_OP_N, -1, 128, 128, &kAlpha, A, 128, B, 128, &kBeta, C,
                 128);
  expect_forwarded_unchanged("cublasSgemm_v2", all_bits(fake::as_handle(handle), CUBLAS_OP_N, CUBLAS_OP_N, -1, 128,
                                                        128, &kAlpha, A, 128, B, 128, &kBeta, C, 128));
}

TEST_F(Interposer, Fp64IsForwardedUnchanged) {
  const double alpha = 2.0, beta = 0.0;
  const double* dA = reinterpret_cast<const double*>(A);
  const double* dB = reinterpret_cast<const double*>(B);
  double* dC = reinterpret_cast<double*>(C);
  cublasDgemm_v2(fake::as_handle(handle), CUBLAS_OP_N, CUBLAS_OP_T, 256, 256, 256, &alpha, dA, 256, dB, 256, &beta, dC,
                 256);
  expect_forwarded_unchanged("cublasDgemm_v2", all_bits(fake::as_handle(handle), CUBLAS_OP_N, CUBLAS_OP_T, 256, 256,
                                                        256, &alpha, dA, 256, dB, 256, &beta, dC, 256));
  SetUp();
  cublasDgemm_v2_64(fake::as_handle(handle), CUBLAS_OP_N, CUBLAS_OP_T, 256, 256, 256, &alpha, dA, 256, dB, 256, &beta,
                    dC, 256);
  expect_forwarded_unchanged("cublasDgemm_v2_64",
                             all_bits(fake::as_handle(handle), CUBLAS_OP_N, CUBLAS_OP_T, int64_t{256}, int64_t{256},
                                      int64_t{256}, &alpha, dA, int64_t{256}, dB, int64_t{256}, &beta, dC, int64_t{256}));
}

// The interposer's own cost on a call it passes through (the checks of a
// handle-based call under a TF32 handle, and of a _FAST_ compute type): the
// median of interleaved rounds, against the fake cuBLAS's body called directly.
// On the GPU a call not taken adds, beyond this, at most one query of
// EGEMM's crossover model (InterposerGpu.ACallNotTakenCostsAtMostOneMicrosecondMore).
TEST_F(Interposer, APassThroughAddsFarLessThanAMicrosecond) {
  fake::set_recording(false);
  const auto direct = fake::gemm_ex_direct();
  const auto round = [&](auto f, cublasComputeType_t compute) {
    constexpr int calls = 20000;
    const auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < calls; ++i)
      f(fake::as_handle(handle), CUBLAS_OP_N, CUBLAS_OP_N, 128, 128, 128, &kAlpha, A, CUDA_R_32F, 128, B, CUDA_R_32F,
        128, &kBeta, C, CUDA_R_32F, 128, compute, CUBLAS_GEMM_DEFAULT);
    return std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - t0).count() / calls;
  };
  handle.math = CUBLAS_TF32_TENSOR_OP_MATH;
  const auto interposed = static_cast<fake::GemmExFunction>(&cublasGemmEx);
  std::vector<double> d, tf32_handle, fast_compute;
  for (int r = 0; r < 21; ++r) {
    d.push_back(round(direct, CUBLAS_COMPUTE_32F));
    tf32_handle.push_back(round(interposed, CUBLAS_COMPUTE_32F));
    fast_compute.push_back(round(interposed, CUBLAS_COMPUTE_32F_FAST_TF32));
  }
  fake::set_recording(true);
  for (auto* v : {&d, &tf32_handle, &fast_compute}) std::sort(v->begin(), v->end());
  const double base = d[10], extra_handle = tf32_handle[10] - base, extra_fast = fast_compute[10] - base;
  std::printf("pass-through cost over a direct call: %.1f ns (TF32 handle), %.1f ns (_FAST_TF32 compute type)\n",
              extra_handle, extra_fast);
  EXPECT_LT(extra_handle, 1000.0);
  EXPECT_LT(extra_fast, 1000.0);
  EXPECT_TRUE(fake::engine_calls().empty());
}

// --- cublasLtMatmul ---

struct LtCall {
  cublasLtMatmulDescOpaque_t desc{};
  cublasLtMatrixLayoutOpaque_t a{}, b{}, c{}, d{};
  const void* c_ptr = C;
  void* d_ptr = C;
  float beta = kBeta;

  static void layout(cublasLtMatrixLayoutOpaque_t& l, std::uint64_t rows, std::uint64_t cols, std::int64_t ld) {
    l.data[CUBLASLT_MATRIX_LAYOUT_TYPE] = CUDA_R_32F;
    l.data[CUBLASLT_MATRIX_LAYOUT_ORDER] = CUBLASLT_ORDER_COL;
    l.data[CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT] = 1;
    l.data[CUBLASLT_MATRIX_LAYOUT_ROWS] = rows;
    l.data[CUBLASLT_MATRIX_LAYOUT_COLS] = cols;
    l.data[CUBLASLT_MATRIX_LAYOUT_LD] = static_cast<std::uint64_t>(ld);
  }
  // C (128 x 96) = op(A) op(B), A stored 40 x 128 (transposed), B 40 x 96.
  LtCall() {
    desc.data[CUBLASLT_MATMUL_DESC_COMPUTE_TYPE] = CUBLAS_COMPUTE_32F;
    desc.data[CUBLASLT_MATMUL_DESC_SCALE_TYPE] = CUDA_R_32F;
    desc.data[CUBLASLT_MATMUL_DESC_TRANSA] = CUBLAS_OP_T;
    desc.data[CUBLASLT_MATMUL_DESC_TRANSB] = CUBLAS_OP_N;
    desc.data[CUBLASLT_MATMUL_DESC_EPILOGUE] = CUBLASLT_EPILOGUE_DEFAULT;
    desc.data[CUBLASLT_MATMUL_DESC_FILL_MODE] = CUBLAS_FILL_MODE_FULL;
    layout(a, 40, 128, 40);
    layout(b, 40, 96, 41);
    layout(c, 128, 96, 130);
    layout(d, 128, 96, 130);
  }
  cublasStatus_t run() {
    return cublasLtMatmul(reinterpret_cast<cublasLtHandle_t>(0x7000), &desc, &kAlpha, A, &a, B, &b, &beta, c_ptr, &c,
                          d_ptr, &d, nullptr, reinterpret_cast<void*>(0x8000), 4096, kStream);
  }
  std::vector<std::uint64_t> args() const {
    return all_bits(reinterpret_cast<cublasLtHandle_t>(0x7000), &desc, &kAlpha, A, &a, B, &b, &beta, c_ptr, &c, d_ptr,
                    &d, static_cast<const cublasLtMatmulAlgo_t*>(nullptr), reinterpret_cast<void*>(0x8000),
                    std::size_t{4096}, kStream);
  }
};

TEST_F(Interposer, LtMatmulFp32IsTakenOnItsStream) {
  LtCall lt;
  ASSERT_EQ(lt.run(), CUBLAS_STATUS_SUCCESS);
  ASSERT_EQ(fake::engine_calls().size(), 1u);
  EXPECT_EQ(fake::engine_calls()[0].args,
            all_bits(0, 'T', 'N', int64_t{128}, int64_t{96}, int64_t{40}, kAlpha, A, int64_t{40}, B, int64_t{41}, kBeta,
                     C, int64_t{130}, static_cast<void*>(kStream)));
}

TEST_F(Interposer, LtMatmulIntoAnotherDWithBetaZeroIsTakenIntoD) {
  LtCall lt;
  float* D = reinterpret_cast<float*>(0x9000);
  lt.d_ptr = D;
  lt.beta = 0.0f;
  LtCall::layout(lt.d, 128, 96, 128);
  ASSERT_EQ(lt.run(), CUBLAS_STATUS_SUCCESS);
  ASSERT_EQ(fake::engine_calls().size(), 1u);
  EXPECT_EQ(fake::engine_calls()[0].args,
            all_bits(0, 'T', 'N', int64_t{128}, int64_t{96}, int64_t{40}, kAlpha, A, int64_t{40}, B, int64_t{41}, 0.0f,
                     D, int64_t{128}, static_cast<void*>(kStream)));
}

TEST_F(Interposer, LtMatmulCasesEgemmDoesNotTakeAreForwardedUnchanged) {
  const auto forwarded = [&](const char* what, auto change) {
    SetUp();
    LtCall lt;
    change(lt);
    ASSERT_EQ(lt.run(), CUBLAS_STATUS_SUCCESS) << what;
    expect_forwarded_unchanged("cublasLtMatmul", lt.args());
    EXPECT_EQ(fake::cublas_calls().size(), 1u) << what;
  };
  forwarded("TF32", [](LtCall& l) { l.desc.data[CUBLASLT_MATMUL_DESC_COMPUTE_TYPE] = CUBLAS_COMPUTE_32F_FAST_TF32; });
  forwarded("BF16x9", [](LtCall& l) { l.desc.data[CUBLASLT_MATMUL_DESC_COMPUTE_TYPE] = CUBLAS_COMPUTE_32F_EMULATED_16BFX9; });
  forwarded("BF16 data", [](LtCall& l) { l.a.data[CUBLASLT_MATRIX_LAYOUT_TYPE] = CUDA_R_16BF; });
  forwarded("bias", [](LtCall& l) { l.desc.data[CUBLASLT_MATMUL_DESC_EPILOGUE] = CUBLASLT_EPILOGUE_BIAS; });
  forwarded("row-major", [](LtCall& l) { l.c.data[CUBLASLT_MATRIX_LAYOUT_ORDER] = CUBLASLT_ORDER_ROW; });
  forwarded("device alpha", [](LtCall& l) { l.desc.data[CUBLASLT_MATMUL_DESC_POINTER_MODE] = CUBLASLT_POINTER_MODE_DEVICE; });
  forwarded("batched", [](LtCall& l) {
    for (auto* x : {&l.a, &l.b, &l.c, &l.d}) x->data[CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT] = 4;
  });
  forwarded("D is not C, beta 0.25", [](LtCall& l) { l.d_ptr = reinterpret_cast<void*>(0x9000); });
  forwarded("SM count target", [](LtCall& l) { l.desc.data[CUBLASLT_MATMUL_DESC_SM_COUNT_TARGET] = 66; });
  forwarded("lower fill", [](LtCall& l) { l.desc.data[CUBLASLT_MATMUL_DESC_FILL_MODE] = CUBLAS_FILL_MODE_LOWER; });
  forwarded("D scale", [](LtCall& l) { l.desc.data[CUBLASLT_MATMUL_DESC_D_SCALE_POINTER] = 0xA000; });
  forwarded("small", [](LtCall& l) {
    LtCall::layout(l.c, 8, 96, 8);
    LtCall::layout(l.d, 8, 96, 8);
    LtCall::layout(l.a, 40, 8, 40);
  });
  forwarded("sizes disagree", [](LtCall& l) { LtCall::layout(l.b, 39, 96, 41); });
}

// --- EGEMM_CUBLAS_POLICY ---

TEST(InterposerPolicy, ParsesTagsOffAndUnknownValues) {
  using egemm::interposer::parse_policy_setting;
  using Kind = egemm::interposer::PolicySetting::Kind;
  EXPECT_EQ(parse_policy_setting(nullptr).id, egemm::PolicyId::emulated_fp32);
  EXPECT_EQ(parse_policy_setting(nullptr).kind, Kind::tag);
  EXPECT_EQ(parse_policy_setting("").id, egemm::PolicyId::emulated_fp32);
  EXPECT_EQ(parse_policy_setting("off").kind, Kind::off);
  EXPECT_EQ(parse_policy_setting("OFF").kind, Kind::off);
  EXPECT_EQ(parse_policy_setting("normwisefp32").id, egemm::PolicyId::normwise_fp32);
  EXPECT_EQ(parse_policy_setting("Int8Slices").id, egemm::PolicyId::int8_slices);
  EXPECT_EQ(parse_policy_setting("FullRangeTF32x3").id, egemm::PolicyId::full_range_tf32x3);
  EXPECT_EQ(parse_policy_setting("EmulatedFP32").kind, Kind::tag);
  EXPECT_EQ(parse_policy_setting("EmulatedFP").kind, Kind::unknown);
  EXPECT_EQ(parse_policy_setting("on").kind, Kind::unknown);
  EXPECT_NE(std::string(egemm::interposer::accepted_policy_values()).find("NormwiseFP32"), std::string::npos);
}

TEST(InterposerPolicy, Fp64IsOffUnlessAnFp64TagIsNamed) {
  using egemm::interposer::parse_fp64_policy_setting;
  using Kind = egemm::interposer::PolicySetting::Kind;
  EXPECT_EQ(parse_fp64_policy_setting(nullptr).kind, Kind::off);
  EXPECT_EQ(parse_fp64_policy_setting("").kind, Kind::off);
  EXPECT_EQ(parse_fp64_policy_setting("Off").kind, Kind::off);
  EXPECT_EQ(parse_fp64_policy_setting("EmulatedFP64").kind, Kind::tag);
  EXPECT_EQ(parse_fp64_policy_setting("emulatedfp64").id, egemm::PolicyId::emulated_fp64);
  EXPECT_EQ(parse_fp64_policy_setting("EmulatedFP32").kind, Kind::unknown);  // an FP32 tag is not an FP64 one
  EXPECT_NE(std::string(egemm::interposer::accepted_fp64_policy_values()).find("EmulatedFP64"), std::string::npos);
}

// Run with EGEMM_CUBLAS_FP64_POLICY=EmulatedFP64 (ctest egemm_cublas_interposer_fp64):
// cublasDgemm_v2 (and _64) and FP64 cublasGemmEx with CUBLAS_COMPUTE_64F reach
// EGEMM with the handle's stream, EGEMM's own cublasDgemm_v2 reaches cuBLAS;
// the FP64 calls EGEMM must not take are forwarded unchanged.
TEST_F(Interposer, Fp64IsTakenUnderTheFp64Policy) {
  ASSERT_STREQ(std::getenv("EGEMM_CUBLAS_FP64_POLICY"), "EmulatedFP64")
      << "run this test under EGEMM_CUBLAS_FP64_POLICY=EmulatedFP64";
  const double alpha = 2.0, beta = 0.5;
  const double* dA = reinterpret_cast<const double*>(A);
  const double* dB = reinterpret_cast<const double*>(B);
  double* dC = reinterpret_cast<double*>(C);
  const int fp64 = static_cast<int>(egemm::PolicyId::emulated_fp64);
  const auto taken = egemm_cublas_taken_calls();
  ASSERT_EQ(cublasDgemm_v2(fake::as_handle(handle), CUBLAS_OP_N, CUBLAS_OP_T, 256, 200, 96, &alpha, dA, 256, dB, 200,
                           &beta, dC, 260),
            CUBLAS_STATUS_SUCCESS);
  ASSERT_EQ(fake::engine_calls().size(), 1u);
  EXPECT_EQ(fake::engine_calls()[0].entry, "gemm64");
  EXPECT_EQ(fake::engine_calls()[0].args,
            all_bits(fp64, 'N', 'T', int64_t{256}, int64_t{200}, int64_t{96}, alpha, dA, int64_t{256}, dB,
                     int64_t{200}, beta, dC, int64_t{260}, static_cast<void*>(kStream)));
  ASSERT_EQ(fake::cublas_calls().size(), 1u);  // the fake engine's own cublasDgemm_v2, not looped back to EGEMM
  EXPECT_EQ(fake::cublas_calls()[0].entry, "cublasDgemm_v2");
  EXPECT_EQ(egemm_cublas_taken_calls(), taken + 1);

  SetUp();
  cublasDgemm_v2_64(fake::as_handle(handle), CUBLAS_OP_T, CUBLAS_OP_N, 128, 128, 64, &alpha, dA, 64, dB, 64, &beta, dC,
                    128);
  ASSERT_EQ(fake::engine_calls().size(), 1u);
  EXPECT_EQ(fake::engine_calls()[0].args, all_bits(fp64, 'T', 'N', int64_t{128}, int64_t{128}, int64_t{64}, alpha, dA,
                                                   int64_t{64}, dB, int64_t{64}, beta, dC, int64_t{128},
                                                   static_cast<void*>(kStream)));
  SetUp();
  cublasGemmEx(fake::as_handle(handle), CUBLAS_OP_N, CUBLAS_OP_N, 128, 128, 128, &alpha, dA, CUDA_R_64F, 128, dB,
               CUDA_R_64F, 128, &beta, dC, CUDA_R_64F, 128, CUBLAS_COMPUTE_64F, CUBLAS_GEMM_DEFAULT);
  ASSERT_EQ(fake::engine_calls().size(), 1u);
  EXPECT_EQ(fake::engine_calls()[0].entry, "gemm64");

  // Not taken: the pedantic compute type, a device pointer mode, an emulated math mode, a shape the engine declines, a batch.
  SetUp();
  cublasGemmEx(fake::as_handle(handle), CUBLAS_OP_N, CUBLAS_OP_N, 128, 128, 128, &alpha, dA, CUDA_R_64F, 128, dB,
               CUDA_R_64F, 128, &beta, dC, CUDA_R_64F, 128, CUBLAS_COMPUTE_64F_PEDANTIC, CUBLAS_GEMM_DEFAULT);
  expect_forwarded_unchanged("cublasGemmEx", all_bits(fake::as_handle(handle), CUBLAS_OP_N, CUBLAS_OP_N, 128, 128, 128,
                                                      &alpha, dA, CUDA_R_64F, 128, dB, CUDA_R_64F, 128, &beta, dC,
                                                      CUDA_R_64F, 128, CUBLAS_COMPUTE_64F_PEDANTIC, CUBLAS_GEMM_DEFAULT));
  SetUp();
  handle.pointer_mode = CUBLAS_POINTER_MODE_DEVICE;
  cublasDgemm_v2(fake::as_handle(handle), CUBLAS_OP_N, CUBLAS_OP_N, 128, 128, 128, &alpha, dA, 128, dB, 128, &beta, dC,
                 128);
  expect_forwarded_unchanged("cublasDgemm_v2", all_bits(fake::as_handle(handle), CUBLAS_OP_N, CUBLAS_OP_N, 128, 128,
                                                        128, &alpha, dA, 128, dB, 128, &beta, dC, 128));
  handle.pointer_mode = CUBLAS_POINTER_MODE_HOST;
  SetUp();
  handle.math = CUBLAS_FP64_EMULATED_FIXEDPOINT_MATH;
  cublasDgemm_v2(fake::as_handle(handle), CUBLAS_OP_N, CUBLAS_OP_N, 128, 128, 128, &alpha, dA, 128, dB, 128, &beta, dC,
                 128);
  expect_forwarded_unchanged("cublasDgemm_v2", all_bits(fake::as_handle(handle), CUBLAS_OP_N, CUBLAS_OP_N, 128, 128,
                                                        128, &alpha, dA, 128, dB, 128, &beta, dC, 128));
  // TF32 math concerns FP32 products: an FP64 call under it is taken (PyTorch's allow_tf32 sets it).
  SetUp();
  handle.math = CUBLAS_TF32_TENSOR_OP_MATH;
  cublasDgemm_v2(fake::as_handle(handle), CUBLAS_OP_N, CUBLAS_OP_N, 128, 128, 128, &alpha, dA, 128, dB, 128, &beta, dC,
                 128);
  EXPECT_EQ(fake::engine_calls().size(), 1u) << "an FP64 call under TF32 math was not taken";
  handle.math = CUBLAS_DEFAULT_MATH;
  SetUp();
  cublasDgemm_v2(fake::as_handle(handle), CUBLAS_OP_N, CUBLAS_OP_N, 8, 128, 128, &alpha, dA, 8, dB, 128, &beta, dC, 8);
  expect_forwarded_unchanged("cublasDgemm_v2", all_bits(fake::as_handle(handle), CUBLAS_OP_N, CUBLAS_OP_N, 8, 128, 128,
                                                        &alpha, dA, 8, dB, 128, &beta, dC, 8));
  SetUp();
  cublasGemmStridedBatchedEx(fake::as_handle(handle), CUBLAS_OP_N, CUBLAS_OP_N, 128, 128, 128, &alpha, dA, CUDA_R_64F,
                             128, 16384, dB, CUDA_R_64F, 128, 16384, &beta, dC, CUDA_R_64F, 128, 16384, 2,
                             CUBLAS_COMPUTE_64F, CUBLAS_GEMM_DEFAULT);
  expect_forwarded_unchanged("cublasGemmStridedBatchedEx",
                             all_bits(fake::as_handle(handle), CUBLAS_OP_N, CUBLAS_OP_N, 128, 128, 128, &alpha, dA,
                                      CUDA_R_64F, 128, 16384LL, dB, CUDA_R_64F, 128, 16384LL, &beta, dC, CUDA_R_64F,
                                      128, 16384LL, 2, CUBLAS_COMPUTE_64F, CUBLAS_GEMM_DEFAULT));
  // The FP32 calls still follow EGEMM_CUBLAS_POLICY (unset: EmulatedFP32).
  SetUp();
  cublasSgemm_v2(fake::as_handle(handle), CUBLAS_OP_N, CUBLAS_OP_N, 128, 128, 128, &kAlpha, A, 128, B, 128, &kBeta, C,
                 128);
  ASSERT_EQ(fake::engine_calls().size(), 1u);
  EXPECT_EQ(fake::engine_calls()[0].entry, "gemm");
}

// Run with EGEMM_CUBLAS_POLICY=off (ctest egemm_cublas_interposer_policy_off).
TEST_F(Interposer, OffPassesEverythingThroughWithoutLoadingTheEngine) {
  ASSERT_STREQ(std::getenv("EGEMM_CUBLAS_POLICY"), "off") << "run this test under EGEMM_CUBLAS_POLICY=off";
  for (const EntryCall& e : handle_entry_calls(fake::as_handle(handle))) {
    SetUp();
    e.call();
    SCOPED_TRACE(e.entry);
    expect_forwarded_unchanged(e.entry, e.args);
  }
  SetUp();
  cublasSgemm_v2(fake::as_handle(handle), CUBLAS_OP_N, CUBLAS_OP_N, 128, 128, 128, &kAlpha, A, 128, B, 128, &kBeta, C,
                 128);
  expect_forwarded_unchanged("cublasSgemm_v2", all_bits(fake::as_handle(handle), CUBLAS_OP_N, CUBLAS_OP_N, 128, 128,
                                                        128, &kAlpha, A, 128, B, 128, &kBeta, C, 128));
  SetUp();
  LtCall lt;
  lt.run();
  expect_forwarded_unchanged("cublasLtMatmul", lt.args());
  SetUp();
  cublasGemmEx(fake::as_handle(handle), CUBLAS_OP_N, CUBLAS_OP_N, 128, 128, 128, &kAlpha, A, CUDA_R_32F, 128, B,
               CUDA_R_32F, 128, &kBeta, C, CUDA_R_32F, 128, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
  expect_forwarded_unchanged("cublasGemmEx", all_bits(fake::as_handle(handle), CUBLAS_OP_N, CUBLAS_OP_N, 128, 128, 128,
                                                      &kAlpha, A, CUDA_R_32F, 128, B, CUDA_R_32F, 128, &kBeta, C,
                                                      CUDA_R_32F, 128, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
  EXPECT_EQ(fake::engine_queries(), 0);
}

// Run with EGEMM_CUBLAS_POLICY=EmulatedFP (ctest egemm_cublas_interposer_policy_unknown).
TEST_F(Interposer, AnUnknownPolicyIsReportedOnceAndPassesEverythingThrough) {
  ASSERT_STREQ(std::getenv("EGEMM_CUBLAS_POLICY"), "EmulatedFP") << "run this test under EGEMM_CUBLAS_POLICY=EmulatedFP";
  testing::internal::CaptureStderr();
  for (int i = 0; i < 3; ++i)
    cublasSgemm_v2(fake::as_handle(handle), CUBLAS_OP_N, CUBLAS_OP_N, 128, 128, 128, &kAlpha, A, 128, B, 128, &kBeta,
                   C, 128);
  const std::string err = testing::internal::GetCapturedStderr();
  const std::string message = "EGEMM_CUBLAS_POLICY=EmulatedFP is not a policy";
  ASSERT_NE(err.find(message), std::string::npos) << err;
  EXPECT_EQ(err.find(message, err.find(message) + 1), std::string::npos) << "reported more than once:\n" << err;
  EXPECT_EQ(fake::engine_queries(), 0);
  EXPECT_EQ(fake::cublas_calls().size(), 6u);  // three gemms, each with cuBLAS's nested cublasLtMatmul
}

}  // namespace
