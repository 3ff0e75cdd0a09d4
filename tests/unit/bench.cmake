# sysnode-bench's figures from a GO log (host/bench/measure.h).
sn_unit_test(test_bench_figures SOURCES ${CMAKE_CURRENT_LIST_DIR}/test_bench_figures.c LIBS sn_bench)
