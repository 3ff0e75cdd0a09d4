# The DRAM table packer, the payload decoder and the messages, with the
# freestanding table-image, hash, CRC-32 and table-rule code they share with
# the firmware (included by host/lib/CMakeLists.txt).
target_sources(sn_host PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/pack.c
  ${CMAKE_CURRENT_LIST_DIR}/disasm.c
  ${CMAKE_CURRENT_LIST_DIR}/messages.c
  ${CMAKE_CURRENT_LIST_DIR}/settle.c
  ${CMAKE_SOURCE_DIR}/firmware/table/table_image.c
  ${CMAKE_SOURCE_DIR}/firmware/table/crc32.c
  ${CMAKE_SOURCE_DIR}/firmware/table/word_hash.c
  ${CMAKE_SOURCE_DIR}/firmware/runner/table_check.c
)
target_include_directories(sn_host PUBLIC
  ${CMAKE_SOURCE_DIR}/firmware/table
  ${CMAKE_SOURCE_DIR}/firmware/runner
)
