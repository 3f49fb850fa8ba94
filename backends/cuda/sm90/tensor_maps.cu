// cuTensorMapEncodeTiled from the driver the runtime already loaded (no libcuda link).
#include <cuda.h>
#include <cudaTypedefs.h>

#include <algorithm>
#include <cstdint>
#include <string>

#include "backends/cuda/cuda_check.hpp"
#include "backends/cuda/sm90/tensor_maps.hpp"
#include "egemm/errors.hpp"

namespace egemm::cuda::hopper {
namespace {

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

}  // namespace

bool tma_reads(const OperandRows& src) {
  const bool rows_contiguous = src.row_stride == 1 && src.rows > 1;
  const index_t stride = rows_contiguous ? src.depth_stride : src.row_stride;
  const bool one_unit_stride = rows_contiguous || src.depth_stride == 1 || src.depth <= 1;
  return one_unit_stride && reinterpret_cast<std::uintptr_t>(src.base) % 16 == 0 && stride % 4 == 0 && stride > 0 &&
         stride < (index_t{1} << 38) && src.rows < (index_t{1} << 31) && src.depth < (index_t{1} << 31);
}

CUtensorMap source_map(const OperandRows& src, int box_rows, int box_k) {
  if (!tma_reads(src)) throw invalid_argument("egemm::cuda::hopper::source_map: TMA cannot read this operand");
  const bool rows_contiguous = source_rows_contiguous(src);
  // Dimension 0 is the contiguous one.
  const cuuint64_t rows = static_cast<cuuint64_t>(src.rows), depth = static_cast<cuuint64_t>(std::max<index_t>(src.depth, 1));
  const cuuint64_t dims[2] = {rows_contiguous ? rows : depth, rows_contiguous ? depth : rows};
  const index_t stride = rows_contiguous ? src.depth_stride : src.row_stride;
  const cuuint64_t strides[1] = {static_cast<cuuint64_t>(stride) * sizeof(float)};
  const cuuint32_t box[2] = {static_cast<cuuint32_t>(rows_contiguous ? box_rows : box_k),
                             static_cast<cuuint32_t>(rows_contiguous ? box_k : box_rows)};
  const cuuint32_t element_strides[2] = {1, 1};
  CUtensorMap map{};
  const CUresult r = tensor_map_encoder()(
      &map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, const_cast<float*>(src.base), dims, strides, box, element_strides,
      CU_TENSOR_MAP_INTERLEAVE_NONE, rows_contiguous ? CU_TENSOR_MAP_SWIZZLE_NONE : CU_TENSOR_MAP_SWIZZLE_128B,
      CU_TENSOR_MAP_L2_PROMOTION_L2_256B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  if (r != CUDA_SUCCESS)
    throw device_error("egemm::gemm (CUDA): cuTensorMapEncodeTiled failed (" + std::to_string(static_cast<int>(r)) +
                       ") for a " + std::to_string(src.rows) + " x " + std::to_string(src.depth) + " FP32 operand");
  return map;
}

CUtensorMap piece_map(const void* piece, const SplitOperand& op, int box_rows, int element_bytes) {
  CUtensorMap map{};
  const cuuint64_t dims[2] = {static_cast<cuuint64_t>(op.depth_pad), static_cast<cuuint64_t>(op.rows_pad)};
  const cuuint64_t row_stride[1] = {static_cast<cuuint64_t>(op.depth_pad) * element_bytes};
  const cuuint32_t box[2] = {static_cast<cuuint32_t>(128 / element_bytes), static_cast<cuuint32_t>(box_rows)};
  const cuuint32_t element_strides[2] = {1, 1};
  // TF32 pieces are floats whose low mantissa bits are zero; TMA copies them as 32-bit words.
  const CUtensorMapDataType type = element_bytes == 4 ? CU_TENSOR_MAP_DATA_TYPE_FLOAT32 : CU_TENSOR_MAP_DATA_TYPE_FLOAT16;
  const CUresult r = tensor_map_encoder()(&map, type, 2, const_cast<void*>(piece), dims,
                                          row_stride, box, element_strides, CU_TENSOR_MAP_INTERLEAVE_NONE,
                                          CU_TENSOR_MAP_SWIZZLE_128B, CU_TENSOR_MAP_L2_PROMOTION_L2_256B,
                                          CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  if (r != CUDA_SUCCESS)
    throw device_error("egemm::gemm (CUDA): cuTensorMapEncodeTiled failed (" + std::to_string(static_cast<int>(r)) +
                       ") for a " + std::to_string(op.rows_pad) + " x " + std::to_string(op.depth_pad) + " piece");
  return map;
}

}  // namespace egemm::cuda::hopper
