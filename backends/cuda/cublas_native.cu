#include "backends/cuda/cublas_native.hpp"

#include <climits>
#include <string>

#include "backends/cuda/cuda_check.hpp"
#include "backends/cuda/sgemm_plans.hpp"
#include "backends/cuda/thread_handles.hpp"
#include "egemm/errors.hpp"

namespace egemm::cuda {
namespace {

int checked_int(index_t v, const char* name) {
  if (v > INT_MAX) throw unsupported(std::string("egemm::gemm (CUDA, NativeFP32): ") + name + " = " + std::to_string(v) +
                                     " exceeds cuBLAS's 32-bit sizes");
  return static_cast<int>(v);
}

}  // namespace

cublasHandle_t cublas_handle() {
  thread_local ThreadHandles<cublasHandle_t, cublasDestroy> handles;
  int device = 0;
  EGEMM_CUDA_CHECK(cudaGetDevice(&device));
  return handles.get(device, [] {
    cublasHandle_t h = nullptr;
    EGEMM_CUBLAS_CHECK(cublasCreate(&h));
    // Plain FP32 math (no TF32 tensor-op shortcut), stated rather than assumed.
    const cublasStatus_t s = cublasSetMathMode(h, CUBLAS_DEFAULT_MATH);
    if (s != CUBLAS_STATUS_SUCCESS) {
      (void)cublasDestroy(h);
      EGEMM_CUBLAS_CHECK(s);
    }
    return h;
  });
}

void native_sgemm(const GemmArgs& g, cudaStream_t stream) {
  // cuBLAS's 32-bit sizes either way.
  const int m = checked_int(g.m, "m"), n = checked_int(g.n, "n"), k = checked_int(g.k, "k");
  const int lda = checked_int(g.lda, "lda"), ldb = checked_int(g.ldb, "ldb"), ldc = checked_int(g.ldc, "ldc");
  if (planned_sgemm(g, stream)) return;
  cublasHandle_t h = cublas_handle();
  EGEMM_CUBLAS_CHECK(cublasSetStream(h, stream));
  // The handle's pointer mode is the default (host) and never changed, so alpha/beta are read here.
  EGEMM_CUBLAS_CHECK(cublasSgemm(h, to_cublas(g.trans_a), to_cublas(g.trans_b), m, n, k, &g.alpha, g.a, lda, g.b, ldb,
                                 &g.beta, g.c, ldc));
}

}  // namespace egemm::cuda
