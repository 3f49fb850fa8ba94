// cuTensorMapEncodeTiled from the driver the runtime already loaded (no libcuda link).
#include <cuda.h>
#include <cudaTypedefs.h>

#include <cstdint>
#include <string>

#include "backends/cuda/runtime/cuda_check.hpp"
#include "backends/cuda/runtime/driver_entry.hpp"
#include "backends/cuda/sm90/tensor_maps.hpp"
#include "egemm/errors.hpp"

namespace egemm::cuda::hopper {
namespace {

PFN_cuTensorMapEncodeTiled_v12000 tensor_map_encoder() {
  static const auto encode = driver_entry<PFN_cuTensorMapEncodeTiled_v12000>("cuTensorMapEncodeTiled");
  return encode;
}

}  // namespace

CUtensorMap piece_map(const void* piece, const SplitOperand& op, int box_rows, int element_bytes, int row_bytes) {
  CUtensorMap map{};
  const cuuint64_t dims[2] = {static_cast<cuuint64_t>(op.depth_pad), static_cast<cuuint64_t>(op.rows_pad)};
  const cuuint64_t row_stride[1] = {static_cast<cuuint64_t>(op.depth_pad) * element_bytes};
  const cuuint32_t box[2] = {static_cast<cuuint32_t>(row_bytes / element_bytes), static_cast<cuuint32_t>(box_rows)};
  const cuuint32_t element_strides[2] = {1, 1};
  // TF32 pieces are floats whose low mantissa bits are zero; TMA copies them as 32-bit words.
  const CUtensorMapDataType type = element_bytes == 4   ? CU_TENSOR_MAP_DATA_TYPE_FLOAT32
                                   : element_bytes == 2 ? CU_TENSOR_MAP_DATA_TYPE_FLOAT16
                                                        : CU_TENSOR_MAP_DATA_TYPE_UINT8;
  const CUresult r = tensor_map_encoder()(&map, type, 2, const_cast<void*>(piece), dims,
                                          row_stride, box, element_strides, CU_TENSOR_MAP_INTERLEAVE_NONE,
                                          row_bytes == 64 ? CU_TENSOR_MAP_SWIZZLE_64B : CU_TENSOR_MAP_SWIZZLE_128B,
                                          CU_TENSOR_MAP_L2_PROMOTION_L2_256B,
                                          CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  if (r != CUDA_SUCCESS)
    throw device_error("egemm::gemm (CUDA): cuTensorMapEncodeTiled failed (" + std::to_string(static_cast<int>(r)) +
                       ") for a " + std::to_string(op.rows_pad) + " x " + std::to_string(op.depth_pad) + " piece");
  return map;
}

bool c_map_possible(const GemmArgs& g) {
  constexpr index_t coordinate_limit = (index_t{1} << 31) - 256;  // box coordinates are int32, a tile past the end
  constexpr index_t ldc_limit = index_t{1} << 38;                 // a tensor map's strides are below 2^40 bytes
  return reinterpret_cast<std::uintptr_t>(g.c) % 16 == 0 && g.ldc % 4 == 0 && g.m % 4 == 0 && g.m > 0 && g.n > 0 &&
         g.m < coordinate_limit && g.n < coordinate_limit && g.ldc < ldc_limit;
}

CUtensorMap c_map(const GemmArgs& g, int box_cols) {
  CUtensorMap map{};
  const cuuint64_t dims[2] = {static_cast<cuuint64_t>(g.m), static_cast<cuuint64_t>(g.n)};
  const cuuint64_t col_stride[1] = {static_cast<cuuint64_t>(g.ldc) * sizeof(float)};
  const cuuint32_t box[2] = {32, static_cast<cuuint32_t>(box_cols)};
  const cuuint32_t element_strides[2] = {1, 1};
  const CUresult r = tensor_map_encoder()(&map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, g.c, dims, col_stride, box,
                                          element_strides, CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B,
                                          CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  if (r != CUDA_SUCCESS)
    throw device_error("egemm::gemm (CUDA): cuTensorMapEncodeTiled failed (" + std::to_string(static_cast<int>(r)) +
                       ") for C, " + std::to_string(g.m) + " x " + std::to_string(g.n) + " with ldc " +
                       std::to_string(g.ldc));
  return map;
}

}  // namespace egemm::cuda::hopper
