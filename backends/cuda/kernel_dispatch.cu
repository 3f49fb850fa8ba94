// The dispatch table: one entry per policy, generated from egemm::all_policies
// and policy_traits, holding its mma.sync launch (sm80/), its TMA + wgmma
// launch (sm90/) and their footprints. A tag's way to its kernel:
// (policy, path) -> the entry of the policy whose kernel runs those pieces
// (kernel_policy) -> the architecture the current GPU and binary run
// (fused_kernel_for) -> that column's launch.
#include <array>
#include <cstddef>
#include <string>
#include <tuple>

#include "backends/cuda/kernel_dispatch.hpp"
#include "backends/cuda/runtime/device_facts.hpp"
#include "backends/cuda/runtime/tuning.hpp"
#include "backends/cuda/sm80/fused_gemm_sm80.hpp"
#include "backends/cuda/sm90/fused_gemm_tma.hpp"
#include "egemm/errors.hpp"
#include "egemm/model/crossover.hpp"

namespace egemm::cuda {
namespace {

using Launch = void (*)(const FusedLaunch&);
using Footprint = KernelFootprint (*)();

struct KernelEntry {
  PolicyId policy;
  Launch sm80;  // the mma.sync kernel (every sm_80+ GPU); null: no fused kernel of its own
  Footprint sm80_footprint;
  Launch sm90;  // the TMA + wgmma kernel (sm_90a); null: mma.sync on every GPU
  Footprint sm90_footprint;
};

// NativeFP32 runs cuBLAS; NormwiseFP32's calls run Int8Slices' kernel and
// EmulatedFP32's (cuda_gemm.cu). Every other policy has its own fused kernel,
// on both architectures.
template <class Policy>
constexpr bool has_fused_kernel =
    policy_traits<Policy>::emulated && policy_traits<Policy>::id != PolicyId::normwise_fp32;

template <class Policy>
constexpr KernelEntry entry_of() {
  if constexpr (has_fused_kernel<Policy>) {
    return {policy_traits<Policy>::id, &Sm80Kernel<Policy>::launch, &Sm80Kernel<Policy>::footprint,
            &TmaKernel<Policy>::launch, &TmaKernel<Policy>::footprint};
  } else {
    return {policy_traits<Policy>::id, nullptr, nullptr, nullptr, nullptr};
  }
}

template <class... Policies>
constexpr std::array<KernelEntry, sizeof...(Policies)> table_of(std::tuple<Policies...>*) {
  return {entry_of<Policies>()...};
}

// Indexed by PolicyId: all_policies lists the tags in the enum's order.
constexpr auto kernel_table = table_of(static_cast<all_policies*>(nullptr));

template <std::size_t... I>
constexpr bool indexed_by_id(std::index_sequence<I...>) {
  return ((kernel_table[I].policy == static_cast<PolicyId>(I)) && ...);
}
static_assert(indexed_by_id(std::make_index_sequence<kernel_table.size()>{}), "kernel_table[id] is id's entry");

// The policy whose kernel runs `policy`'s pieces on `path`: EmulatedFP32's
// full-range path is FullRangeTF32x3's TF32 kernel under EmulatedFP32's path word.
PolicyId kernel_policy(PolicyId policy, EmulationPath path) {
  if (policy == PolicyId::emulated_fp32 && path == EmulationPath::tf32_full_range) return PolicyId::full_range_tf32x3;
  return policy;
}

const KernelEntry& entry_for(PolicyId policy, EmulationPath path) {
  return kernel_table[static_cast<std::size_t>(kernel_policy(policy, path))];
}

// The TMA kernel where the entry has one, the device and binary run sm_90a
// code, and the tuning does not force mma.sync.
bool runs_tma(const KernelEntry& e) {
  return e.sm90 != nullptr && tuning().sm90_kernel != Sm90Kernel::mma_sync && tma_kernel_runs_here();
}

}  // namespace

FusedKernel fused_kernel_for(PolicyId policy, EmulationPath path) {
  return runs_tma(entry_for(policy, path)) ? FusedKernel::wgmma_tma_sm90 : FusedKernel::mma_sync_sm80;
}

double emulated_fp32_wave_utilisation(FusedKernel kernel, index_t m, index_t n) {
  const KernelEntry& e = entry_for(PolicyId::emulated_fp32, EmulationPath::fp16_scaled);
  const KernelFootprint f = kernel == FusedKernel::wgmma_tma_sm90 ? e.sm90_footprint() : e.sm80_footprint();
  const index_t tiles = ((m + f.bm - 1) / f.bm) * ((n + f.bn - 1) / f.bn);
  return model::wave_utilisation(tiles, static_cast<index_t>(device_facts().sms) * f.blocks_per_sm);
}

void launch_fused_gemm(PolicyId policy, const SplitOperand& a, const SplitOperand& b, const GemmArgs& g,
                       const std::uint32_t* path_word, EmulationPath path, WorkspaceCarver& scratch,
                       cudaStream_t stream) {
  const KernelEntry& e = entry_for(policy, path);
  if (e.sm80 == nullptr)
    throw invalid_argument(std::string("egemm::cuda::launch_fused_gemm: no fused kernel for ") + policy_name(policy));
  const FusedLaunch l{a, b, g, path_word, path, scratch, stream};
  // The wgmma kernel needs at least one k-tile (its sums start in the first).
  if (a.depth_pad > 0 && runs_tma(e)) return e.sm90(l);
  if (scratch.measures_only()) return;  // the mma.sync kernel takes no scratch
  e.sm80(l);
}

void launch_fused_gemm(PolicyId policy, const SplitOperand& a, const SplitOperand& b, const GemmArgs& g,
                       const std::uint32_t* path_word, EmulationPath path, cudaStream_t stream) {
  const CallTuning call_tuning;  // both passes see the same tuning values
  enqueue_with_workspace(stream, [&](WorkspaceCarver& scratch) {
    launch_fused_gemm(policy, a, b, g, path_word, path, scratch, stream);
  });
}

}  // namespace egemm::cuda
