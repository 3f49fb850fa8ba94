// The interposer on a GPU over the real cuBLAS: every intercepted entry point, both pointer modes, transposes, alpha/beta and batched forms, against cuBLAS SGEMM and float64.
//
// The program is linked as an application is, with libegemm_cublas.so ahead
// of libcublas: its cuBLAS calls reach the interposer. The real functions,
// for the comparisons, are looked up by version (dlvsym), past the
// interposer. Every test skips, visibly, without a GPU of compute capability 8.0 or newer.
#include <cublasLt.h>
#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <dlfcn.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <random>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

extern "C" unsigned long long egemm_cublas_taken_calls(void);

namespace {

#define STR2(x) #x
#define STR(x) STR2(x)

void ok(cudaError_t e, const char* what) {
  if (e != cudaSuccess) throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(e));
}
void ok(cublasStatus_t s, const char* what) {
  if (s != CUBLAS_STATUS_SUCCESS) throw std::runtime_error(std::string(what) + ": cuBLAS status " + std::to_string(s));
}

// The real cuBLAS, behind the interposer.
template <class F>
F real_function(const char* library, const char* name) {
  void* handle = dlopen(library, RTLD_NOW | RTLD_NOLOAD);
  if (handle == nullptr) throw std::runtime_error(std::string(library) + " is not loaded");
  void* f = dlvsym(handle, name, library);
  if (f == nullptr) throw std::runtime_error(std::string("no versioned ") + name + " in " + library);
  return reinterpret_cast<F>(f);
}
const char* const kCublas = "libcublas.so." STR(CUBLAS_VER_MAJOR);
const char* const kCublasLt = "libcublasLt.so." STR(CUBLAS_VER_MAJOR);

bool gpu_present() {
  int count = 0, major = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) return false;
  return cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, 0) == cudaSuccess && major >= 8;
}
#define REQUIRE_GPU() \
  if (!gpu_present()) GTEST_SKIP() << "no CUDA device of compute capability 8.0 or newer visible"

template <class T>
struct Device {
  T* p = nullptr;
  std::size_t n = 0;
  explicit Device(std::size_t count) : n(count) { ok(cudaMalloc(&p, std::max<std::size_t>(count, 1) * sizeof(T)), "cudaMalloc"); }
  explicit Device(const std::vector<T>& h) : Device(h.size()) { upload(h); }
  ~Device() { cudaFree(p); }
  Device(const Device&) = delete;
  void upload(const std::vector<T>& h) { ok(cudaMemcpy(p, h.data(), h.size() * sizeof(T), cudaMemcpyHostToDevice), "upload"); }
  std::vector<T> download() const {
    std::vector<T> h(n);
    ok(cudaMemcpy(h.data(), p, n * sizeof(T), cudaMemcpyDeviceToHost), "download");
    return h;
  }
};

std::vector<float> uniform(std::size_t n, unsigned seed) {
  std::mt19937 g(seed);
  std::uniform_real_distribution<float> d(-1.0f, 1.0f);
  std::vector<float> v(n);
  for (float& x : v) x = d(g);
  return v;
}

double relative_error(const std::vector<float>& c, const std::vector<double>& reference) {
  double num = 0, den = 0;
  for (std::size_t i = 0; i < c.size(); ++i) {
    num += (c[i] - reference[i]) * (c[i] - reference[i]);
    den += reference[i] * reference[i];
  }
  return std::sqrt(num / den);
}

// One problem (a strided batch of `batch` items), its operands on the device,
// and its float64 reference by the real cublasDgemm.
struct Problem {
  cublasOperation_t ta, tb;
  int m, n, k, batch;
  float alpha, beta;
  int lda() const { return ta == CUBLAS_OP_N ? m : k; }
  int ldb() const { return tb == CUBLAS_OP_N ? k : n; }
  long long sa() const { return static_cast<long long>(lda()) * (ta == CUBLAS_OP_N ? k : m); }
  long long sb() const { return static_cast<long long>(ldb()) * (tb == CUBLAS_OP_N ? n : k); }
  long long sc() const { return static_cast<long long>(m) * n; }
  std::string name() const {
    char s[128];
    std::snprintf(s, sizeof s, "%c%c m=%d n=%d k=%d batch=%d alpha=%g beta=%g", ta == CUBLAS_OP_N ? 'N' : 'T',
                  tb == CUBLAS_OP_N ? 'N' : 'T', m, n, k, batch, alpha, beta);
    return s;
  }
};

