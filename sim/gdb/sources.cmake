# The GDB remote-serial-protocol stub and the simulator behind it
# (sysnode-sim --gdb, sysnode run --gdb).
add_library(sn_gdb STATIC ${CMAKE_CURRENT_LIST_DIR}/gdb_stub.c ${CMAKE_CURRENT_LIST_DIR}/gdb_sim.c)
target_include_directories(sn_gdb PUBLIC ${CMAKE_CURRENT_LIST_DIR})
target_link_libraries(sn_gdb PUBLIC sn_sim)
