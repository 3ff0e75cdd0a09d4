# The DRAM table packer, the payload decoder and the messages, with the
# freestanding table-image, hash and table-rule code they share with the
# firmware, and the CRC-32 from zlib (crc32_zlib.c) (included by
# host/lib/CMakeLists.txt).
find_package(ZLIB REQUIRED)
target_link_libraries(sn_host PUBLIC ZLIB::ZLIB)
target_sources(sn_host PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/pack.c
  ${CMAKE_CURRENT_LIST_DIR}/disasm.c
  ${CMAKE_CURRENT_LIST_DIR}/messages.c
  ${CMAKE_CURRENT_LIST_DIR}/settle.c
  ${CMAKE_SOURCE_DIR}/firmware/table/table_image.c
  ${CMAKE_CURRENT_LIST_DIR}/crc32_zlib.c
  ${CMAKE_SOURCE_DIR}/firmware/table/word_hash.c
  ${CMAKE_SOURCE_DIR}/firmware/runner/table_check.c
)
target_include_directories(sn_host PUBLIC
  ${CMAKE_SOURCE_DIR}/firmware/table
  ${CMAKE_SOURCE_DIR}/firmware/runner
)