struct Operands {
  std::vector<float> a, b, c0;
  Device<float> da, db, dc;
  std::vector<double> reference;
  explicit Operands(const Problem& p)
      : a(uniform(p.sa() * p.batch, 1)), b(uniform(p.sb() * p.batch, 2)), c0(uniform(p.sc() * p.batch, 3)), da(a),
        db(b), dc(c0) {
    // The float64 reference, item by item, by the real cublasDgemm.
    const auto dgemm = real_function<decltype(&cublasDgemm_v2)>(kCublas, "cublasDgemm_v2");
    cublasHandle_t h;
    ok(cublasCreate(&h), "cublasCreate");
    const std::vector<double> a64(a.begin(), a.end()), b64(b.begin(), b.end());
    Device<double> A(a64), B(b64), C(std::vector<double>(c0.begin(), c0.end()));
    const double alpha = p.alpha, beta = p.beta;
    for (int i = 0; i < p.batch; ++i)
      ok(dgemm(h, p.ta, p.tb, p.m, p.n, p.k, &alpha, A.p + i * p.sa(), p.lda(), B.p + i * p.sb(), p.ldb(), &beta,
               C.p + i * p.sc(), p.m),
         "cublasDgemm");
    reference = C.download();
    cublasDestroy(h);
  }
  void reset_c() { dc.upload(c0); }
};

enum class Entry { sgemm, sgemm_64, gemm_ex, gemm_ex_64, sgemm_batched, sgemm_batched_64, gemm_batched_ex,
                   gemm_batched_ex_64, lt_matmul };
const char* entry_name(Entry e) {
  static const char* names[] = {"cublasSgemm_v2", "cublasSgemm_v2_64", "cublasGemmEx", "cublasGemmEx_64",
                                "cublasSgemmStridedBatched", "cublasSgemmStridedBatched_64",
                                "cublasGemmStridedBatchedEx", "cublasGemmStridedBatchedEx_64", "cublasLtMatmul"};
  return names[static_cast<int>(e)];
}
bool batched(Entry e) { return e >= Entry::sgemm_batched && e <= Entry::gemm_batched_ex_64; }

// One Lt call's descriptors (FP32, compute 32F, column-major, C == D).
struct LtDescriptors {
  cublasLtMatmulDesc_t desc{};
  cublasLtMatrixLayout_t a{}, b{}, c{};
  LtDescriptors(const Problem& p, cublasLtPointerMode_t mode) {
    ok(cublasLtMatmulDescCreate(&desc, CUBLAS_COMPUTE_32F, CUDA_R_32F), "cublasLtMatmulDescCreate");
    ok(cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_TRANSA, &p.ta, sizeof p.ta), "TRANSA");
    ok(cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_TRANSB, &p.tb, sizeof p.tb), "TRANSB");
    ok(cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_POINTER_MODE, &mode, sizeof mode), "POINTER_MODE");
    ok(cublasLtMatrixLayoutCreate(&a, CUDA_R_32F, p.ta == CUBLAS_OP_N ? p.m : p.k, p.ta == CUBLAS_OP_N ? p.k : p.m, p.lda()), "layout A");
    ok(cublasLtMatrixLayoutCreate(&b, CUDA_R_32F, p.tb == CUBLAS_OP_N ? p.k : p.n, p.tb == CUBLAS_OP_N ? p.n : p.k, p.ldb()), "layout B");
    ok(cublasLtMatrixLayoutCreate(&c, CUDA_R_32F, p.m, p.n, p.m), "layout C");
  }
  ~LtDescriptors() {
    cublasLtMatrixLayoutDestroy(a);
    cublasLtMatrixLayoutDestroy(b);
    cublasLtMatrixLayoutDestroy(c);
    cublasLtMatmulDescDestroy(desc);
  }
};

