# Matmul cluster datapath model (included by sim/models/CMakeLists.txt).
target_sources(sn_models PRIVATE ${CMAKE_CURRENT_LIST_DIR}/matmul_cluster.c)
