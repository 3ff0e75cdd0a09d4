target_sources(sn_models PRIVATE ${CMAKE_CURRENT_LIST_DIR}/fp_formats.c ${CMAKE_CURRENT_LIST_DIR}/dram.c ${CMAKE_CURRENT_LIST_DIR}/cu_data.c ${CMAKE_CURRENT_LIST_DIR}/vector_core.c)
