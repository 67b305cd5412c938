// SPDX-License-Identifier: MIT
/*
 * Interrupt autodetection (Linux's kernel/irq/autoprobe.c), for drivers that
 * find their line by making the device interrupt: probe_irq_on starts every
 * unused line that may be probed with IRQS_AUTODETECT and IRQS_WAITING; the
 * flow clears WAITING when the line fires (and, with no action, masks it);
 * probe_irq_off reports the one line that fired.
 */
#include "internals.h"
#include "locking/locking.h"

static unsigned int probing_active;	/* a sleeping mutex: one probe at a time */

static bool can_probe(const struct irqkit_desc *desc)
{
	return !desc->action && desc->irq_data.chip != &irqkit_no_irq_chip &&
	       !(desc->settings & IRQKIT_IRQ_NOPROBE);
}

unsigned long irqkit_probe_irq_on(void)
{
	struct irqkit__runtime *rt = &irqkit__rt;
	unsigned long mask = 0;

	might_sleep();
	if (!irqkit_started())
		return 0;
	irqkit__mutex_lock(&probing_active);
	/* start the unused lines once, and let a long-standing interrupt show itself */
	for (unsigned int i = rt->nr_irqs; i-- > 0;) {
		struct irqkit_desc *desc = &rt->descs[i];
		unsigned long flags = desc_lock_irqsave(desc);

		if (can_probe(desc)) {
			struct irqkit_chip *chip = READ_ONCE(desc->irq_data.chip);

			if (chip->irq_set_type)	/* some chips want to know a probe runs */
				chip->irq_set_type(&desc->irq_data, IRQKIT_TYPE_PROBE);
			irqkit__irq_startup(desc, false);
		}
		desc_unlock_irqrestore(desc, flags);
	}
	irqkit_msleep(20);
	/* start them again (one that fired has masked itself) and arm the detection */
	for (unsigned int i = rt->nr_irqs; i-- > 0;) {
		struct irqkit_desc *desc = &rt->descs[i];
		unsigned long flags = desc_lock_irqsave(desc);

		if (can_probe(desc)) {
			istate_set(desc, IRQS_AUTODETECT | IRQS_WAITING);
			irqkit__irq_startup(desc, false);
		}
		desc_unlock_irqrestore(desc, flags);
	}
	irqkit_msleep(100);
	/* lines that fired already are spurious: out of the probe */
	for (unsigned int i = 0; i < rt->nr_irqs; i++) {
		struct irqkit_desc *desc = &rt->descs[i];
		unsigned long flags = desc_lock_irqsave(desc);

		if (istate_get(desc) & IRQS_AUTODETECT) {
			if (!(istate_get(desc) & IRQS_WAITING)) {
				istate_clear(desc, IRQS_AUTODETECT);
				irqkit__irq_shutdown(desc);
			} else if (i < 32) {
				mask |= 1ul << i;
			}
		}
		desc_unlock_irqrestore(desc, flags);
	}
	return mask;
}

/*
 * An interrupt the device raised before probe_irq_off is in its CPU's
 * controller (the pending set) at once, but its flow runs on that CPU's
 * thread a little later; on hardware the CPU takes it within nanoseconds,
 * before the driver's udelay() is over.  So the probe first lets every CPU
 * take what is pending (at most a second).
 */
static void probe_settle(void)
{
	struct irqkit__runtime *rt = &irqkit__rt;
	uint64_t end = irqkit_plat_now_ns() + 1000000000ull;

	irqkit_deliver_pending();
	for (unsigned int i = 0; i < rt->nr_cpus; i++) {
		struct irqkit_cpu *c = &rt->cpus[i];

		while ((hardirq_pending(c) || (a_load_seq(&c->slot) & SLOT_HARDIRQ)) &&
		       !mode_virtual_clock() && irqkit_plat_now_ns() < end)
			irqkit_plat_sleep_ns(20000);
	}
}

/* End the probe of every line still in it; @fired gets called for each that fired. */
static void probe_end(void (*fired)(unsigned int irq, void *arg), void *arg)
{
	struct irqkit__runtime *rt = &irqkit__rt;

	probe_settle();
	for (unsigned int i = 0; i < rt->nr_irqs; i++) {
		struct irqkit_desc *desc = &rt->descs[i];
		unsigned long flags = desc_lock_irqsave(desc);

		if (istate_get(desc) & IRQS_AUTODETECT) {
			if (!(istate_get(desc) & IRQS_WAITING))
				fired(i, arg);
			istate_clear(desc, IRQS_AUTODETECT);
			irqkit__irq_shutdown(desc);
		}
		desc_unlock_irqrestore(desc, flags);
	}
	irqkit__mutex_unlock(&probing_active);
}

struct probe_found {
	int		irq;
	int		nr;
	unsigned int	mask;
};

static void note_fired(unsigned int irq, void *arg)
{
	struct probe_found *f = arg;

	if (!f->nr)
		f->irq = (int)irq;
	f->nr++;
	if (irq < 32)
		f->mask |= 1u << irq;
}

int irqkit_probe_irq_off(unsigned long val)
{
	struct probe_found f = { 0 };

	(void)val;
	if (!irqkit_started())
		return 0;
	probe_end(note_fired, &f);
	return f.nr > 1 ? -f.irq : f.irq;
}

unsigned int irqkit_probe_irq_mask(unsigned long val)
{
	struct probe_found f = { 0 };

	if (!irqkit_started())
		return 0;
	probe_end(note_fired, &f);
	return f.mask & (unsigned int)val;
}
