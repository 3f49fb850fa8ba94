// libegemm_fake_cublas.so: the cuBLAS entry points the interposer forwards to, recording every call, for the host tests.
#include "fakes.hpp"

#define FAKE_EXPORT extern "C" __attribute__((visibility("default")))

namespace fake {
std::vector<Call>& cublas_calls() {
  static std::vector<Call> calls;
  return calls;
}
}  // namespace fake

using fake::all_bits;

namespace {
bool recording = true;
void record(const char* entry, std::vector<std::uint64_t> args) {
  if (recording) fake::cublas_calls().push_back({entry, std::move(args)});
}
fake::Handle& handle_of(cublasHandle_t h) { return *reinterpret_cast<fake::Handle*>(h); }
}  // namespace

FAKE_EXPORT cublasStatus_t cublasGetMathMode(cublasHandle_t h, cublasMath_t* mode) {
  *mode = handle_of(h).math;
  return CUBLAS_STATUS_SUCCESS;
}
FAKE_EXPORT cublasStatus_t cublasGetPointerMode_v2(cublasHandle_t h, cublasPointerMode_t* mode) {
  *mode = handle_of(h).pointer_mode;
  return CUBLAS_STATUS_SUCCESS;
}
FAKE_EXPORT cublasStatus_t cublasGetStream_v2(cublasHandle_t h, cudaStream_t* stream) {
  *stream = handle_of(h).stream;
  return CUBLAS_STATUS_SUCCESS;
}

// cuBLASLt descriptors: attribute i of a matmul descriptor in data[i], of a layout likewise.
FAKE_EXPORT cublasStatus_t cublasLtMatmulDescGetAttribute(cublasLtMatmulDesc_t d, cublasLtMatmulDescAttributes_t a,
                                                          void* buf, size_t size, size_t* written) {
  if (static_cast<int>(a) >= 32 || size > 8) return CUBLAS_STATUS_INVALID_VALUE;
  std::memcpy(buf, &d->data[a], size);
  *written = size;
  return CUBLAS_STATUS_SUCCESS;
}
FAKE_EXPORT cublasStatus_t cublasLtMatrixLayoutGetAttribute(cublasLtMatrixLayout_t l, cublasLtMatrixLayoutAttribute_t a,
                                                            void* buf, size_t size, size_t* written) {
  if (static_cast<int>(a) >= 8 || size > 8) return CUBLAS_STATUS_INVALID_VALUE;
  std::memcpy(buf, &l->data[a], size);
  *written = size;
  return CUBLAS_STATUS_SUCCESS;
}

FAKE_EXPORT cublasStatus_t cublasLtMatmul(cublasLtHandle_t lt, cublasLtMatmulDesc_t desc, const void* alpha,
                                          const void* A, cublasLtMatrixLayout_t ad, const void* B,
                                          cublasLtMatrixLayout_t bd, const void* beta, const void* C,
                                          cublasLtMatrixLayout_t cd, void* D, cublasLtMatrixLayout_t dd,
                                          const cublasLtMatmulAlgo_t* algo, void* ws, size_t ws_size, cudaStream_t s) {
  record("cublasLtMatmul", all_bits(lt, desc, alpha, A, ad, B, bd, beta, C, cd, D, dd, algo, ws, ws_size, s));
  return CUBLAS_STATUS_SUCCESS;
}

