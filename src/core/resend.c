// SPDX-License-Identifier: MIT
/*
 * Replaying an edge that arrived while its line was disabled (Linux's
 * kernel/irq/resend.c, REFERENCE 2.10): the chip re-raises it, or the core
 * queues the line and has a CPU run its flow handler (the software resend,
 * which Linux runs from a tasklet).
 */
#include "internals.h"

/* The CPU that runs a software resend: the caller's if bound, else the line's target. */
static unsigned int resend_cpu(const struct irqkit_desc *desc)
{
	const struct irqkit_task *t = &irqkit_task_self;

	return t->cpu ? (unsigned int)t->cpu_id : READ_ONCE(desc->irq_data.cpu);
}

/* Queue the line for the software resend.  Descriptor lock held. */
static int irq_sw_resend(struct irqkit_desc *desc)
{
	struct irqkit__runtime *rt = &irqkit__rt;

	irqkit_spin_lock(&rt->resend_lock);
	if (!desc->resend_queued) {
		desc->resend_queued = true;
		desc->resend_next = rt->resend_list;
		rt->resend_list = desc;
	}
	irqkit_spin_unlock(&rt->resend_lock);
	irqkit__cpu_raise_work(resend_cpu(desc), CPU_WORK_RESEND);
	return 0;
}

/*
 * check_irq_resend - replay a pending edge (REFERENCE 2.10)
 *
 * Level lines are not replayed: the hardware asserts again by itself.
 * Context: descriptor lock held.
 * Return: 0 when replayed or nothing was pending; -EINVAL for a level line;
 * -EBUSY when a replay is already in flight.
 */
int irqkit__check_irq_resend(struct irqkit_desc *desc, bool inject)
{
	struct irqkit_chip *chip = desc->irq_data.chip;
	int err = 0;

	if (irqd_is_level_type(&desc->irq_data)) {
		istate_clear(desc, IRQS_PENDING);
		return -IRQKIT_EINVAL;
	}
	if (istate_get(desc) & IRQS_REPLAY)
		return -IRQKIT_EBUSY;
	if (!(istate_get(desc) & IRQS_PENDING) && !inject)
		return 0;
	istate_clear(desc, IRQS_PENDING);
	if (!chip->irq_retrigger || !chip->irq_retrigger(&desc->irq_data))
		err = irq_sw_resend(desc);
	if (!err)
		istate_set(desc, IRQS_REPLAY);
	return err;
}

/* clear_irq_resend: the line shuts down; drop a queued software resend.  Descriptor lock held. */
void irqkit__clear_irq_resend(struct irqkit_desc *desc)
{
	struct irqkit__runtime *rt = &irqkit__rt;

	irqkit_spin_lock(&rt->resend_lock);
	if (desc->resend_queued) {
		struct irqkit_desc **pp = &rt->resend_list;

		while (*pp != desc)
			pp = &(*pp)->resend_next;
		*pp = desc->resend_next;
		desc->resend_queued = false;
	}
	irqkit_spin_unlock(&rt->resend_lock);
}

/*
 * resend_irqs: run the flow handler of every queued line.
 * Context: a CPU's delivery, interrupts off (the CPU held for hardirq).
 */
void irqkit__resend_run(void)
{
	struct irqkit__runtime *rt = &irqkit__rt;

	irqkit_spin_lock(&rt->resend_lock);
	while (rt->resend_list) {
		struct irqkit_desc *desc = rt->resend_list;

		rt->resend_list = desc->resend_next;
		desc->resend_queued = false;
		irqkit_spin_unlock(&rt->resend_lock);
		READ_ONCE(desc->handle_irq)(desc);
		irqkit_spin_lock(&rt->resend_lock);
	}
	irqkit_spin_unlock(&rt->resend_lock);
}
