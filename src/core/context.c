// SPDX-License-Identifier: MIT
/* Per-thread interrupt context: the local interrupt flag of bound threads, bottom halves, might_sleep. */
#include "internals.h"

_Thread_local struct irqkit_task irqkit_task_self;

/*
 * Turning interrupts off on a thread bound to CPU k: join the CPU's interrupts-
 * off holders, which keeps hardirq handlers off k.  If a handler runs on k
 * now, wait for it (it is short and does not wait for us).
 *
 * A thread inside hardirq context already owns the CPU: only its flag moves.
 */
void irqkit_local_irq_disable_slow(struct irqkit_task *t)
{
	struct irqkit_cpu *c = t->cpu;
	unsigned int s, spins = 0;
	bool waiting = false;

	if (t->slot != TASK_SLOT_NONE) {
		task_set_irqs_off(t, true);
		return;
	}
	s = READ_ONCE(c->slot);
	for (;;) {
		if (!(s & SLOT_HARDIRQ)) {
			if (a_cas(&c->slot, &s, s + 1))
				break;
			continue;
		}
		if (!waiting) {
			a_fetch_add(&c->slot_waiters, 1);
			waiting = true;
		}
		if (++spins < 64)
			irqkit_plat_cpu_relax();
		else
			irqkit_plat_yield();
		s = READ_ONCE(c->slot);
	}
	if (waiting)
		a_fetch_sub(&c->slot_waiters, 1);
	t->slot = TASK_SLOT_IRQOFF;
	task_set_irqs_off(t, true);
}

/*
 * Turning interrupts back on: the last interrupts-off holder of the CPU takes
 * the interrupts latched meanwhile, on this thread, as a CPU takes them when
 * its interrupt flag comes back.
 */
void irqkit_local_irq_enable_slow(struct irqkit_task *t)
{
	struct irqkit_cpu *c = t->cpu;
	unsigned int s;

	task_set_irqs_off(t, false);
	if (t->slot != TASK_SLOT_IRQOFF)
		return;		/* in hardirq context: only the flag (the flow warns) */
	t->slot = TASK_SLOT_NONE;
	s = a_fetch_sub(&c->slot, 1);
	/* the full barrier above pairs with the signaller's (cpu.c lost-wakeup rules) */
	if (s == 1 && !(t->preempt_count & IRQKIT_HARDIRQ_MASK) && irqkit__cpu_pending(c))
		irqkit__cpu_deliver(t, c);
}

/*
 * local_bh_enable with something to check: a bound thread (a delivery point),
 * or the misuse Linux warns about (hardirq context, interrupts off).
 */
void irqkit_local_bh_enable_slow(struct irqkit_task *t)
{
	WARN_ON_ONCE(t->preempt_count & IRQKIT_HARDIRQ_MASK);
	WARN_ON_ONCE(task_irqs_off(t));
	t->preempt_count -= IRQKIT_SOFTIRQ_DISABLE_OFFSET;
	if (t->cpu && !task_irqs_off(t) && !(t->preempt_count & IRQKIT_HARDIRQ_MASK) &&
	    irqkit__cpu_pending(t->cpu))
		irqkit__cpu_deliver(t, t->cpu);
}

/* irq_enter / irq_exit: the hardirq part of preempt_count (REFERENCE 5.5). */
void irqkit__irq_enter(struct irqkit_task *t)
{
	t->preempt_count += IRQKIT_HARDIRQ_OFFSET;
}

void irqkit__irq_exit(struct irqkit_task *t)
{
	t->preempt_count -= IRQKIT_HARDIRQ_OFFSET;
}

/*
 * might_sleep(): Linux's __might_sleep report for a call that may block made
 * from atomic context or with interrupts off, at most once a second
 * (kernel/sched/core.c, __might_resched).  The call then goes on.
 */
void irqkit__might_sleep(const char *file, int line)
{
	unsigned long *prev_jiffy = &irqkit__rt.might_sleep_prev;
	const struct irqkit_task *t = &irqkit_task_self;
	unsigned long now, prev;
	char comm[32];

	if (likely(!t->preempt_count && !task_irqs_off(t)))
		return;
	now = irqkit_jiffies();
	prev = READ_ONCE(*prev_jiffy);
	if (prev && time_after(prev + irqkit__rt.hz, now))
		return;
	if (!a_cas(prev_jiffy, &prev, now ? now : 1))
		return;
	irqkit_plat_thread_name(comm, sizeof(comm));
	pr_err("BUG: sleeping function called from invalid context at %s:%d", file, line);
	pr_err("in_atomic(): %d, irqs_disabled(): %d, non_block: 0, pid: %d, name: %s",
	       t->preempt_count != 0, task_irqs_off(t), irqkit_plat_thread_id(), comm);
	pr_err("preempt_count: %x, expected: 0", t->preempt_count);
	irqkit__dump_stack();
}