// Runs `entry` on the problem, through the interposer (`real` false) or the
// real cuBLAS; alpha and beta as host or device pointers.
void run(Entry entry, const Problem& p, Operands& o, cublasHandle_t h, cublasLtHandle_t lt, bool device_scalars,
         bool real) {
  Device<float> scalars(std::vector<float>{p.alpha, p.beta});
  const float* alpha = device_scalars ? scalars.p : &p.alpha;
  const float* beta = device_scalars ? scalars.p + 1 : &p.beta;
  ok(cublasSetPointerMode(h, device_scalars ? CUBLAS_POINTER_MODE_DEVICE : CUBLAS_POINTER_MODE_HOST), "pointer mode");
  cudaStream_t stream;
  ok(cublasGetStream(h, &stream), "cublasGetStream");
  const int bc = batched(entry) ? p.batch : 1;
  cublasStatus_t s = CUBLAS_STATUS_SUCCESS;
  switch (entry) {
    case Entry::sgemm:
      s = (real ? real_function<decltype(&cublasSgemm_v2)>(kCublas, "cublasSgemm_v2") : &cublasSgemm_v2)(
          h, p.ta, p.tb, p.m, p.n, p.k, alpha, o.da.p, p.lda(), o.db.p, p.ldb(), beta, o.dc.p, p.m);
      break;
    case Entry::sgemm_64:
      s = (real ? real_function<decltype(&cublasSgemm_v2_64)>(kCublas, "cublasSgemm_v2_64") : &cublasSgemm_v2_64)(
          h, p.ta, p.tb, p.m, p.n, p.k, alpha, o.da.p, p.lda(), o.db.p, p.ldb(), beta, o.dc.p, p.m);
      break;
    case Entry::gemm_ex:
    case Entry::gemm_ex_64: {
      using Ex = cublasStatus_t (*)(cublasHandle_t, cublasOperation_t, cublasOperation_t, int, int, int, const void*,
                                    const void*, cudaDataType, int, const void*, cudaDataType, int, const void*, void*,
                                    cudaDataType, int, cublasComputeType_t, cublasGemmAlgo_t);
      if (entry == Entry::gemm_ex)
        s = (real ? real_function<Ex>(kCublas, "cublasGemmEx") : static_cast<Ex>(&cublasGemmEx))(
            h, p.ta, p.tb, p.m, p.n, p.k, alpha, o.da.p, CUDA_R_32F, p.lda(), o.db.p, CUDA_R_32F, p.ldb(), beta,
            o.dc.p, CUDA_R_32F, p.m, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
      else
        s = (real ? real_function<decltype(&cublasGemmEx_64)>(kCublas, "cublasGemmEx_64") : &cublasGemmEx_64)(
            h, p.ta, p.tb, p.m, p.n, p.k, alpha, o.da.p, CUDA_R_32F, p.lda(), o.db.p, CUDA_R_32F, p.ldb(), beta,
            o.dc.p, CUDA_R_32F, p.m, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
      break;
    }
    case Entry::sgemm_batched:
      s = (real ? real_function<decltype(&cublasSgemmStridedBatched)>(kCublas, "cublasSgemmStridedBatched")
                : &cublasSgemmStridedBatched)(h, p.ta, p.tb, p.m, p.n, p.k, alpha, o.da.p, p.lda(), p.sa(), o.db.p,
                                              p.ldb(), p.sb(), beta, o.dc.p, p.m, p.sc(), bc);
      break;
    case Entry::sgemm_batched_64:
      s = (real ? real_function<decltype(&cublasSgemmStridedBatched_64)>(kCublas, "cublasSgemmStridedBatched_64")
                : &cublasSgemmStridedBatched_64)(h, p.ta, p.tb, p.m, p.n, p.k, alpha, o.da.p, p.lda(), p.sa(), o.db.p,
                                                 p.ldb(), p.sb(), beta, o.dc.p, p.m, p.sc(), bc);
      break;
    case Entry::gemm_batched_ex: {
      using Ex = cublasStatus_t (*)(cublasHandle_t, cublasOperation_t, cublasOperation_t, int, int, int, const void*,
                                    const void*, cudaDataType, int, long long, const void*, cudaDataType, int,
                                    long long, const void*, void*, cudaDataType, int, long long, int,
                                    cublasComputeType_t, cublasGemmAlgo_t);
      s = (real ? real_function<Ex>(kCublas, "cublasGemmStridedBatchedEx") : static_cast<Ex>(&cublasGemmStridedBatchedEx))(
          h, p.ta, p.tb, p.m, p.n, p.k, alpha, o.da.p, CUDA_R_32F, p.lda(), p.sa(), o.db.p, CUDA_R_32F, p.ldb(), p.sb(),
          beta, o.dc.p, CUDA_R_32F, p.m, p.sc(), bc, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
      break;
    }
    case Entry::gemm_batched_ex_64:
      s = (real ? real_function<decltype(&cublasGemmStridedBatchedEx_64)>(kCublas, "cublasGemmStridedBatchedEx_64")
                : &cublasGemmStridedBatchedEx_64)(h, p.ta, p.tb, p.m, p.n, p.k, alpha, o.da.p, CUDA_R_32F, p.lda(),
                                                  p.sa(), o.db.p, CUDA_R_32F, p.ldb(), p.sb(), beta, o.dc.p, CUDA_R_32F,
                                                  p.m, p.sc(), bc, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
      break;
    case Entry::lt_matmul: {
      LtDescriptors d(p, device_scalars ? CUBLASLT_POINTER_MODE_DEVICE : CUBLASLT_POINTER_MODE_HOST);
      s = (real ? real_function<decltype(&cublasLtMatmul)>(kCublasLt, "cublasLtMatmul") : &cublasLtMatmul)(
          lt, d.desc, alpha, o.da.p, d.a, o.db.p, d.b, beta, o.dc.p, d.c, o.dc.p, d.c, nullptr, nullptr, 0, stream);
      break;
    }
  }
  ok(s, entry_name(entry));
  ok(cudaStreamSynchronize(stream), "synchronise");
  ok(cublasSetPointerMode(h, CUBLAS_POINTER_MODE_HOST), "pointer mode");
}

// Items beyond the first are only compared for batched entries.
std::vector<float> items(const std::vector<float>& c, const Problem& p, Entry e) {
  return batched(e) ? c : std::vector<float>(c.begin(), c.begin() + p.sc());
}
std::vector<double> items(const std::vector<double>& c, const Problem& p, Entry e) {
  return batched(e) ? c : std::vector<double>(c.begin(), c.begin() + p.sc());
}

class InterposerGpu : public ::testing::Test {
 protected:
  void SetUp() override {
    REQUIRE_GPU();
    ok(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), "stream");
    ok(cublasCreate(&handle), "cublasCreate");
    ok(cublasSetStream(handle, stream), "cublasSetStream");
    ok(cublasLtCreate(&lt), "cublasLtCreate");
  }
  void TearDown() override {
    if (handle != nullptr) cublasDestroy(handle);
    if (lt != nullptr) cublasLtDestroy(lt);
    if (stream != nullptr) cudaStreamDestroy(stream);
  }
  cudaStream_t stream = nullptr;
  cublasHandle_t handle = nullptr;
  cublasLtHandle_t lt = nullptr;
};

// Large enough for EGEMM on any sm_80+ GPU (C of 256 tiles; k past the crossover).
constexpr int kM = 2048, kN = 2048, kK = 512;

TEST_F(InterposerGpu, EveryEntryPointTransposeAndScalingMatchesSgemmAndFloat64) {
  for (Entry entry : {Entry::sgemm, Entry::sgemm_64, Entry::gemm_ex, Entry::gemm_ex_64, Entry::sgemm_batched,
                      Entry::sgemm_batched_64, Entry::gemm_batched_ex, Entry::gemm_batched_ex_64, Entry::lt_matmul})
    for (auto ta : {CUBLAS_OP_N, CUBLAS_OP_T})
      for (auto tb : {CUBLAS_OP_N, CUBLAS_OP_T})
        for (auto [alpha, beta] : {std::pair{1.0f, 0.0f}, std::pair{-0.75f, 0.5f}}) {
          const Problem p{ta, tb, kM, kN, kK, 2, alpha, beta};
          Operands o(p);
          const std::string what = std::string(entry_name(entry)) + " " + p.name();
          run(entry, p, o, handle, lt, false, true);
          const auto sgemm = items(o.dc.download(), p, entry);
          o.reset_c();
          const auto before = egemm_cublas_taken_calls();
          run(entry, p, o, handle, lt, false, false);
          const auto interposed = items(o.dc.download(), p, entry);
          EXPECT_EQ(egemm_cublas_taken_calls() - before, batched(entry) ? 2u : 1u) << what << ": EGEMM did not take it";
          const auto reference = items(o.reference, p, entry);
          const double e_sgemm = relative_error(sgemm, reference), e_egemm = relative_error(interposed, reference);
          // EmulatedFP32 keeps ~22 of FP32's 24 bits per element and sums in FP32 (docs/numerics.md): its normwise
          // error stays within twice SGEMM's.
          EXPECT_LE(e_egemm, 2.0 * e_sgemm) << what;
          EXPECT_LT(e_egemm, 1e-5) << what;
          std::printf("%-50s error vs float64: cuBLAS %.3e, interposed %.3e\n", what.c_str(), e_sgemm, e_egemm);
          // Device alpha and beta pass through: the result is cuBLAS's, bit for bit.
          o.reset_c();
          const auto before_device = egemm_cublas_taken_calls();
          run(entry, p, o, handle, lt, true, false);
          EXPECT_EQ(egemm_cublas_taken_calls(), before_device) << what << " (device pointer mode) was taken";
          EXPECT_EQ(items(o.dc.download(), p, entry), sgemm) << what << " (device pointer mode) differs from cuBLAS";
        }
}

TEST_F(InterposerGpu, ShapesAndBatchesEgemmDoesNotWinOnAreCublasBitForBit) {
  for (Entry entry : {Entry::sgemm, Entry::gemm_ex, Entry::sgemm_batched, Entry::gemm_batched_ex, Entry::lt_matmul}) {
    const Problem p{CUBLAS_OP_N, CUBLAS_OP_T, 256, 256, 256, 64, 1.0f, 0.5f};
    Operands o(p);
    run(entry, p, o, handle, lt, false, true);
    const auto sgemm = o.dc.download();
    o.reset_c();
    const auto before = egemm_cublas_taken_calls();
    run(entry, p, o, handle, lt, false, false);
    EXPECT_EQ(egemm_cublas_taken_calls(), before) << entry_name(entry);
    EXPECT_EQ(o.dc.download(), sgemm) << entry_name(entry);
  }
}

TEST_F(InterposerGpu, Tf32MathModeAndFastComputeTypesAreCublasBitForBit) {
  const Problem p{CUBLAS_OP_N, CUBLAS_OP_N, kM, kN, kK, 1, 1.0f, 0.0f};
  Operands o(p);
  ok(cublasSetMathMode(handle, CUBLAS_TF32_TENSOR_OP_MATH), "math mode");
  run(Entry::sgemm, p, o, handle, lt, false, true);
  const auto tf32 = o.dc.download();
  o.reset_c();
  const auto before = egemm_cublas_taken_calls();
  run(Entry::sgemm, p, o, handle, lt, false, false);
  EXPECT_EQ(egemm_cublas_taken_calls(), before);
  EXPECT_EQ(o.dc.download(), tf32);
  ok(cublasSetMathMode(handle, CUBLAS_DEFAULT_MATH), "math mode");
  const float one = 1.0f, zero = 0.0f;
  ok(cublasGemmEx(handle, CUBLAS_OP_N, CUBLAS_OP_N, kM, kN, kK, &one, o.da.p, CUDA_R_32F, kM, o.db.p, CUDA_R_32F, kK,
                  &zero, o.dc.p, CUDA_R_32F, kM, CUBLAS_COMPUTE_32F_FAST_TF32, CUBLAS_GEMM_DEFAULT),
     "GemmEx TF32");
  ok(cudaStreamSynchronize(stream), "synchronise");
  EXPECT_EQ(egemm_cublas_taken_calls(), before);
  EXPECT_EQ(o.dc.download(), tf32);
}

// EGEMM_CUBLAS_FP64_POLICY=EmulatedFP64 for this program (read at its first
// FP64 call; no other test here makes one through the interposer): cublasDgemm_v2 and
// FP64 cublasGemmEx at 4096^3 run EmulatedFP64, at least as accurate as the
// real cublasDgemm on sampled entries against long double sums; with device
// alpha/beta the call is cuBLAS's, bit for bit.
const bool fp64_policy_set = [] { return setenv("EGEMM_CUBLAS_FP64_POLICY", "EmulatedFP64", 0) == 0; }();

TEST_F(InterposerGpu, Fp64CallsRunEmulatedFP64AtLeastAsAccurateAsDgemm) {
  ASSERT_TRUE(fp64_policy_set);
  ASSERT_STREQ(std::getenv("EGEMM_CUBLAS_FP64_POLICY"), "EmulatedFP64");
  constexpr int n = 4096;  // EmulatedFP64 takes products of 4096 and up in every extent
  std::mt19937_64 g(std::random_device{}());
  std::uniform_real_distribution<double> d(-1.0, 1.0);
  std::vector<double> a(static_cast<std::size_t>(n) * n), b(a.size()), c0(a.size());
  for (auto* v : {&a, &b, &c0})
    for (double& x : *v) x = d(g);
  Device<double> da(a), db(b), dc(c0), direct(c0);
  const double alpha = 1.5, beta = -0.5;
  const auto real_dgemm = real_function<decltype(&cublasDgemm_v2)>(kCublas, "cublasDgemm_v2");
  ok(real_dgemm(handle, CUBLAS_OP_N, CUBLAS_OP_T, n, n, n, &alpha, da.p, n, db.p, n, &beta, direct.p, n), "real Dgemm");
  ok(cudaStreamSynchronize(stream), "synchronise");
  const auto sampled_error = [&](const std::vector<double>& c) {  // normwise over 256 sampled entries
    std::mt19937 pick(12345);
    long double num = 0, den = 0;
    for (int s = 0; s < 256; ++s) {
      const std::size_t i = pick() % n, j = pick() % n;
      long double exact = 0;
      for (int p = 0; p < n; ++p) exact += static_cast<long double>(a[i + p * std::size_t{n}]) * b[j + p * std::size_t{n}];
      exact = alpha * exact + static_cast<long double>(beta) * c0[i + j * std::size_t{n}];
      const long double diff = c[i + j * std::size_t{n}] - exact;
      num += diff * diff;
      den += exact * exact;
    }
    return static_cast<double>(std::sqrt(num / den));
  };
  const double e_dgemm = sampled_error(direct.download());
  for (const bool ex : {false, true}) {
    dc.upload(c0);
    const auto before = egemm_cublas_taken_calls();
    if (ex)
      ok(cublasGemmEx(handle, CUBLAS_OP_N, CUBLAS_OP_T, n, n, n, &alpha, da.p, CUDA_R_64F, n, db.p, CUDA_R_64F, n,
                      &beta, dc.p, CUDA_R_64F, n, CUBLAS_COMPUTE_64F, CUBLAS_GEMM_DEFAULT),
         "GemmEx FP64");
    else
      ok(cublasDgemm_v2(handle, CUBLAS_OP_N, CUBLAS_OP_T, n, n, n, &alpha, da.p, n, db.p, n, &beta, dc.p, n), "Dgemm");
    ok(cudaStreamSynchronize(stream), "synchronise");
    EXPECT_EQ(egemm_cublas_taken_calls(), before + 1) << (ex ? "cublasGemmEx" : "cublasDgemm_v2") << ": not taken";
    const double e_egemm = sampled_error(dc.download());
    std::printf("%s 4096^3 FP64, error vs long double on 256 entries: cuBLAS %.3e, interposed %.3e\n",
                ex ? "cublasGemmEx" : "cublasDgemm_v2", e_dgemm, e_egemm);
    EXPECT_LE(e_egemm, e_dgemm) << (ex ? "cublasGemmEx" : "cublasDgemm_v2");
  }
  // Device alpha and beta: passed through, cuBLAS's result bit for bit.
  Device<double> scalars(std::vector<double>{alpha, beta});
  dc.upload(c0);
  ok(cublasSetPointerMode(handle, CUBLAS_POINTER_MODE_DEVICE), "pointer mode");
  const auto before = egemm_cublas_taken_calls();
  ok(cublasDgemm_v2(handle, CUBLAS_OP_N, CUBLAS_OP_T, n, n, n, scalars.p, da.p, n, db.p, n, scalars.p + 1, dc.p, n),
     "Dgemm, device scalars");
  ok(cublasSetPointerMode(handle, CUBLAS_POINTER_MODE_HOST), "pointer mode");
  ok(cudaStreamSynchronize(stream), "synchronise");
  EXPECT_EQ(egemm_cublas_taken_calls(), before);
  EXPECT_EQ(dc.download(), direct.download());
}

TEST_F(InterposerGpu, ACapturedGraphReplaysTheTakenCallOnFreshOperands) {
  const Problem p{CUBLAS_OP_N, CUBLAS_OP_N, kM, kN, kK, 1, 1.0f, 0.0f};
  Operands o(p);
  const float one = 1.0f, zero = 0.0f;
  cudaGraph_t graph;
  cudaGraphExec_t exec;
  const auto before = egemm_cublas_taken_calls();
  ok(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal), "begin capture");
  ok(cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, kM, kN, kK, &one, o.da.p, kM, o.db.p, kK, &zero, o.dc.p, kM),
     "captured cublasSgemm");
  ok(cudaStreamEndCapture(stream, &graph), "end capture");
  EXPECT_EQ(egemm_cublas_taken_calls(), before + 1);
  ok(cudaGraphInstantiate(&exec, graph, 0), "instantiate");
  // New A after the capture: the replay multiplies what A holds then.
  std::vector<float> a2 = uniform(o.a.size(), 7);
  o.da.upload(a2);
  ok(cudaGraphLaunch(exec, stream), "replay");
  ok(cudaStreamSynchronize(stream), "synchronise");
  const auto replayed = o.dc.download();
  o.a = a2;
  Operands fresh(p);  // same seeds for B; A replaced below
  fresh.da.upload(a2);
  run(Entry::sgemm, p, fresh, handle, lt, false, true);
  const auto sgemm = fresh.dc.download();
  double num = 0, den = 0;
  for (std::size_t i = 0; i < sgemm.size(); ++i) {
    num += (replayed[i] - sgemm[i]) * double(replayed[i] - sgemm[i]);
    den += double(sgemm[i]) * sgemm[i];
  }
  EXPECT_LT(std::sqrt(num / den), 1e-5) << "the replay did not compute the fresh product";
  cudaGraphExecDestroy(exec);
  cudaGraphDestroy(graph);
}

TEST_F(InterposerGpu, ThreadsWithTheirOwnHandlesAndStreamsGetTheirOwnProducts) {
  const Problem p{CUBLAS_OP_T, CUBLAS_OP_N, kM, kN, kK, 1, 1.0f, 0.0f};
  Operands o(p);
  run(Entry::sgemm, p, o, handle, lt, false, false);
  const auto expected = o.dc.download();
  std::vector<std::vector<float>> results(4);
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&, t] {
      cudaStream_t s;
      cublasHandle_t h;
      ok(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), "stream");
      ok(cublasCreate(&h), "cublasCreate");
      ok(cublasSetStream(h, s), "cublasSetStream");
      Device<float> c(expected.size());
      const float one = 1.0f, zero = 0.0f;
      for (int r = 0; r < 3; ++r)
        ok(cublasSgemm(h, p.ta, p.tb, kM, kN, kK, &one, o.da.p, p.lda(), o.db.p, p.ldb(), &zero, c.p, kM), "sgemm");
      ok(cudaStreamSynchronize(s), "synchronise");
      results[t] = c.download();
      cublasDestroy(h);
      cudaStreamDestroy(s);
    });
  for (auto& t : threads) t.join();
  for (int t = 0; t < 4; ++t) EXPECT_EQ(results[t], expected) << "thread " << t;
}

