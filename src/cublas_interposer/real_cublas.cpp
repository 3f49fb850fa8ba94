// Finds the real cuBLAS functions once: RTLD_NEXT, else the loaded libcublas / libcublasLt by soname.
#include "src/cublas_interposer/real_cublas.hpp"

#include "src/cublas_interposer/libc_dlsym.hpp"

#include <dlfcn.h>

#include <cstdio>
#include <string>

namespace egemm::interposer {
namespace {

#define EGEMM_STRINGIFY2(x) #x
#define EGEMM_STRINGIFY(x) EGEMM_STRINGIFY2(x)
// The sonames of the cuBLAS these headers describe (libcublas.so.13 for CUDA 13).
constexpr const char* cublas_soname = "libcublas.so." EGEMM_STRINGIFY(CUBLAS_VER_MAJOR);
constexpr const char* cublas_lt_soname = "libcublasLt.so." EGEMM_STRINGIFY(CUBLAS_VER_MAJOR);

// RTLD_NEXT searches the global scope after the interposer. A library the
// application dlopen'ed with RTLD_LOCAL (Python extension modules load theirs
// so) is not in it, but is found by soname: RTLD_NOLOAD returns it without
// loading a second copy. Only where neither finds it is the library loaded.
// The lookups go to the C library's dlsym: the interposer's own would answer
// a lookup in libcublas's handle with the interposer's functions.
// A definition inside the interposer itself is never the real one (forwarding
// to it would recurse): such an answer counts as none.
bool outside_interposer(void* f) {
  Dl_info mine{}, theirs{};
  return f != nullptr && dladdr(reinterpret_cast<void*>(&outside_interposer), &mine) != 0 &&
         dladdr(f, &theirs) != 0 && mine.dli_fbase != theirs.dli_fbase;
}

void* find(const char* name, const char* soname) {
  if (void* f = libc_dlsym()(RTLD_NEXT, name); outside_interposer(f)) return f;
  void* library = dlopen(soname, RTLD_NOW | RTLD_NOLOAD);
  if (library == nullptr) library = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
  void* f = library != nullptr ? libc_dlsym()(library, name) : nullptr;
  return outside_interposer(f) ? f : nullptr;
}

template <class F>
void resolve(F& f, const char* name, const char* soname) {
  f = reinterpret_cast<F>(find(name, soname));
}

RealCublas resolve_all() {
  RealCublas r{};
  resolve(r.sgemm, "cublasSgemm_v2", cublas_soname);
  resolve(r.sgemm_64, "cublasSgemm_v2_64", cublas_soname);
  resolve(r.sgemm_strided_batched, "cublasSgemmStridedBatched", cublas_soname);
  resolve(r.sgemm_strided_batched_64, "cublasSgemmStridedBatched_64", cublas_soname);
  resolve(r.gemm_ex, "cublasGemmEx", cublas_soname);
  resolve(r.gemm_ex_64, "cublasGemmEx_64", cublas_soname);
  resolve(r.gemm_strided_batched_ex, "cublasGemmStridedBatchedEx", cublas_soname);
  resolve(r.gemm_strided_batched_ex_64, "cublasGemmStridedBatchedEx_64", cublas_soname);
  resolve(r.dgemm, "cublasDgemm_v2", cublas_soname);
  resolve(r.dgemm_64, "cublasDgemm_v2_64", cublas_soname);
  resolve(r.get_math_mode, "cublasGetMathMode", cublas_soname);
  resolve(r.get_pointer_mode, "cublasGetPointerMode_v2", cublas_soname);
  resolve(r.get_stream, "cublasGetStream_v2", cublas_soname);
  resolve(r.lt_matmul, "cublasLtMatmul", cublas_lt_soname);
  resolve(r.lt_desc_get, "cublasLtMatmulDescGetAttribute", cublas_lt_soname);
  resolve(r.lt_layout_get, "cublasLtMatrixLayoutGetAttribute", cublas_lt_soname);
  return r;
}

}  // namespace

const RealCublas& real_cublas() {
  static const RealCublas resolved = resolve_all();
  return resolved;
}

cublasStatus_t missing_real_function(const char* name) {
  std::fprintf(stderr, "egemm_cublas: %s: no real cuBLAS definition found after the interposer (%s)\n", name,
               "neither RTLD_NEXT nor the loaded cuBLAS libraries define it");
  return CUBLAS_STATUS_NOT_INITIALIZED;
}

}  // namespace egemm::interposer
