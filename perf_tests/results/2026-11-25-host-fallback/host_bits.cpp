// C's bits after 372 random host calls (every policy; transposes, padding,
// alpha/beta, wide rows, Inf/NaN) to stdout: run against two libraries and
// compare the outputs (md5sum) to show a change keeps every bit.
//   g++ -O2 -std=c++17 host_bits.cpp -I src -I <build>/src -L<build>/src -legemm -o host_bits
// Writes C's bits for many random host calls, every policy, to stdout (binary).
#include <egemm/egemm.hpp>
#include <cmath>
#include <cstdio>
#include <random>
#include <vector>
template <class Tag> void run(Tag tag, std::mt19937& r, FILE* out) {
  std::uniform_int_distribution<int> dim(1, 70), kd(1, 90), tr(0, 1), kind(0, 5);
  std::uniform_real_distribution<float> u(-1, 1);
  for (int c = 0; c < 60; ++c) {
    int m = dim(r), n = dim(r), k = kd(r);
    if (c % 7 == 0) { m = 1 + m % 3; } if (c % 11 == 0) { n = 1 + n % 3; }
    char ta = tr(r) ? 'T' : 'N', tb = tr(r) ? 'T' : 'N';
    int lda = (ta == 'N' ? m : k) + 2, ldb = (tb == 'N' ? k : n) + 1, ldc = m + 3;
    std::vector<float> A(lda * (ta == 'N' ? k : m)), B(ldb * (tb == 'N' ? n : k)), C(ldc * n);
    int kd2 = kind(r);
    for (auto& x : A) { x = u(r); if (kd2 == 1) x *= std::ldexp(1.0f, (int)(u(r) * 40)); }
    for (auto& x : B) { x = u(r); if (kd2 == 2) x *= std::ldexp(1.0f, (int)(u(r) * 60)); }
    if (kd2 == 3) { A[r() % A.size()] = INFINITY; B[r() % B.size()] = NAN; }
    if (kd2 == 4) { A[r() % A.size()] = 1e30f; }
    for (auto& x : C) x = u(r);
    float alpha = u(r), beta = (c % 3 == 0) ? 0.0f : u(r);
    egemm::gemm(tag, ta, tb, m, n, k, alpha, A.data(), lda, B.data(), ldb, beta, C.data(), ldc);
    fwrite(C.data(), 4, C.size(), out);
  }
}
int main() {
  std::mt19937 r(12345);
  egemm::for_each_policy([&](auto tag) { run(tag, r, stdout); });
  // a few bigger ones
  for (int n : {200, 257}) {
    std::vector<float> A(n * n), B(n * n), C(n * n);
    std::uniform_real_distribution<float> u(-1, 1);
    for (auto& x : A) x = u(r); for (auto& x : B) x = u(r);
    egemm::for_each_policy([&](auto tag) {
      egemm::gemm(tag, 'N', 'T', n, n, n, 1.0f, A.data(), n, B.data(), n, 0.0f, C.data(), n);
      fwrite(C.data(), 4, C.size(), stdout);
    });
  }
}
