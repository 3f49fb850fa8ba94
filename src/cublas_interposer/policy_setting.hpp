// EGEMM_CUBLAS_POLICY and EGEMM_CUBLAS_FP64_POLICY: which EGEMM tag takes the FP32 (FP64) calls, or none; each read once per process.
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

// EGEMM_CUBLAS_FP64_POLICY, for cublasDgemm and FP64 cublasGemmEx: unset,
// empty or "off" (any case): every FP64 call passes through (the default:
// EmulatedFP64 wins on products whose rows are narrow, and hands those whose
// rows spread over many binades to DGEMM on the device, a few percent slower
// than DGEMM alone, which only the data can tell). An FP64 tag's name
// (EmulatedFP64): that tag. Anything else is `unknown`: every FP64 call
// passes through, and the first is reported on stderr.
PolicySetting parse_fp64_policy_setting(const char* value);
const PolicySetting& fp64_policy_setting();
const char* accepted_fp64_policy_values();

}  // namespace egemm::interposer
