# The RISC-V bare-metal build (IRQKIT_ARCH=riscv, cmake/riscv64-virt.cmake):
# the core and the software chips as on the host, this port under them, one
# static library, and the test images of tests/riscv/ that QEMU runs
# (tools/run-riscv.sh).
enable_language(ASM)
set(IRQKIT_PLATFORM_RISCV_SOURCES
  src/platform/riscv/start.S
  src/platform/riscv/libc.c
  src/platform/riscv/platform.c
  src/platform/riscv/runtime.c
  src/platform/riscv/sched.c
  src/platform/riscv/string.c
  src/platform/riscv/trap.c)
set(IRQKIT_RV_CHIPS_SOURCES
  src/chips/swchip.c
  src/chips/swpercpu.c
  src/chips/irqsim.c
  src/chips/plic.c)
set(IRQKIT_LAYERS irqkit_core irqkit_chips irqkit_platform_riscv)
add_library(irqkit_core OBJECT ${IRQKIT_CORE_SOURCES})
add_library(irqkit_chips OBJECT ${IRQKIT_RV_CHIPS_SOURCES})
add_library(irqkit_platform_riscv OBJECT ${IRQKIT_PLATFORM_RISCV_SOURCES})
foreach(t ${IRQKIT_LAYERS})
  target_compile_definitions(${t} PRIVATE IRQKIT_BUILD $<$<BOOL:${IRQKIT_DEBUG}>:IRQKIT_DEBUG>)
  target_include_directories(${t} PUBLIC
    ${CMAKE_CURRENT_SOURCE_DIR}/include
    ${IRQKIT_ARCH_INCLUDE}
    ${CMAKE_CURRENT_BINARY_DIR}/include)
  target_include_directories(${t} PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/src/core/include)
endforeach()
target_include_directories(irqkit_core PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/src/core)
# The port's few C library headers: for its own files and for programs, never the core.
target_include_directories(irqkit_platform_riscv SYSTEM PRIVATE
  ${CMAKE_CURRENT_SOURCE_DIR}/src/platform/riscv/libc/include)
set_source_files_properties(src/platform/riscv/string.c PROPERTIES
  COMPILE_OPTIONS "-fno-builtin;-fno-tree-loop-distribute-patterns")
add_library(irqkit_static STATIC $<TARGET_OBJECTS:irqkit_core> $<TARGET_OBJECTS:irqkit_chips>
  $<TARGET_OBJECTS:irqkit_platform_riscv>)
set_target_properties(irqkit_static PROPERTIES OUTPUT_NAME irqkit)
target_include_directories(irqkit_static PUBLIC
  ${CMAKE_CURRENT_SOURCE_DIR}/include ${IRQKIT_ARCH_INCLUDE} ${CMAKE_CURRENT_BINARY_DIR}/include)
set(IRQKIT_RV_LINK_SCRIPT ${CMAKE_CURRENT_SOURCE_DIR}/src/platform/riscv/link.ld)

# irqkit_rv_image(NAME SOURCES...): a test image, linked whole (the start
# code and the trap entry come from the library).
function(irqkit_rv_image name)
  add_executable(${name} ${ARGN})
  target_link_libraries(${name} PRIVATE -Wl,--whole-archive irqkit_static -Wl,--no-whole-archive
    gcc)
  target_include_directories(${name} PRIVATE ${PROJECT_SOURCE_DIR}/tests/riscv
    ${PROJECT_SOURCE_DIR}/include/irqkit/compat)
  target_include_directories(${name} SYSTEM PRIVATE
    ${PROJECT_SOURCE_DIR}/src/platform/riscv/libc/include)
  target_link_options(${name} PRIVATE -T ${IRQKIT_RV_LINK_SCRIPT})
  set_target_properties(${name} PROPERTIES SUFFIX .elf LINK_DEPENDS ${IRQKIT_RV_LINK_SCRIPT})
  # the function names, into the room the link left for them
  add_custom_command(TARGET ${name} POST_BUILD
    COMMAND sh ${PROJECT_SOURCE_DIR}/src/platform/riscv/syms.sh $<TARGET_FILE:${name}>
    VERBATIM)
endfunction()
add_subdirectory(tests/riscv)
add_subdirectory(bench/riscv)
