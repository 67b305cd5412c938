// SPDX-License-Identifier: MIT
/* The descriptor table: one descriptor per line, O(1) lookup, chip and flow attachment. */
#include "internals.h"

static unsigned int noop_ret(struct irqkit_irq_data *d)
{
	(void)d;
	return 0;
}

static void noop(struct irqkit_irq_data *d)
{
	(void)d;
}

/* Linux's no_irq_chip: lines start with it; requesting them gives -ENOSYS. */
struct irqkit_chip irqkit_no_irq_chip = {
	.name		= "none",
	.irq_startup	= noop_ret,
	.irq_shutdown	= noop,
	.irq_enable	= noop,
	.irq_disable	= noop,
};

/* Linux's dummy_irq_chip: every operation does nothing. */
struct irqkit_chip irqkit_dummy_irq_chip = {
	.name		= "dummy",
	.irq_startup	= noop_ret,
	.irq_shutdown	= noop,
	.irq_enable	= noop,
	.irq_disable	= noop,
	.irq_ack	= noop,
	.irq_mask	= noop,
	.irq_unmask	= noop,
	.flags		= IRQKIT_CHIP_SET_TYPE_MASKED,
};

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

/*
 * A sleeping mutex on a word (Drepper's "futexes are tricky", mutex 2):
 * 0 free, 1 locked, 2 locked with waiters.  Serialises request and free.
 */
void irqkit__mutex_lock(unsigned int *m)
{
	unsigned int c = 0;

	if (a_cas(m, &c, 1))
		return;
	if (c != 2)
		c = a_xchg(m, 2);
	while (c != 0) {
		irqkit_plat_wait(m, 2);
		c = a_xchg(m, 2);
	}
}

void irqkit__mutex_unlock(unsigned int *m)
{
	if (a_fetch_sub(m, 1) != 1) {
		a_store_seq(m, 0);
		irqkit_plat_wake(m);
	}
}

int irqkit_irq_set_chip_and_handler_name(unsigned int irq, struct irqkit_chip *chip,
					 irqkit_flow_fn handle, const char *name)
{
	unsigned long flags;
	struct irqkit_desc *desc = irq_to_desc(irq);

	if (!desc)
		return -IRQKIT_EINVAL;
	flags = desc_lock_irqsave(desc);
	WRITE_ONCE(desc->irq_data.chip, chip ? chip : &irqkit_no_irq_chip);
	WRITE_ONCE(desc->handle_irq, handle ? handle : irqkit_handle_bad_irq);
	desc->name = name;
	desc_unlock_irqrestore(desc, flags);
	return 0;
}

int irqkit_irq_set_chip_data(unsigned int irq, void *data)
{
	unsigned long flags;
	struct irqkit_desc *desc = irq_to_desc(irq);

	if (!desc)
		return -IRQKIT_EINVAL;
	flags = desc_lock_irqsave(desc);
	desc->irq_data.chip_data = data;
	desc_unlock_irqrestore(desc, flags);
	return 0;
}

int irqkit_irq_set_hwirq(unsigned int irq, unsigned long hwirq)
{
	unsigned long flags;
	struct irqkit_desc *desc = irq_to_desc(irq);

	if (!desc)
		return -IRQKIT_EINVAL;
	flags = desc_lock_irqsave(desc);
	desc->irq_data.hwirq = hwirq;
	desc->irq_data.has_domain = true;
	desc_unlock_irqrestore(desc, flags);
	return 0;
}

void irqkit_irq_set_handler_locked(struct irqkit_irq_data *d, irqkit_flow_fn handle)
{
	struct irqkit_desc *desc = container_of(d, struct irqkit_desc, irq_data);

	WRITE_ONCE(desc->handle_irq, handle ? handle : irqkit_handle_bad_irq);
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

void irqkit_irq_modify_status(unsigned int irq, unsigned long clr, unsigned long set)
{
	unsigned long flags;
	struct irqkit_desc *desc = irq_to_desc(irq);
	unsigned int keep = IRQ_SETTINGS_NO_DEBUG;

	if (!desc)
		return;
	flags = desc_lock_irqsave(desc);
	WRITE_ONCE(desc->settings, (desc->settings & (~(unsigned int)clr | keep)) |
				   ((unsigned int)set & ~keep));
	if (desc->settings & IRQKIT_IRQ_LEVEL)
		irqd_set(&desc->irq_data, IRQD_LEVEL);
	else
		irqd_clear(&desc->irq_data, IRQD_LEVEL);
	if (desc->settings & IRQKIT_IRQ_PER_CPU)
		irqd_set(&desc->irq_data, IRQD_PER_CPU);
	if (desc->settings & IRQKIT_IRQ_NO_BALANCING)
		irqd_set(&desc->irq_data, IRQD_NO_BALANCING);
	desc_unlock_irqrestore(desc, flags);
}
