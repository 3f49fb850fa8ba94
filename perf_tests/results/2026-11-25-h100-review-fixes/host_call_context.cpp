// Experiment (session 12): does a host-memory egemm::gemm start CUDA on a machine with a GPU?
// It checks whether the CUDA driver is loaded after the call; then what the runtime's
// cudaPointerGetAttributes (the host API's pointer check before this session) does on its own:
// whether it loads the driver and makes the primary context active, and how long it takes.
#include <cuda_runtime.h>
#include <dlfcn.h>

#include <chrono>
#include <cstdio>
#include <vector>

#include "egemm/egemm.hpp"

static bool driver_loaded() {
  void* h = dlopen("libcuda.so.1", RTLD_LAZY | RTLD_NOLOAD);
  if (h) dlclose(h);
  return h != nullptr;
}

int main() {
  std::printf("CUDA driver loaded at the start of main: %s\n", driver_loaded() ? "yes" : "no");
  const int n = 64;
  std::vector<float> a(n * n, 0.5f), b(n * n, 0.25f), c(n * n);
  auto t0 = std::chrono::steady_clock::now();
  egemm::gemm(egemm::EmulatedFP32{}, 'N', 'N', n, n, n, 1.0f, a.data(), n, b.data(), n, 0.0f, c.data(), n);
  auto t1 = std::chrono::steady_clock::now();
  std::printf("host gemm 64^3: %.1f ms, C(0,0) = %g (expected 8), CUDA driver loaded after it: %s\n",
              std::chrono::duration<double, std::milli>(t1 - t0).count(), c[0], driver_loaded() ? "yes" : "no");
  cudaPointerAttributes attr{};
  t0 = std::chrono::steady_clock::now();
  const cudaError_t e = cudaPointerGetAttributes(&attr, a.data());
  t1 = std::chrono::steady_clock::now();
  // The driver's own query, looked up (not linked: linking libcuda would load it at start).
  unsigned flags = 0;
  int active = -1;
  if (void* driver = dlopen("libcuda.so.1", RTLD_LAZY | RTLD_NOLOAD)) {
    using GetState = int (*)(int, unsigned*, int*);
    if (auto get_state = reinterpret_cast<GetState>(dlsym(driver, "cuDevicePrimaryCtxGetState"))) get_state(0, &flags, &active);
    dlclose(driver);
  }
  std::printf("cudaPointerGetAttributes on a host pointer: %s in %.1f ms; driver loaded: %s; primary context of "
              "GPU 0 active: %d\n", cudaGetErrorName(e), std::chrono::duration<double, std::milli>(t1 - t0).count(),
              driver_loaded() ? "yes" : "no", active);
  return 0;
}
