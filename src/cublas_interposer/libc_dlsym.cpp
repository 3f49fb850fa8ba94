// Finds the C library's dlsym once, by version, past the interposer's own.
#include "src/cublas_interposer/libc_dlsym.hpp"

#include <dlfcn.h>

#include <cstdio>
#include <cstdlib>
#include <initializer_list>

namespace egemm::interposer {

DlsymFunction libc_dlsym() {
  static const DlsymFunction f = [] {
    // glibc 2.34 and later, then the base version of older ones: x86-64's, aarch64's.
    void* p = nullptr;
    for (const char* version : {"GLIBC_2.34", "GLIBC_2.2.5", "GLIBC_2.17"})
      if (p == nullptr) p = dlvsym(RTLD_NEXT, "dlsym", version);
    if (p == nullptr) {  // every dlsym of the process would call a null pointer: say why and stop
      std::fprintf(stderr, "egemm_cublas: the C library's dlsym was not found (versions GLIBC_2.34, 2.2.5, 2.17)\n");
      std::abort();
    }
    return reinterpret_cast<DlsymFunction>(p);
  }();
  return f;
}

namespace {
// Looked up while the library loads, before the program starts threads: a
// first lookup from inside a dlopen's constructor on another thread would
// otherwise wait for the static's guard while holding the loader's lock.
__attribute__((constructor)) void find_libc_dlsym_early() { (void)libc_dlsym(); }
}  // namespace

}  // namespace egemm::interposer
