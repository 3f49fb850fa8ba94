#include <mutex>
#include <unordered_map>

#include "backends/cuda/crossover_rates.hpp"
#include "backends/cuda/cuda_check.hpp"
#include "backends/cuda/wgmma/fused_gemm_sm90.hpp"

namespace egemm::cuda {
namespace {

// cuBLAS SGEMM reaches 77% of the FP32 peak at 8192^3 on an H100 (51.4 of
// 66.9 TFLOP/s at 1980 MHz). The fused mma.sync kernel alone runs 1.9x
// SGEMM's rate there, and a tile's fixed cost is worth 165 steps of depth
// (fitted to a 65536 x 4096 x 128 product at 0.81x SGEMM); the Hopper
// warpgroup kernel alone runs 2.65x (8.35 of 8.97 ms against SGEMM's 22.1),
// and its bigger tiles cost 350 steps of depth (the same product, forced
// onto it, ran at 0.69x) (perf_tests/results/2026-11-22-h100-final.md).
constexpr double sgemm_efficiency = 0.77;
struct KernelFigures {
  double speedup, depth_overhead;
};
constexpr KernelFigures mma_sync_kernel{1.9, 165};
constexpr KernelFigures warpgroup_kernel{2.65, 350};

int attribute(cudaDeviceAttr which, int device) {
  int v = 0;
  EGEMM_CUDA_CHECK(cudaDeviceGetAttribute(&v, which, device));
  return v;
}

model::CrossoverModel measure(int device) {
  const int major = attribute(cudaDevAttrComputeCapabilityMajor, device);
  const int minor = attribute(cudaDevAttrComputeCapabilityMinor, device);
  const double sms = attribute(cudaDevAttrMultiProcessorCount, device);
  const double clock_hz = 1e3 * attribute(cudaDevAttrClockRate, device);
  const double fp32_lanes = major == 8 && minor == 0 ? 64 : 128;  // per SM: A100 has half of later parts'
  const double memory_hz = 1e3 * attribute(cudaDevAttrMemoryClockRate, device);
  const double bus_bytes = attribute(cudaDevAttrGlobalMemoryBusWidth, device) / 8.0;
  model::CrossoverModel d;
  d.sgemm_flop_per_s = sms * clock_hz * fp32_lanes * 2 * sgemm_efficiency;
  d.memory_bytes_per_s = 2 * memory_hz * bus_bytes;
  const KernelFigures kernel = sm90::warpgroup_kernel_usable() ? warpgroup_kernel : mma_sync_kernel;
  d.emulation_speedup = kernel.speedup;
  d.depth_overhead = kernel.depth_overhead;
  return d;
}

}  // namespace

model::CrossoverModel emulated_fp32_crossover_model() {
  static std::mutex mutex;
  static std::unordered_map<int, model::CrossoverModel> per_device;
  int device = 0;
  EGEMM_CUDA_CHECK(cudaGetDevice(&device));
  const std::lock_guard<std::mutex> lock(mutex);
  auto it = per_device.find(device);
  if (it == per_device.end()) it = per_device.emplace(device, measure(device)).first;
  return it->second;
}

}  // namespace egemm::cuda
