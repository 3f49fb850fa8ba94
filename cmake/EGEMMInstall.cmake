# Installs the libraries, headers and the CMake package (find_package(EGEMM)).
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(_egemm_targets egemm)
if(EGEMM_ENABLE_KOKKOS)
  list(APPEND _egemm_targets egemm_kokkos)
endif()
install(TARGETS ${_egemm_targets} EXPORT EGEMMTargets
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
# The headers a user includes, and those they include. The cost models (model/), the debug log
# and the epilogue's arithmetic are the backends' own: no installed header includes them.
install(DIRECTORY ${PROJECT_SOURCE_DIR}/src/egemm DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} FILES_MATCHING PATTERN "*.hpp"
        PATTERN "model" EXCLUDE PATTERN "log.hpp" EXCLUDE PATTERN "epilogue.hpp" EXCLUDE)

# The cuBLAS interposer: preloaded by path, not linked, so outside the CMake package's targets.
if(TARGET egemm_cublas)
  install(TARGETS egemm_cublas egemm_cublas_engine LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
endif()

set(_egemm_cmake_dir ${CMAKE_INSTALL_LIBDIR}/cmake/EGEMM)
install(EXPORT EGEMMTargets NAMESPACE EGEMM:: DESTINATION ${_egemm_cmake_dir})
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/EGEMMConfig.cmake.in
                              ${PROJECT_BINARY_DIR}/EGEMMConfig.cmake INSTALL_DESTINATION ${_egemm_cmake_dir})
# Before 1.0 a minor release may break the API (as semantic versioning allows):
# find_package(EGEMM 0.1) must not accept a 0.2.
if(PROJECT_VERSION_MAJOR EQUAL 0)
  set(_egemm_compatibility SameMinorVersion)
else()
  set(_egemm_compatibility SameMajorVersion)
endif()
write_basic_package_version_file(${PROJECT_BINARY_DIR}/EGEMMConfigVersion.cmake
                                 COMPATIBILITY ${_egemm_compatibility})
install(FILES ${PROJECT_BINARY_DIR}/EGEMMConfig.cmake ${PROJECT_BINARY_DIR}/EGEMMConfigVersion.cmake
              ${PROJECT_SOURCE_DIR}/cmake/EGEMMKokkos.cmake
        DESTINATION ${_egemm_cmake_dir})

# The build tree is a package too: find_package(EGEMM) with EGEMM_DIR=<this build> takes this
# build's libraries and the source tree's headers without an install. EGEMMConfig.cmake above
# includes its two siblings, so both are written beside it.
export(EXPORT EGEMMTargets NAMESPACE EGEMM:: FILE ${PROJECT_BINARY_DIR}/EGEMMTargets.cmake)
configure_file(${PROJECT_SOURCE_DIR}/cmake/EGEMMKokkos.cmake ${PROJECT_BINARY_DIR}/EGEMMKokkos.cmake COPYONLY)