TEST_F(InterposerGpu, EachDeviceRunsItsOwnHandlesCalls) {
  int count = 0;
  ok(cudaGetDeviceCount(&count), "device count");
  if (count < 2) GTEST_SKIP() << "one CUDA device visible; the multi-device case needs two";
  const Problem p{CUBLAS_OP_N, CUBLAS_OP_N, kM, kN, kK, 1, 1.0f, 0.0f};
  Operands o(p);
  run(Entry::sgemm, p, o, handle, lt, false, false);
  const auto expected = o.dc.download();
  ok(cudaSetDevice(1), "cudaSetDevice(1)");
  {
    cublasHandle_t h;
    ok(cublasCreate(&h), "cublasCreate on device 1");
    Device<float> a(o.a), b(o.b), c(expected.size());
    const auto before = egemm_cublas_taken_calls();
    const float one = 1.0f, zero = 0.0f;
    ok(cublasSgemm(h, p.ta, p.tb, kM, kN, kK, &one, a.p, kM, b.p, kK, &zero, c.p, kM), "sgemm on device 1");
    ok(cudaDeviceSynchronize(), "synchronise device 1");
    EXPECT_EQ(egemm_cublas_taken_calls(), before + 1);
    EXPECT_EQ(c.download(), expected);
    cublasDestroy(h);
  }
  ok(cudaSetDevice(0), "cudaSetDevice(0)");
}

