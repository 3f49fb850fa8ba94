// What the suite's FP32 and FP64 sections share: whether the regimes were
// asked for, and the GPU's NVML handle with its thermal-slowdown check.
#pragma once

#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>

#include "support/nvml_device.hpp"

namespace egemm::bench {

inline bool regimes_requested() {
  const char* v = std::getenv("EGEMM_SUITE_REGIMES");
  return v != nullptr && std::strcmp(v, "1") == 0;
}

// The GPU's NVML handle, opened once; null where NVML does not answer.
inline const perf::NvmlDevice* nvml() {
  static const std::unique_ptr<perf::NvmlDevice> gpu = []() -> std::unique_ptr<perf::NvmlDevice> {
    int device = 0;
    char bus[32] = {};
    if (cudaGetDevice(&device) != cudaSuccess || cudaDeviceGetPCIBusId(bus, sizeof bus, device) != cudaSuccess)
      return nullptr;
    auto opened = std::make_unique<perf::NvmlDevice>(bus);
    return opened->available() ? std::move(opened) : nullptr;
  }();
  return gpu.get();
}

// Whether the GPU is slowing down for heat or a hardware signal now (it
// says so on stderr, naming the benchmark, when it is).
inline bool slowed_down_for_heat(const std::string& benchmark) {
  const perf::NvmlDevice* gpu = nvml();
  if (gpu == nullptr) return false;
  const unsigned long long reasons = gpu->clock_event_reasons();
  if ((reasons & perf::kThermalOrHardwareSlowdown) == 0) return false;
  std::fprintf(stderr,
               "warning: %s: the GPU is slowing down for heat or a hardware signal (clock event reasons 0x%llx, "
               "%d C): its figures are not comparable with other runs' or other methods'\n",
               benchmark.c_str(), reasons, gpu->temperature_c());
  return true;
}

}  // namespace egemm::bench
