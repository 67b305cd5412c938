/* SPDX-License-Identifier: MIT */
/* 2.6's <asm/system.h>: the barriers (and local_irq_* through <linux/irqflags.h>). */
#include <linux/barrier.h>
#include <linux/irqflags.h>
