#include "activity_trace.hpp"

#include <cupti.h>
#include <cxxabi.h>

#include <algorithm>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <stdexcept>

namespace egemm::perf {
namespace {

void check(CUptiResult r, const char* what) {
  if (r == CUPTI_SUCCESS) return;
  const char* text = nullptr;
  cuptiGetResultString(r, &text);
  throw std::runtime_error(std::string("CUPTI ") + what + ": " + (text ? text : "unknown error"));
}

// CUPTI hands completed buffers to a plain function: what they hold lands here.
std::mutex recorded_mutex;
std::vector<Activity> recorded;

constexpr std::size_t buffer_bytes = 8u << 20;
constexpr std::size_t buffer_alignment = 8;

void CUPTIAPI buffer_requested(std::uint8_t** buffer, std::size_t* size, std::size_t* max_records) {
  *buffer = static_cast<std::uint8_t*>(std::aligned_alloc(buffer_alignment, buffer_bytes));
  *size = *buffer != nullptr ? buffer_bytes : 0;
  *max_records = 0;  // as many as fit
}

void CUPTIAPI buffer_completed(CUcontext, std::uint32_t, std::uint8_t* buffer, std::size_t, std::size_t valid) {
  std::vector<Activity> found;
  CUpti_Activity* record = nullptr;
  while (cuptiActivityGetNextRecord(buffer, valid, &record) == CUPTI_SUCCESS) {
    if (record->kind == CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL || record->kind == CUPTI_ACTIVITY_KIND_KERNEL) {
      const auto* k = reinterpret_cast<const CUpti_ActivityKernel10*>(record);
      found.push_back({short_kernel_name(k->name), false, k->start, k->end, k->gridX * k->gridY * k->gridZ,
                       static_cast<int>(k->clusterX * k->clusterY * k->clusterZ)});
    } else if (record->kind == CUPTI_ACTIVITY_KIND_MEMSET) {
      const auto* m = reinterpret_cast<const CUpti_ActivityMemset4*>(record);
      found.push_back({"memset", false, m->start, m->end, 0, 0});
    } else if (record->kind == CUPTI_ACTIVITY_KIND_RUNTIME) {
      const auto* r = reinterpret_cast<const CUpti_ActivityAPI*>(record);
      const char* name = nullptr;
      if (cuptiGetCallbackName(CUPTI_CB_DOMAIN_RUNTIME_API, r->cbid, &name) != CUPTI_SUCCESS || name == nullptr)
        name = "runtime call";
      found.push_back({name, true, r->start, r->end, 0, 0});
    }
  }
  std::free(buffer);
  const std::lock_guard<std::mutex> lock(recorded_mutex);
  recorded.insert(recorded.end(), found.begin(), found.end());
}

}  // namespace

std::string short_kernel_name(const char* mangled) {
  if (mangled == nullptr) return "?";
  int status = 0;
  std::unique_ptr<char, void (*)(void*)> demangled(abi::__cxa_demangle(mangled, nullptr, nullptr, &status), std::free);
  std::string name = status == 0 && demangled ? demangled.get() : mangled;
  for (const std::string anonymous = "(anonymous namespace)::"; name.find(anonymous) != std::string::npos;)
    name.erase(name.find(anonymous), anonymous.size());
  // Drop the parameter list and template arguments (from the first '<' or '('), then the namespaces.
  name = name.substr(0, name.find_first_of("<("));
  const std::size_t colon = name.rfind("::");
  return colon == std::string::npos ? name : name.substr(colon + 2);
}

ActivityTrace::ActivityTrace() { check(cuptiActivityRegisterCallbacks(buffer_requested, buffer_completed), "register"); }

ActivityTrace::~ActivityTrace() {
  cuptiActivityDisable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
  cuptiActivityDisable(CUPTI_ACTIVITY_KIND_MEMSET);
  cuptiActivityDisable(CUPTI_ACTIVITY_KIND_RUNTIME);
  cuptiActivityFlushAll(1);
}

void ActivityTrace::start() {
  {
    const std::lock_guard<std::mutex> lock(recorded_mutex);
    recorded.clear();
  }
  // Concurrent-kernel records keep dependent launches overlapping as they ran (KIND_KERNEL would serialise them).
  check(cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL), "enable kernels");
  check(cuptiActivityEnable(CUPTI_ACTIVITY_KIND_MEMSET), "enable memsets");
  check(cuptiActivityEnable(CUPTI_ACTIVITY_KIND_RUNTIME), "enable runtime calls");
}

std::vector<Activity> ActivityTrace::stop() {
  check(cuptiActivityDisable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL), "disable kernels");
  check(cuptiActivityDisable(CUPTI_ACTIVITY_KIND_MEMSET), "disable memsets");
  check(cuptiActivityDisable(CUPTI_ACTIVITY_KIND_RUNTIME), "disable runtime calls");
  check(cuptiActivityFlushAll(1), "flush");  // 1: forced, buffers still filling are handed over too
  std::vector<Activity> out;
  {
    const std::lock_guard<std::mutex> lock(recorded_mutex);
    out.swap(recorded);
  }
  std::sort(out.begin(), out.end(), [](const Activity& x, const Activity& y) { return x.start_ns < y.start_ns; });
  return out;
}

std::uint64_t ActivityTrace::now() {
  std::uint64_t t = 0;
  check(cuptiGetTimestamp(&t), "timestamp");
  return t;
}

}  // namespace egemm::perf
