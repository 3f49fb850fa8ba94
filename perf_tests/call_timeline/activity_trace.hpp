// The GPU work a stretch of host code caused, as CUPTI records it: every
// kernel and memset with its start and end on the GPU, and every CUDA
// runtime call the host made meanwhile (a launch's enqueue cost), on the same
// nanosecond clock as ActivityTrace::now(), so host and GPU times compare.
// Needs no profiler on the machine (nsys is not on the H100 image), only
// libcupti, which ships with the CUDA toolkit.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace egemm::perf {

// A kernel or memset on the GPU, or a CUDA runtime call on the host.
struct Activity {
  std::string name;  // a kernel's function name without namespaces or template arguments; "memset"; a runtime call's name
  bool host = false;  // a CUDA runtime call on the host, not work on the GPU
  std::uint64_t start_ns = 0, end_ns = 0;
  int grid = 0;       // blocks (x * y * z); 0 for anything but a kernel
  int cluster = 0;    // blocks per cluster (x * y * z); 0 for anything but a kernel
};

// One trace at a time per process: start() begins recording, stop() flushes
// CUPTI's buffers and returns what was recorded since, sorted by start.
class ActivityTrace {
 public:
  ActivityTrace();
  ~ActivityTrace();
  ActivityTrace(const ActivityTrace&) = delete;
  ActivityTrace& operator=(const ActivityTrace&) = delete;

  void start();
  std::vector<Activity> stop();
  static std::uint64_t now();  // CUPTI's timestamp, ns
};

// "egemm::cuda::hopper::tma_wgmma_gemm_kernel<egemm::EmulatedFP32, ...>(...)" -> "tma_wgmma_gemm_kernel".
std::string short_kernel_name(const char* mangled);

}  // namespace egemm::perf
