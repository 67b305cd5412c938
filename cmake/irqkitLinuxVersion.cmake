# irqkit_linux_version(<target> <a.b.c>): build <target>'s kernel-style code
# for Linux a.b.c (the forms of <linux/timer.h>, <linux/workqueue.h>, ... of
# that version; see <linux/version.h> in the Linux-name layer).
function(irqkit_linux_version target version)
  if(NOT version MATCHES "^([0-9]+)\\.([0-9]+)\\.([0-9]+)$")
    message(FATAL_ERROR "irqkit_linux_version: '${version}' is not a version a.b.c")
  endif()
  math(EXPR code "(${CMAKE_MATCH_1} << 16) + (${CMAKE_MATCH_2} << 8) + ${CMAKE_MATCH_3}")
  target_compile_definitions(${target} PRIVATE IRQKIT_LINUX_VERSION_CODE=${code})
endfunction()
