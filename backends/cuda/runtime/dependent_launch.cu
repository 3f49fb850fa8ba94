#include "backends/cuda/runtime/dependent_launch.hpp"

#include <cstdlib>
#include <cstring>

#include "backends/cuda/runtime/kernel_images.hpp"
#include "backends/cuda/runtime/per_device.hpp"

namespace egemm::cuda {
namespace {

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
  // Code compiled for sm_80 (machine code or PTX the driver compiles for a
  // Hopper GPU) has no griddepcontrol.wait: its kernels must not be dependents.
  return per_device.get([](int) { return kernel_images_have_grid_dependency_control(); });
}

}  // namespace egemm::cuda
