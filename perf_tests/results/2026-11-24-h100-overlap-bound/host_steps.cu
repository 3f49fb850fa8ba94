// Session 11 experiment: which host steps of EGEMM's 1024^3 hand-off to SGEMM cost time after a
// pause. Each "step" is timed alone, 15 times, each after 0.25 s idle; median and max host us.
#include <cublas_v2.h>
#include <cuda.h>
#include <cudaTypedefs.h>
#include <cuda_runtime.h>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <functional>
#include <thread>
#include <vector>
#include "egemm/gemm.hpp"
#include "egemm/policy.hpp"

using clk = std::chrono::steady_clock;
int main(int argc, char** argv) {
  const int m = 1024, n = 1024, k = 1024;
  const int rests = argc > 1 ? std::atoi(argv[1]) : 15;
  float *a, *b, *c;
  cudaMalloc(&a, 4u * m * k); cudaMalloc(&b, 4u * k * n); cudaMalloc(&c, 4u * m * n);
  cudaMemset(a, 0x3c, 4u * m * k); cudaMemset(b, 0x3c, 4u * k * n);
  cudaStream_t s; cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
  cublasHandle_t h; cublasCreate(&h); cublasSetStream(h, s);
  cublasHandle_t h2; cublasCreate(&h2);
  const float one = 1, zero = 0;
  PFN_cuPointerGetAttribute_v4000 get_attr = nullptr;
  cudaDriverEntryPointQueryResult q;
  cudaGetDriverEntryPointByVersion("cuPointerGetAttribute", (void**)&get_attr, 4000, cudaEnableDefault, &q);
  PFN_cuPointerGetAttributes_v7000 get_attrs = nullptr;
  cudaGetDriverEntryPointByVersion("cuPointerGetAttributes", (void**)&get_attrs, 7000, cudaEnableDefault, &q);
  struct Step { const char* name; std::function<void()> run; };
  const std::vector<Step> steps = {
    {"nothing", [] {}},
    {"cudaGetDevice", [] { int d; cudaGetDevice(&d); }},
    {"cudaPointerGetAttributes x1", [&] { cudaPointerAttributes at; cudaPointerGetAttributes(&at, a); }},
    {"cudaPointerGetAttributes x3", [&] { cudaPointerAttributes at; cudaPointerGetAttributes(&at, a); cudaPointerGetAttributes(&at, b); cudaPointerGetAttributes(&at, c); }},
    {"cuPointerGetAttribute(MEMORY_TYPE) x3", [&] { unsigned t; get_attr(&t, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, (CUdeviceptr)a); get_attr(&t, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, (CUdeviceptr)b); get_attr(&t, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, (CUdeviceptr)c); }},
    {"cuPointerGetAttributes(TYPE,MANAGED) x3", [&] { CUpointer_attribute at[2] = {CU_POINTER_ATTRIBUTE_MEMORY_TYPE, CU_POINTER_ATTRIBUTE_IS_MANAGED}; unsigned t; unsigned mg; void* d[2] = {&t, &mg}; get_attrs(2, at, d, (CUdeviceptr)a); get_attrs(2, at, d, (CUdeviceptr)b); get_attrs(2, at, d, (CUdeviceptr)c); }},
    {"cublasSetStream (same stream)", [&] { cublasSetStream(h, s); }},
    {"cublasSgemm", [&] { cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &one, a, m, b, k, &zero, c, m); }},
    {"cublasSetStream + cublasSgemm (2nd handle)", [&] { cublasSetStream(h2, s); cublasSgemm(h2, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &one, a, m, b, k, &zero, c, m); }},
    {"ptr x3 + cublasSgemm", [&] { cudaPointerAttributes at; cudaPointerGetAttributes(&at, a); cudaPointerGetAttributes(&at, b); cudaPointerGetAttributes(&at, c); cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &one, a, m, b, k, &zero, c, m); }},
    {"egemm NativeFP32", [&] { egemm::gemm(egemm::NativeFP32{}, 'N', 'N', m, n, k, 1.0f, a, m, b, k, 0.0f, c, m, s); }},
    {"egemm EmulatedFP32 (hand-off)", [&] { egemm::gemm(egemm::EmulatedFP32{}, 'N', 'N', m, n, k, 1.0f, a, m, b, k, 0.0f, c, m, s); }},
    {"cublasSgemm (again)", [&] { cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &one, a, m, b, k, &zero, c, m); }},
    {"egemm EmulatedFP32 (again)", [&] { egemm::gemm(egemm::EmulatedFP32{}, 'N', 'N', m, n, k, 1.0f, a, m, b, k, 0.0f, c, m, s); }},
  };
  for (auto& st : steps) { for (int i = 0; i < 20; ++i) st.run(); }
  cudaDeviceSynchronize();
  std::printf("| step | warm us (median of 200) | rested us median | rested us min | rested us max |\n|---|---:|---:|---:|---:|\n");
  for (auto& st : steps) {
    std::vector<double> warm(200), rested(rests);
    for (auto& w : warm) { auto t0 = clk::now(); st.run(); w = std::chrono::duration<double, std::micro>(clk::now() - t0).count(); }
    cudaDeviceSynchronize();
    for (auto& r : rested) {
      std::this_thread::sleep_for(std::chrono::milliseconds(250));
      auto t0 = clk::now(); st.run(); r = std::chrono::duration<double, std::micro>(clk::now() - t0).count();
      cudaDeviceSynchronize();
    }
    std::sort(warm.begin(), warm.end()); std::sort(rested.begin(), rested.end());
    std::printf("| %s | %.2f | %.1f | %.1f | %.1f |\n", st.name, warm[100], rested[rests / 2], rested[0], rested.back());
    std::fflush(stdout);
  }
  return 0;
}
