// Exceptions thrown by EGEMM. Every argument check runs before C is written,
// so a call refused for its arguments leaves C exactly as it was; a CUDA
// call short of memory for its scratch is not refused (it runs in panels of
// C, or through SGEMM: docs/design.md); a CUDA failure after the call's
// kernels were enqueued (device_error) leaves C unspecified.
#pragma once

#include <stdexcept>
#include <string>

namespace egemm {

// A caller error: bad transpose character, size, leading dimension, null
// pointer, aliasing, layout or value type. The message names the argument.
class invalid_argument : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

// The request is valid but this build or this machine cannot run it (built
// without CUDA, no CUDA device for a call with a stream, a GPU without tensor
// cores, ...).
class unsupported : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A CUDA runtime or cuBLAS call failed; the message carries its error string.
class device_error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace egemm
