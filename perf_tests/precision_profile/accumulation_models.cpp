#include "accumulation_models.hpp"

#include "egemm/numerics/half_bits.hpp"

namespace egemm::profile {

float half_arithmetic(float c, const std::vector<double>& products) {
  using numerics::round_to_half;
  float s = round_to_half(c);
  for (double p : products) s = round_to_half(s + round_to_half(static_cast<float>(p)));
  return s;
}

std::vector<Model> all_models() {
  return {
      {"half arithmetic", [](float c, const std::vector<double>& p, const std::vector<int>&) { return half_arithmetic(c, p); }},
      {"FP32 RN sequential", [](float c, const std::vector<double>& p, const std::vector<int>&) { return sequential_fp32(c, p, false); }},
      {"FP32 RZ sequential", [](float c, const std::vector<double>& p, const std::vector<int>&) { return sequential_fp32(c, p, true); }},
      {"aligned, 0 extra bits, RZ", [](float c, const std::vector<double>& p, const std::vector<int>&) { return aligned_truncated_sum(c, p, 0); }},
      {"aligned, 1 extra bit, RZ", [](float c, const std::vector<double>& p, const std::vector<int>&) { return aligned_truncated_sum(c, p, 1); }},
      {"aligned, 2 extra bits, RZ", [](float c, const std::vector<double>& p, const std::vector<int>&) { return aligned_truncated_sum(c, p, 2); }},
      {"aligned, 3 extra bits, RZ", [](float c, const std::vector<double>& p, const std::vector<int>&) { return aligned_truncated_sum(c, p, 3); }},
      {"aligned, 4 extra bits, RZ", [](float c, const std::vector<double>& p, const std::vector<int>&) { return aligned_truncated_sum(c, p, 4); }},
      {"scaled (ea+eb), 2 extra bits, RZ", [](float c, const std::vector<double>& p, const std::vector<int>& e) {
         return scaled_truncated_sum(c, p, e, 2);
       }},
      {"exact sum, one RN", [](float c, const std::vector<double>& p, const std::vector<int>&) {
         std::vector<double> t(p);
         t.push_back(c);
         return exact_sum_rn(t);
       }},
  };
}

}  // namespace egemm::profile
