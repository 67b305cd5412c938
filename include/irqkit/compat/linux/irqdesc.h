/* SPDX-License-Identifier: MIT */
/*
 * Linux's <linux/irqdesc.h> over irqkit: struct irq_desc (its lock, its
 * irq_data and its disable depth readable as in Linux) and its accessors.
 */
#ifndef IRQKIT_COMPAT_LINUX_IRQDESC_H
#define IRQKIT_COMPAT_LINUX_IRQDESC_H

#include <irqkit/irqdesc.h>
#include <linux/version.h>

#define irq_desc			irqkit_desc
#define irq_to_desc(irq)		irqkit_irq_to_desc(irq)

static inline struct irqkit_irq_data *irq_desc_get_irq_data(struct irqkit_desc *desc)
{
	return &desc->irq_data;
}
static inline unsigned int irq_desc_get_irq(struct irqkit_desc *desc)
{
	return desc->irq_data.irq;
}
static inline struct irqkit_chip *irq_desc_get_chip(struct irqkit_desc *desc)
{
	return desc->irq_data.chip;
}
static inline void *irq_desc_get_chip_data(struct irqkit_desc *desc)
{
	return desc->irq_data.chip_data;
}
/* Linux's irq_desc_has_action and irq_has_action */
static inline bool irq_desc_has_action(struct irqkit_desc *desc)
{
	return __atomic_load_n(&desc->action, __ATOMIC_ACQUIRE) != NULL;
}
#define irq_has_action(irq)		irqkit_irq_has_action(irq)
#if IRQKIT_LINUX_AT_LEAST(4, 17, 0)
/* Linux's irq_is_percpu_devid (4.17, for the Arm PMU's per-CPU lines) */
#define irq_is_percpu_devid(irq)	irqkit_irq_is_percpu_devid(irq)
#endif

#endif
