/* SPDX-License-Identifier: MIT */
/*
 * Linux's <linux/irqchip/chained_irq.h>: what a chained handler does with
 * its parent line around the demultiplexing, by the parent chip's kind:
 * fasteoi chips get their eoi at the end; others are masked and acked
 * first and unmasked at the end.
 */
#ifndef IRQKIT_COMPAT_LINUX_IRQCHIP_CHAINED_IRQ_H
#define IRQKIT_COMPAT_LINUX_IRQCHIP_CHAINED_IRQ_H

#include <linux/irq.h>

#define chained_irq_enter(chip, desc)	irqkit_chained_irq_enter((chip), (desc))
#define chained_irq_exit(chip, desc)	irqkit_chained_irq_exit((chip), (desc))

#endif
