// Everything the suite times, behind one interface: EGEMM's tags and the
// vendor baselines built from cuBLAS (what ../shared/anchors measured).
#pragma once

#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <memory>
#include <string>
#include <vector>

#include "device_problem.hpp"

namespace egemm::bench {

class Method {
 public:
  virtual ~Method() = default;
  virtual std::string name() const = 0;
  // C = A(set) * B(set) on `stream` (alpha = 1, beta = 0), asynchronously.
  virtual void run(const DeviceProblem& p, int set, cudaStream_t stream) = 0;
};

// Every EGEMM policy (egemm::all_policies), through the public raw API.
std::vector<std::unique_ptr<Method>> egemm_methods();

// cuBLAS SGEMM, TF32, BF16x9 emulation, one half GemmEx, the paper's
// four-call "cuBLAS-TC-Emulation" (round split), Markidis' four calls
// (truncate split), Ootomo's three calls with a 2^11-scaled lo.
std::vector<std::unique_ptr<Method>> cublas_methods(const DeviceProblem& p, cublasHandle_t handle);

}  // namespace egemm::bench
