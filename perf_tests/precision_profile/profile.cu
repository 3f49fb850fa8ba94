// Tensor-core precision profiler (the EGEMM-TC paper's §3.1, Figure 3, on
// today's GPUs): random inputs through one mma.sync (and, on Hopper, one
// wgmma) per trial, every FP32 output compared bit for bit with the CPU
// models of accumulation_models.hpp.
//
//   egemm_precision_profile [trials per design (default 400)] [raw-dump prefix]
//
// With a prefix, every format's trials and hardware results also go to
// <prefix>.<format index>.bin for egemm_precision_replay (replay.cpp).
//
// Prints, per instruction and input design, the share of outputs each model
// reproduces exactly and how many bits the hardware agrees with the exact sum.
#include <cuda_runtime.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <tuple>
#include <algorithm>
#include <vector>

#include "accumulation_models.hpp"
#include "egemm/numerics/half_bits.hpp"
#include "egemm/numerics/tf32.hpp"
#include "mma_probes.cuh"
#include "wgmma_probes.cuh"

namespace egemm::profile {
namespace {

#define PROFILE_CUDA(call)                                                                              \
  do {                                                                                                  \
    const cudaError_t e_ = (call);                                                                      \
    if (e_ != cudaSuccess) {                                                                            \
      std::fprintf(stderr, "CUDA error %s in %s (%s:%d)\n", cudaGetErrorString(e_), #call, __FILE__, __LINE__); \
      std::exit(1);                                                                                     \
    }                                                                                                   \
  } while (0)

struct Format {
  const char* name;
  Instruction instruction;
  int k;
  bool wgmma = false;  // wgmma_probe (one warpgroup) instead of mma_probe (one warp)
};

// value -> (the format's word, the value it represents)
std::pair<std::uint32_t, double> quantize(Instruction ins, float x) {
  using namespace numerics;
  switch (ins) {
    case Instruction::f16_m16n8k16: {
      const std::uint16_t h = float_to_half_bits(x, HalfRounding::nearest_even);
      return {h, half_bits_to_float(h)};
    }
    case Instruction::bf16_m16n8k16: {
      std::uint32_t u = float_bits(x);
      u += 0x7fffu + ((u >> 16) & 1u);  // round to nearest even on the upper 16 bits
      const std::uint32_t h = u >> 16;
      return {h, bits_to_float(h << 16)};
    }
    case Instruction::tf32_m16n8k8: {
      const float t = round_to_tf32(x);
      return {float_bits(t), t};
    }
  }
  return {0, 0.0};
}

struct Design {
  std::string name;
  int nonzero_k;  // products per output (<= k); the rest are zero
  int emin, emax;  // operand exponents
  bool random_c;
  bool cancel;    // second product cancels the first up to a few bits
};

struct Trials {
  std::vector<std::uint32_t> a, b;  // words
  std::vector<double> av, bv;       // values
  std::vector<float> c;
};

Trials make_trials(const Format& f, const Design& d, int trials, std::mt19937_64& gen) {
  const int K = f.k;
  Trials t;
  t.a.assign(std::size_t(trials) * 16 * K, 0);
  t.av.assign(t.a.size(), 0.0);
  t.b.assign(std::size_t(trials) * K * 8, 0);
  t.bv.assign(t.b.size(), 0.0);
  t.c.assign(std::size_t(trials) * 128, 0.0f);
  std::uniform_real_distribution<float> mant(1.0f, 2.0f);
  std::uniform_int_distribution<int> expo(d.emin, d.emax);
  std::bernoulli_distribution negative(0.5);
  auto value = [&] { return (negative(gen) ? -1.0f : 1.0f) * std::ldexp(mant(gen), expo(gen)); };
  for (int tr = 0; tr < trials; ++tr) {
    std::vector<int> ks(K);
    for (int i = 0; i < K; ++i) ks[i] = i;
    std::shuffle(ks.begin(), ks.end(), gen);
    ks.resize(d.nonzero_k);
    for (int row = 0; row < 16; ++row)
      for (int kk : ks) {
        const std::size_t at = std::size_t(tr) * 16 * K + row * K + kk;
        float x = value();
        if (d.cancel && kk == ks[1]) x = -static_cast<float>(t.av[std::size_t(tr) * 16 * K + row * K + ks[0]]);
        std::tie(t.a[at], t.av[at]) = quantize(f.instruction, x);
      }
    for (int col = 0; col < 8; ++col)
      for (int kk : ks) {
        const std::size_t at = std::size_t(tr) * K * 8 + col * K + kk;
        float x = value();
        if (d.cancel && kk == ks[1]) {  // b_k2 = b_k1 (1 + small): a_k1 b_k1 + a_k2 b_k2 = -a_k1 b_k1 * small
          const double b1 = t.bv[std::size_t(tr) * K * 8 + col * K + ks[0]];
          x = static_cast<float>(b1 * (1.0 + std::ldexp(1.0, -std::uniform_int_distribution<int>(3, 9)(gen))));
        }
        std::tie(t.b[at], t.bv[at]) = quantize(f.instruction, x);
      }
    if (d.random_c)
      for (int i = 0; i < 128; ++i) t.c[std::size_t(tr) * 128 + i] = value() * 4.0f;
  }
  return t;
}

std::vector<float> run_on_gpu(const Format& f, const Trials& t, int trials) {
  std::uint32_t *da, *db;
  float *dc, *dd;
  PROFILE_CUDA(cudaMalloc(&da, t.a.size() * 4));
  PROFILE_CUDA(cudaMalloc(&db, t.b.size() * 4));
  PROFILE_CUDA(cudaMalloc(&dc, t.c.size() * 4));
  PROFILE_CUDA(cudaMalloc(&dd, t.c.size() * 4));
  PROFILE_CUDA(cudaMemcpy(da, t.a.data(), t.a.size() * 4, cudaMemcpyHostToDevice));
  PROFILE_CUDA(cudaMemcpy(db, t.b.data(), t.b.size() * 4, cudaMemcpyHostToDevice));
  PROFILE_CUDA(cudaMemcpy(dc, t.c.data(), t.c.size() * 4, cudaMemcpyHostToDevice));
  switch (f.instruction) {
    case Instruction::f16_m16n8k16:
      if (f.wgmma) wgmma_probe<Instruction::f16_m16n8k16><<<trials, 128>>>(da, db, dc, dd);
      else mma_probe<Instruction::f16_m16n8k16><<<trials, 32>>>(da, db, dc, dd);
      break;
    case Instruction::bf16_m16n8k16:
      if (f.wgmma) wgmma_probe<Instruction::bf16_m16n8k16><<<trials, 128>>>(da, db, dc, dd);
      else mma_probe<Instruction::bf16_m16n8k16><<<trials, 32>>>(da, db, dc, dd);
      break;
    case Instruction::tf32_m16n8k8:
      if (f.wgmma) wgmma_probe<Instruction::tf32_m16n8k8><<<trials, 128>>>(da, db, dc, dd);
      else mma_probe<Instruction::tf32_m16n8k8><<<trials, 32>>>(da, db, dc, dd);
      break;
  }
  PROFILE_CUDA(cudaGetLastError());
  std::vector<float> d(t.c.size());
  PROFILE_CUDA(cudaMemcpy(d.data(), dd, d.size() * 4, cudaMemcpyDeviceToHost));
  for (void* p : {static_cast<void*>(da), static_cast<void*>(db), static_cast<void*>(dc), static_cast<void*>(dd)})
    PROFILE_CUDA(cudaFree(p));
  return d;
}

// Raw trials for host-side model searches (replay.cpp): per design a header of
// int32 {k, trials}, then per trial A (16 x k), B (8 x k, column n's k values
// together), C (16 x 8), the hardware's D (16 x 8), all as FP32 values.
void dump(std::FILE* out, const Format& f, const Trials& t, const std::vector<float>& hw, int trials) {
  if (!out) return;
  const std::int32_t header[2] = {f.k, trials};
  std::fwrite(header, 4, 2, out);
  std::vector<float> buf;
  for (int tr = 0; tr < trials; ++tr) {
    buf.clear();
    for (int i = 0; i < 16 * f.k; ++i) buf.push_back(static_cast<float>(t.av[std::size_t(tr) * 16 * f.k + i]));
    for (int i = 0; i < 8 * f.k; ++i) buf.push_back(static_cast<float>(t.bv[std::size_t(tr) * 8 * f.k + i]));
    for (int i = 0; i < 128; ++i) buf.push_back(t.c[std::size_t(tr) * 128 + i]);
    for (int i = 0; i < 128; ++i) buf.push_back(hw[std::size_t(tr) * 128 + i]);
    std::fwrite(buf.data(), 4, buf.size(), out);
  }
}

void profile(const Format& f, const std::vector<Design>& designs, int trials, std::mt19937_64& gen,
             std::FILE* raw = nullptr) {
  const std::vector<Model> models = all_models();
  std::printf("\n### %s (k = %d per instruction)\n\n| design | outputs |", f.name, f.k);
  for (const Model& m : models) std::printf(" %s |", m.name.c_str());
  std::printf(" bits vs exact: min / mean |\n|---|---:|");
  for (std::size_t i = 0; i < models.size(); ++i) std::printf("---:|");
  std::printf("---:|\n");
  for (const Design& d : designs) {
    if (d.nonzero_k > f.k) continue;
    const Trials t = make_trials(f, d, trials, gen);
    const std::vector<float> hw = run_on_gpu(f, t, trials);
    dump(raw, f, t, hw, trials);
    std::vector<long> matches(models.size(), 0);
    double min_bits = 24.0, sum_bits = 0.0;
    long outputs = 0;
    std::vector<double> products(f.k);
    std::vector<int> scales(f.k);
    for (int tr = 0; tr < trials; ++tr)
      for (int i = 0; i < 16; ++i)
        for (int j = 0; j < 8; ++j) {
          for (int kk = 0; kk < f.k; ++kk)
          {
            const double a = t.av[std::size_t(tr) * 16 * f.k + i * f.k + kk], b = t.bv[std::size_t(tr) * f.k * 8 + j * f.k + kk];
            products[kk] = a * b;
            scales[kk] = products[kk] != 0.0 ? std::ilogb(a) + std::ilogb(b) : 0;
          }
          const float c = t.c[std::size_t(tr) * 128 + i * 8 + j], got = hw[std::size_t(tr) * 128 + i * 8 + j];
          for (std::size_t m = 0; m < models.size(); ++m) {
            const float want = models[m].predict(c, products, scales);
            matches[m] += std::memcmp(&want, &got, 4) == 0;
          }
          std::vector<double> terms(products);
          terms.push_back(c);
          const double bits = agreeing_bits(got, exact_sum(terms));
          min_bits = std::min(min_bits, bits);
          sum_bits += bits;
          ++outputs;
        }
    std::printf("| %s | %ld |", d.name.c_str(), outputs);
    for (long m : matches) std::printf(" %.2f%% |", 100.0 * m / outputs);
    std::printf(" %.1f / %.2f |\n", min_bits, sum_bits / outputs);
  }
}

}  // namespace
}  // namespace egemm::profile

int main(int argc, char** argv) {
  using namespace egemm::profile;
  const int trials = argc > 1 ? std::atoi(argv[1]) : 400;
  cudaDeviceProp prop;
  PROFILE_CUDA(cudaGetDeviceProperties(&prop, 0));
  std::printf("# Tensor-core accumulation on %s (sm_%d%d), %d trials x 128 outputs per design\n", prop.name, prop.major,
              prop.minor, trials);
  std::printf("\nA cell is the share of outputs the model reproduces bit for bit. Designs: operands u * 2^e, u in "
              "[1,2), random sign, e in the range given; n products per output (the other k are zero); C = 0 "
              "unless said; 'cancel' makes the second product cancel the first to within 2^-3..2^-9.\n");
  const std::vector<Design> designs = {
      {"2 products, e in [-3,3], C = 0 (paper Fig. 3)", 2, -3, 3, false, false},
      {"2 products, e in [-6,6], C = 0", 2, -6, 6, false, false},
      {"4 products, e in [-3,3], C = 0", 4, -3, 3, false, false},
      {"8 products, e in [-3,3], C = 0", 8, -3, 3, false, false},
      {"all k products, e in [-3,3], C = 0", 16, -3, 3, false, false},
      {"all k products, e in [-3,3], C random", 16, -3, 3, true, false},
      {"all k products, e in [-6,6], C random", 16, -6, 6, true, false},
      {"2 products cancelling, C = 0", 2, -3, 3, false, true},
      {"4 products, 2 cancelling, C random", 4, -3, 3, true, true},
  };
  std::mt19937_64 gen(20261122);
  std::vector<Format> formats = {{"mma.sync m16n8k16 FP16 -> FP32", Instruction::f16_m16n8k16, 16},
                                 {"mma.sync m16n8k16 BF16 -> FP32", Instruction::bf16_m16n8k16, 16},
                                 {"mma.sync m16n8k8 TF32 -> FP32", Instruction::tf32_m16n8k8, 8}};
  if (wgmma_available()) {
    formats.push_back({"wgmma m64n8k16 FP16 -> FP32 (A in registers, B in shared memory)", Instruction::f16_m16n8k16, 16, true});
    formats.push_back({"wgmma m64n8k16 BF16 -> FP32", Instruction::bf16_m16n8k16, 16, true});
    formats.push_back({"wgmma m64n8k8 TF32 -> FP32", Instruction::tf32_m16n8k8, 8, true});
  } else {
    std::printf("\nwgmma: not available (needs an sm_90 GPU and a build with sm_90a code); mma.sync only.\n");
  }
  for (std::size_t fi = 0; fi < formats.size(); ++fi) {
    const Format& f = formats[fi];
    std::vector<Design> ds = designs;
    for (Design& d : ds)
      if (d.nonzero_k == 16) d.nonzero_k = f.k;  // "all k"
    std::FILE* raw = argc > 2 ? std::fopen((std::string(argv[2]) + "." + std::to_string(fi) + ".bin").c_str(), "wb") : nullptr;
    profile(f, ds, trials, gen, raw);
    if (raw) std::fclose(raw);
  }
  return 0;
}
