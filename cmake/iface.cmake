# The interface schema (firmware/include/sysnode/words.h, regs.h, mesh.h and
# the scratchpad blocks) expanded by sim/tools/gen_iface at configure time
# into ${SN_IFACE_DIR}: the RTL's package and conformance module, the test
# scripts' Python module, the linker script's addresses and the field
# positions for assembly sources. Configure time,
# because verilate() reads its sources while configuring; a schema change
# reconfigures.
set(SN_IFACE_DIR ${CMAKE_BINARY_DIR}/iface)
set(sn_iface_new ${CMAKE_BINARY_DIR}/iface.new)
file(MAKE_DIRECTORY ${sn_iface_new} ${SN_IFACE_DIR})
try_run(sn_gen_rc sn_gen_built ${CMAKE_BINARY_DIR}/gen_iface
  ${CMAKE_SOURCE_DIR}/sim/tools/gen_iface.c
  CMAKE_FLAGS "-DINCLUDE_DIRECTORIES=${CMAKE_SOURCE_DIR}/firmware/include"
  COMPILE_OUTPUT_VARIABLE sn_gen_log
  RUN_OUTPUT_VARIABLE sn_gen_out
  ARGS ${sn_iface_new})
if(NOT sn_gen_built OR NOT sn_gen_rc EQUAL 0)
  message(FATAL_ERROR "gen_iface failed (built=${sn_gen_built} rc=${sn_gen_rc}): ${sn_gen_log}${sn_gen_out}")
endif()
# Keep each file's timestamp when nothing changed, so a reconfigure does not
# re-verilate the mesh.
foreach(f sn_regs_pkg.sv sn_iface_conform.sv sysnode_iface.py sn_addrs.ld sn_fields.h)
  file(COPY_FILE ${sn_iface_new}/${f} ${SN_IFACE_DIR}/${f} ONLY_IF_DIFFERENT)
endforeach()
file(GLOB sn_iface_headers ${CMAKE_SOURCE_DIR}/firmware/include/sysnode/*.h)
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS
  ${sn_iface_headers} ${CMAKE_SOURCE_DIR}/sim/tools/gen_iface.c)
set(SN_REGS_PKG ${SN_IFACE_DIR}/sn_regs_pkg.sv)
