// Instantiates and launches the sm_90a wgmma kernel: the four TMA tensor maps
// of the pieces, the run-time check that the device and the binary have it.
#include <cuda.h>
#include <cudaTypedefs.h>

#include <cstdlib>
#include <cstring>
#include <string>

#include "backends/cuda/cuda_check.hpp"
#include "backends/cuda/per_device.hpp"
#include "backends/cuda/sm90/fused_gemm_tma.hpp"
#include "backends/cuda/sm90/fused_gemm_tma_kernel.cuh"
#include "backends/cuda/tile_config.hpp"
#include "egemm/errors.hpp"

namespace egemm::cuda {
namespace {

// cuTensorMapEncodeTiled from the driver the runtime already loaded (no libcuda link).
PFN_cuTensorMapEncodeTiled_v12000 tensor_map_encoder() {
  static const PFN_cuTensorMapEncodeTiled_v12000 encode = [] {
    void* fn = nullptr;
    cudaDriverEntryPointQueryResult found{};
    EGEMM_CUDA_CHECK(cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &fn, 12000, cudaEnableDefault, &found));
    if (found != cudaDriverEntryPointSuccess || fn == nullptr)
      throw device_error("egemm::gemm (CUDA): the driver has no cuTensorMapEncodeTiled");
    return reinterpret_cast<PFN_cuTensorMapEncodeTiled_v12000>(fn);
  }();
  return encode;
}

// A piece (rows_pad x depth_pad FP16, k contiguous) as boxes of 64 k x `box_rows`
// rows, 128B-swizzled as the wgmma descriptors read them.
CUtensorMap piece_map(const void* piece, const SplitOperand& op, int box_rows) {
  CUtensorMap map{};
  const cuuint64_t dims[2] = {static_cast<cuuint64_t>(op.depth_pad), static_cast<cuuint64_t>(op.rows_pad)};
  const cuuint64_t row_stride[1] = {static_cast<cuuint64_t>(op.depth_pad) * 2};
  const cuuint32_t box[2] = {64, static_cast<cuuint32_t>(box_rows)};
  const cuuint32_t element_strides[2] = {1, 1};
  const CUresult r = tensor_map_encoder()(&map, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 2, const_cast<void*>(piece), dims,
                                          row_stride, box, element_strides, CU_TENSOR_MAP_INTERLEAVE_NONE,
                                          CU_TENSOR_MAP_SWIZZLE_128B, CU_TENSOR_MAP_L2_PROMOTION_L2_256B,
                                          CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  if (r != CUDA_SUCCESS)
    throw device_error("egemm::gemm (CUDA): cuTensorMapEncodeTiled failed (" + std::to_string(static_cast<int>(r)) +
                       ") for a " + std::to_string(op.rows_pad) + " x " + std::to_string(op.depth_pad) + " piece");
  return map;
}

template <class Policy, int Cluster = 1>
using TileOf = hopper::Sm90Tile<policy_traits<Policy>::pieces_per_operand, Cluster>;

template <class Policy, int Cluster = 1>
constexpr auto kernel_of() {
  return hopper::tma_wgmma_gemm_kernel<Policy, TileOf<Policy, Cluster>>;
}

template <class Policy, int Cluster>
void launch(const SplitOperand& a, const SplitOperand& b, const GemmArgs& g, const std::uint32_t* path_word,
            EmulationPath path, cudaStream_t stream) {
  using Tile = TileOf<Policy, Cluster>;
  constexpr int pieces = Tile::pieces;
  const auto kernel = kernel_of<Policy, Cluster>();
  EGEMM_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, Tile::smem_bytes));

  static_assert(split_row_multiple % Tile::bm == 0 && split_row_multiple % Tile::bn == 0, "padding fits the tiles");
  static_assert(split_depth_multiple % Tile::bk == 0, "k padding fits the k-tile");
  const FusedGemmParams p = fused_gemm_params(a, b, g, path_word, path, Tile::bm, Tile::bn);
  const index_t tiles_m = p.tiles_m, tiles_n = p.tiles_n;

