/* SPDX-License-Identifier: MIT */
/*
 * The interrupt simulator (Linux's <linux/irq_sim.h>, kernel/irq/irq_sim.c):
 * a domain of lines that code fires, as gpio-sim and driver tests use it.
 * Its lines are software lines (<irqkit/swchip.h>) on a linear domain; a
 * line fires with irqkit_irq_set_irqchip_state(virq, PENDING, true), runs
 * handle_simple_irq in hardirq context on its CPU, takes rising or falling
 * edges only, and, as Linux's, drops a fire while it is masked.
 */
#ifndef IRQKIT_IRQSIM_H
#define IRQKIT_IRQSIM_H

#include <irqkit/irqdomain.h>

#ifdef __cplusplus
extern "C" {
#endif

/**
 * irqkit_irq_domain_create_sim - a simulator domain of @num_irqs lines,
 * mapped with irqkit_irq_create_mapping() (Linux's irq_domain_create_sim).
 * Return: the domain, or NULL (@num_irqs 0, no memory).
 * Context: process context, while the runtime runs.
 */
IRQKIT_API struct irqkit_irq_domain *irqkit_irq_domain_create_sim(struct irqkit_fwnode *fwnode,
								  unsigned int num_irqs);
/** irqkit_irq_domain_remove_sim - dispose of its mappings and remove it. */
IRQKIT_API void irqkit_irq_domain_remove_sim(struct irqkit_irq_domain *domain);

#ifdef __cplusplus
}
#endif
#endif /* IRQKIT_IRQSIM_H */