// The real cublasSgemm_v2 runs through cublasLtMatmul (an exported symbol):
// the fake does too, with an FP32 descriptor the interposer would take were
// the call not cuBLAS's own, so the tests see the reentrancy guard work.
FAKE_EXPORT cublasStatus_t cublasSgemm_v2(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int m, int n,
                                          int k, const float* alpha, const float* A, int lda, const float* B, int ldb,
                                          const float* beta, float* C, int ldc) {
  record("cublasSgemm_v2", all_bits(h, ta, tb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc));
  cublasLtMatmulDescOpaque_t desc{};
  desc.data[CUBLASLT_MATMUL_DESC_COMPUTE_TYPE] = CUBLAS_COMPUTE_32F;
  desc.data[CUBLASLT_MATMUL_DESC_SCALE_TYPE] = CUDA_R_32F;
  desc.data[CUBLASLT_MATMUL_DESC_TRANSA] = ta;
  desc.data[CUBLASLT_MATMUL_DESC_TRANSB] = tb;
  desc.data[CUBLASLT_MATMUL_DESC_EPILOGUE] = CUBLASLT_EPILOGUE_DEFAULT;
  desc.data[CUBLASLT_MATMUL_DESC_FILL_MODE] = CUBLAS_FILL_MODE_FULL;
  const auto layout = [](long long rows, long long cols, long long ld) {
    cublasLtMatrixLayoutOpaque_t l{};
    l.data[CUBLASLT_MATRIX_LAYOUT_TYPE] = CUDA_R_32F;
    l.data[CUBLASLT_MATRIX_LAYOUT_ORDER] = CUBLASLT_ORDER_COL;
    l.data[CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT] = 1;
    l.data[CUBLASLT_MATRIX_LAYOUT_ROWS] = static_cast<std::uint64_t>(rows);
    l.data[CUBLASLT_MATRIX_LAYOUT_COLS] = static_cast<std::uint64_t>(cols);
    l.data[CUBLASLT_MATRIX_LAYOUT_LD] = static_cast<std::uint64_t>(ld);
    return l;
  };
  auto a = ta == CUBLAS_OP_N ? layout(m, k, lda) : layout(k, m, lda);
  auto b = tb == CUBLAS_OP_N ? layout(k, n, ldb) : layout(n, k, ldb);
  auto c = layout(m, n, ldc);
  return cublasLtMatmul(nullptr, &desc, alpha, A, &a, B, &b, beta, C, &c, C, &c, nullptr, nullptr, 0,
                        handle_of(h).stream);
}

FAKE_EXPORT cublasStatus_t cublasSgemm_v2_64(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int64_t m,
                                             int64_t n, int64_t k, const float* alpha, const float* A, int64_t lda,
                                             const float* B, int64_t ldb, const float* beta, float* C, int64_t ldc) {
  record("cublasSgemm_v2_64", all_bits(h, ta, tb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc));
  return CUBLAS_STATUS_SUCCESS;
}

FAKE_EXPORT cublasStatus_t cublasSgemmStridedBatched(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb,
                                                     int m, int n, int k, const float* alpha, const float* A, int lda,
                                                     long long sA, const float* B, int ldb, long long sB,
                                                     const float* beta, float* C, int ldc, long long sC, int batch) {
  record("cublasSgemmStridedBatched",
         all_bits(h, ta, tb, m, n, k, alpha, A, lda, sA, B, ldb, sB, beta, C, ldc, sC, batch));
  return CUBLAS_STATUS_SUCCESS;
}

FAKE_EXPORT cublasStatus_t cublasSgemmStridedBatched_64(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb,
                                                        int64_t m, int64_t n, int64_t k, const float* alpha,
                                                        const float* A, int64_t lda, long long sA, const float* B,
                                                        int64_t ldb, long long sB, const float* beta, float* C,
                                                        int64_t ldc, long long sC, int64_t batch) {
  record("cublasSgemmStridedBatched_64",
         all_bits(h, ta, tb, m, n, k, alpha, A, lda, sA, B, ldb, sB, beta, C, ldc, sC, batch));
  return CUBLAS_STATUS_SUCCESS;
}

namespace {
cublasStatus_t gemm_ex(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int m, int n, int k,
                       const void* alpha, const void* A, cudaDataType at, int lda, const void* B, cudaDataType bt,
                       int ldb, const void* beta, void* C, cudaDataType ct, int ldc, cublasComputeType_t compute,
                       cublasGemmAlgo_t algo) {
  record("cublasGemmEx", all_bits(h, ta, tb, m, n, k, alpha, A, at, lda, B, bt, ldb, beta, C, ct, ldc, compute, algo));
  return CUBLAS_STATUS_SUCCESS;
}
}  // namespace

