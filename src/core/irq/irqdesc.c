// SPDX-License-Identifier: MIT
/* The descriptor table (Linux's kernel/irq/irqdesc.c): one descriptor per line, O(1) lookup, counts. */
#include "internals.h"
#include "locking/locking.h"
#include "debug/debug.h"

/* desc_set_defaults(): no chip, the bad flow, disabled and masked, depth 1. */
static void desc_set_defaults(struct irqkit_desc *desc, unsigned int irq)
{
	desc->irq_data.irq = irq;
	desc->irq_data.hwirq = irq;
	desc->irq_data.chip = &irqkit_no_irq_chip;
	desc->irq_data.chip_data = NULL;
	desc->irq_data.has_domain = false;
	WRITE_ONCE(desc->irq_data.state, IRQD_IRQ_DISABLED | IRQD_IRQ_MASKED);
	desc->irq_data.affinity = ~(irqkit_cpumask)0;
	WRITE_ONCE(desc->irq_data.cpu, 0);
	WRITE_ONCE(desc->handle_irq, irqkit_handle_bad_irq);
	WRITE_ONCE(desc->istate, 0);
	desc->depth = 1;
	desc->settings = 0;
	desc->name = NULL;
	desc->irq_count = 0;
	desc->irqs_unhandled = 0;
	desc->last_unhandled = 0;
	desc->pending_merged = 0;
}

int irqkit__descs_init(void)
{
	struct irqkit__runtime *rt = &irqkit__rt;

	rt->descs = irqkit_plat_alloc(sizeof(*rt->descs) * rt->nr_irqs);
	if (!rt->descs)
		return -IRQKIT_ENOMEM;
	for (unsigned int i = 0; i < rt->nr_irqs; i++)
		desc_set_defaults(&rt->descs[i], i);
	return 0;
}

unsigned int irqkit__core_irq_edge_turns(const struct irqkit_irq_data *d)
{
	struct irqkit_desc *desc = irq_to_desc(d->irq);

	return desc ? READ_ONCE(desc->edge_turns) : 0;
}

struct irqkit_desc *irqkit_irq_to_desc(unsigned int irq)
{
	return irq_to_desc(irq);
}

/* ---- allocation (Linux's irq_alloc_descs / irq_free_descs) ------------------------------ */

/* Serialises the allocators: a range found free stays free until it is marked. */
static unsigned int sparse_irq_lock;	/* the core's sleeping mutex (irqkit__mutex_lock) */

static bool desc_is_free(struct irqkit_desc *desc)
{
	unsigned long flags = desc_lock_irqsave(desc);
	bool free = !desc->allocated && !desc->action && desc->irq_data.chip == &irqkit_no_irq_chip;

	desc_unlock_irqrestore(desc, flags);
	return free;
}

/* The first line of @cnt free ones at or after @from, or nr_irqs. */
static unsigned int find_free_range(unsigned int from, unsigned int cnt)
{
	unsigned int nr = irqkit__rt.nr_irqs, run = 0;

	for (unsigned int i = from; i < nr; i++) {
		run = desc_is_free(&irqkit__rt.descs[i]) ? run + 1 : 0;
		if (run == cnt)
			return i + 1 - cnt;
	}
	return nr;
}

int irqkit_irq_alloc_descs(int irq, unsigned int from, unsigned int cnt,
			   const struct irqkit_irq_affinity_desc *affd)
{
	unsigned int nr = irqkit__rt.nr_irqs, start;
	int ret;

	if (!irqkit_started() || !cnt || cnt > nr)
		return -IRQKIT_EINVAL;
	if (irq >= 0) {
		if (from > (unsigned int)irq || (unsigned int)irq > nr - cnt)
			return -IRQKIT_EINVAL;
		from = (unsigned int)irq;
	}
	irqkit__mutex_lock(&sparse_irq_lock);
	start = find_free_range(from, cnt);
	if (irq >= 0 && start != (unsigned int)irq) {
		ret = -IRQKIT_EEXIST;
	} else if (start >= nr) {
		ret = -IRQKIT_ENOMEM;
	} else {
		for (unsigned int i = 0; i < cnt; i++) {
			struct irqkit_desc *desc = &irqkit__rt.descs[start + i];
			unsigned long flags = desc_lock_irqsave(desc);

			desc->allocated = true;
			desc_unlock_irqrestore(desc, flags);
			if (affd)
				(void)irqkit_irq_set_affinity_desc(start + i, &affd[i]);
		}
		ret = (int)start;
	}
	irqkit__mutex_unlock(&sparse_irq_lock);
	return ret;
}

void irqkit_irq_free_descs(unsigned int irq, unsigned int cnt)
{
	if (!irqkit_started())
		return;
	irqkit__mutex_lock(&sparse_irq_lock);
	for (unsigned int i = irq; i < irqkit__rt.nr_irqs && i - irq < cnt; i++) {
		struct irqkit_desc *desc = &irqkit__rt.descs[i];
		unsigned long flags = desc_lock_irqsave(desc);
		bool busy = desc->allocated && desc->action, freed = false;

		if (desc->allocated && !busy) {
			desc_set_defaults(desc, i);
			desc->allocated = false;
			freed = true;
		}
		desc_unlock_irqrestore(desc, flags);
		if (busy)
			irqkit_printk(IRQKIT_LOG_ERR,
				      "irq_free_descs: IRQ %u still has a handler; not freed", i);
		for (unsigned int c = 0; freed && c < irqkit__rt.nr_cpus; c++)
			WRITE_ONCE(irqkit__rt.cpus[c].kstat[i], 0);
	}
	irqkit__mutex_unlock(&sparse_irq_lock);
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

void irqkit_irq_data_update_effective_affinity(struct irqkit_irq_data *d,
					       const struct irqkit_cpus *m)
{
	irqkit_cpumask mask = m ? irqkit_cpus_mask(m) : 0;
	struct irqkit_desc *desc;

	if (!d || !mask)
		return;
	WRITE_ONCE(d->cpu, (unsigned int)__builtin_ctzll(mask));
	/* a level of a hierarchy: the line's (top) data routes it too, as Linux's common data */
	desc = irq_to_desc(d->irq);
	if (desc && d != &desc->irq_data)
		WRITE_ONCE(desc->irq_data.cpu, (unsigned int)__builtin_ctzll(mask));
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
		{ IRQD_WAKEUP_STATE, IRQKIT_IRQD_WAKEUP_STATE },
	};
	struct irqkit_desc *desc;
	unsigned int state, out = 0;

	if (!d)
		return 0;
	desc = d->domain ? irq_to_desc(d->irq) : NULL;
	if (desc)
		d = &desc->irq_data;	/* every level shares the line's state */
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
