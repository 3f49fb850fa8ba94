// What the suite's FP32 and FP64 sections share: whether the regimes were
// asked for, the GPU's NVML handle with its thermal-slowdown check, and how
// a benchmark is timed and reported.
#pragma once

#include <benchmark/benchmark.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "support/event_timing.hpp"
#include "support/nvml_device.hpp"
#include "support/warm_up.hpp"

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

// Times `run(set)` (set: the input set, 0 to sets - 1, in turn) as every
// benchmark of the suite is timed: a warm-up of at least 50 ms, then as many
// calls as `flop_budget` allows (5 to 40), each between CUDA events, their
// median the iteration time; with EGEMM_SUITE_REGIMES=1 also the rested and
// sustained regimes. Sets the label, M, N, K, TFLOPs (each regime's), reps and
// the NVML counters; the caller adds its error counters.
template <class Run>
void time_benchmark(benchmark::State& state, const std::string& benchmark, const std::string& method, long long m,
                    long long n, long long k, double flop_budget, int sets, cudaStream_t stream, Run&& run) {
  const double flop = 2.0 * static_cast<double>(m) * static_cast<double>(n) * static_cast<double>(k);
  const int reps = std::clamp(static_cast<int>(flop_budget / flop), 5, 40);
  perf::warm_up([&](int call) { run(call % sets); }, stream);
  perf::EventTimer timer(stream);
  std::vector<double> seconds(reps);
  for (int r = 0; r < reps; ++r) seconds[r] = timer.seconds([&] { run(r % sets); });
  const double median_s = perf::median_of(seconds);
  bool hot = slowed_down_for_heat(benchmark);

  for (auto _ : state) state.SetIterationTime(median_s);
  state.SetLabel(method);
  state.counters["M"] = static_cast<double>(m);
  state.counters["N"] = static_cast<double>(n);
  state.counters["K"] = static_cast<double>(k);
  state.counters["TFLOPs"] = flop / median_s * 1e-12;
  state.counters["reps"] = reps;
  if (regimes_requested()) {
    int call = 0;
    const auto next = [&] { run(call++ % sets); };
    const double rested_s = perf::rested_seconds(next, 5, 0.25, stream);
    const int one_second = std::clamp(static_cast<int>(1.0 / median_s), 3, 20000);
    const double sustained_s = perf::queued_seconds(next, one_second, one_second, stream);
    state.counters["TFLOPs_rested"] = flop / rested_s * 1e-12;
    state.counters["TFLOPs_sustained"] = flop / sustained_s * 1e-12;
    hot = slowed_down_for_heat(benchmark) || hot;
  }
  if (const perf::NvmlDevice* gpu = nvml()) {
    state.counters["gpu_temperature_c"] = gpu->temperature_c();
    state.counters["thermal_slowdown"] = hot ? 1 : 0;
  }
}

}  // namespace egemm::bench
