// Finds and dlopens the engine once; its cuBLAS and CUDA runtime resolve to the copies the application loaded.
#include "src/cublas_interposer/engine_loader.hpp"

#include "src/cublas_interposer/libc_dlsym.hpp"

#include <dlfcn.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

namespace egemm::interposer {
namespace {

struct Loaded {
  const egemm_cublas_engine* engine = nullptr;
  std::string failure;
};

// The directory this library was loaded from, with a trailing '/', made
// absolute when the library is loaded: LD_PRELOAD may name it relative to a
// working directory the program leaves before its first cuBLAS call.
char own_directory_at_load[4096];

__attribute__((constructor)) void remember_own_directory() {
  Dl_info info{};
  if (dladdr(reinterpret_cast<void*>(&remember_own_directory), &info) == 0 || info.dli_fname == nullptr) return;
  char resolved[4096];
  if (realpath(info.dli_fname, resolved) == nullptr) return;
  char* slash = std::strrchr(resolved, '/');
  if (slash == nullptr || static_cast<std::size_t>(slash - resolved + 2) > sizeof own_directory_at_load) return;
  slash[1] = '\0';
  std::memcpy(own_directory_at_load, resolved, static_cast<std::size_t>(slash - resolved + 2));
}

std::string own_directory() { return own_directory_at_load; }

Loaded load() {
  Loaded r;
  const char* configured = std::getenv("EGEMM_CUBLAS_ENGINE");
  const std::string path = configured != nullptr && *configured != '\0'
                               ? std::string(configured)
                               : own_directory() + "libegemm_cublas_engine.so";
  // RTLD_LOCAL: EGEMM's symbols stay out of the application's global scope.
  void* library = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (library == nullptr) {
    const char* e = dlerror();
    r.failure = "cannot load " + path + ": " + (e != nullptr ? e : "unknown error");
  } else if (auto entry = reinterpret_cast<const egemm_cublas_engine* (*)()>(libc_dlsym()(library, "egemm_cublas_engine_v1"));
             entry == nullptr) {
    r.failure = path + " has no egemm_cublas_engine_v1";
  } else if (const egemm_cublas_engine* e = entry(); e == nullptr || e->abi != EGEMM_CUBLAS_ENGINE_ABI) {
    r.failure = path + " is an engine of another interface version";
  } else {
    r.engine = e;
  }
  if (r.engine == nullptr)
    std::fprintf(stderr, "egemm_cublas: %s; every cuBLAS call goes to cuBLAS unchanged\n", r.failure.c_str());
  return r;
}

const Loaded& loaded() {
  static const Loaded once = load();
  return once;
}

}  // namespace

const egemm_cublas_engine* engine() { return loaded().engine; }

const char* engine_failure() { return loaded().failure.c_str(); }

}  // namespace egemm::interposer
