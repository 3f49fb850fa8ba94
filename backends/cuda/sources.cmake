# The CUDA backend's sources, compiled into EGEMM::egemm (included from src/CMakeLists.txt).
set(_cuda_dir ${PROJECT_SOURCE_DIR}/backends/cuda)
target_sources(egemm PRIVATE
  ${_cuda_dir}/device_epoch.cu
  ${_cuda_dir}/memory_kind.cu
  ${_cuda_dir}/workspace.cu
  ${_cuda_dir}/scale_c.cu
  ${_cuda_dir}/switches.cu
  ${_cuda_dir}/dependent_launch.cu
  ${_cuda_dir}/loaded_code.cu
  ${_cuda_dir}/device_facts.cu
  ${_cuda_dir}/split_kernels.cu
  ${_cuda_dir}/int8_split.cu
  ${_cuda_dir}/int8_route.cu
  ${_cuda_dir}/fused_gemm_params.cu
  ${_cuda_dir}/fused_gemm.cu
  ${_cuda_dir}/wgmma/fused_gemm_sm90.cu
  ${_cuda_dir}/sm90/fused_gemm_tma.cu
  ${_cuda_dir}/sm90/tiles_128x128.cu
  ${_cuda_dir}/sm90/tiles_128x64.cu
  ${_cuda_dir}/sm90/tiles_64x128.cu
  ${_cuda_dir}/sm90/tensor_maps.cu
  ${_cuda_dir}/sm90/hopper_resources.cu
  ${_cuda_dir}/entry_fixups.cu
  ${_cuda_dir}/cublas_native.cu
  ${_cuda_dir}/sgemm_plans.cu
  ${_cuda_dir}/crossover_rates.cu
  ${_cuda_dir}/cuda_gemm.cu)
target_link_libraries(egemm PRIVATE CUDA::cudart CUDA::cublas CUDA::cublasLt)
# -Xptxas=-v: the build log records every kernel's registers and spills (the
# fused gemm must not spill); -warn-spills makes a spill stand out.
target_compile_options(egemm PRIVATE
  $<$<COMPILE_LANGUAGE:CUDA>:--expt-relaxed-constexpr -Xptxas=-warn-spills -lineinfo>)
set_source_files_properties(${_cuda_dir}/fused_gemm.cu ${_cuda_dir}/split_kernels.cu ${_cuda_dir}/int8_split.cu
  ${_cuda_dir}/sm90/fused_gemm_tma.cu
  ${_cuda_dir}/sm90/tiles_128x128.cu ${_cuda_dir}/sm90/tiles_128x64.cu ${_cuda_dir}/sm90/tiles_64x128.cu
  PROPERTIES COMPILE_OPTIONS "-Xptxas=-v")
