# Unit tests of the matmul cluster model (sim/models/matmul_cluster.c) and the
# MXFP7 operand formats (host/inputs/mxfp7.c). SHA-256 witnesses use Debian's
# nettle (found by the top-level CMakeLists).
sn_unit_test(test_mxfp7 SOURCES ${CMAKE_CURRENT_LIST_DIR}/test_mxfp7.c LIBS sn_inputs PkgConfig::NETTLE)
sn_unit_test(test_matmul_cluster SOURCES ${CMAKE_CURRENT_LIST_DIR}/test_matmul_cluster.c LIBS sn_models sn_inputs)
