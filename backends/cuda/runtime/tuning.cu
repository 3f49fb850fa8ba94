#include "backends/cuda/runtime/tuning.hpp"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <limits>

namespace egemm::cuda {
namespace {

thread_local Switches* call_in_progress = nullptr;

// The variable's value, "" when unset.
const char* value_of(const char* name) {
  const char* v = std::getenv(name);
  return v != nullptr ? v : "";
}
bool is(const char* name, const char* value) { return std::strcmp(value_of(name), value) == 0; }

// A number's value clamped to [lo, hi]; 0 when unset or empty.
int bounded_number(const char* name, int lo, int hi) {
  const char* v = value_of(name);
  if (*v == '\0') return 0;
  return static_cast<int>(std::clamp<long long>(std::strtoll(v, nullptr, 10), lo, hi));
}

template <class T, class Read>
T memo(std::optional<T>& slot, Read read) {
  if (!slot) slot = read();
  return *slot;
}

}  // namespace

bool Switches::small_gemm_fallback() {
  return memo(small_gemm_fallback_, [] { return !is("EGEMM_SMALL_GEMM_FALLBACK", "0"); });
}
bool Switches::int8_one_read_split() {
  return memo(int8_one_read_split_, [] { return !is("EGEMM_INT8_ONE_READ_SPLIT", "0"); });
}
bool Switches::sgemm_plans() {
  return memo(sgemm_plans_, [] { return !is("EGEMM_SGEMM_PLANS", "0"); });
}
Sm90Kernel Switches::sm90_kernel() {
  return memo(sm90_kernel_, [] {
    return is("EGEMM_SM90_KERNEL", "0") ? Sm90Kernel::mma_sync : Sm90Kernel::model;
  });
}
std::string Switches::sm90_tile() {
  return memo(sm90_tile_, [] { return std::string(value_of("EGEMM_SM90_TILE")); });
}
int Switches::sm90_cluster() {
  return memo(sm90_cluster_, [] { return is("EGEMM_SM90_CLUSTER", "1") ? 1 : 2; });
}
bool Switches::sm90_persistent() {
  return memo(sm90_persistent_, [] { return !is("EGEMM_SM90_PERSISTENT", "0"); });
}
int Switches::sm90_slots() {
  return memo(sm90_slots_, [] { return bounded_number("EGEMM_SM90_SLOTS", 1, std::numeric_limits<int>::max()); });
}
StreamK Switches::sm90_stream_k() {
  return memo(sm90_stream_k_, [] {
    const char* v = value_of("EGEMM_SM90_STREAM_K");
    return *v == '\0' ? StreamK::model : std::strcmp(v, "0") == 0 ? StreamK::never : StreamK::always;
  });
}
int Switches::sm90_group() {
  // Bounded: the raster's group times the tiles of a row stays an int.
  return memo(sm90_group_, [] { return bounded_number("EGEMM_SM90_GROUP", 1, 65535); });
}
bool Switches::sm90_c_through_tma() {
  return memo(sm90_c_through_tma_, [] { return !is("EGEMM_SM90_C_STORE", "registers"); });
}

bool Switches::fault_this_launch() {
  const int n = memo(fault_launch_, [] { return bounded_number("EGEMM_FAULT_LAUNCH", 0, std::numeric_limits<int>::max()); });
  return ++launches_ == n;
}

Switches& switches() {
  if (call_in_progress != nullptr) return *call_in_progress;
  thread_local Switches now;
  now = Switches{};  // outside a call: read afresh
  return now;
}

CallSwitches::CallSwitches() : outermost_(call_in_progress == nullptr) {
  if (outermost_) call_in_progress = &values_;
}
CallSwitches::~CallSwitches() {
  if (outermost_) call_in_progress = nullptr;
}

}  // namespace egemm::cuda
