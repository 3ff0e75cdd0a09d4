# The SysNode's RV64 hart: the project's model of the card's core (decode,
# arithmetic, CSRs and traps, Sv39, memory map, L1, I-cache, predictor, node
# port, pipeline) behind hart.h; the runner-ELF checks come from common/.
add_library(sn_hart STATIC ${CMAKE_CURRENT_LIST_DIR}/hart.c ${CMAKE_CURRENT_LIST_DIR}/pipeline.c
                           ${CMAKE_CURRENT_LIST_DIR}/decode.c ${CMAKE_CURRENT_LIST_DIR}/exec.c
                           ${CMAKE_CURRENT_LIST_DIR}/csr.c ${CMAKE_CURRENT_LIST_DIR}/mmu.c
                           ${CMAKE_CURRENT_LIST_DIR}/memmap.c ${CMAKE_CURRENT_LIST_DIR}/icache.c
                           ${CMAKE_CURRENT_LIST_DIR}/bpred.c
                           ${CMAKE_CURRENT_LIST_DIR}/card_isa.c ${CMAKE_CURRENT_LIST_DIR}/card_csr.c
                           ${CMAKE_CURRENT_LIST_DIR}/l1_cache.c)
target_include_directories(sn_hart PUBLIC ${CMAKE_CURRENT_LIST_DIR})
target_link_libraries(sn_hart PUBLIC sn_include sn_common)
