# Sources of sn_host (included by host/lib/CMakeLists.txt).
target_sources(sn_host PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/error.c
  ${CMAKE_CURRENT_LIST_DIR}/u256.c
  ${CMAKE_CURRENT_LIST_DIR}/json.c
  ${CMAKE_CURRENT_LIST_DIR}/manifest.c
  ${CMAKE_CURRENT_LIST_DIR}/artifact.c
  ${CMAKE_CURRENT_LIST_DIR}/ctable.c
  ${CMAKE_CURRENT_LIST_DIR}/file_out.c
  ${CMAKE_CURRENT_LIST_DIR}/output_paths.c
  ${CMAKE_CURRENT_LIST_DIR}/json_out.c
)
