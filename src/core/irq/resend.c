// SPDX-License-Identifier: MIT
/*
 * Replaying an edge that arrived while its line was disabled (Linux's
 * kernel/irq/resend.c): the chip re-raises it, or the core
 * queues the line and a tasklet runs its flow handler (the software resend).
 */
#include "internals.h"
#include "debug/debug.h"

static struct irqkit_tasklet resend_tasklet;

/* Queue the line for the software resend.  Descriptor lock held. */
static int irq_sw_resend(struct irqkit_desc *desc)
{
	struct irqkit__runtime *rt = &irqkit__rt;
	unsigned long lflags;

	desc_assert_locked(desc);
	lflags = irqkit_spin_lock_irqsave(&rt->resend_lock);
	if (!desc->resend_queued) {
		desc->resend_queued = true;
		desc->resend_next = rt->resend_list;
		rt->resend_list = desc;
	}
	irqkit_spin_unlock_irqrestore(&rt->resend_lock, lflags);
	irqkit_tasklet_schedule(&resend_tasklet);
	return 0;
}

int irqkit__irq_sw_resend(struct irqkit_desc *desc)
{
	return irq_sw_resend(desc);
}

/* Is @desc queued for the software resend?  Any context. */
bool irqkit__resend_queued(struct irqkit_desc *desc)
{
	struct irqkit__runtime *rt = &irqkit__rt;
	bool queued;
	unsigned long lflags;

	lflags = irqkit_spin_lock_irqsave(&rt->resend_lock);
	queued = desc->resend_queued;
	irqkit_spin_unlock_irqrestore(&rt->resend_lock, lflags);
	return queued;
}

/*
 * check_irq_resend - replay a pending edge
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

	desc_assert_locked(desc);
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
	unsigned long lflags;

	desc_assert_locked(desc);
	lflags = irqkit_spin_lock_irqsave(&rt->resend_lock);
	if (desc->resend_queued) {
		struct irqkit_desc **pp = &rt->resend_list;

		while (*pp != desc)
			pp = &(*pp)->resend_next;
		*pp = desc->resend_next;
		desc->resend_queued = false;
	}
	irqkit_spin_unlock_irqrestore(&rt->resend_lock, lflags);
}

/*
 * resend_irqs: run the flow handler of every queued line, interrupts off.
 * Context: the resend tasklet (TASKLET softirq).
 */
static void resend_irqs(struct irqkit_tasklet *unused)
{
	struct irqkit__runtime *rt = &irqkit__rt;
	unsigned long lflags;

	(void)unused;
	lflags = irqkit_spin_lock_irqsave(&rt->resend_lock);
	while (rt->resend_list) {
		struct irqkit_desc *desc = rt->resend_list;

		rt->resend_list = desc->resend_next;
		desc->resend_queued = false;
		irqkit_spin_unlock_irqrestore(&rt->resend_lock, lflags);
		irqkit_local_irq_disable();
		READ_ONCE(desc->handle_irq)(desc);
		irqkit_local_irq_enable();
		if (unlikely(istate_get(desc) & IRQS_FAULT))
			irqkit__fault_resent(desc);	/* a line held stuck requests again */
		lflags = irqkit_spin_lock_irqsave(&rt->resend_lock);
	}
	irqkit_spin_unlock_irqrestore(&rt->resend_lock, lflags);
}

void irqkit__resend_init(void)
{
	irqkit_tasklet_setup(&resend_tasklet, resend_irqs);
}