namespace fake {
void set_recording(bool on) { recording = on; }
GemmExFunction gemm_ex_direct() { return &gemm_ex; }
}  // namespace fake

FAKE_EXPORT cublasStatus_t cublasGemmEx(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int m, int n,
                                        int k, const void* alpha, const void* A, cudaDataType at, int lda,
                                        const void* B, cudaDataType bt, int ldb, const void* beta, void* C,
                                        cudaDataType ct, int ldc, cublasComputeType_t compute, cublasGemmAlgo_t algo) {
  return gemm_ex(h, ta, tb, m, n, k, alpha, A, at, lda, B, bt, ldb, beta, C, ct, ldc, compute, algo);
}

FAKE_EXPORT cublasStatus_t cublasGemmEx_64(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int64_t m,
                                           int64_t n, int64_t k, const void* alpha, const void* A, cudaDataType at,
                                           int64_t lda, const void* B, cudaDataType bt, int64_t ldb, const void* beta,
                                           void* C, cudaDataType ct, int64_t ldc, cublasComputeType_t compute,
                                           cublasGemmAlgo_t algo) {
  record("cublasGemmEx_64", all_bits(h, ta, tb, m, n, k, alpha, A, at, lda, B, bt, ldb, beta, C, ct, ldc, compute, algo));
  return CUBLAS_STATUS_SUCCESS;
}

FAKE_EXPORT cublasStatus_t cublasGemmStridedBatchedEx(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb,
                                                      int m, int n, int k, const void* alpha, const void* A,
                                                      cudaDataType at, int lda, long long sA, const void* B,
                                                      cudaDataType bt, int ldb, long long sB, const void* beta, void* C,
                                                      cudaDataType ct, int ldc, long long sC, int batch,
                                                      cublasComputeType_t compute, cublasGemmAlgo_t algo) {
  record("cublasGemmStridedBatchedEx", all_bits(h, ta, tb, m, n, k, alpha, A, at, lda, sA, B, bt, ldb, sB, beta, C, ct,
                                                ldc, sC, batch, compute, algo));
  return CUBLAS_STATUS_SUCCESS;
}

FAKE_EXPORT cublasStatus_t cublasGemmStridedBatchedEx_64(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb,
                                                         int64_t m, int64_t n, int64_t k, const void* alpha,
                                                         const void* A, cudaDataType at, int64_t lda, long long sA,
                                                         const void* B, cudaDataType bt, int64_t ldb, long long sB,
                                                         const void* beta, void* C, cudaDataType ct, int64_t ldc,
                                                         long long sC, int64_t batch, cublasComputeType_t compute,
                                                         cublasGemmAlgo_t algo) {
  record("cublasGemmStridedBatchedEx_64", all_bits(h, ta, tb, m, n, k, alpha, A, at, lda, sA, B, bt, ldb, sB, beta, C,
                                                   ct, ldc, sC, batch, compute, algo));
  return CUBLAS_STATUS_SUCCESS;
}

FAKE_EXPORT cublasStatus_t cublasDgemm_v2(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int m, int n,
                                          int k, const double* alpha, const double* A, int lda, const double* B,
                                          int ldb, const double* beta, double* C, int ldc) {
  record("cublasDgemm_v2", all_bits(h, ta, tb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc));
  return CUBLAS_STATUS_SUCCESS;
}

FAKE_EXPORT cublasStatus_t cublasDgemm_v2_64(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int64_t m,
                                             int64_t n, int64_t k, const double* alpha, const double* A, int64_t lda,
                                             const double* B, int64_t ldb, const double* beta, double* C,
                                             int64_t ldc) {
  record("cublasDgemm_v2_64", all_bits(h, ta, tb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc));
  return CUBLAS_STATUS_SUCCESS;
}
