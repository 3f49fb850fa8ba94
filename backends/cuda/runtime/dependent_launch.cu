// Whether the current device and the loaded code run programmatic dependent launches.
#include "backends/cuda/runtime/dependent_launch.hpp"

#include "backends/cuda/runtime/kernel_images.hpp"
#include "backends/cuda/runtime/per_device.hpp"
#include "backends/cuda/runtime/tuning.hpp"

namespace egemm::cuda {

bool dependent_launch_supported() {
  // The tuning's dependent_launch = false: every kernel launched plainly,
  // after the previous one has completed, so that a trace
  // (perf_tests/call_timeline --plain-launches) shows each kernel's own time
  // rather than one that includes waiting for its predecessor.
  if (!tuning().dependent_launch) return false;
  static PerDevice<bool> per_device;
  // Code compiled for sm_80 (machine code or PTX the driver compiles for a
  // Hopper GPU) has no griddepcontrol.wait: its kernels must not be dependents.
  return per_device.get([](int) { return kernel_images_have_grid_dependency_control(); });
}

}  // namespace egemm::cuda
