// One process per library: a runtime error the caller left unread
// (cudaSetDevice(-1): cudaErrorInvalidDevice) before each call, then
// EmulatedFP32 on the model's kernel and on the mma.sync kernel
// (EGEMM_SM90_KERNEL=0), and an alpha == 0 call (C = beta C). Prints, per call,
// whether it threw and whether C holds what it should.
//   nvcc -O2 -std=c++17 -cudart shared -I src -I <build>/src unread_error.cu -L<build>/src -legemm -o unread_error
// (-cudart shared: the runtime instance libegemm uses, whose last-error slot
// this is about; a statically linked runtime keeps a slot of its own)
#include <cuda_runtime.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "egemm/egemm.hpp"

int main() {
  setenv("EGEMM_SMALL_GEMM_FALLBACK", "0", 1);
  const int n = 192;
  std::vector<float> a(n * n), b(n * n), c(n * n, 1.0f);
  for (int i = 0; i < n * n; ++i) a[i] = std::sin(0.37f * i), b[i] = std::cos(0.11f * i);
  float *da, *db, *dc;
  cudaMalloc(&da, n * n * 4);
  cudaMalloc(&db, n * n * 4);
  cudaMalloc(&dc, n * n * 4);
  cudaMemcpy(da, a.data(), n * n * 4, cudaMemcpyHostToDevice);
  cudaMemcpy(db, b.data(), n * n * 4, cudaMemcpyHostToDevice);
  std::vector<float> expected(n * n);
  egemm::gemm(egemm::EmulatedFP32{}, 'N', 'N', n, n, n, 1.0f, a.data(), n, b.data(), n, 0.0f, expected.data(), n);
  int failures = 0;
  const auto run = [&](const char* what, float alpha, float beta) {
    cudaMemcpy(dc, c.data(), n * n * 4, cudaMemcpyHostToDevice);
    (void)cudaSetDevice(-1);  // the caller's error, left unread
    const char* outcome = "returned";
    try {
      egemm::gemm(egemm::EmulatedFP32{}, 'N', 'N', n, n, n, alpha, da, n, db, n, beta, dc, n, nullptr);
    } catch (const std::exception& e) {
      outcome = "threw";
      std::printf("  %s: %s\n", what, e.what());
    }
    (void)cudaGetLastError();
    cudaDeviceSynchronize();
    std::vector<float> out(n * n);
    cudaMemcpy(out.data(), dc, n * n * 4, cudaMemcpyDeviceToHost);
    double worst = 0;
    for (int i = 0; i < n * n; ++i) {
      const double want = alpha == 0.0f ? beta * c[i] : alpha * expected[i] + beta * c[i];
      worst = std::fmax(worst, std::fabs(out[i] - want));
    }
    const bool right = worst < 1e-3;
    std::printf("%-34s %-8s C %s (largest difference %.3g)\n", what, outcome, right ? "right" : "WRONG", worst);
    failures += (outcome[0] == 't' || !right) ? 1 : 0;
  };
  run("EmulatedFP32, the model's kernel", 1.0f, 0.0f);
  setenv("EGEMM_SM90_KERNEL", "0", 1);
  run("EmulatedFP32, mma.sync kernel", 1.0f, 0.0f);
  run("alpha 0, beta 2 (C = 2 C)", 0.0f, 2.0f);
  std::printf("%d of 3 calls threw or left C wrong\n", failures);
  return failures == 0 ? 0 : 1;
}
