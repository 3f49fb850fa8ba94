// Device-side inputs for the GEMM suite: several rotating sets of A and B (so
// repeated runs do not find their inputs in L2), the float64 reference and
// the cuBLAS SGEMM result of set 0, and the error measures against them.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <vector>

namespace egemm::bench {

// uniform: [-1, 1); wide: that times 2^e, e uniform in [-16, 16]; outliers4,
// 5, 6: uniform, with about one entry in 10^4, 10^5, 10^6 times 2^20 (sparse
// outliers, as activations with outlier features carry).
enum class Distribution { uniform, wide, outliers4, outliers5, outliers6 };

// The share of entries an outlier family scales by 2^20 (0 for the others).
inline double outlier_density(Distribution d) {
  return d == Distribution::outliers4 ? 1e-4 : d == Distribution::outliers5 ? 1e-5 : d == Distribution::outliers6 ? 1e-6 : 0.0;
}

struct Shape {
  int m, n, k;
};

struct Errors {
  double rel_frobenius = 0, max_abs = 0, max_vs_sgemm = 0;
  double nonfinite = 0;  // output entries that are Inf/NaN
};

// The relative Frobenius error (vs float64, uniform [-1, 1] inputs) below
// which a call of SGEMM or an FP32-accurate tag is working: the suite's
// runs measure up to 2.3e-6 at 16384^3.
inline constexpr double fp32_level_rel_frobenius = 1e-5;

class DeviceProblem {
 public:
  DeviceProblem(Shape shape, Distribution dist, std::uint64_t seed);
  ~DeviceProblem();
  DeviceProblem(const DeviceProblem&) = delete;
  DeviceProblem& operator=(const DeviceProblem&) = delete;

  Shape shape() const { return shape_; }
  int sets() const { return static_cast<int>(a_.size()); }
  const float* a(int set) const { return a_[set]; }  // m x k, column-major, ld m
  const float* b(int set) const { return b_[set]; }  // k x n, column-major, ld k
  float* c() const { return c_; }                    // m x n, ld m

  // Fills C with NaN, so an entry a method fails to write shows as nonfinite.
  void poison_c(cudaStream_t stream) const;
  // Errors of C (computed from set 0) against the float64 reference and SGEMM.
  Errors errors_of_c() const;

 private:
  Shape shape_;
  std::vector<float*> a_, b_;
  float* c_ = nullptr;
  float* c_sgemm_ = nullptr;
  double* c_ref_ = nullptr;
  double* stats_ = nullptr;
};

}  // namespace egemm::bench
