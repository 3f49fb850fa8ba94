# The CUDA backend's sources, compiled into EGEMM::egemm (included from src/CMakeLists.txt).
set(_cuda_dir ${PROJECT_SOURCE_DIR}/backends/cuda)
target_sources(egemm PRIVATE
  ${_cuda_dir}/memory_kind.cu
  ${_cuda_dir}/scale_c.cu
  ${_cuda_dir}/cuda_gemm.cu)
target_link_libraries(egemm PRIVATE CUDA::cudart CUDA::cublas)
target_compile_options(egemm PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:--expt-relaxed-constexpr -Xptxas=-warn-spills -lineinfo>)
