// How accurate is an FP32 gemm from six INT8 products (the balanced-digit
// split of int8_emulation_cublas.cu: per row of op(A) and column of op(B) a
// power-of-two scale, ~23 bits of the row's largest element as three signed
// 8-bit digits; d0 d0, d0 d1 + d1 d0, d1 d1 + d0 d2 + d2 d0 summed exactly,
// combined in float64, rounded once), next to EGEMM's EmulatedFP32 (its host
// fallback: the same arithmetic as the GPU kernels) and plain FP32 (a
// sequential FMA sum), on several input distributions? Relative Frobenius
// error against float64, m = n = 256, k = 4096, and the largest entry-wise
// error in units of FP32's a-priori bound k u |A||B|.
//   g++ -O3 -march=native -std=c++17 -fopenmp int8_slices_accuracy.cpp -I<repo>/src -L<host build>/src -legemm
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "egemm/gemm.hpp"

namespace {

constexpr int m = 256, n = 256, k = 4096;

// Rows of x (k-contiguous) as three balanced digit planes and exponents.
struct Digits {
  std::vector<int> d[3];
  std::vector<int> e;
};
Digits split(const std::vector<float>& x, int rows) {
  Digits out{{std::vector<int>(x.size()), std::vector<int>(x.size()), std::vector<int>(x.size())}, std::vector<int>(rows)};
  for (int r = 0; r < rows; ++r) {
    float big = 0.0f;
    for (int j = 0; j < k; ++j) big = std::fmax(big, std::fabs(x[r * k + j]));
    int e = big > 0.0f ? std::ilogb(big) + 1 : 0;
    if (std::ldexp(big, -e) >= 127.0f / 128.0f) ++e;
    out.e[r] = e;
    for (int j = 0; j < k; ++j) {
      const int v = static_cast<int>(std::nearbyint(std::ldexp(x[r * k + j], 23 - e)));
      const int d2 = ((v + 128) & 255) - 128, v1 = (v - d2) >> 8;
      const int d1 = ((v1 + 128) & 255) - 128, d0 = (v1 - d1) >> 8;
      out.d[0][r * k + j] = d0;
      out.d[1][r * k + j] = d1;
      out.d[2][r * k + j] = d2;
    }
  }
  return out;
}

std::vector<float> int8x6(const std::vector<float>& a, const std::vector<float>& b) {
  const Digits da = split(a, m), db = split(b, n);
  std::vector<float> c(m * n);
  auto dot = [&](int s, int t, int i, int j) {
    std::int64_t p = 0;
    for (int l = 0; l < k; ++l) p += da.d[s][i * k + l] * db.d[t][j * k + l];
    return static_cast<double>(p);
  };
#pragma omp parallel for
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) {
      const double p0 = dot(0, 0, i, j), p1 = dot(0, 1, i, j) + dot(1, 0, i, j),
                   p2 = dot(1, 1, i, j) + dot(0, 2, i, j) + dot(2, 0, i, j);
      c[i + j * m] = static_cast<float>(std::ldexp((p2 * 0x1p-16 + p1 * 0x1p-8) + p0, da.e[i] + db.e[j] - 14));
    }
  return c;
}

std::vector<float> fp32_sequential(const std::vector<float>& a, const std::vector<float>& b) {
  std::vector<float> c(m * n);
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) {
      float s = 0.0f;
      for (int l = 0; l < k; ++l) s = std::fma(a[i * k + l], b[j * k + l], s);
      c[i + j * m] = s;
    }
  return c;
}

std::vector<float> emulated_fp32(const std::vector<float>& a, const std::vector<float>& b) {
  std::vector<float> c(m * n);
  // a: rows of op(A) k-contiguous = A^T column-major (k x m); b: B column-major (k x n).
  egemm::gemm(egemm::EmulatedFP32{}, 'T', 'N', m, n, k, 1.0f, a.data(), k, b.data(), k, 0.0f, c.data(), m);
  return c;
}

}  // namespace

int main() {
  struct Distribution { const char* name; std::function<float(std::mt19937_64&, int row)> draw; };
  const Distribution distributions[] = {
      {"uniform [-1, 1]", [](std::mt19937_64& g, int) { return std::uniform_real_distribution<float>(-1, 1)(g); }},
      {"uniform [0, 1]", [](std::mt19937_64& g, int) { return std::uniform_real_distribution<float>(0, 1)(g); }},
      {"normal (0, 1)", [](std::mt19937_64& g, int) { return std::normal_distribution<float>(0, 1)(g); }},
      {"rows scaled by 2^-20..2^20", [](std::mt19937_64& g, int row) {
         return std::ldexp(std::uniform_real_distribution<float>(-1, 1)(g), (row * 7919) % 41 - 20); }},
      {"entries 2^-4..2^4 (log-uniform)", [](std::mt19937_64& g, int) {
         return std::copysign(std::exp2(std::uniform_real_distribution<float>(-4, 4)(g)), std::uniform_real_distribution<float>(-1, 1)(g)); }},
      {"entries 2^-16..2^16 (the suite's wide)", [](std::mt19937_64& g, int) {
         return std::copysign(std::exp2(std::uniform_real_distribution<float>(-16, 16)(g)), std::uniform_real_distribution<float>(-1, 1)(g)); }},
  };
  std::printf("m = n = %d, k = %d. Relative Frobenius error against float64 (largest |error| / (k u |A||B|))\n\n", m, k);
  std::printf("| inputs | FP32 (sequential FMA) | EGEMM EmulatedFP32 (host) | INT8 x6 |\n|---|---:|---:|---:|\n");
  for (const Distribution& dist : distributions) {
    std::mt19937_64 gen(20261125);
    std::vector<float> a(m * k), b(n * k);
    for (int r = 0; r < m; ++r) for (int l = 0; l < k; ++l) a[r * k + l] = dist.draw(gen, r);
    for (int r = 0; r < n; ++r) for (int l = 0; l < k; ++l) b[r * k + l] = dist.draw(gen, r + 1);
    std::vector<double> exact(m * n), bound(m * n);
    for (int i = 0; i < m; ++i)
      for (int j = 0; j < n; ++j) {
        double s = 0.0, t = 0.0;
        for (int l = 0; l < k; ++l) {
          s += static_cast<double>(a[i * k + l]) * b[j * k + l];
          t += std::fabs(static_cast<double>(a[i * k + l]) * b[j * k + l]);
        }
        exact[i + j * m] = s;
        bound[i + j * m] = k * 0x1p-24 * t;
      }
    std::string row = std::string("| ") + dist.name;
    for (auto method : {fp32_sequential, emulated_fp32, int8x6}) {
      const std::vector<float> c = method(a, b);
      double e2 = 0.0, r2 = 0.0, worst = 0.0;
      for (int i = 0; i < m * n; ++i) {
        e2 += (c[i] - exact[i]) * (c[i] - exact[i]);
        r2 += exact[i] * exact[i];
        worst = std::fmax(worst, std::fabs(c[i] - exact[i]) / bound[i]);
      }
      char cell[64];
      std::snprintf(cell, sizeof cell, " | %.2e (%.1e)", std::sqrt(e2 / r2), worst);
      row += cell;
    }
    std::printf("%s |\n", row.c_str());
    std::fflush(stdout);
  }
  return 0;
}
