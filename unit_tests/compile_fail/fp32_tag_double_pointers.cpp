// Must not compile: an FP32 tag takes float operands; double ones are EmulatedFP64's.
#include <egemm/gemm.hpp>

void call(const double* a, const double* b, double* c) {
  egemm::gemm(egemm::EmulatedFP32{}, 'N', 'N', 4, 4, 4, 1.0, a, 4, b, 4, 0.0, c, 4);
}
