// What the code the driver loaded for a device can do.
//
// A function's binary version cannot tell it: plain sm_90 code
// (CMAKE_CUDA_ARCHITECTURES=90, or native) and sm_90a code both read 90, and
// sm_80 PTX compiled by the driver for an H100 reads 90 as well. Yet the
// Hopper kernels' bodies exist only in sm_90a code (wgmma, TMA, setmaxnreg:
// __CUDA_ARCH_FEAT_SM90_ALL), and griddepcontrol.wait only in code compiled for
// sm_90 or later. So probes compiled like every kernel of the library carry
// static shared memory exactly where a feature is in the code, and the host
// reads it from their attributes: nothing is launched, so the queries are
// safe inside stream capture.
#pragma once

namespace egemm::cuda {

// The current device can load this library's kernels: SASS for its architecture, or PTX the
// driver compiles for it (EGEMM_CUDA_ARCHITECTURES' 80-virtual). A build without either for
// the device has none, and every CUDA call would fail at its first launch.
bool kernel_images_load_here();

// The GPU targets this library was built with, as CMake lists them (for error messages).
const char* kernel_images_built_for();

// The current device is compute capability 9.0 and runs this library's sm_90a code.
bool kernel_images_have_sm90a_features();

// The current device runs code compiled for sm_90 or later (griddepcontrol present).
bool kernel_images_have_grid_dependency_control();

}  // namespace egemm::cuda
