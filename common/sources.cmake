# The freestanding sources of common/ that the firmware and the host both
# compile: the table image, its body hash and the table rules. CRC-32 has one
# contract (crc32.h) and two implementations: crc32.c (freestanding, the
# firmware's) and crc32_zlib.c (zlib, the host's; test_crc32 checks they agree).
set(SN_COMMON_DIR ${CMAKE_CURRENT_LIST_DIR})
set(SN_COMMON_PORTABLE_SOURCES
  ${SN_COMMON_DIR}/table_image.c
  ${SN_COMMON_DIR}/word_hash.c
  ${SN_COMMON_DIR}/table_check.c
)