  // One-piece policies have no lo: their unused maps repeat hi.
  const CUtensorMap a_hi = piece_map(a.piece[0], a, Tile::bm), b_hi = piece_map(b.piece[0], b, Tile::b_box_rows);
  const CUtensorMap a_lo = pieces > 1 ? piece_map(a.piece[1], a, Tile::bm) : a_hi;
  const CUtensorMap b_lo = pieces > 1 ? piece_map(b.piece[1], b, Tile::b_box_rows) : b_hi;
  // Clusters pair m-tiles: the grid rounds tiles_m up to whole clusters.
  const index_t pairs_m = (tiles_m + Cluster - 1) / Cluster;
  cudaLaunchConfig_t config{};
  config.gridDim = dim3(static_cast<unsigned>(pairs_m * Cluster * tiles_n));
  config.blockDim = dim3(Tile::threads);
  config.dynamicSmemBytes = Tile::smem_bytes;
  config.stream = stream;
  cudaLaunchAttribute cluster{};
  cluster.id = cudaLaunchAttributeClusterDimension;
  cluster.val.clusterDim.x = Cluster;
  cluster.val.clusterDim.y = 1;
  cluster.val.clusterDim.z = 1;
  config.attrs = &cluster;
  config.numAttrs = 1;
  EGEMM_CUDA_CHECK(cudaLaunchKernelEx(&config, kernel, a_hi, a_lo, b_hi, b_lo, p));
}

// Per device: whether it is sm_90 and the binary's code for it is the sm_90a kernel.
bool device_runs_sm90a() {
  static PerDevice<bool> runs_per_device;
  return runs_per_device.get([](int device) {
    int major = 0, minor = 0;
    EGEMM_CUDA_CHECK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device));
    EGEMM_CUDA_CHECK(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, device));
    if (major != 9 || minor != 0) return false;
    cudaFuncAttributes attributes{};
    // No code for this device in the binary is an error here, not a reason to fail the call.
    const cudaError_t e = cudaFuncGetAttributes(&attributes, kernel_of<EmulatedFP32>());
    if (e != cudaSuccess) {
      (void)cudaGetLastError();
      return false;
    }
    return attributes.binaryVersion == 90;
  });
}

// EGEMM_SM90_CLUSTER=2: clusters of two blocks multicasting op(B)'s boxes.
// Experimental: correct, but slower on the H100 with a 3-stage ring
// (perf_tests/results/2026-11-22-h100-sm90-wgmma.md, run 3). Default: one block.
int cluster_size() {
  const char* v = std::getenv("EGEMM_SM90_CLUSTER");
  return v != nullptr && std::strcmp(v, "2") == 0 ? 2 : 1;
}

template <class Policy>
void launch(const SplitOperand& a, const SplitOperand& b, const GemmArgs& g, const std::uint32_t* path_word,
            EmulationPath path, cudaStream_t stream) {
  if (cluster_size() == 2) return launch<Policy, 2>(a, b, g, path_word, path, stream);
  launch<Policy, 1>(a, b, g, path_word, path, stream);
}

bool forced_off() {
  const char* v = std::getenv("EGEMM_SM90_KERNEL");
  return v != nullptr && std::strcmp(v, "0") == 0;
}

}  // namespace

bool tma_kernel_runs(PolicyId policy) {
  switch (policy) {
    case PolicyId::emulated_fp32:
    case PolicyId::round_split4:
    case PolicyId::truncate_split4:
    case PolicyId::half: return !forced_off() && device_runs_sm90a();
    case PolicyId::full_range_tf32x3:
    case PolicyId::native_fp32: break;
  }
  return false;
}

void launch_fused_gemm_tma(PolicyId policy, const SplitOperand& a, const SplitOperand& b, const GemmArgs& g,
                           const std::uint32_t* path_word, EmulationPath path, cudaStream_t stream) {
  switch (policy) {
    case PolicyId::emulated_fp32: return launch<EmulatedFP32>(a, b, g, path_word, path, stream);
    case PolicyId::round_split4: return launch<RoundSplit4>(a, b, g, path_word, path, stream);
    case PolicyId::truncate_split4: return launch<TruncateSplit4>(a, b, g, path_word, path, stream);
    case PolicyId::half: return launch<Half>(a, b, g, path_word, path, stream);
    case PolicyId::full_range_tf32x3:
    case PolicyId::native_fp32: break;
  }
  throw invalid_argument(std::string("egemm::cuda::launch_fused_gemm_tma: no wgmma kernel for ") +
                         policy_name(policy));
}

// One block per SM by construction (about 200 KiB of shared memory, 384 x 168
// registers); the occupancy query confirms it on the device at hand.
KernelFootprint tma_footprint(PolicyId policy) {
  (void)policy;  // every FP16 policy has the same block tile
  using Tile = TileOf<EmulatedFP32>;
  static PerDevice<int> blocks_per_device;
  const int blocks = blocks_per_device.get([](int) {
    const auto kernel = kernel_of<EmulatedFP32>();
    EGEMM_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, Tile::smem_bytes));
    int n = 0;
    EGEMM_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, kernel, Tile::threads, Tile::smem_bytes));
    return n;
  });
  return {Tile::bm, Tile::bn, blocks};
}

}  // namespace egemm::cuda
