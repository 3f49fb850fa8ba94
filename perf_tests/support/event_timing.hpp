// GPU timings of what a callable enqueues on a stream, three ways: the median
// of synchronised calls, one call on a rested GPU, and calls queued back to
// back (sustained). Used by the tile sweep, the power budget and the suite.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "support/median.hpp"

namespace egemm::perf {

inline void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(e));
}

// GPU seconds of what `f` enqueues on `stream`, between two events.
class EventTimer {
 public:
  explicit EventTimer(cudaStream_t stream) : stream_(stream) {
    check(cudaEventCreate(&start_), "cudaEventCreate");
    check(cudaEventCreate(&stop_), "cudaEventCreate");
  }
  ~EventTimer() {
    (void)cudaEventDestroy(start_);
    (void)cudaEventDestroy(stop_);
  }
  EventTimer(const EventTimer&) = delete;
  EventTimer& operator=(const EventTimer&) = delete;
  template <class F>
  double seconds(F&& f) {
    check(cudaEventRecord(start_, stream_), "cudaEventRecord");
    f();
    check(cudaEventRecord(stop_, stream_), "cudaEventRecord");
    check(cudaEventSynchronize(stop_), "cudaEventSynchronize");
    float ms = 0;
    check(cudaEventElapsedTime(&ms, start_, stop_), "cudaEventElapsedTime");
    return ms * 1e-3;
  }

 private:
  cudaStream_t stream_;
  cudaEvent_t start_ = nullptr, stop_ = nullptr;
};

// Median seconds of `reps` calls of `f` on `stream` (CUDA events), after two warm-up calls.
template <class F>
double median_seconds(F&& f, int reps, cudaStream_t stream) {
  EventTimer timer(stream);
  for (int i = 0; i < 2; ++i) f();
  std::vector<double> t;
  for (int i = 0; i < reps; ++i) t.push_back(timer.seconds(f));
  return median_of(t);
}

// Seconds of one call of `f` on a rested GPU: the median of `reps` calls,
// each timed by events after `rest` seconds of idling. A power-capped GPU
// lowers its clock under load and raises it again only after a while idle, so
// synchronised calls in a row are timed at whatever clock the work before
// them left (the tile sweep's single block and pair swapped places by the
// order they were timed in); a rest before every call makes each start as a
// user's first call after idling would.
template <class F>
double rested_seconds(F&& f, int reps, double rest, cudaStream_t stream) {
  EventTimer timer(stream);
  f();  // first-call costs (module loading, workspaces) outside the timing
  check(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
  std::vector<double> t;
  for (int i = 0; i < reps; ++i) {
    std::this_thread::sleep_for(std::chrono::duration<double>(rest));
    t.push_back(timer.seconds(f));
  }
  return median_of(t);
}

// Seconds per call of `calls` calls of `f` queued back to back on `stream`
// (events around the whole run), after `warmup` calls queued the same way: the
// GPU never idles, so a power-capped GPU reaches its cap during the warm-up
// and holds it throughout, as in sustained use.
template <class F>
double queued_seconds(F&& f, int calls, int warmup, cudaStream_t stream) {
  EventTimer timer(stream);
  for (int i = 0; i < warmup; ++i) f();
  return timer.seconds([&] {
           for (int i = 0; i < calls; ++i) f();
         }) /
         calls;
}

}  // namespace egemm::perf
