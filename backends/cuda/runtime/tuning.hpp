// The CUDA backend's tuning overrides: choices the library makes itself
// (which fused kernel, which Hopper tile, clusters, persistent grid,
// stream-K, ...) that the tests and the perf tools set in code to exercise or
// time one alternative. Not installed, not read from the environment; a
// user's program has no reason to touch them. The one user switch here,
// EGEMM_SMALL_GEMM_FALLBACK=0, is read from the environment once per process.
//
// A call fixes the overrides once (CallTuning). It runs its launch sequence
// twice (measuring its scratch, then enqueueing; workspace.hpp), and both
// passes must take the same kernel, tile, grid and stream-K split: a value
// read again in the second pass could differ (another thread setting the
// overrides) and overrun the one allocation mid-enqueue.
#pragma once

#include <cstddef>
#include <optional>
#include <string>

namespace egemm::cuda {

enum class Sm90Kernel { model, mma_sync };   // mma_sync: the mma.sync kernel on a Hopper GPU too
enum class StreamK { model, never, always };  // the Hopper kernel's last partial round split by k

struct Tuning {
  // Unset: EGEMM_SMALL_GEMM_FALLBACK (read once per process); false keeps
  // EmulatedFP32 and NormwiseFP32 on the tensor cores at every size.
  std::optional<bool> small_gemm_fallback;
  Sm90Kernel sm90_kernel = Sm90Kernel::model;
  std::string sm90_tile;           // EmulatedFP32's Hopper tile by name (tile_candidates.hpp); empty: the model's pick
  int sm90_cluster = 2;            // 1: the other policies' Hopper kernel in single blocks
  bool sm90_persistent = true;     // false: one block per tile
  int sm90_slots = 0;              // n > 0: at most n persistent slots, the other SMs left free
  StreamK sm90_stream_k = StreamK::model;
  int sm90_group = 0;              // n > 0: the raster's group of m-tiles (at most 65535)
  bool sm90_c_through_tma = true;  // false: the Hopper epilogue stores C from registers
  bool int8_one_read_split = true; // false: Int8Slices' two-read split
  bool sgemm_plans = true;         // false: cublasSgemm for every hand-off, no cuBLASLt plans
  bool dependent_launch = true;    // false: every kernel launched plainly (a trace shows each kernel's own time)
  // n > 0: a call's scratch of more than n bytes counts as out of device
  // memory, so that the tests run C in blocks (or hand off to SGEMM) on
  // small problems without filling the GPU (workspace.hpp).
  std::size_t scratch_limit = 0;
  // n > 0: the call's n-th kernel launch reports cudaErrorLaunchFailure
  // instead of running (the tests of the error path: no other way makes a
  // launch fail on demand).
  int fault_launch = 0;
};

// The overrides now, for the whole process.
Tuning tuning_overrides();
void set_tuning_overrides(const Tuning& t);

// This thread's values: those the call in progress fixed (a CallTuning
// scope), or, outside a call, the overrides as they are now (the thread's
// copy, refreshed when set_tuning_overrides has changed them since).
const Tuning& tuning();

// Whether small products go to cuBLAS SGEMM (cuda_gemm.cu): the override, or
// EGEMM_SMALL_GEMM_FALLBACK, read once per process ("0": no). With `t`, from
// values the caller already holds.
bool small_gemm_fallback();
bool small_gemm_fallback(const Tuning& t);

// Whether this launch is the call's fault_launch-th (counted per call).
bool fault_this_launch();

// One call's scope: tuning() returns the values of the scope's start until
// it ends. A nested scope (a call inside a call) keeps the outer one's.
class CallTuning {
 public:
  CallTuning();
  ~CallTuning();
  CallTuning(const CallTuning&) = delete;
  CallTuning& operator=(const CallTuning&) = delete;

 private:
  Tuning values_;
  int launches_ = 0;
  bool outermost_;
  friend bool fault_this_launch();
};

// Changes the overrides for one scope and restores the previous ones after
// (the tests; a perf tool may also set them for its whole run):
//   const ScopedTuning forced([](Tuning& t) { t.sm90_kernel = Sm90Kernel::mma_sync; });
class ScopedTuning {
 public:
  template <class Change>
  explicit ScopedTuning(Change change) : saved_(tuning_overrides()) {
    Tuning t = saved_;
    change(t);
    set_tuning_overrides(t);
  }
  ~ScopedTuning() { set_tuning_overrides(saved_); }
  ScopedTuning(const ScopedTuning&) = delete;
  ScopedTuning& operator=(const ScopedTuning&) = delete;

 private:
  Tuning saved_;
};

}  // namespace egemm::cuda
