// cublasLtMatmul: taken for one FP32 product with CUBLAS_COMPUTE_32F, host alpha/beta, no epilogue, full fill, no scale pointers, column-major, strided, in place (or beta = 0).
//
// Batched cuBLASLt calls (a layout with a batch count above 1) pass through
// whole: a failure after EGEMM ran some items could not hand cuBLASLt the
// rest without making new layouts (an allocation on the call's path).
#include <cstdint>

#include "src/cublas_interposer/handle_call.hpp"

using namespace egemm::interposer;

namespace {

template <class T>
bool desc_get(const RealCublas& real, cublasLtMatmulDesc_t desc, cublasLtMatmulDescAttributes_t attribute, T& value) {
  std::size_t written = 0;
  return real.lt_desc_get(desc, attribute, &value, sizeof value, &written) == CUBLAS_STATUS_SUCCESS &&
         written == sizeof value;
}

struct Layout {
  uint32_t type = 0;
  int32_t order = 0, batch = 1;
  uint64_t rows = 0, cols = 0;
  int64_t ld = 0;
};

// The layout's type, order, batch count, rows, columns and leading dimension; false where one cannot be read.
bool layout_get(const RealCublas& real, cublasLtMatrixLayout_t layout, Layout& l) {
  const auto get = [&](cublasLtMatrixLayoutAttribute_t attribute, auto& value) {
    std::size_t written = 0;
    return real.lt_layout_get(layout, attribute, &value, sizeof value, &written) == CUBLAS_STATUS_SUCCESS &&
           written == sizeof value;
  };
  return get(CUBLASLT_MATRIX_LAYOUT_TYPE, l.type) && get(CUBLASLT_MATRIX_LAYOUT_ORDER, l.order) &&
         get(CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT, l.batch) && get(CUBLASLT_MATRIX_LAYOUT_ROWS, l.rows) &&
         get(CUBLASLT_MATRIX_LAYOUT_COLS, l.cols) && get(CUBLASLT_MATRIX_LAYOUT_LD, l.ld);
}

// The layout's batch mode: strided (the default) unless it says otherwise;
// a cuBLASLt that does not know the attribute has only strided batches.
bool pointer_array_batch(const RealCublas& real, cublasLtMatrixLayout_t layout) {
  uint32_t mode = 0;
  std::size_t written = 0;
  return real.lt_layout_get(layout, CUBLASLT_MATRIX_LAYOUT_BATCH_MODE, &mode, sizeof mode, &written) ==
             CUBLAS_STATUS_SUCCESS &&
         written == sizeof mode && mode != CUBLASLT_BATCH_MODE_STRIDED;
}

const char* layout_refusal(const Layout& l) {
  if (l.type != CUDA_R_32F) return "a matrix is not FP32";
  if (l.order != CUBLASLT_ORDER_COL) return "a matrix is not column-major";
  if (l.batch != 1) return "a batched cuBLASLt call (passed whole)";
  return nullptr;
}

// The call as an Fp32Problem, or why EGEMM does not take it. Cheapest and
// most often refusing first: the compute type settles FP16/BF16/FP8 and TF32 calls in one query.
const char* lt_problem(const RealCublas& real, cublasLtMatmulDesc_t desc, const void* alpha, const void* a,
                       cublasLtMatrixLayout_t a_layout, const void* b, cublasLtMatrixLayout_t b_layout,
                       const void* beta, const void* c, cublasLtMatrixLayout_t c_layout, void* d,
                       cublasLtMatrixLayout_t d_layout, cudaStream_t stream, Fp32Problem& p) {
  int32_t compute = 0;
  if (!desc_get(real, desc, CUBLASLT_MATMUL_DESC_COMPUTE_TYPE, compute)) return "the compute type cannot be read";
  if (const char* why = compute_type_refusal(static_cast<cublasComputeType_t>(compute))) return why;
  Layout la, lb, lc, ld;
  if (!layout_get(real, a_layout, la) || !layout_get(real, b_layout, lb) || !layout_get(real, c_layout, lc) ||
      !layout_get(real, d_layout, ld))
    return "a matrix layout cannot be read";
  for (const Layout* l : {&la, &lb, &lc, &ld})
    if (const char* why = layout_refusal(*l)) return why;
  // Pointer-array batches hold arrays of pointers where the matrices would be, even with a batch count of 1.
  for (cublasLtMatrixLayout_t l : {a_layout, b_layout, c_layout, d_layout})
    if (pointer_array_batch(real, l)) return "a pointer-array batch";
  int32_t scale = 0, pointer_mode = 0, ta = 0, tb = 0, tc = 0, sm_target = 0, fill = 0;
  uint32_t epilogue = 0;
  const void* scales[4] = {};
  if (!desc_get(real, desc, CUBLASLT_MATMUL_DESC_SCALE_TYPE, scale) ||
      !desc_get(real, desc, CUBLASLT_MATMUL_DESC_FILL_MODE, fill) ||
      !desc_get(real, desc, CUBLASLT_MATMUL_DESC_A_SCALE_POINTER, scales[0]) ||
      !desc_get(real, desc, CUBLASLT_MATMUL_DESC_B_SCALE_POINTER, scales[1]) ||
      !desc_get(real, desc, CUBLASLT_MATMUL_DESC_C_SCALE_POINTER, scales[2]) ||
      !desc_get(real, desc, CUBLASLT_MATMUL_DESC_D_SCALE_POINTER, scales[3]) ||
      !desc_get(real, desc, CUBLASLT_MATMUL_DESC_POINTER_MODE, pointer_mode) ||
      !desc_get(real, desc, CUBLASLT_MATMUL_DESC_TRANSA, ta) || !desc_get(real, desc, CUBLASLT_MATMUL_DESC_TRANSB, tb) ||
      !desc_get(real, desc, CUBLASLT_MATMUL_DESC_TRANSC, tc) ||
      !desc_get(real, desc, CUBLASLT_MATMUL_DESC_EPILOGUE, epilogue) ||
      !desc_get(real, desc, CUBLASLT_MATMUL_DESC_SM_COUNT_TARGET, sm_target))
    return "a matmul descriptor attribute cannot be read";
  if (scale != CUDA_R_32F) return "the scale type is not FP32";
  if (pointer_mode != CUBLASLT_POINTER_MODE_HOST) return "alpha and beta are not host scalars";
  if (epilogue != CUBLASLT_EPILOGUE_DEFAULT) return "an epilogue (bias, activation, ...)";
  if (tc != CUBLAS_OP_N) return "a transposed C";
  if (sm_target != 0) return "an SM count target";
  if (fill != CUBLAS_FILL_MODE_FULL) return "a triangular fill mode (only part of D written)";
  for (const void* p : scales)
    if (p != nullptr) return "a matrix scale pointer (cuBLASLt's answer for FP32 is its own)";
  const auto op_a = static_cast<cublasOperation_t>(ta), op_b = static_cast<cublasOperation_t>(tb);
  if (const char* why = transpose_refusal(op_a, op_b)) return why;
  const long long m = static_cast<long long>(ld.rows), n = static_cast<long long>(ld.cols);
  const long long k = static_cast<long long>(op_a == CUBLAS_OP_N ? la.cols : la.rows);
  const bool shapes_agree = (op_a == CUBLAS_OP_N ? la.rows : la.cols) == ld.rows &&
                            (op_b == CUBLAS_OP_N ? lb.rows : lb.cols) == static_cast<uint64_t>(k) &&
                            (op_b == CUBLAS_OP_N ? lb.cols : lb.rows) == ld.cols && lc.rows == ld.rows &&
                            lc.cols == ld.cols;
  if (!shapes_agree) return "the layouts' sizes disagree (cuBLASLt reports it)";
  if (const char* why = size_refusal(m, n, k, la.ld, lb.ld, ld.ld, op_a, op_b)) return why;
  const float beta_value = *static_cast<const float*>(beta);
  // EGEMM updates C in place; where D is another matrix, only a beta of 0 (C unread) lets it write D directly.
  if ((c != d || lc.ld != ld.ld) && beta_value != 0.0f) return "D is not C and beta is not 0";
  p = Fp32Problem{op_a, op_b, m, n, k, *static_cast<const float*>(alpha), static_cast<const float*>(a), la.ld, 0,
                  static_cast<const float*>(b), lb.ld, 0, beta_value, static_cast<float*>(d), ld.ld, 0, 1, stream};
  return nullptr;
}

}  // namespace

