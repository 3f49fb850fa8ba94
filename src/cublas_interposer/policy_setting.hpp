// EGEMM_CUBLAS_POLICY: which EGEMM tag takes the FP32 calls, or none; read once per process.
#pragma once

#include "egemm/policy.hpp"

namespace egemm::interposer {

struct PolicySetting {
  enum class Kind { tag, off, unknown };
  Kind kind = Kind::tag;
  PolicyId id = PolicyId::emulated_fp32;
  const char* name = "EmulatedFP32";  // the tag's name; for `unknown`, the value as given is in the message
};

// Unset or empty: EmulatedFP32. A tag's name (egemm::policy_traits<T>::name,
// any letter case): that tag. "off" (any case): every call passes through.
// Anything else is `unknown`, which passes everything through too.
PolicySetting parse_policy_setting(const char* value);

// The setting this process runs with: EGEMM_CUBLAS_POLICY read at the first
// call (later changes to the environment are not seen; a getenv on every call
// would cost more than the whole pass-through budget). An unknown value is
// reported on stderr once, naming the values accepted.
const PolicySetting& policy_setting();

// EGEMM_CUBLAS_POLICY's accepted values, for messages: "EmulatedFP32, RoundSplit4, ..., off".
const char* accepted_policy_values();

}  // namespace egemm::interposer
