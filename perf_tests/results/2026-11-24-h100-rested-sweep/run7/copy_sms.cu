// Experiment (session 10): does moving the same bytes on fewer SMs cost fewer joules?
// A float4 copy of 512 MiB (the split's bytes at 8192^3) on all SMs and on fewer,
// each in a 1 s stream of copies, energy from NVML's counter.
#include <cuda_runtime.h>
#include <chrono>
#include <cstdio>
#include <thread>
#include <vector>
#include "power_budget/nvml_energy.hpp"

__global__ void copy_floats(const float4* from, float4* to, std::size_t n4) {
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < n4;
       i += static_cast<std::size_t>(gridDim.x) * blockDim.x)
    to[i] = __ldg(from + i);
}

int main() {
  int dev = 0, sms = 0;
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
  char bus[32] = {};
  cudaDeviceGetPCIBusId(bus, sizeof bus, dev);
  egemm::perf::NvmlEnergy nvml(bus);
  if (!nvml.available()) { std::printf("no NVML\n"); return 2; }
  const std::size_t n4 = (std::size_t{2} * 8192 * 8192) / 4;  // A and B at 8192^3
  float4 *a, *b;
  cudaMalloc(&a, n4 * 16);
  cudaMalloc(&b, n4 * 16);
  cudaMemset(a, 1, n4 * 16);
  cudaStream_t s;
  cudaStreamCreate(&s);
  struct V { const char* name; int blocks, threads; };
  const std::vector<V> variants = {{"all SMs, 8 x 256 a SM", sms * 8, 256}, {"132 x 1024", sms, 1024},
                                   {"99 x 1024", sms * 3 / 4, 1024}, {"66 x 1024", sms / 2, 1024},
                                   {"33 x 1024", sms / 4, 1024}, {"all SMs, 8 x 256 a SM (again)", sms * 8, 256}};
  std::printf("| copy of 1 GiB (512 MiB read, 512 MiB written) | ms | TB/s | W | J |\n|---|---:|---:|---:|---:|\n");
  for (const V& v : variants) {
    auto run = [&] { copy_floats<<<v.blocks, v.threads, 0, s>>>(a, b, n4); };
    for (int i = 0; i < 300; ++i) run();  // ~0.1 s warm-up
    cudaStreamSynchronize(s);
    cudaEvent_t e0, e1;
    cudaEventCreate(&e0);
    cudaEventCreate(&e1);
    const int calls = 2500;
    const double mj0 = nvml.millijoules();
    const auto t0 = std::chrono::steady_clock::now();
    cudaEventRecord(e0, s);
    for (int i = 0; i < calls; ++i) run();
    cudaEventRecord(e1, s);
    cudaEventSynchronize(e1);
    const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    const double mj1 = nvml.millijoules();
    float ms = 0;
    cudaEventElapsedTime(&ms, e0, e1);
    const double per = ms / calls, watts = (mj1 - mj0) * 1e-3 / wall;
    std::printf("| %s | %.4f | %.2f | %.0f | %.4f |\n", v.name, per, 2.0 * n4 * 16 / (per * 1e-3) * 1e-12, watts,
                watts * per * 1e-3);
  }
  return 0;
}
