/* SPDX-License-Identifier: MIT */
/* 2.6's <asm/hardirq.h>: in_interrupt() and friends, as <linux/hardirq.h>. */
#include <linux/hardirq.h>
