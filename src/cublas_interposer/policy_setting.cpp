// Parses EGEMM_CUBLAS_POLICY against the tags of egemm/policy.hpp.
#include "src/cublas_interposer/policy_setting.hpp"

#include <cstdio>
#include <cstdlib>
#include <string>
#include <strings.h>
#include <tuple>
#include <utility>

namespace egemm::interposer {
namespace {

template <class Tuple, std::size_t... I>
bool match_tag(const char* value, PolicySetting& out, std::index_sequence<I...>) {
  return ((strcasecmp(value, policy_traits<std::tuple_element_t<I, Tuple>>::name) == 0 &&
           (out.id = policy_traits<std::tuple_element_t<I, Tuple>>::id,
            out.name = policy_traits<std::tuple_element_t<I, Tuple>>::name, true)) ||
          ...);
}

template <class Tuple, std::size_t... I>
std::string tag_names(std::index_sequence<I...>) {
  std::string s;
  ((s += std::string(policy_traits<std::tuple_element_t<I, Tuple>>::name) + ", "), ...);
  return s + "off";
}

}  // namespace

PolicySetting parse_policy_setting(const char* value) {
  PolicySetting s;
  if (value == nullptr || *value == '\0') return s;
  if (strcasecmp(value, "off") == 0) {
    s.kind = PolicySetting::Kind::off;
    s.name = "off";
    return s;
  }
  constexpr std::size_t tags = std::tuple_size_v<all_policies>;
  if (match_tag<all_policies>(value, s, std::make_index_sequence<tags>{})) return s;
  s.kind = PolicySetting::Kind::unknown;
  s.name = "unknown";
  return s;
}

const char* accepted_policy_values() {
  static const std::string names = tag_names<all_policies>(std::make_index_sequence<std::tuple_size_v<all_policies>>{});
  return names.c_str();
}

const PolicySetting& policy_setting() {
  static const PolicySetting setting = [] {
    const char* value = std::getenv("EGEMM_CUBLAS_POLICY");
    PolicySetting s = parse_policy_setting(value);
    if (s.kind == PolicySetting::Kind::unknown)
      std::fprintf(stderr,
                   "egemm_cublas: EGEMM_CUBLAS_POLICY=%s is not a policy (accepted: %s); every cuBLAS call goes to "
                   "cuBLAS unchanged\n",
                   value, accepted_policy_values());
    return s;
  }();
  return setting;
}

}  // namespace egemm::interposer
