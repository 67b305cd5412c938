// SPDX-License-Identifier: MIT
/*
 * Interrupt domains (Linux's kernel/irq/irqdomain.c): how a controller's own
 * numbers (hwirqs) become lines of the runtime (virqs).
 */
#include "internals.h"

#include <irqkit/irqdomain.h>

/*
 * irq_domain_alloc_descs(): @cnt lines for a domain.  With @virq -1 the
 * search starts at @hwirq (modulo the lines), never at line 0, and once
 * more at line 1 when nothing is free above the hint.
 */
int irqkit_irq_domain_alloc_descs(int virq, unsigned int cnt, irqkit_hwirq_t hwirq,
				  const struct irqkit_irq_affinity_desc *affd)
{
	unsigned int nr = irqkit_nr_irqs(), hint;

	if (virq >= 0)
		return irqkit_irq_alloc_descs(virq, (unsigned int)virq, cnt, affd);
	if (!nr)
		return -IRQKIT_EINVAL;
	hint = (unsigned int)(hwirq % nr);
	if (!hint)
		hint = 1;
	virq = irqkit_irq_alloc_descs(-1, hint, cnt, affd);
	if (virq <= 0 && hint > 1)
		virq = irqkit_irq_alloc_descs(-1, 1, cnt, affd);
	return virq;
}
