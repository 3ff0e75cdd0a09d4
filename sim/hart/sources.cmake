# The SysNode's RV64 hart (Unicorn) and its CPU L1 model; the runner-ELF
# checks come from common/ (sn_common).
add_library(sn_hart STATIC ${CMAKE_CURRENT_LIST_DIR}/hart.c
                           ${CMAKE_CURRENT_LIST_DIR}/card_isa.c ${CMAKE_CURRENT_LIST_DIR}/card_csr.c
                           ${CMAKE_CURRENT_LIST_DIR}/uc_cpu_state.c
                           ${CMAKE_CURRENT_LIST_DIR}/l1_cache.c)
target_include_directories(sn_hart PUBLIC ${CMAKE_CURRENT_LIST_DIR})
target_link_libraries(sn_hart PUBLIC sn_unicorn sn_include sn_common)
