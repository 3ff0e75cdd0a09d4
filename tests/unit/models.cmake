# Unit tests of the C datapath models (sim/models).
sn_unit_test(test_fp_formats SOURCES ${CMAKE_CURRENT_LIST_DIR}/test_fp_formats.c LIBS sn_models)
sn_unit_test(test_vector_core SOURCES ${CMAKE_CURRENT_LIST_DIR}/test_vector_core.c LIBS sn_models)
sn_unit_test(test_unit_timing SOURCES ${CMAKE_CURRENT_LIST_DIR}/test_unit_timing.c LIBS sn_models sn_inputs)
