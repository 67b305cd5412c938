// SPDX-License-Identifier: MIT
/*
 * The interrupt simulator (Linux's kernel/irq/irq_sim.c) on the software
 * chip: a linear domain whose map() puts each line on the software chip
 * with Linux's simulator rules over it (handle_simple_irq, edges only, a
 * fire on a masked line dropped, not latched).
 */
#include <irqkit-core/irqchip.h>
#include <irqkit/irqsim.h>
#include <irqkit/swchip.h>

struct irq_sim {
	unsigned int	num_irqs;
};

/* the software chip under the simulator's rules (swchip.c) */
HIDDEN extern struct irqkit_chip irqkit__sim_chip;

static int sim_map(struct irqkit_irq_domain *domain, unsigned int virq, irqkit_hwirq_t hw)
{
	int ret;

	(void)domain;
	(void)hw;	/* the line is this domain's already: the software chip keeps its hwirq */
	ret = irqkit_swchip_add(virq, 1, IRQKIT_TYPE_EDGE_RISING);
	if (ret)
		return ret;
	irqkit_irq_set_chip_and_handler_name(virq, &irqkit__sim_chip, irqkit_handle_simple_irq, NULL);
	irqkit_irq_modify_status(virq, IRQKIT_IRQ_NOREQUEST | IRQKIT_IRQ_NOAUTOEN,
				 IRQKIT_IRQ_NOPROBE);
	/*
	 * No trigger type, as Linux's simulator maps its lines: a request
	 * without trigger flags keeps none ("Flags mismatch" prints them).
	 */
	return irqkit_irq_set_default_type(virq, IRQKIT_TYPE_NONE);
}

static const struct irqkit_irq_domain_ops sim_domain_ops = {
	.map	= sim_map,
};

struct irqkit_irq_domain *irqkit_irq_domain_create_sim(struct irqkit_fwnode *fwnode,
						       unsigned int num_irqs)
{
	struct irq_sim *sim;
	struct irqkit_irq_domain *d;

	if (!num_irqs || !irqkit_nr_irqs())
		return NULL;
	/*
	 * The software chip's domain first: map() puts each line on that chip,
	 * under the domain mutex that making the domain takes (a process whose
	 * first software line was a simulator's deadlocked there).
	 */
	if (!irqkit_swchip_domain())
		return NULL;
	sim = irqkit_plat_alloc(sizeof(*sim));
	if (!sim)
		return NULL;
	sim->num_irqs = num_irqs;
	d = irqkit_irq_domain_create_linear(fwnode, num_irqs, &sim_domain_ops, sim);
	if (!d)
		irqkit_plat_free(sim, sizeof(*sim));
	return d;
}

void irqkit_irq_domain_remove_sim(struct irqkit_irq_domain *domain)
{
	struct irq_sim *sim;

	if (!domain)
		return;
	sim = domain->host_data;
	for (unsigned int hw = 0; hw < sim->num_irqs; hw++) {
		unsigned int virq = irqkit_irq_find_mapping(domain, hw);

		if (virq)
			irqkit_irq_dispose_mapping(virq);
	}
	if (READ_ONCE(domain->mapcount))
		return;		/* a line still requested: irq_domain_remove says so */
	irqkit_irq_domain_remove(domain);
	irqkit_plat_free(sim, sizeof(*sim));
}
