// The device as the Hopper tile model sees it, and EmulatedFP32's tile per call.
#include "backends/cuda/sm90/hopper_resources.hpp"

#include <string>

#include "backends/cuda/runtime/cuda_check.hpp"
#include "backends/cuda/runtime/per_device.hpp"
#include "backends/cuda/runtime/tuning.hpp"
#include "backends/cuda/sm90/tile_candidates.hpp"
#include "egemm/errors.hpp"

namespace egemm::cuda::hopper {
namespace {

// Measured on the H100 SXM (132 SMs, 1980 MHz) by perf_tests/sm90_tiles:
// cuBLAS HGEMM (FP16 in,
// FP32 accumulate) at 8192^3 on random data, a read of a buffer that stays in
// L2. The load latency is fitted to the sweep's two-stage rings, the
// epilogue's cost per entry to its one-k-tile shape (8192 x 8192 x 64, where
// a tile is its epilogue: 0.154 ms for 128 x 128 with its 64 entries per
// consumer thread staged for TMA stores, i.e. ~0.057 us an entry after the
// k-tile).
constexpr double h100_clock_hz = 1.98e9;
constexpr double h100_sms_x_clock = 132 * h100_clock_hz;
constexpr double h100_tensor_flop_per_s = 750e12;
constexpr double h100_l2_bytes_per_s = 7.0e12;
constexpr double h100_load_latency_s = 0.12e-6;
constexpr double h100_epilogue_s_per_entry = 0.057e-6;
// The stream-K fixup's launch behind the kernel on the same stream (a guess
// of the gap between dependent launches, checked against the tail's measured
// gain: perf_tests/gemm_suite with the tail forced on and off).
constexpr double h100_launch_gap_s = 3e-6;
// nvidia-smi every 100 ms through the 8192^3 and 16384^3 sweeps on an H100:
// 700 W, throttle reason "software power cap", SM clock 1185-1965 MHz, mean
// 1563 MHz of 1980.
constexpr double h100_capped_clock_ratio = 0.79;

// The clusters of two the GPU places at once, from the occupancy of the
// candidate that pairs (0 if none does).
int cluster_pairs() {
  for (int i = 0; i < emulated_fp32_tile_count; ++i)
    if (emulated_fp32_tiles[i].cluster == 2) return emulated_fp32_resident_blocks(i) / 2;
  return 0;
}

int attribute(cudaDeviceAttr which, int device) {
  int v = 0;
  EGEMM_CUDA_CHECK(cudaDeviceGetAttribute(&v, which, device));
  return v;
}

model::HopperResources query(int device) {
  model::HopperResources r;
  r.sms = attribute(cudaDevAttrMultiProcessorCount, device);
  r.smem_per_sm = attribute(cudaDevAttrMaxSharedMemoryPerMultiprocessor, device);
  r.smem_per_block = attribute(cudaDevAttrMaxSharedMemoryPerBlockOptin, device);
  r.registers_per_sm = attribute(cudaDevAttrMaxRegistersPerMultiprocessor, device);
  r.clock_hz = 1e3 * attribute(cudaDevAttrClockRate, device);
  const double scale = r.sms * r.clock_hz / h100_sms_x_clock;
  r.tensor_flop_per_s = h100_tensor_flop_per_s * scale;
  r.l2_bytes_per_s = h100_l2_bytes_per_s * scale;
  r.dram_bytes_per_s =
      2e3 * attribute(cudaDevAttrMemoryClockRate, device) * attribute(cudaDevAttrGlobalMemoryBusWidth, device) / 8.0;
  r.load_latency_s = h100_load_latency_s;
  r.epilogue_s_per_entry = h100_epilogue_s_per_entry * h100_clock_hz / r.clock_hz;
  r.cluster_pairs = cluster_pairs();
  r.launch_gap_s = h100_launch_gap_s;
  r.capped_clock_ratio = h100_capped_clock_ratio;
  return r;
}

std::string tile_names() {
  std::string names;
  for (const model::HopperTile& t : emulated_fp32_tiles) names += std::string(names.empty() ? "" : ", ") + t.name;
  return names;
}

}  // namespace

model::HopperResources hopper_resources() {
  static PerDevice<model::HopperResources> per_device;
  return per_device.get(query);
}

bool persistent_blocks() { return tuning().sm90_persistent; }

int emulated_fp32_tile(index_t m, index_t n, index_t k) {
  const model::HopperResources r = hopper_resources();
  if (const std::string forced = tuning().sm90_tile; !forced.empty()) {
    for (int i = 0; i < emulated_fp32_tile_count; ++i) {
      if (forced != emulated_fp32_tiles[i].name) continue;
      std::string why;
      if (!model::fits(r, emulated_fp32_tiles[i], emulated_fp32_shape, &why))
        throw unsupported("Hopper tile " + forced + " does not fit this GPU: " + why);
      return i;
    }
    throw invalid_argument("Hopper tile " + forced + " is not a tile of the Hopper kernel (" + tile_names() + ")");
  }
  const int best = model::pick(r, emulated_fp32_tiles, emulated_fp32_shape, m, n, k);
  if (best < 0) throw unsupported("egemm::gemm (CUDA): no Hopper kernel tile fits this GPU");
  return best;
}

}  // namespace egemm::cuda::hopper
