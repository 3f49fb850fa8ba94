// The EGEMM_* environment switches of the CUDA backend (README, "Environment
// switches"), each read at most once per call. A call runs its launch
// sequence twice (measuring its scratch, then enqueueing; workspace.hpp), and
// both passes must take the same kernel, tile, grid and stream-K split: a
// value read again in the second pass could differ (a setenv in another
// thread) and overrun the one allocation mid-enqueue. Each switch is read
// where it is first needed, so a call pays for the ones it uses.
#pragma once

#include <optional>
#include <string>

namespace egemm::cuda {

enum class Sm90Kernel { model, mma_sync };  // EGEMM_SM90_KERNEL: unset, 0
enum class StreamK { model, never, always };           // EGEMM_SM90_STREAM_K: unset, 0, 1

class Switches {
 public:
  bool small_gemm_fallback();  // EGEMM_SMALL_GEMM_FALLBACK=0: false
  bool sgemm_plans();          // EGEMM_SGEMM_PLANS=0: false
  Sm90Kernel sm90_kernel();
  std::string sm90_tile();     // EGEMM_SM90_TILE: a tile's name, or empty for the model's pick
  int sm90_cluster();          // EGEMM_SM90_CLUSTER=1: 1, else 2
  bool sm90_persistent();      // EGEMM_SM90_PERSISTENT=0: false
  int sm90_slots();            // EGEMM_SM90_SLOTS: a cap on the persistent grid, 0 for none
  StreamK sm90_stream_k();
  int sm90_group();            // EGEMM_SM90_GROUP: the raster's group (1..65535), 0 for the default
  bool sm90_c_through_tma();   // EGEMM_SM90_C_STORE=registers: false
  bool int8_one_read_split();  // EGEMM_INT8_ONE_READ_SPLIT=0: false (Int8Slices' two-read split)
  // EGEMM_FAULT_LAUNCH=n: true for the call's n-th kernel launch, which then
  // reports cudaErrorLaunchFailure instead of running (the tests of the error
  // path: no other way makes a launch fail on demand); 0 or unset: none.
  // Counts the launches.
  bool fault_this_launch();

 private:
  std::optional<bool> small_gemm_fallback_, sgemm_plans_, sm90_persistent_, sm90_c_through_tma_, int8_one_read_split_;
  std::optional<Sm90Kernel> sm90_kernel_;
  std::optional<std::string> sm90_tile_;
  std::optional<int> sm90_cluster_, sm90_slots_, sm90_group_;
  std::optional<StreamK> sm90_stream_k_;
  std::optional<int> fault_launch_;
  int launches_ = 0;
};

// This thread's switches: those of the call in progress (a CallSwitches
// scope), or, outside a call, the environment as it is now.
Switches& switches();

// One call's scope: switches() keeps each value it read until the scope
// ends. A nested scope (a call inside a call) keeps the outer one's.
class CallSwitches {
 public:
  CallSwitches();
  ~CallSwitches();
  CallSwitches(const CallSwitches&) = delete;
  CallSwitches& operator=(const CallSwitches&) = delete;

 private:
  Switches values_;
  bool outermost_;
};

}  // namespace egemm::cuda
