# Toolchain for the SysNode CPU: RV64IMA + Zicsr + Zifencei, no C, no F/D
# (sysnode-facts §1.1; GCC 12 needs Zicsr/Zifencei spelled out, tool-pitfalls 12).
set(CMAKE_SYSTEM_NAME Generic)
set(CMAKE_SYSTEM_PROCESSOR riscv64)
set(CMAKE_C_COMPILER riscv64-unknown-elf-gcc)
set(CMAKE_ASM_COMPILER riscv64-unknown-elf-gcc)
set(CMAKE_OBJCOPY riscv64-unknown-elf-objcopy)
set(CMAKE_TRY_COMPILE_TARGET_TYPE STATIC_LIBRARY)
set(SN_RV_ARCH_FLAGS "-march=rv64ima_zicsr_zifencei -mabi=lp64 -mcmodel=medany")
set(CMAKE_C_FLAGS_INIT "${SN_RV_ARCH_FLAGS} -ffreestanding -fno-builtin -fno-common -ffunction-sections -fdata-sections")
set(CMAKE_ASM_FLAGS_INIT "${SN_RV_ARCH_FLAGS}")
set(CMAKE_EXE_LINKER_FLAGS_INIT "${SN_RV_ARCH_FLAGS} -nostdlib -nostartfiles -Wl,--gc-sections")
