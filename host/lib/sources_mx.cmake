# MXFP7 quantiser, packer and FILL-driven conversion (included by host/lib/CMakeLists.txt).
target_sources(sn_host PRIVATE ${CMAKE_CURRENT_LIST_DIR}/mxfp7.c)
