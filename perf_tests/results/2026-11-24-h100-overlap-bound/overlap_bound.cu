// Session 11 experiment: how much a split running beside the gemm could save in a single call on
// a rested GPU (the fused split+gemm design of docs/performance.md), measured without building it.
// The gemm runs on split pieces made beforehand, on all SMs but S (EGEMM_SM90_SLOTS caps its
// persistent grid); the split of another pair of operands runs at the same time on a second
// stream, where its blocks can only land on the S SMs left free. No data flows between them: this
// measures how the two share the GPU (DRAM, power, clocks), the bound for the fused design:
//   fused ~ T_split(S) + (1 - T_split(S) / T_gemm_beside(S)) * T_gemm(all SMs)
// (the S SMs join the gemm once their split is done; waits for panels not counted).
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#include "backends/cuda/fused_gemm.hpp"
#include "egemm/gemm.hpp"
#include "support/presplit.hpp"

namespace {
void check(cudaError_t e, const char* w) {
  if (e != cudaSuccess) { std::fprintf(stderr, "%s: %s\n", w, cudaGetErrorString(e)); std::exit(1); }
}
__global__ void fill(float* x, std::size_t n, unsigned seed) {
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<std::size_t>(gridDim.x) * blockDim.x) {
    unsigned h = static_cast<unsigned>(i) * 2654435761u ^ (seed * 97u + static_cast<unsigned>(i >> 32));
    h ^= h >> 13; h *= 0x5bd1e995u; h ^= h >> 15;
    x[i] = static_cast<float>(h & 0xffffffu) / 8388608.0f - 1.0f;
  }
}
double median(std::vector<double> v) { std::sort(v.begin(), v.end()); return v[v.size() / 2]; }
}  // namespace

int main(int argc, char** argv) {
  const int n = argc > 1 ? std::atoi(argv[1]) : 8192;
  const int reps = argc > 2 ? std::atoi(argv[2]) : 7;
  const std::size_t count = static_cast<std::size_t>(n) * n;
  float *a[2], *b[2], *c;
  for (int i = 0; i < 2; ++i) {
    check(cudaMalloc(&a[i], count * 4), "malloc"); check(cudaMalloc(&b[i], count * 4), "malloc");
    fill<<<528, 256>>>(a[i], count, 1 + 2 * i); fill<<<528, 256>>>(b[i], count, 2 + 2 * i);
  }
  check(cudaMalloc(&c, count * 4), "malloc");
  cudaStream_t s1, s2;
  check(cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking), "stream");
  check(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking), "stream");
  egemm::perf::PresplitOperands pieces, other;
  pieces.split(a[0], b[0], n, n, n, s1);
  check(cudaStreamSynchronize(s1), "split");
  const egemm::GemmArgs g = egemm::make_gemm_args("overlap", 'N', 'N', n, n, n, 1.0f, a[0], n, b[0], n, 0.0f, c, n);
  auto gemm = [&](cudaStream_t s) {
    egemm::cuda::launch_fused_gemm(egemm::PolicyId::emulated_fp32, pieces.a, pieces.b, g, pieces.path_word,
                                   egemm::EmulationPath::fp16_scaled, s);
  };
  auto split = [&](cudaStream_t s) { other.split(a[1], b[1], n, n, n, s); };
  cudaEvent_t e0, e1, e2;
  check(cudaEventCreate(&e0), "ev"); check(cudaEventCreate(&e1), "ev"); check(cudaEventCreate(&e2), "ev");
  auto set_slots = [](int slots) {
    if (slots > 0) ::setenv("EGEMM_SM90_SLOTS", std::to_string(slots).c_str(), 1); else ::unsetenv("EGEMM_SM90_SLOTS");
  };
  // Rested: each after 0.25 s idle; returns {span ms, ms to the first stream's end, ms to the second's}.
  struct Times { double span, first, second; };
  auto rested = [&](auto&& enqueue) {
    enqueue(); check(cudaDeviceSynchronize(), "warm");
    std::vector<double> span, first, second;
    for (int r = 0; r < reps; ++r) {
      std::this_thread::sleep_for(std::chrono::milliseconds(250));
      check(cudaEventRecord(e0, s1), "rec");
      check(cudaStreamWaitEvent(s2, e0), "wait");
      enqueue();
      check(cudaEventRecord(e1, s1), "rec"); check(cudaEventRecord(e2, s2), "rec");
      check(cudaDeviceSynchronize(), "sync");
      float t1 = 0, t2 = 0;
      check(cudaEventElapsedTime(&t1, e0, e1), "el"); check(cudaEventElapsedTime(&t2, e0, e2), "el");
      first.push_back(t1); second.push_back(t2); span.push_back(std::max(t1, t2));
    }
    return Times{median(span), median(first), median(second)};
  };
  int sms = 0;
  check(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0), "attr");
  std::printf("## %d^3, rested single calls (median of %d, each after 0.25 s idle), ms\n\n", n, reps);
  set_slots(0);
  const Times t_split = rested([&] { split(s1); });
  const Times t_gemm = rested([&] { gemm(s1); });
  const Times t_seq = rested([&] { split(s1); gemm(s1); });
  std::printf("| what | ms |\n|---|---:|\n| split alone (all SMs) | %.3f |\n| gemm kernel alone (all SMs) | %.3f |\n"
              "| split then gemm, one stream (today's call, less its small kernels) | %.3f |\n\n",
              t_split.span, t_gemm.span, t_seq.span);
  std::printf("| SMs left to the split | gemm alone on the rest | gemm beside the split | split beside the gemm | "
              "fused bound | against split then gemm |\n|---:|---:|---:|---:|---:|---:|\n");
  for (int free_sms : {8, 16, 24, 32, 48, 66}) {
    const int slots = (sms - free_sms) / 2;  // cluster pairs
    set_slots(slots);
    const Times capped = rested([&] { gemm(s1); });
    const Times both = rested([&] { gemm(s1); split(s2); });
    set_slots(0);
    const double progress = std::min(1.0, both.second / both.first);
    const double fused = both.second + (1 - progress) * t_gemm.span;
    std::printf("| %d | %.3f | %.3f | %.3f | %.3f | %+.1f%% |\n", sms - 2 * slots, capped.span, both.first, both.second,
                fused, 100 * (fused / t_seq.span - 1));
    std::fflush(stdout);
  }
  return 0;
}
