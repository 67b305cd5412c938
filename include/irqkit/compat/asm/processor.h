/* SPDX-License-Identifier: MIT */
/* <asm/processor.h> as drivers use it: cpu_relax(). */
#include <linux/barrier.h>
