// NativeFP32 through cublasSgemm on a per-thread handle.
#include "backends/cuda/cublas/cublas_native.hpp"

#include <climits>

#include "backends/cuda/cublas/sgemm_plans.hpp"
#include "backends/cuda/runtime/cuda_check.hpp"
#include "backends/cuda/runtime/thread_handles.hpp"

namespace egemm::cuda {
namespace {

bool fits_int(const GemmArgs& g) {
  for (index_t v : {g.m, g.n, g.k, g.lda, g.ldb, g.ldc})
    if (v > INT_MAX) return false;
  return true;
}

}  // namespace

cublasHandle_t cublas_handle() {
  thread_local ThreadHandles<cublasHandle_t> handles;
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
  const bool small = fits_int(g);
  if (small && planned_sgemm(g, stream)) return;
  cublasHandle_t h = cublas_handle();
  EGEMM_CUBLAS_CHECK(cublasSetStream(h, stream));
  // The handle's pointer mode is the default (host) and never changed, so alpha/beta are read here.
  const cublasOperation_t ta = to_cublas(g.trans_a), tb = to_cublas(g.trans_b);
  if (small) {
    EGEMM_CUBLAS_CHECK(cublasSgemm(h, ta, tb, static_cast<int>(g.m), static_cast<int>(g.n), static_cast<int>(g.k),
                                   &g.alpha, g.a, static_cast<int>(g.lda), g.b, static_cast<int>(g.ldb), &g.beta, g.c,
                                   static_cast<int>(g.ldc)));
  } else {  // a size or leading dimension past 32 bits: cuBLAS's 64-bit interface
    EGEMM_CUBLAS_CHECK(cublasSgemm_64(h, ta, tb, g.m, g.n, g.k, &g.alpha, g.a, g.lda, g.b, g.ldb, &g.beta, g.c, g.ldc));
  }
}

}  // namespace egemm::cuda
