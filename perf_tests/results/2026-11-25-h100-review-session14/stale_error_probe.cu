// Which runtime calls clear an error left in the runtime's last-error slot?
// Before each call: cudaSetDevice(-1) (cudaErrorInvalidDevice, unread); after
// it, cudaPeekAtLastError. A launch checked by cudaGetLastError after <<<>>>
// reports such an error as its own only if nothing between cleared it.
//   nvcc -O2 -std=c++17 -gencode=arch=compute_90a,code=sm_90a stale_error_probe.cu -o stale_error_probe
#include <cuda_runtime.h>

#include <cstdio>

__global__ void touch(float* p) { p[threadIdx.x] = 1.0f; }

template <class F>
void probe(const char* what, F call) {
  (void)cudaSetDevice(-1);
  const cudaError_t before = cudaPeekAtLastError();
  const cudaError_t returned = call();
  const cudaError_t after = cudaPeekAtLastError();
  std::printf("%-44s returned %-28s slot before %-24s after %s\n", what, cudaGetErrorName(returned),
              cudaGetErrorName(before), cudaGetErrorName(after));
  (void)cudaGetLastError();
}

int main() {
  float* p = nullptr;
  cudaMalloc(&p, 4096);
  cudaStream_t s;
  cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
  int device = 0;
  probe("(nothing)", [] { return cudaSuccess; });
  probe("cudaGetDevice", [&] { return cudaGetDevice(&device); });
  probe("cudaSetDevice(0)", [&] { return cudaSetDevice(0); });
  probe("cudaPointerGetAttributes (device memory)", [&] {
    cudaPointerAttributes a{};
    return cudaPointerGetAttributes(&a, p);
  });
  probe("cudaDeviceGetAttribute", [&] {
    int v = 0;
    return cudaDeviceGetAttribute(&v, cudaDevAttrMultiProcessorCount, 0);
  });
  probe("cudaStreamIsCapturing", [&] {
    cudaStreamCaptureStatus c;
    return cudaStreamIsCapturing(s, &c);
  });
  probe("cudaThreadExchangeStreamCaptureMode", [&] {
    cudaStreamCaptureMode m = cudaStreamCaptureModeRelaxed;
    const cudaError_t e = cudaThreadExchangeStreamCaptureMode(&m);
    cudaThreadExchangeStreamCaptureMode(&m);
    return e;
  });
  probe("cudaMallocAsync + cudaFreeAsync", [&] {
    void* q = nullptr;
    const cudaError_t e = cudaMallocAsync(&q, 1 << 20, s);
    cudaFreeAsync(q, s);
    return e;
  });
  probe("cudaMemsetAsync", [&] { return cudaMemsetAsync(p, 0, 4096, s); });
  probe("kernel<<<>>> (then the slot)", [&] {
    touch<<<1, 32, 0, s>>>(p);
    return cudaSuccess;
  });
  probe("cudaLaunchKernelEx", [&] {
    cudaLaunchConfig_t config{};
    config.gridDim = 1;
    config.blockDim = 32;
    config.stream = s;
    return cudaLaunchKernelEx(&config, touch, p);
  });
  probe("cudaFuncGetAttributes", [&] {
    cudaFuncAttributes a{};
    return cudaFuncGetAttributes(&a, touch);
  });
  probe("cudaStreamSynchronize", [&] { return cudaStreamSynchronize(s); });
  return 0;
}
