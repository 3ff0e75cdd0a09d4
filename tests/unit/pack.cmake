# DRAM-resident table tests: CRC-32, the table image and its checks, the
# payload decoder and the packer (host/inputs/pack.c, disasm.c,
# common/). zlib is the independent CRC-32 for the cross-check
# (zlib1g-dev, pulled in by libelf-dev).
find_package(ZLIB REQUIRED)
sn_unit_test(test_crc32 SOURCES ${CMAKE_CURRENT_LIST_DIR}/test_crc32.c ${CMAKE_SOURCE_DIR}/common/crc32.c
             LIBS ZLIB::ZLIB)
target_include_directories(test_crc32 PRIVATE ${CMAKE_SOURCE_DIR}/common)
sn_unit_test(test_table_image SOURCES ${CMAKE_CURRENT_LIST_DIR}/test_table_image.c LIBS sn_inputs)
sn_unit_test(test_disasm SOURCES ${CMAKE_CURRENT_LIST_DIR}/test_disasm.c LIBS sn_inputs)
sn_unit_test(test_pack SOURCES ${CMAKE_CURRENT_LIST_DIR}/test_pack.c LIBS sn_inputs)
# The host's words for every runner error code (common/messages.c).
sn_unit_test(test_messages SOURCES ${CMAKE_CURRENT_LIST_DIR}/test_messages.c LIBS sn_inputs)
# The settle proof: which round ends skip the version-4 settle (host/inputs/settle.c).
sn_unit_test(test_settle SOURCES ${CMAKE_CURRENT_LIST_DIR}/test_settle.c LIBS sn_inputs)
# The option parser on argv shapes the tools' tests do not reach (common/options.c);
# sn_session for mismatch.h's bound, which --diff's range must equal.
sn_unit_test(test_options SOURCES ${CMAKE_CURRENT_LIST_DIR}/test_options.c LIBS sn_common sn_session)
# Every formatter into a fixed buffer cuts with a mark, a usage error not at all (common/err_text.h).
sn_unit_test(test_text_fit SOURCES ${CMAKE_CURRENT_LIST_DIR}/test_text_fit.c LIBS sn_inputs)
