// Must not compile: EmulatedFP64 takes double operands; float ones are the FP32 tags'.
#include <egemm/gemm.hpp>

void call(const float* a, const float* b, float* c) {
  egemm::gemm(egemm::EmulatedFP64{}, 'N', 'N', 4, 4, 4, 1.0f, a, 4, b, 4, 0.0f, c, 4);
}
