/* SPDX-License-Identifier: MIT */
/*
 * Linux's <linux/irq_sim.h> over irqkit: the interrupt simulator's domain.
 * A line fires with irq_set_irqchip_state(virq, IRQCHIP_STATE_PENDING, true).
 */
#ifndef IRQKIT_COMPAT_LINUX_IRQ_SIM_H
#define IRQKIT_COMPAT_LINUX_IRQ_SIM_H

#include <irqkit/irqsim.h>
#include <linux/err.h>
#include <linux/errno.h>
#include <linux/interrupt.h>
#include <linux/irqdomain.h>

/* Return: the domain, or an ERR_PTR (-ENOMEM), as Linux's. */
static inline struct irqkit_irq_domain *irq_domain_create_sim(struct irqkit_fwnode *fwnode,
							      unsigned int num_irqs)
{
	struct irqkit_irq_domain *d = irqkit_irq_domain_create_sim(fwnode, num_irqs);

	return d ? d : (struct irqkit_irq_domain *)ERR_PTR(-ENOMEM);
}
#define irq_domain_remove_sim(d)	irqkit_irq_domain_remove_sim(d)

#endif
