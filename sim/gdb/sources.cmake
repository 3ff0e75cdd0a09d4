# The GDB remote-serial-protocol stub (sysnode-sim --gdb).
add_library(sn_gdb STATIC ${CMAKE_CURRENT_LIST_DIR}/gdb_stub.c)
target_include_directories(sn_gdb PUBLIC ${CMAKE_CURRENT_LIST_DIR})
