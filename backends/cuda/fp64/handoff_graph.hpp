// EmulatedFP64's choice between cuBLAS DGEMM and the moduli, made on the
// device: a CUDA conditional graph node whose two bodies are the two ways to
// finish the call, chosen by a kernel from the split's counts.
#pragma once

#include <cuda_runtime.h>

#include <functional>
#include <vector>

namespace egemm::cuda {

// What the choosing kernel reads: each operand's flagged-row count (the
// split's counts[0]), the sample's two counts (op(A)'s, op(B)'s), and the
// extents numerics::crt::call_hands_off takes.
struct HandoffCounts {
  const unsigned* flagged_a;
  const unsigned* flagged_b;
  const unsigned* sampled;
  long long m, n;
};

// Enqueues its work on the stream it is given (a private stream being captured).
using BodyEnqueue = std::function<void(cudaStream_t)>;

// Enqueues on `stream`, after what it holds, the choice and then `hand_off`'s work
// or `emulate`'s, whichever crt::call_hands_off picks from the counts when they are final.
// The stream is being captured: a kernel node and a conditional node join the
// capture graph (built first in a graph of their own, so that a body a
// conditional node refuses throws before anything joins the capture graph). It
// is not: an executable graph of the two runs on it, taken from a small
// process-wide cache keyed by device, its context and `key` (every value the
// bodies' nodes depend on: extents, pointers, alpha and beta, the workspace),
// updated in place (cudaGraphExecUpdate) or instantiated where no cached one
// matches. The host never reads a count.
void enqueue_device_choice(cudaStream_t stream, const HandoffCounts& counts, const std::vector<long long>& key,
                           const BodyEnqueue& hand_off, const BodyEnqueue& emulate);

// Executable graphs the cache holds now (tests: a repeated call reuses one).
int cached_choice_graphs();
// How many times a call found no cached graph of its key and so built its bodies
// (updating a cached graph or instantiating one); tests compare it across calls.
unsigned long long choice_graph_builds();

}  // namespace egemm::cuda
