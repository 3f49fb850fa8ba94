// Each policy at n^3 (default 1024) through the host API, best of 3 calls.
//   g++ -O2 -std=c++17 host_rates.cpp -I src -I <build>/src -L<build>/src -legemm -o host_rates
#include <egemm/egemm.hpp>
#include <chrono>
#include <cstdio>
#include <random>
#include <vector>
int main(int argc, char** argv) {
  int n = argc > 1 ? atoi(argv[1]) : 1024;
  std::vector<float> A(n*n), B(n*n), C(n*n);
  std::mt19937 r(1); std::uniform_real_distribution<float> d(-1,1);
  for (auto& x : A) x = d(r); for (auto& x : B) x = d(r);
  egemm::for_each_policy([&](auto tag) {
    double best = 1e9;
    for (int rep = 0; rep < 3; ++rep) {
      auto t0 = std::chrono::steady_clock::now();
      egemm::gemm(tag, 'N','T', n,n,n, 1.0f, A.data(), n, B.data(), n, 0.0f, C.data(), n);
      best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now()-t0).count());
    }
    printf("%-16s %d^3: %.3f s, %.2f GFLOP/s\n", egemm::policy_traits<decltype(tag)>::name, n, best, 2.0*n*n*n/best*1e-9);
  });
}
