// The process's tuning overrides behind a mutex, each call's copy of them, and
// the one environment switch read here (EGEMM_SMALL_GEMM_FALLBACK, once).
#include "backends/cuda/runtime/tuning.hpp"

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <mutex>

namespace egemm::cuda {
namespace {

std::mutex overrides_mutex;
// Bumped by every set_tuning_overrides (under the mutex): a thread's copy of
// the overrides outside a call stands until it moves, so that the queries a
// small call's host path makes (a take-or-pass decision of the cuBLAS
// interposer costs well under a microsecond) do not take the mutex.
std::atomic<unsigned> overrides_version{0};
Tuning& overrides() {
  static Tuning t;
  return t;
}

thread_local CallTuning* call_in_progress = nullptr;
thread_local const Tuning* call_values = nullptr;

// Values out of range are bounded: the raster's group times the tiles of a
// row stays an int; a negative cap or fault index is none.
Tuning bounded(Tuning t) {
  t.sm90_group = std::clamp(t.sm90_group, 0, 65535);
  t.sm90_slots = std::max(t.sm90_slots, 0);
  t.fault_launch = std::max(t.fault_launch, 0);
  t.sm90_cluster = t.sm90_cluster == 1 ? 1 : 2;
  return t;
}

}  // namespace

Tuning tuning_overrides() {
  const std::lock_guard<std::mutex> lock(overrides_mutex);
  return overrides();
}

void set_tuning_overrides(const Tuning& t) {
  const std::lock_guard<std::mutex> lock(overrides_mutex);
  overrides() = bounded(t);
  overrides_version.fetch_add(1, std::memory_order_release);
}

const Tuning& tuning() {
  if (call_values != nullptr) return *call_values;
  // Outside a call: the overrides as they are now, copied again only after they change.
  struct Copy {
    unsigned version = ~0u;
    Tuning values;
  };
  thread_local Copy now;
  const unsigned version = overrides_version.load(std::memory_order_acquire);
  if (now.version != version) {
    const std::lock_guard<std::mutex> lock(overrides_mutex);
    now.values = overrides();
    now.version = overrides_version.load(std::memory_order_relaxed);
  }
  return now.values;
}

bool small_gemm_fallback(const Tuning& t) {
  static const bool from_environment = [] {
    const char* v = std::getenv("EGEMM_SMALL_GEMM_FALLBACK");
    return v == nullptr || std::strcmp(v, "0") != 0;
  }();
  return t.small_gemm_fallback ? *t.small_gemm_fallback : from_environment;
}

bool small_gemm_fallback() { return small_gemm_fallback(tuning()); }

bool fault_this_launch() {
  const int n = tuning().fault_launch;
  if (n == 0) return false;
  if (call_in_progress == nullptr) return n == 1;  // outside a call every launch is its own first
  return ++call_in_progress->launches_ == n;
}

CallTuning::CallTuning() : values_(tuning_overrides()), outermost_(call_in_progress == nullptr) {
  if (outermost_) {
    call_in_progress = this;
    call_values = &values_;
  }
}

CallTuning::~CallTuning() {
  if (outermost_) {
    call_in_progress = nullptr;
    call_values = nullptr;
  }
}

}  // namespace egemm::cuda
