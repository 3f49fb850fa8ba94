#include <string>

#include "egemm/gemm.hpp"
#include "methods.hpp"

namespace egemm::bench {
namespace {

template <class Policy>
class EgemmMethod final : public Method {
 public:
  std::string name() const override { return std::string("egemm_") + policy_traits<Policy>::name; }
  void run(const DeviceProblem& p, int set, cudaStream_t stream) override {
    const Shape s = p.shape();
    egemm::gemm(Policy{}, 'N', 'N', s.m, s.n, s.k, 1.0f, p.a(set), s.m, p.b(set), s.k, 0.0f, p.c(), s.m, stream);
  }
};

}  // namespace

std::vector<std::unique_ptr<Method>> egemm_methods() {
  std::vector<std::unique_ptr<Method>> out;
  for_each_policy([&](auto tag) { out.push_back(std::make_unique<EgemmMethod<decltype(tag)>>()); });
  return out;
}

}  // namespace egemm::bench
