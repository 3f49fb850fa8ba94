// The device's and the fused kernels' figures for EmulatedFP32's small-size crossover model.
#include "backends/cuda/route/crossover_rates.hpp"

#include "backends/cuda/kernel_dispatch.hpp"
#include "backends/cuda/runtime/cuda_check.hpp"
#include "backends/cuda/runtime/per_device.hpp"

namespace egemm::cuda {
namespace {

// cuBLAS SGEMM reaches 77% of the FP32 peak at 8192^3 on an H100 (51.4 of
// 66.9 TFLOP/s at 1980 MHz). Each fused kernel's speedup over SGEMM on deep
// products (kernel alone, split excluded, 8192^3) and its tile's fixed cost in
// steps of depth (fitted to kNN's 65536 x 4096 x 128 product forced onto the
// kernel), all measured on that H100 with perf_tests/gemm_suite and the kNN
// case study (perf_tests/case_studies):
//   mma.sync: 1.9x, 165 (the product ran at 0.81x);
//   TMA wgmma: 3.9x (5.5 of 6.1 ms against SGEMM's 21.35), 525 (0.75x).
constexpr double sgemm_efficiency = 0.77;
struct KernelFigures {
  double speedup, depth_overhead;
};
KernelFigures figures_of(FusedKernel kernel) {
  switch (kernel) {
    case FusedKernel::wgmma_tma_sm90: return {3.9, 525};
    case FusedKernel::mma_sync_sm80: break;
  }
  return {1.9, 165};
}

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
  return d;
}

}  // namespace

model::CrossoverModel emulated_fp32_crossover_model(FusedKernel kernel) {
  static PerDevice<model::CrossoverModel> device_figures;
  model::CrossoverModel d = device_figures.get(measure);
  const KernelFigures figures = figures_of(kernel);
  d.emulation_speedup = figures.speedup;
  d.depth_overhead = figures.depth_overhead;
  return d;
}

}  // namespace egemm::cuda
