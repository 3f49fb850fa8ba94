// Which life of a device's context EGEMM's per-device state belongs to.
// cudaDeviceReset destroys the context and what lives in it: EGEMM's cuBLAS
// and cuBLASLt handles (a call on one fails with
// CUBLAS_STATUS_EXECUTION_FAILED), its kernels' settings, the streams it
// checked. Each call first looks at the context it runs in
// (observe_device_context); a context EGEMM has not seen on that device
// starts a new generation, and the per-device caches (PerDevice, ThreadHandles)
// build afresh whatever they hold from an older one. What an older generation
// held died with its context: it is dropped, not destroyed. (EGEMM's memory
// pool survives a reset, so it is kept for the process: per_device.hpp.)
#pragma once

namespace egemm::cuda {

// The current device's generation after looking at the context current on this
// thread (binding the device's primary context first if none is: a thread's
// first runtime call may be this one). Called once at the start of a call.
unsigned observe_device_context();

// The generation of `device` (the current device) as last observed: a load,
// cheap enough for every cache lookup. A device no call has observed yet is
// looked at here, without creating a context. Per device, EGEMM expects one
// context at a time (the primary one, as the runtime API uses): threads that
// run it in different driver-API contexts of one device would start a new
// generation at every switch.
unsigned context_generation(int device);

// The generation of `device` (the current device) after looking at the context
// current on this thread, without binding one: for a check that runs before
// the call's observe_device_context (the stream check's cache).
unsigned current_context_generation(int device);

}  // namespace egemm::cuda
