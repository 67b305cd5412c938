# Cross toolchain for the bare-metal RISC-V port (QEMU virt, machine mode).
# Debian: gcc-riscv64-unknown-elf.  Use with -DIRQKIT_ARCH=riscv:
#   cmake -S . -B build/riscv -DCMAKE_TOOLCHAIN_FILE=cmake/riscv64-virt.cmake
set(CMAKE_SYSTEM_NAME Generic)
set(CMAKE_SYSTEM_PROCESSOR riscv64)
set(CMAKE_C_COMPILER riscv64-unknown-elf-gcc)
set(CMAKE_ASM_COMPILER riscv64-unknown-elf-gcc)
set(CMAKE_TRY_COMPILE_TARGET_TYPE STATIC_LIBRARY)
# rv64imac/lp64: no floating point (mstatus.FS is off at reset), and the
# multilib with that ABI; the 2.2 ISA spec keeps the CSR instructions in the
# base ISA, so gcc 12 accepts them without _zicsr (which would pick the wrong
# libgcc).
set(IRQKIT_RV_FLAGS "-misa-spec=2.2 -march=rv64imac -mabi=lp64 -mcmodel=medany")
# frame pointers: the port's call traces walk them, as Linux's do on RISC-V
set(CMAKE_C_FLAGS_INIT "${IRQKIT_RV_FLAGS} -ffreestanding -fno-common -fno-omit-frame-pointer")
set(CMAKE_ASM_FLAGS_INIT "${IRQKIT_RV_FLAGS}")
set(CMAKE_EXE_LINKER_FLAGS_INIT "-nostdlib -nostartfiles -static -Wl,--no-warn-rwx-segments")
set(IRQKIT_ARCH riscv CACHE STRING "" FORCE)
