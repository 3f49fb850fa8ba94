// Parses EGEMM_CUBLAS_POLICY and EGEMM_CUBLAS_FP64_POLICY against the tags of egemm/policy.hpp.
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

namespace {

// `value` against Tuple's tag names and "off"; unset or empty: `unset`.
template <class Tuple>
PolicySetting parse(const char* value, const PolicySetting& unset) {
  if (value == nullptr || *value == '\0') return unset;
  PolicySetting s;
  if (strcasecmp(value, "off") == 0) {
    s.kind = PolicySetting::Kind::off;
    s.name = "off";
    return s;
  }
  if (match_tag<Tuple>(value, s, std::make_index_sequence<std::tuple_size_v<Tuple>>{})) return s;
  s.kind = PolicySetting::Kind::unknown;
  s.name = "unknown";
  return s;
}

// The setting of `variable`, read once by the caller's static; an unknown value reported once.
PolicySetting read_setting(const char* variable, PolicySetting (*parse_value)(const char*), const char* accepted,
                           const char* what) {
  const char* value = std::getenv(variable);
  PolicySetting s = parse_value(value);
  if (s.kind == PolicySetting::Kind::unknown)
    std::fprintf(stderr, "egemm_cublas: %s=%s is not a policy (accepted: %s); every %s goes to cuBLAS unchanged\n",
                 variable, value, accepted, what);
  return s;
}

PolicySetting fp64_off() {
  PolicySetting s;
  s.kind = PolicySetting::Kind::off;
  s.name = "off";
  return s;
}

}  // namespace

PolicySetting parse_policy_setting(const char* value) { return parse<all_policies>(value, PolicySetting{}); }

PolicySetting parse_fp64_policy_setting(const char* value) { return parse<all_fp64_policies>(value, fp64_off()); }

const char* accepted_policy_values() {
  static const std::string names = tag_names<all_policies>(std::make_index_sequence<std::tuple_size_v<all_policies>>{});
  return names.c_str();
}

const char* accepted_fp64_policy_values() {
  static const std::string names =
      tag_names<all_fp64_policies>(std::make_index_sequence<std::tuple_size_v<all_fp64_policies>>{});
  return names.c_str();
}

const PolicySetting& policy_setting() {
  static const PolicySetting setting =
      read_setting("EGEMM_CUBLAS_POLICY", parse_policy_setting, accepted_policy_values(), "cuBLAS call");
  return setting;
}

const PolicySetting& fp64_policy_setting() {
  static const PolicySetting setting = read_setting("EGEMM_CUBLAS_FP64_POLICY", parse_fp64_policy_setting,
                                                    accepted_fp64_policy_values(), "FP64 cuBLAS call");
  return setting;
}

}  // namespace egemm::interposer
