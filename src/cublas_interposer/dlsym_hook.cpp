// dlsym, interposed: a program that loads cuBLAS with dlopen and takes its entry points with dlsym (XLA, so JAX) gets the interposer's.
//
// LD_PRELOAD only reaches calls bound by the dynamic linker. XLA dlopens
// libcublas/libcublasLt (RTLD_LOCAL) and looks every function up with
// dlsym(handle, name), which searches that library alone. This dlsym answers
// such a lookup of an interposed entry point with the interposer's own
// function when the handle defines the name with the version of the cuBLAS
// the interposer was built for, and
// forwards everything else to the C library's dlsym as a tail call, so the
// return address it sees (for RTLD_NEXT and RTLD_DEFAULT) is still the caller's.
// EGEMM_CUBLAS_HOOK_DLSYM=0 turns the redirection off (read once).
#include <dlfcn.h>

#include <cstdlib>
#include <cstring>

#include "src/cublas_interposer/handle_call.hpp"
#include "src/cublas_interposer/libc_dlsym.hpp"
#include "src/cublas_interposer/real_cublas.hpp"

#define EGEMM_INTERPOSER_STR2(x) #x
#define EGEMM_INTERPOSER_STR(x) EGEMM_INTERPOSER_STR2(x)
#define EGEMM_INTERPOSER_CUBLAS_MAJOR EGEMM_INTERPOSER_STR(CUBLAS_VER_MAJOR)

namespace egemm::interposer {
namespace {

bool redirect_enabled() {
  static const bool enabled = [] {
    const char* v = std::getenv("EGEMM_CUBLAS_HOOK_DLSYM");
    return v == nullptr || std::strcmp(v, "0") != 0;
  }();
  return enabled;
}

struct Entry {
  const char* name;
  void* ours;
};

// The interposer's entry points by name (the addresses of its own definitions).
void* interposed_entry(const char* name) {
  static const Entry entries[] = {
      {"cublasSgemm_v2", reinterpret_cast<void*>(&::cublasSgemm_v2)},
      {"cublasSgemm_v2_64", reinterpret_cast<void*>(&::cublasSgemm_v2_64)},
      {"cublasSgemmStridedBatched", reinterpret_cast<void*>(&::cublasSgemmStridedBatched)},
      {"cublasSgemmStridedBatched_64", reinterpret_cast<void*>(&::cublasSgemmStridedBatched_64)},
      {"cublasGemmEx", reinterpret_cast<void*>(static_cast<GemmExFunction>(&::cublasGemmEx))},
      {"cublasGemmEx_64", reinterpret_cast<void*>(&::cublasGemmEx_64)},
      {"cublasGemmStridedBatchedEx",
       reinterpret_cast<void*>(static_cast<GemmStridedBatchedExFunction>(&::cublasGemmStridedBatchedEx))},
      {"cublasGemmStridedBatchedEx_64", reinterpret_cast<void*>(&::cublasGemmStridedBatchedEx_64)},
      {"cublasDgemm_v2", reinterpret_cast<void*>(&::cublasDgemm_v2)},
      {"cublasDgemm_v2_64", reinterpret_cast<void*>(&::cublasDgemm_v2_64)},
      {"cublasLtMatmul", reinterpret_cast<void*>(&::cublasLtMatmul)},
  };
  for (const Entry& e : entries)
    if (std::strcmp(name, e.name) == 0) return e.ours;
  return nullptr;
}

}  // namespace
}  // namespace egemm::interposer

EGEMM_INTERPOSER_EXPORT void* dlsym(void* handle, const char* name) {
  using namespace egemm::interposer;
  const DlsymFunction real = libc_dlsym();
  if (handle != RTLD_NEXT && handle != RTLD_DEFAULT && name != nullptr && std::strncmp(name, "cublas", 6) == 0 &&
      redirect_enabled()) {
    // Only a cuBLAS of the version this interposer was built for (its symbols
    // carry that version): another major version's handles would not mix.
    const char* version = std::strncmp(name, "cublasLt", 8) == 0 ? "libcublasLt.so." EGEMM_INTERPOSER_CUBLAS_MAJOR
                                                                  : "libcublas.so." EGEMM_INTERPOSER_CUBLAS_MAJOR;
    if (void* ours = interposed_entry(name); ours != nullptr && dlvsym(handle, name, version) != nullptr) {
      egemm::log_debug([&] { return std::string("cublas: dlsym(") + name + ") answered with the interposer's"; });
      return ours;
    }
  }
  return real(handle, name);  // a tail call: RTLD_NEXT and RTLD_DEFAULT see the caller's return address
}
