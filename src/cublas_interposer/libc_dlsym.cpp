// Finds the C library's dlsym once, by version, past the interposer's own.
#include "src/cublas_interposer/libc_dlsym.hpp"

#include <dlfcn.h>

namespace egemm::interposer {

DlsymFunction libc_dlsym() {
  static const DlsymFunction f = [] {
    void* p = dlvsym(RTLD_NEXT, "dlsym", "GLIBC_2.34");
    if (p == nullptr) p = dlvsym(RTLD_NEXT, "dlsym", "GLIBC_2.2.5");
    return reinterpret_cast<DlsymFunction>(p);
  }();
  return f;
}

}  // namespace egemm::interposer
