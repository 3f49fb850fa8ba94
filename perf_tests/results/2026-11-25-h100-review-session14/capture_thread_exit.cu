// Does destroying a cuBLAS handle on one thread break another thread's stream
// capture in the global mode? cublasDestroy synchronises the device, which the
// global mode forbids every thread while such a capture is under way; the
// relaxed mode on the destroying thread allows it. Each way, then whether the
// capture still ends whole.
//   nvcc -O2 -std=c++17 capture_thread_exit.cu -lcublas -o capture_thread_exit
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <cstdio>
#include <future>
#include <thread>

int main() {
  cudaStream_t stream;
  cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking);
  float* buffer = nullptr;
  cudaMalloc(&buffer, 1 << 20);
  for (const bool relaxed : {false, true}) {
    std::promise<void> ready, go;
    std::thread worker([&] {
      cublasHandle_t handle = nullptr;
      cublasCreate(&handle);
      ready.set_value();
      go.get_future().wait();
      cudaStreamCaptureMode mode = cudaStreamCaptureModeRelaxed;
      if (relaxed) cudaThreadExchangeStreamCaptureMode(&mode);
      const cublasStatus_t destroyed = cublasDestroy(handle);
      const cudaError_t after = cudaGetLastError();
      std::printf("  worker (%s mode): cublasDestroy -> %s, last error %s\n", relaxed ? "relaxed" : "global",
                  cublasGetStatusName(destroyed), cudaGetErrorName(after));
    });
    ready.get_future().wait();
    cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal);
    cudaMemsetAsync(buffer, 0, 1 << 20, stream);
    go.set_value();
    worker.join();
    cudaGraph_t graph = nullptr;
    const cudaError_t ended = cudaStreamEndCapture(stream, &graph);
    std::printf("%s: capture ends with %s\n", relaxed ? "destroyed under the relaxed mode" : "destroyed under the global mode",
                cudaGetErrorName(ended));
    if (graph != nullptr) cudaGraphDestroy(graph);
    (void)cudaGetLastError();
  }
  return 0;
}
