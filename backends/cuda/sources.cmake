# The CUDA backend's sources, compiled into EGEMM::egemm (included from src/CMakeLists.txt).
set(_cuda_dir ${PROJECT_SOURCE_DIR}/backends/cuda)
target_sources(egemm PRIVATE
  ${_cuda_dir}/runtime/context_generation.cu
  ${_cuda_dir}/runtime/memory_kind.cu
  ${_cuda_dir}/runtime/workspace.cu
  ${_cuda_dir}/runtime/tuning.cu
  ${_cuda_dir}/runtime/dependent_launch.cu
  ${_cuda_dir}/runtime/kernel_images.cu
  ${_cuda_dir}/runtime/device_facts.cu
  ${_cuda_dir}/special_entries/scale_c.cu
  ${_cuda_dir}/special_entries/special_entries.cu
  ${_cuda_dir}/split/split_kernels.cu
  ${_cuda_dir}/split/int8_split.cu
  ${_cuda_dir}/route/int8_route.cu
  ${_cuda_dir}/route/crossover_rates.cu
  ${_cuda_dir}/common/fused_gemm_params.cu
  ${_cuda_dir}/sm80/fused_gemm_sm80.cu
  ${_cuda_dir}/kernel_dispatch.cu
  ${_cuda_dir}/sm90/fused_gemm_tma.cu
  ${_cuda_dir}/sm90/tiles_128x128.cu
  ${_cuda_dir}/sm90/tiles_128x64.cu
  ${_cuda_dir}/sm90/tiles_64x128.cu
  ${_cuda_dir}/sm90/tensor_maps.cu
  ${_cuda_dir}/sm90/hopper_resources.cu
  ${_cuda_dir}/cublas/cublas_native.cu
  ${_cuda_dir}/cublas/sgemm_plans.cu
  ${_cuda_dir}/fp64/emulated_fp64_gemm.cu
  ${_cuda_dir}/fp64/handoff_graph.cu
  ${_cuda_dir}/fp64/handoff_sample.cu
  ${_cuda_dir}/cuda_gemm.cu)
target_link_libraries(egemm PRIVATE CUDA::cudart CUDA::cublas CUDA::cublasLt)
# -Xptxas=-v: the build log records every kernel's registers and spills (the
# fused gemm must not spill); -warn-spills makes a spill stand out.
target_compile_options(egemm PRIVATE
  $<$<COMPILE_LANGUAGE:CUDA>:--expt-relaxed-constexpr -Xptxas=-warn-spills -lineinfo>)
set_source_files_properties(${_cuda_dir}/sm80/fused_gemm_sm80.cu ${_cuda_dir}/split/split_kernels.cu
  ${_cuda_dir}/split/int8_split.cu ${_cuda_dir}/sm90/fused_gemm_tma.cu
  ${_cuda_dir}/sm90/tiles_128x128.cu ${_cuda_dir}/sm90/tiles_128x64.cu ${_cuda_dir}/sm90/tiles_64x128.cu
  ${_cuda_dir}/fp64/emulated_fp64_gemm.cu
  PROPERTIES COMPILE_OPTIONS "-Xptxas=-v")
# The architectures built, for the error a GPU without loadable code gets (runtime/kernel_images.cu).
string(REPLACE ";" " " _egemm_archs_built "${CMAKE_CUDA_ARCHITECTURES}")
set_property(SOURCE ${_cuda_dir}/runtime/kernel_images.cu APPEND PROPERTY
             COMPILE_DEFINITIONS "EGEMM_CUDA_ARCHITECTURES_BUILT=\"${_egemm_archs_built}\"")
