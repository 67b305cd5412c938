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

static inline void chained_irq_enter(struct irq_chip *chip, struct irq_desc *desc)
{
	struct irq_data *d = &desc->irq_data;

	if (chip->irq_eoi)
		return;
	if (chip->irq_mask_ack) {
		chip->irq_mask_ack(d);
	} else {
		if (chip->irq_mask)
			chip->irq_mask(d);
		if (chip->irq_ack)
			chip->irq_ack(d);
	}
}

static inline void chained_irq_exit(struct irq_chip *chip, struct irq_desc *desc)
{
	struct irq_data *d = &desc->irq_data;

	if (chip->irq_eoi)
		chip->irq_eoi(d);
	else if (chip->irq_unmask)
		chip->irq_unmask(d);
}

#endif
