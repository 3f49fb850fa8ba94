// GoogleTest typed tests over EGEMM's policies: the type list comes from
// egemm::all_policies, and each instantiation is named after the tag.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <tuple>

#include "egemm/policy.hpp"

namespace egemm::test {

template <class Tuple>
struct testing_types_of;
template <class... Ps>
struct testing_types_of<std::tuple<Ps...>> {
  using type = ::testing::Types<Ps...>;
};

// ::testing::Types of every policy in all_policies.
using AllPolicyTypes = testing_types_of<all_policies>::type;

// The third argument of TYPED_TEST_SUITE: "EmulatedFP32" instead of "0".
struct PolicyNames {
  template <class P>
  static std::string GetName(int) {
    return policy_traits<P>::name;
  }
};

}  // namespace egemm::test