// A call EGEMM does not take costs at most 1 us more than calling cuBLAS
// directly: the median of interleaved rounds of 200 enqueued calls each.
TEST_F(InterposerGpu, ACallNotTakenCostsAtMostOneMicrosecondMore) {
  const Problem p{CUBLAS_OP_N, CUBLAS_OP_N, 64, 64, 64, 1, 1.0f, 0.0f};
  Operands o(p);
  const auto real = real_function<decltype(&cublasSgemm_v2)>(kCublas, "cublasSgemm_v2");
  const float one = 1.0f, zero = 0.0f;
  const auto round = [&](decltype(&cublasSgemm_v2) f) {
    ok(cudaStreamSynchronize(stream), "synchronise");
    const auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < 200; ++i) f(handle, CUBLAS_OP_N, CUBLAS_OP_N, 64, 64, 64, &one, o.da.p, 64, o.db.p, 64, &zero, o.dc.p, 64);
    return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count() / 200;
  };
  std::vector<double> direct, interposed;
  for (int r = 0; r < 60; ++r) {
    direct.push_back(round(real));
    interposed.push_back(round(&cublasSgemm_v2));
  }
  std::sort(direct.begin(), direct.end());
  std::sort(interposed.begin(), interposed.end());
  const double d = direct[direct.size() / 2], i = interposed[interposed.size() / 2];
  std::printf("cublasSgemm_v2 64^3 (not taken): %.3f us a call direct, %.3f us through the interposer (%+.3f us)\n", d,
              i, i - d);
  EXPECT_LE(i - d, 1.0);
}

}  // namespace
