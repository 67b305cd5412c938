/* SPDX-License-Identifier: MIT */
/* Before 2.6.26, semaphores were declared in <asm/semaphore.h>. */
#include <linux/semaphore.h>
