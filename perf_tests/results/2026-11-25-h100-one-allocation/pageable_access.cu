#include <cuda_runtime.h>
#include <cstdio>
int main() {
  int a = -1, b = -1, c = -1;
  cudaDeviceGetAttribute(&a, cudaDevAttrPageableMemoryAccess, 0);
  cudaDeviceGetAttribute(&b, cudaDevAttrPageableMemoryAccessUsesHostPageTables, 0);
  cudaDeviceGetAttribute(&c, cudaDevAttrConcurrentManagedAccess, 0);
  std::printf("pageableMemoryAccess %d usesHostPageTables %d concurrentManagedAccess %d\n", a, b, c);
}
