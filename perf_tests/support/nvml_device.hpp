// The GPU's energy counter, SM clock, power limit, temperature and the
// reasons its clock is held down, through NVML, opened at run time (dlopen of
// the driver's libnvidia-ml.so.1) so that building needs no NVML headers or
// stubs. The few entry points are declared here with NVML's stable C
// signatures; without the library every query reports "not available" and
// the caller prints times only.
#pragma once

#include <dlfcn.h>

#include <cstdio>
#include <string>

namespace egemm::perf {

class NvmlDevice {
 public:
  // The NVML device with this PCI bus id ("0000:xx:yy.z", cudaDeviceGetPCIBusId).
  explicit NvmlDevice(const std::string& pci_bus_id) {
    library_ = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
    if (library_ == nullptr) return;
    init_ = reinterpret_cast<Status (*)()>(dlsym(library_, "nvmlInit_v2"));
    shutdown_ = reinterpret_cast<Status (*)()>(dlsym(library_, "nvmlShutdown"));
    by_bus_ = reinterpret_cast<Status (*)(const char*, Device*)>(dlsym(library_, "nvmlDeviceGetHandleByPciBusId_v2"));
    energy_ = reinterpret_cast<Status (*)(Device, unsigned long long*)>(
        dlsym(library_, "nvmlDeviceGetTotalEnergyConsumption"));
    clock_ = reinterpret_cast<Status (*)(Device, int, unsigned*)>(dlsym(library_, "nvmlDeviceGetClockInfo"));
    limit_ = reinterpret_cast<Status (*)(Device, unsigned*)>(dlsym(library_, "nvmlDeviceGetEnforcedPowerLimit"));
    temperature_ = reinterpret_cast<Status (*)(Device, int, unsigned*)>(dlsym(library_, "nvmlDeviceGetTemperature"));
    // Renamed from "throttle" to "event" reasons in CUDA 12.x's NVML; older drivers have only the first name.
    reasons_ = reinterpret_cast<Status (*)(Device, unsigned long long*)>(
        dlsym(library_, "nvmlDeviceGetCurrentClocksEventReasons"));
    if (reasons_ == nullptr)
      reasons_ = reinterpret_cast<Status (*)(Device, unsigned long long*)>(
          dlsym(library_, "nvmlDeviceGetCurrentClocksThrottleReasons"));
    if (init_ == nullptr || shutdown_ == nullptr || by_bus_ == nullptr || energy_ == nullptr || clock_ == nullptr ||
        limit_ == nullptr || init_() != 0)
      return;
    initialised_ = true;
    ok_ = by_bus_(pci_bus_id.c_str(), &device_) == 0 && millijoules() >= 0;
  }
  ~NvmlDevice() {
    if (initialised_) (void)shutdown_();
    if (library_ != nullptr) dlclose(library_);
  }
  NvmlDevice(const NvmlDevice&) = delete;
  NvmlDevice& operator=(const NvmlDevice&) = delete;

  bool available() const { return ok_; }
  // Energy since the driver loaded, mJ (Volta and newer); -1 if unavailable.
  double millijoules() const {
    unsigned long long mj = 0;
    return energy_ != nullptr && energy_(device_, &mj) == 0 ? static_cast<double>(mj) : -1.0;
  }
  // The SM clock now, MHz; 0 if unavailable.
  unsigned sm_clock_mhz() const {
    unsigned mhz = 0;
    return ok_ && clock_(device_, /*NVML_CLOCK_SM*/ 1, &mhz) == 0 ? mhz : 0;
  }
  // The power limit the driver enforces, W; 0 if unavailable.
  double power_limit_w() const {
    unsigned mw = 0;
    return ok_ && limit_(device_, &mw) == 0 ? mw * 1e-3 : 0.0;
  }
  // The GPU's temperature, degrees C; -1 if unavailable.
  int temperature_c() const {
    unsigned c = 0;
    return ok_ && temperature_ != nullptr && temperature_(device_, /*NVML_TEMPERATURE_GPU*/ 0, &c) == 0
               ? static_cast<int>(c)
               : -1;
  }
  // Why the clock is below its maximum now (nvmlClocksEventReason* bits); 0 if unavailable.
  unsigned long long clock_event_reasons() const {
    unsigned long long bits = 0;
    return ok_ && reasons_ != nullptr && reasons_(device_, &bits) == 0 ? bits : 0;
  }

 private:
  using Status = int;  // nvmlReturn_t: 0 is NVML_SUCCESS
  using Device = void*;  // nvmlDevice_t, an opaque pointer
  void* library_ = nullptr;
  Device device_ = nullptr;
  bool initialised_ = false, ok_ = false;
  Status (*init_)() = nullptr;
  Status (*shutdown_)() = nullptr;
  Status (*by_bus_)(const char*, Device*) = nullptr;
  Status (*energy_)(Device, unsigned long long*) = nullptr;
  Status (*clock_)(Device, int, unsigned*) = nullptr;
  Status (*limit_)(Device, unsigned*) = nullptr;
  Status (*temperature_)(Device, int, unsigned*) = nullptr;
  Status (*reasons_)(Device, unsigned long long*) = nullptr;
};

// The clock-event reasons that mean the GPU is slowing down for heat or by
// a hardware signal (HW slowdown 0x8, SW thermal 0x20, HW thermal 0x40, HW
// power brake 0x80), not the power cap every large gemm runs at (0x4): a
// board in that state runs every method slower by different amounts, so
// its speed ratios say nothing about the methods.
constexpr unsigned long long kThermalOrHardwareSlowdown = 0x8ull | 0x20ull | 0x40ull | 0x80ull;

}  // namespace egemm::perf
