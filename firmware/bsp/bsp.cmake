# sn_picolibc_image(NAME SOURCES...): a C program linked with Debian's
# picolibc (the newlib lineage DESIGN names) for the SysNode: bsp/crt0.S,
# bsp/board.c (console, exit), bsp/picolibc.ld (heap in the scratchpad).
# The libraries are the rv64im/lp64 multilib, picked explicitly: GCC's default
# for our -march is rv64imafdc (tool-pitfalls 22); the image check refuses
# any 16-bit or FP word that is loaded anyway.
set(SN_PICOLIBC_ROOT /usr/lib/picolibc/riscv64-unknown-elf)
set(SN_PICOLIBC_MULTILIB rv64im/lp64)
set(SN_BSP_DIR ${CMAKE_CURRENT_LIST_DIR})
execute_process(COMMAND ${CMAKE_C_COMPILER} -march=rv64im -mabi=lp64 -print-libgcc-file-name
                OUTPUT_VARIABLE SN_PICOLIBC_LIBGCC OUTPUT_STRIP_TRAILING_WHITESPACE COMMAND_ERROR_IS_FATAL ANY)
if(NOT SN_PICOLIBC_LIBGCC MATCHES "/rv64im/lp64/libgcc.a$")
  message(FATAL_ERROR "libgcc for rv64im/lp64 not found (got ${SN_PICOLIBC_LIBGCC})")
endif()
if(NOT EXISTS ${SN_PICOLIBC_ROOT}/lib/${SN_PICOLIBC_MULTILIB}/libc.a)
  message(FATAL_ERROR "picolibc-riscv64-unknown-elf is not installed (${SN_PICOLIBC_ROOT})")
endif()

function(sn_picolibc_image name)
  add_executable(${name} ${SN_BSP_DIR}/crt0.S ${SN_BSP_DIR}/board.c ${ARGN})
  target_include_directories(${name} SYSTEM PRIVATE ${SN_PICOLIBC_ROOT}/include)
  target_include_directories(${name} PRIVATE ${SN_BSP_DIR}/../../iface) # the interface headers, here or installed
  target_compile_options(${name} PRIVATE -ftls-model=local-exec -fbuiltin)
  target_link_options(${name} PRIVATE -T${SN_BSP_DIR}/picolibc.ld)
  target_link_libraries(${name} PRIVATE ${SN_PICOLIBC_ROOT}/lib/${SN_PICOLIBC_MULTILIB}/libc.a
                        ${SN_PICOLIBC_LIBGCC})
  set_target_properties(${name} PROPERTIES LINK_DEPENDS ${SN_BSP_DIR}/picolibc.ld)
endfunction()
