# The card transport: the XDMA bus against regular files, and the card
# protocol over a recording bus and the simulated card.
sn_unit_test(test_card_bus_xdma SOURCES ${CMAKE_CURRENT_LIST_DIR}/test_card_bus_xdma.c LIBS sn_session)
sn_unit_test(test_transport_card SOURCES ${CMAKE_CURRENT_LIST_DIR}/test_transport_card.c LIBS sn_session)
sn_unit_test(test_card_window SOURCES ${CMAKE_CURRENT_LIST_DIR}/test_card_window.c LIBS sn_sim)
target_compile_definitions(test_card_window PRIVATE SN_HART_PROGS="${sn_hart_prog_dir}")
add_dependencies(test_card_window hart_progs)