EGEMM_INTERPOSER_EXPORT cublasStatus_t cublasLtMatmul(cublasLtHandle_t lt, cublasLtMatmulDesc_t desc, const void* alpha,
                                                      const void* A, cublasLtMatrixLayout_t a_layout, const void* B,
                                                      cublasLtMatrixLayout_t b_layout, const void* beta, const void* C,
                                                      cublasLtMatrixLayout_t c_layout, void* D,
                                                      cublasLtMatrixLayout_t d_layout, const cublasLtMatmulAlgo_t* algo,
                                                      void* workspace, size_t workspace_size, cudaStream_t stream) {
  const RealCublas& real = real_cublas();
  if (real.lt_matmul == nullptr) return missing_real_function("cublasLtMatmul");
  const auto forward = [&] {
    return real.lt_matmul(lt, desc, alpha, A, a_layout, B, b_layout, beta, C, c_layout, D, d_layout, algo, workspace,
                          workspace_size, stream);
  };
  if (nested_call()) return forward();  // cuBLAS's own call (cublasSgemm runs through here), or EGEMM's
  const char* why = policy_refusal();
  Fp32Problem p{};
  if (why == nullptr)
    why = real.lt_desc_get != nullptr && real.lt_layout_get != nullptr
              ? lt_problem(real, desc, alpha, A, a_layout, B, b_layout, beta, C, c_layout, D, d_layout, stream, p)
              : "cuBLASLt's attribute getters are missing";
  if (why == nullptr) {
    long long done = 0;
    why = run_on_egemm("cublasLtMatmul", p, &done);
    if (why == nullptr) return CUBLAS_STATUS_SUCCESS;
    log_passed("cublasLtMatmul", transpose_char(p.trans_a), transpose_char(p.trans_b), p.m, p.n, p.k, 1, why);
  } else {
    log_passed("cublasLtMatmul", why);
  }
  Inside inside;
  return forward();
}
