// Replays the raw trials `egemm_precision_profile N PREFIX` saved on a GPU
// machine (PREFIX.<format>.bin) through the CPU models, on any host: new models
// can be scored against the hardware's results without a GPU.
//
//   egemm_precision_replay PREFIX.0.bin [PREFIX.1.bin ...]
//
// Prints one table per file in the profiler's format (rows in its design order).
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "accumulation_models.hpp"

int main(int argc, char** argv) {
  using namespace egemm::profile;
  // profile.cu's designs, in its order.
  const char* designs[] = {"2 products, e in [-3,3], C = 0 (paper Fig. 3)", "2 products, e in [-6,6], C = 0",
                           "4 products, e in [-3,3], C = 0", "8 products, e in [-3,3], C = 0",
                           "all k products, e in [-3,3], C = 0", "all k products, e in [-3,3], C random",
                           "all k products, e in [-6,6], C random", "2 products cancelling, C = 0",
                           "4 products, 2 cancelling, C random"};
  const std::vector<Model> models = all_models();
  for (int file = 1; file < argc; ++file) {
    std::FILE* in = std::fopen(argv[file], "rb");
    if (!in) {
      std::fprintf(stderr, "cannot open %s\n", argv[file]);
      return 1;
    }
    std::printf("\n### %s\n\n| design | outputs |", argv[file]);
    for (const Model& m : models) std::printf(" %s |", m.name.c_str());
    std::printf("\n|---|---:|");
    for (std::size_t i = 0; i < models.size(); ++i) std::printf("---:|");
    std::printf("\n");
    std::int32_t header[2];
    for (int design = 0; std::fread(header, 4, 2, in) == 2; ++design) {
      const int K = header[0], trials = header[1];
      std::vector<float> buf(std::size_t(16 * K + 8 * K + 256));
      std::vector<long> matches(models.size(), 0);
      std::vector<double> products(K);
      std::vector<int> scales(K);
      long outputs = 0;
      for (int tr = 0; tr < trials; ++tr) {
        if (std::fread(buf.data(), 4, buf.size(), in) != buf.size()) {
          std::fprintf(stderr, "%s: truncated\n", argv[file]);
          return 1;
        }
        const float *A = buf.data(), *B = A + 16 * K, *C = B + 8 * K, *D = C + 128;
        for (int i = 0; i < 16; ++i)
          for (int j = 0; j < 8; ++j, ++outputs) {
            for (int k = 0; k < K; ++k) {
              products[k] = double(A[i * K + k]) * double(B[j * K + k]);
              scales[k] = products[k] != 0.0 ? std::ilogb(A[i * K + k]) + std::ilogb(B[j * K + k]) : 0;
            }
            for (std::size_t m = 0; m < models.size(); ++m) {
              const float want = models[m].predict(C[i * 8 + j], products, scales);
              matches[m] += std::memcmp(&want, &D[i * 8 + j], 4) == 0;
            }
          }
      }
      std::printf("| %s | %ld |", design < 9 ? designs[design] : "?", outputs);
      for (long m : matches) std::printf(" %.2f%% |", 100.0 * m / outputs);
      std::printf("\n");
    }
    std::fclose(in);
  }
  return 0;
}
