# The DRAM table packer, the payload decoder and the messages, over the
# table image, hash, rules and CRC-32 of common/ (sn_common) (included by
# host/lib/CMakeLists.txt).
target_sources(sn_host PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/pack.c
  ${CMAKE_CURRENT_LIST_DIR}/pack_inputs.c
  ${CMAKE_CURRENT_LIST_DIR}/manifest_mesh.c
  ${CMAKE_CURRENT_LIST_DIR}/disasm.c
  ${CMAKE_CURRENT_LIST_DIR}/messages.c
  ${CMAKE_CURRENT_LIST_DIR}/settle.c
)
