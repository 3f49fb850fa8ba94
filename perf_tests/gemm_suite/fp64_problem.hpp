// Device-side double inputs for the suite's FP64 section: rotating sets of
// A and B (uniform [-1, 1), normal, or wide exponents), and the errors of C
// on sampled entries against exact dot products (double-double on the GPU)
// and against cuBLAS DGEMM of the same set.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <vector>

#include "device_problem.hpp"

namespace egemm::bench {

enum class Distribution64 { uniform, normal, wide };  // wide: uniform times 2^e, e uniform in [-16, 16]

const char* dist_name(Distribution64 d);

// Errors over the sampled entries: relative Frobenius and largest absolute
// error against the exact values, largest difference from DGEMM's entries.
struct Errors64 {
  double rel_frobenius = 0, max_abs = 0, max_vs_dgemm = 0, nonfinite = 0;
  int sampled = 0;
};

class DeviceProblem64 {
 public:
  DeviceProblem64(Shape shape, Distribution64 dist, std::uint64_t seed);
  ~DeviceProblem64();
  DeviceProblem64(const DeviceProblem64&) = delete;
  DeviceProblem64& operator=(const DeviceProblem64&) = delete;

  Shape shape() const { return shape_; }
  int sets() const { return static_cast<int>(a_.size()); }
  const double* a(int set) const { return a_[set]; }  // m x k, ld m
  const double* b(int set) const { return b_[set]; }  // k x n, ld k
  double* c() const { return c_; }                    // m x n, ld m

  void poison_c(cudaStream_t stream) const;
  // Errors of C (computed from set 0) on the sampled entries.
  Errors64 errors_of_c() const;

 private:
  Shape shape_;
  std::vector<double*> a_, b_;
  double* c_ = nullptr;
  int samples_ = 0;
  long long* sample_index_ = nullptr;  // i + j m of each sampled entry
  double* exact_ = nullptr;            // their exact values (double-double, rounded)
  double* dgemm_ = nullptr;            // and cuBLAS DGEMM's
  double* stats_ = nullptr;
};

}  // namespace egemm::bench
