# The SysNode's RV64 hart (Unicorn), its CPU L1 model and its runner-ELF
# loader (libelf).
add_library(sn_hart STATIC ${CMAKE_CURRENT_LIST_DIR}/elf_image.c ${CMAKE_CURRENT_LIST_DIR}/hart.c
                           ${CMAKE_CURRENT_LIST_DIR}/card_isa.c ${CMAKE_CURRENT_LIST_DIR}/card_csr.c
                           ${CMAKE_CURRENT_LIST_DIR}/uc_cpu_state.c
                           ${CMAKE_CURRENT_LIST_DIR}/l1_cache.c)
target_include_directories(sn_hart PUBLIC ${CMAKE_CURRENT_LIST_DIR})
target_link_libraries(sn_hart PUBLIC sn_unicorn PkgConfig::LIBELF sn_include)
