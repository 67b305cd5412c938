// SPDX-License-Identifier: MIT
/* The descriptor table (Linux's kernel/irq/irqdesc.c): one descriptor per line, O(1) lookup, counts. */
#include "internals.h"

/* desc_set_defaults(): no chip, the bad flow, disabled and masked, depth 1. */
int irqkit__descs_init(void)
{
	struct irqkit__runtime *rt = &irqkit__rt;

	rt->descs = irqkit_plat_alloc(sizeof(*rt->descs) * rt->nr_irqs);
	if (!rt->descs)
		return -IRQKIT_ENOMEM;
	for (unsigned int i = 0; i < rt->nr_irqs; i++) {
		struct irqkit_desc *desc = &rt->descs[i];

		desc->irq_data.irq = i;
		desc->irq_data.hwirq = i;
		desc->irq_data.chip = &irqkit_no_irq_chip;
		desc->irq_data.state = IRQD_IRQ_DISABLED | IRQD_IRQ_MASKED;
		desc->irq_data.affinity = ~(irqkit_cpumask)0;
		desc->handle_irq = irqkit_handle_bad_irq;
		desc->depth = 1;
	}
	return 0;
}

void irqkit__descs_exit(void)
{
	struct irqkit__runtime *rt = &irqkit__rt;

	irqkit__faults_exit();
	if (rt->descs)
		irqkit_plat_free(rt->descs, sizeof(*rt->descs) * rt->nr_irqs);
	rt->descs = NULL;
}

unsigned int irqkit__kstat_sum(unsigned int irq)
{
	unsigned int sum = 0;

	for (unsigned int c = 0; c < irqkit__rt.nr_cpus; c++)
		sum += READ_ONCE(irqkit__rt.cpus[c].kstat[irq]);
	return sum;
}

struct irqkit_irq_data *irqkit_irq_get_irq_data(unsigned int irq)
{
	struct irqkit_desc *desc = irq_to_desc(irq);

	return desc ? &desc->irq_data : NULL;
}

int irqkit_irq_set_default_type(unsigned int irq, unsigned int type)
{
	unsigned long flags;
	struct irqkit_desc *desc = irq_to_desc(irq);
	int ret;

	if (!desc)
		return -IRQKIT_EINVAL;
	flags = desc_lock_irqsave(desc);
	ret = irqkit__irq_set_trigger(desc, type);
	if (!ret) {
		irqd_clear(&desc->irq_data, IRQD_TRIGGER_MASK);
		irqd_set(&desc->irq_data, (type & IRQD_TRIGGER_MASK) | IRQD_DEFAULT_TRIGGER_SET);
	}
	desc_unlock_irqrestore(desc, flags);
	return ret;
}

bool irqkit_irq_has_action(unsigned int irq)
{
	struct irqkit_desc *desc = irq_to_desc(irq);

	return desc && a_load_acquire(&desc->action) != NULL;
}

unsigned int irqkit_irqd_get_trigger_type(const struct irqkit_irq_data *d)
{
	return irqd_get(d) & IRQD_TRIGGER_MASK;
}

unsigned int irqkit_irqd_state(const struct irqkit_irq_data *d)
{
	static const struct { unsigned int in, out; } map[] = {
		{ IRQD_IRQ_STARTED, IRQKIT_IRQD_STARTED },
		{ IRQD_ACTIVATED, IRQKIT_IRQD_ACTIVATED },
		{ IRQD_IRQ_DISABLED, IRQKIT_IRQD_DISABLED },
		{ IRQD_IRQ_MASKED, IRQKIT_IRQD_MASKED },
		{ IRQD_IRQ_INPROGRESS, IRQKIT_IRQD_INPROGRESS },
		{ IRQD_LEVEL, IRQKIT_IRQD_LEVEL },
		{ IRQD_PER_CPU, IRQKIT_IRQD_PER_CPU },
		{ IRQD_AFFINITY_MANAGED, IRQKIT_IRQD_AFFINITY_MANAGED },
		{ IRQD_MANAGED_SHUTDOWN, IRQKIT_IRQD_MANAGED_SHUTDOWN },
	};
	unsigned int state, out = 0;

	if (!d)
		return 0;
	state = irqd_get(d);
	for (unsigned int i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		if (state & map[i].in)
			out |= map[i].out;
	return out;
}

int irqkit_irqchip_state(int which, bool pending, bool masked, bool *state)
{
	switch (which) {
	case IRQKIT_CHIPSTATE_PENDING:
		*state = pending;
		return 0;
	case IRQKIT_CHIPSTATE_MASKED:
		*state = masked;
		return 0;
	default:
		return -IRQKIT_EINVAL;
	}
}

int irqkit_generic_handle_irq(unsigned int irq)
{
	struct irqkit_desc *desc = irq_to_desc(irq);

	if (!desc)
		return -IRQKIT_EINVAL;
	READ_ONCE(desc->handle_irq)(desc);
	return 0;
}

unsigned int irqkit_kstat_irqs_cpu(unsigned int irq, unsigned int cpu)
{
	if (irq >= irqkit__rt.nr_irqs || cpu >= irqkit__rt.nr_cpus)
		return 0;
	return READ_ONCE(irqkit__rt.cpus[cpu].kstat[irq]);
}
