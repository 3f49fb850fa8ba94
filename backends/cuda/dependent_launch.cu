#include "backends/cuda/dependent_launch.hpp"

#include <cstdlib>
#include <cstring>

#include "backends/cuda/device_facts.hpp"
#include "backends/cuda/per_device.hpp"

namespace egemm::cuda {
namespace {

// Compiled like every kernel of the library: its binary version on a device
// says which code the device runs (sm_80 code on an sm_90 GPU has no
// griddepcontrol.wait, and must not be launched as a dependent).
__global__ void code_version_probe() {}

// EGEMM_DEPENDENT_LAUNCH=0: every kernel launched plainly, after the previous
// one has completed, so that a trace (perf_tests/call_timeline) shows each
// kernel's own time rather than one that includes waiting for its predecessor.
bool dependent_launch_requested() {
  static const bool requested = [] {
    const char* v = std::getenv("EGEMM_DEPENDENT_LAUNCH");
    return v == nullptr || std::strcmp(v, "0") != 0;
  }();
  return requested;
}

}  // namespace

bool dependent_launch_supported() {
  if (!dependent_launch_requested()) return false;
  static PerDevice<bool> per_device;
  return per_device.get([](int) {
    if (device_facts().major < 9) return false;
    cudaFuncAttributes attributes{};
    if (cudaFuncGetAttributes(&attributes, code_version_probe) != cudaSuccess) {
      (void)cudaGetLastError();
      return false;
    }
    return attributes.binaryVersion >= 90;
  });
}

}  // namespace egemm::cuda
