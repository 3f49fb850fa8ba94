// What every call asks of the current device (compute capability, SM count),
// queried once per device: each cudaDeviceGetAttribute is a driver call, and
// at 1024^3, where EmulatedFP32 hands the product to SGEMM, the host time of
// its checks shows in the call's time (perf_tests/call_overhead).
#pragma once

namespace egemm::cuda {

struct DeviceFacts {
  int major = 0, minor = 0;  // compute capability
  int sms = 0;               // streaming multiprocessors
};

// The current device's facts (cached per device and context: per_device.hpp).
DeviceFacts device_facts();

}  // namespace egemm::cuda
