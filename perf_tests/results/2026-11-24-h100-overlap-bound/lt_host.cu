// Session 11 experiment: would a hand-off through cuBLASLt with a plan cached per shape take less
// host time than cublasSgemm, warm and after a pause? FP32 compute (no TF32), column-major NN.
#include <cublasLt.h>
#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <thread>
#include <vector>

using clk = std::chrono::steady_clock;
#define CK(x) do { auto e_ = (x); if ((int)e_ != 0) { std::printf("%s failed: %d (line %d)\n", #x, (int)e_, __LINE__); std::exit(1); } } while (0)

int main(int argc, char** argv) {
  const int rounds = argc > 1 ? std::atoi(argv[1]) : 25;
  const int sizes[] = {1024, 2048};
  cudaStream_t s; CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  cublasHandle_t h; CK(cublasCreate(&h)); CK(cublasSetStream(h, s));
  cublasLtHandle_t lt; CK(cublasLtCreate(&lt));
  void* ws; const size_t ws_bytes = 32u << 20; CK(cudaMalloc(&ws, ws_bytes));
  for (int n : sizes) {
    const int m = n, k = n;
    float *a, *b, *c, *c2;
    CK(cudaMalloc(&a, 4ull * m * k)); CK(cudaMalloc(&b, 4ull * k * n)); CK(cudaMalloc(&c, 4ull * m * n)); CK(cudaMalloc(&c2, 4ull * m * n));
    std::vector<float> ha(size_t(m) * k), hb(size_t(k) * n);
    for (size_t i = 0; i < ha.size(); ++i) ha[i] = float((i * 2654435761u) % 2001) / 1000.0f - 1.0f;
    for (size_t i = 0; i < hb.size(); ++i) hb[i] = float((i * 40503u + 7) % 2001) / 1000.0f - 1.0f;
    CK(cudaMemcpy(a, ha.data(), ha.size() * 4, cudaMemcpyHostToDevice)); CK(cudaMemcpy(b, hb.data(), hb.size() * 4, cudaMemcpyHostToDevice));
    const float one = 1, zero = 0;
    cublasLtMatmulDesc_t op; CK(cublasLtMatmulDescCreate(&op, CUBLAS_COMPUTE_32F, CUDA_R_32F));
    cublasLtMatrixLayout_t la, lb, lc;
    CK(cublasLtMatrixLayoutCreate(&la, CUDA_R_32F, m, k, m)); CK(cublasLtMatrixLayoutCreate(&lb, CUDA_R_32F, k, n, k));
    CK(cublasLtMatrixLayoutCreate(&lc, CUDA_R_32F, m, n, m));
    cublasLtMatmulPreference_t pref; CK(cublasLtMatmulPreferenceCreate(&pref));
    CK(cublasLtMatmulPreferenceSetAttribute(pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &ws_bytes, sizeof(ws_bytes)));
    cublasLtMatmulHeuristicResult_t heur[4]; int found = 0;
    CK(cublasLtMatmulAlgoGetHeuristic(lt, op, la, lb, lc, lc, pref, 4, heur, &found));
    std::printf("## %d^3: %d heuristic results, first needs %zu bytes of workspace\n\n", n, found, heur[0].workspaceSize);
    auto lt_cached = [&] { CK(cublasLtMatmul(lt, op, &one, a, la, b, lb, &zero, c2, lc, c2, lc, &heur[0].algo, ws, ws_bytes, s)); };
    auto lt_fresh = [&] {  // descriptors and heuristic per call: what a plan cache saves
      cublasLtMatmulDesc_t o; cublasLtMatrixLayout_t xa, xb, xc; cublasLtMatmulHeuristicResult_t r; int f = 0;
      CK(cublasLtMatmulDescCreate(&o, CUBLAS_COMPUTE_32F, CUDA_R_32F));
      CK(cublasLtMatrixLayoutCreate(&xa, CUDA_R_32F, m, k, m)); CK(cublasLtMatrixLayoutCreate(&xb, CUDA_R_32F, k, n, k));
      CK(cublasLtMatrixLayoutCreate(&xc, CUDA_R_32F, m, n, m));
      CK(cublasLtMatmulAlgoGetHeuristic(lt, o, xa, xb, xc, xc, pref, 1, &r, &f));
      CK(cublasLtMatmul(lt, o, &one, a, xa, b, xb, &zero, c2, xc, c2, xc, &r.algo, ws, ws_bytes, s));
      cublasLtMatrixLayoutDestroy(xa); cublasLtMatrixLayoutDestroy(xb); cublasLtMatrixLayoutDestroy(xc); cublasLtMatmulDescDestroy(o);
    };
    auto sgemm = [&] { CK(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &one, a, m, b, k, &zero, c, m)); };
    sgemm(); lt_cached(); CK(cudaStreamSynchronize(s));
    std::vector<float> r1(size_t(m) * n), r2(size_t(m) * n);
    CK(cudaMemcpy(r1.data(), c, r1.size() * 4, cudaMemcpyDeviceToHost)); CK(cudaMemcpy(r2.data(), c2, r2.size() * 4, cudaMemcpyDeviceToHost));
    double maxdiff = 0; size_t same = 0;
    for (size_t i = 0; i < r1.size(); ++i) { maxdiff = std::max(maxdiff, (double)std::fabs(r1[i] - r2[i])); same += r1[i] == r2[i]; }
    std::printf("Lt (cached algo) against cublasSgemm: %zu of %zu entries bit-equal, max |diff| %.3g\n\n", same, r1.size(), maxdiff);
    struct V { const char* name; std::function<void()> run; std::vector<double> warm, rested, gpu; };
    std::vector<V> vs = {{"cublasSgemm", sgemm, {}, {}, {}}, {"cublasLtMatmul, plan cached", lt_cached, {}, {}, {}},
                         {"cublasLtMatmul, plan made per call", lt_fresh, {}, {}, {}}};
    cudaEvent_t e0, e1; CK(cudaEventCreate(&e0)); CK(cudaEventCreate(&e1));
    for (auto& v : vs) {
      for (int i = 0; i < 50; ++i) v.run();
      CK(cudaStreamSynchronize(s));
      for (int rep = 0; rep < 10; ++rep) {  // warm host time: 100 enqueued in a row
        auto t0 = clk::now(); for (int i = 0; i < 100; ++i) v.run();
        v.warm.push_back(std::chrono::duration<double, std::micro>(clk::now() - t0).count() / 100);
        CK(cudaEventRecord(e0, s)); for (int i = 0; i < 100; ++i) v.run(); CK(cudaEventRecord(e1, s)); CK(cudaEventSynchronize(e1));
        float ms; CK(cudaEventElapsedTime(&ms, e0, e1)); v.gpu.push_back(ms * 10);  // us per call, queued
      }
    }
    for (int r = 0; r < rounds; ++r)
      for (auto& v : vs) {
        std::this_thread::sleep_for(std::chrono::milliseconds(250));
        auto t0 = clk::now(); v.run(); v.rested.push_back(std::chrono::duration<double, std::micro>(clk::now() - t0).count());
        CK(cudaStreamSynchronize(s));
      }
    std::printf("| method | warm host us / call | GPU us / call, queued | rested host us: median (25-75%%) |\n|---|---:|---:|---:|\n");
    for (auto& v : vs) {
      std::sort(v.warm.begin(), v.warm.end()); std::sort(v.rested.begin(), v.rested.end()); std::sort(v.gpu.begin(), v.gpu.end());
      const size_t q = v.rested.size();
      std::printf("| %s | %.2f | %.1f | %.1f (%.1f-%.1f) |\n", v.name, v.warm[5], v.gpu[5], v.rested[q / 2], v.rested[q / 4], v.rested[3 * q / 4]);
    }
    std::printf("\n");
    cudaFree(a); cudaFree(b); cudaFree(c); cudaFree(c2);
  }
  return 0;
}
