# ctest driver: configure, build and run the downstream project with find_package(EGEMM) against
# this build, installed into a scratch prefix (FROM=install, the default) or as it lies in its
# build tree (FROM=build_tree: EGEMM_DIR=BUILD_DIR, nothing installed).
# Inputs: BUILD_DIR, CONFIG (the configuration ctest runs), SOURCE_DIR, WORK_DIR,
# PREFIX_PATH (extra prefixes, e.g. Kokkos), FROM. Single- and multi-config generators alike.
file(REMOVE_RECURSE ${WORK_DIR})
if(NOT DEFINED FROM)
  set(FROM install)
endif()
function(step)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "step failed (${rc}): ${ARGN}\n${out}\n${err}")
  endif()
  message("${out}")
endfunction()
if(FROM STREQUAL "install")
  step(${CMAKE_COMMAND} --install ${BUILD_DIR} --config ${CONFIG} --prefix ${WORK_DIR}/prefix)
  set(where "-DCMAKE_PREFIX_PATH=${WORK_DIR}/prefix;${PREFIX_PATH}")
elseif(FROM STREQUAL "build_tree")
  set(where "-DEGEMM_DIR=${BUILD_DIR}" "-DCMAKE_PREFIX_PATH=${PREFIX_PATH}")
else()
  message(FATAL_ERROR "FROM=${FROM}: expected install or build_tree")
endif()
# Not through step(): its ${ARGN} would split the prefix list at its ';'.
execute_process(COMMAND ${CMAKE_COMMAND} -S ${SOURCE_DIR} -B ${WORK_DIR}/build ${where} -DCMAKE_BUILD_TYPE=${CONFIG}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "configuring the downstream project failed (${rc})\n${out}\n${err}")
endif()
message("${out}")
step(${CMAKE_COMMAND} --build ${WORK_DIR}/build --config ${CONFIG})
# A multi-config generator puts the programs in a folder named after the configuration.
set(bin ${WORK_DIR}/build)
if(EXISTS ${bin}/${CONFIG}/raw_api OR EXISTS ${bin}/${CONFIG}/raw_api.exe)
  set(bin ${bin}/${CONFIG})
endif()
step(${bin}/raw_api)
if(EXISTS ${bin}/kokkos_api OR EXISTS ${bin}/kokkos_api.exe)
  step(${bin}/kokkos_api)
endif()
