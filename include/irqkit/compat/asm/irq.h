/* SPDX-License-Identifier: MIT */
/* 2.6's <asm/irq.h>: disable_irq/enable_irq and the line calls, as <linux/interrupt.h>. */
#include <linux/interrupt.h>
