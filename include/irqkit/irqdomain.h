/* SPDX-License-Identifier: MIT */
/*
 * Interrupt domains (Linux's <linux/irqdomain.h>): a controller numbers its
 * inputs its own way (hwirq); a domain maps them to lines of the runtime
 * (virq).
 */
#ifndef IRQKIT_IRQDOMAIN_H
#define IRQKIT_IRQDOMAIN_H

#include <irqkit/irqdesc.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A controller's own number for one of its inputs (Linux's irq_hw_number_t). */
typedef unsigned long irqkit_hwirq_t;

/**
 * irqkit_irq_domain_alloc_descs - lines for a domain (Linux's
 * irq_domain_alloc_descs): @cnt lines at @virq, or with @virq -1 the first
 * free ones from @hwirq's number on (line 0 never), then from line 1.
 * @affd: NULL or one affinity descriptor per line.
 * Return: the first line, or a negative errno of irqkit_irq_alloc_descs().
 * Context: process context.
 */
IRQKIT_API int irqkit_irq_domain_alloc_descs(int virq, unsigned int cnt, irqkit_hwirq_t hwirq,
					     const struct irqkit_irq_affinity_desc *affd);

#ifdef __cplusplus
}
#endif
#endif /* IRQKIT_IRQDOMAIN_H */
