/* The C interface between libegemm_cublas.so (the interposer) and libegemm_cublas_engine.so (EGEMM behind it). */
#ifndef EGEMM_CUBLAS_ENGINE_ABI_H
#define EGEMM_CUBLAS_ENGINE_ABI_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The interposer loads the engine at the first call it could take, so a
   process that never makes one (or runs with EGEMM_CUBLAS_POLICY=off) never
   loads EGEMM or a second CUDA runtime, and EGEMM's own libcudart/libcublas
   dependencies resolve, by soname, to the copies the application loaded. */
#define EGEMM_CUBLAS_ENGINE_ABI 3

typedef struct egemm_cublas_engine {
  int abi; /* EGEMM_CUBLAS_ENGINE_ABI */
  /* 1 when `policy` (an egemm::PolicyId) runs `batch` m x n x k FP32
     products (a strided batch: one call each) on the current device on
     EGEMM's own kernels faster than the caller's cuBLAS call (where EGEMM
     would hand a product to SGEMM, where a batch's products are too small
     for a call each to beat cuBLAS's one batched launch, or where EGEMM
     cannot run on this device, the caller's call is the faster or the only
     choice): 0 then, and *why says why. */
  int (*takes)(int policy, int64_t m, int64_t n, int64_t k, int64_t batch, const char** why);
  /* C = alpha op(A) op(B) + beta C (column-major, transposes 'N' or 'T') on
     `stream`, enqueued without waiting. 0 on success; otherwise nonzero,
     `why` holds EGEMM's message and C is untouched. */
  int (*gemm)(int policy, char trans_a, char trans_b, int64_t m, int64_t n, int64_t k, float alpha, const float* a,
              int64_t lda, const float* b, int64_t ldb, float beta, float* c, int64_t ldc, void* stream, char* why,
              size_t why_size);
  /* The same two for FP64 products and an FP64 tag (EmulatedFP64): where
     EGEMM would hand a product to DGEMM, the caller's call is that DGEMM. */
  int (*takes64)(int policy, int64_t m, int64_t n, int64_t k, int64_t batch, const char** why);
  int (*gemm64)(int policy, char trans_a, char trans_b, int64_t m, int64_t n, int64_t k, double alpha, const double* a,
                int64_t lda, const double* b, int64_t ldb, double beta, double* c, int64_t ldc, void* stream,
                char* why, size_t why_size);
} egemm_cublas_engine;

/* The engine's only exported symbol. */
const egemm_cublas_engine* egemm_cublas_engine_v1(void);

#ifdef __cplusplus
}
#endif

#endif
