// SPDX-License-Identifier: MIT
/*
 * Interrupts and CPU hotplug (Linux's kernel/irq/cpuhotplug.c): the lines of
 * a CPU going offline move to online CPUs, and what was still pending for
 * it is signalled to their new CPUs once its dispatcher has stopped.
 */
#include "internals.h"

/*
 * migrate_one_irq: a line whose effective CPU is @cpu goes to an online CPU
 * of its affinity, or to the online CPUs when none of its affinity is left
 * (the affinity is broken; Linux says so at debug level).  Per-CPU lines and
 * lines whose chip cannot move stay.  Descriptor lock taken.
 */
static void migrate_one_irq(struct irqkit_desc *desc, unsigned int cpu, irqkit_cpumask online)
{
	unsigned int irq = irq_desc_get_irq(desc);
	unsigned long flags = desc_lock_irqsave(desc);
	struct irqkit_irq_data *d = &desc->irq_data;
	struct irqkit_chip *chip = d->chip;
	irqkit_cpumask mask;
	bool broken = false;
	int err;

	if (READ_ONCE(d->cpu) != cpu || (desc->settings & IRQKIT_IRQ_PER_CPU) || !chip ||
	    !chip->irq_set_affinity) {
		desc_unlock_irqrestore(desc, flags);
		return;
	}
	mask = d->affinity & online;
	if (!mask && irqd_has(d, IRQD_AFFINITY_MANAGED)) {
		/* managed: shut down, its affinity kept, until a CPU of it returns */
		irqd_set(d, IRQD_MANAGED_SHUTDOWN);
		irqkit__irq_shutdown_and_deactivate(desc);
		desc_unlock_irqrestore(desc, flags);
		return;
	}
	if (!mask) {
		mask = online;
		broken = true;
	}
	err = chip_set_affinity(d, mask);
	desc_unlock_irqrestore(desc, flags);
	if (err)
		irqkit_printk(IRQKIT_LOG_WARNING, "IRQ%u: set affinity failed(%d).", irq, err);
	else if (broken && desc->action)
		irqkit_printk(IRQKIT_LOG_DEBUG, "IRQ %u: no longer affine to CPU%u", irq, cpu);
}

void irqkit__irq_migrate_all_off_cpu(unsigned int cpu)
{
	struct irqkit__runtime *rt = &irqkit__rt;
	irqkit_cpumask online = irqkit__online_mask();

	for (unsigned int i = 0; i < rt->nr_irqs; i++)
		migrate_one_irq(&rt->descs[i], cpu, online);
}

/*
 * The dispatcher of @cpu has stopped: take what is still pending on it and
 * signal each line to the CPU it targets now.  A line that did not move
 * (per-CPU, or a chip that cannot) stays pending on @cpu.
 */
void irqkit__irq_resignal_off_cpu(unsigned int cpu)
{
	struct irqkit__runtime *rt = &irqkit__rt;
	struct irqkit_cpu *c = &rt->cpus[cpu];
	uint64_t w2 = a_xchg(&c->pend2, 0);

	/* the CPU's own vectors stay: what they serve moves in its own takeover */
	if (w2 & PEND2_SYSVEC)
		a_fetch_or(&c->pend2, PEND2_SYSVEC);
	w2 &= ~PEND2_SYSVEC;
	while (w2) {
		unsigned int i = (unsigned int)__builtin_ctzll(w2);
		uint64_t w1;

		w2 &= w2 - 1;
		w1 = a_xchg(&c->pend1[i], 0);
		while (w1) {
			unsigned int wi = i * 64 + (unsigned int)__builtin_ctzll(w1);
			uint64_t w0;

			w1 &= w1 - 1;
			w0 = a_xchg(&c->pend0[wi], 0);
			while (w0) {
				unsigned int irq = wi * 64 + (unsigned int)__builtin_ctzll(w0);

				w0 &= w0 - 1;
				irqkit_cpu_signal(READ_ONCE(rt->descs[irq].irq_data.cpu), irq);
			}
		}
	}
}

/*
 * irq_affinity_online_cpu: CPU @cpu is back.  Each managed line whose mask
 * holds it starts again if it was shut down for want of a CPU, else is
 * spread over its mask again (it may move back to @cpu).
 */
void irqkit__irq_affinity_online_cpu(unsigned int cpu)
{
	struct irqkit__runtime *rt = &irqkit__rt;
	irqkit_cpumask online = irqkit__online_mask();

	for (unsigned int i = 0; i < rt->nr_irqs; i++) {
		struct irqkit_desc *desc = &rt->descs[i];
		struct irqkit_irq_data *d = &desc->irq_data;
		unsigned long flags = desc_lock_irqsave(desc);

		if (irqd_has(d, IRQD_AFFINITY_MANAGED) && (d->affinity & ((irqkit_cpumask)1 << cpu))) {
			if (irqd_has(d, IRQD_MANAGED_SHUTDOWN))
				irqkit__irq_startup_managed(desc);
			else if (desc->action && d->chip && d->chip->irq_set_affinity)
				(void)chip_set_affinity(d, d->affinity & online);
		}
		desc_unlock_irqrestore(desc, flags);
	}
}
