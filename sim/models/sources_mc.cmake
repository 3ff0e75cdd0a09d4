# Matmul cluster datapath model (included by sim/models/CMakeLists.txt).
target_sources(sn_models PRIVATE ${CMAKE_CURRENT_LIST_DIR}/matmul_cluster.c ${CMAKE_CURRENT_LIST_DIR}/mg_timing.c)
# -O3: the entry decoder's and the GEMM's loops unrolled. 1024 FILL, GEMM and
# DRAIN payloads of matmul_512x256x512's shape: 6.3-6.7 ms, against 7.8 ms at
# -O2 with the decoder before (which took 27 ms at -O3).
set_source_files_properties(${CMAKE_CURRENT_LIST_DIR}/matmul_cluster.c PROPERTIES COMPILE_OPTIONS -O3)
