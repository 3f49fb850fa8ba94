// Links EGEMM::egemm from an installed package and checks one small product.
#include <egemm/egemm.hpp>

#include <cmath>
#include <cstdio>

int main() {
  const float a[4] = {1, 2, 3, 4}, b[4] = {5, 6, 7, 8};  // column-major 2x2
  float c[4] = {0, 0, 0, 0};
  egemm::gemm(egemm::EmulatedFP32{}, 'N', 'N', 2, 2, 2, 1.0f, a, 2, b, 2, 0.0f, c, 2);
  const float expect[4] = {23, 34, 31, 46};
  for (int i = 0; i < 4; ++i)
    if (c[i] != expect[i]) {
      std::printf("raw_api: c[%d] = %g, expected %g\n", i, c[i], expect[i]);
      return 1;
    }
  std::printf("raw_api: ok\n");
  return 0;
}
