// SPDX-License-Identifier: MIT
/* Per-thread interrupt context: the local interrupt flag and bottom halves of bound threads, might_sleep. */
#include "core.h"
#include "cpu.h"
#include "bh/bh.h"
#include "time/time.h"
#include "locking/locking.h"

/*
 * Join the holders of CPU @c that keep interrupt context out (@one is
 * SLOT_IRQOFF_ONE or SLOT_BHOFF_ONE): wait while a hardirq runs, or a softirq
 * runs on another thread (its own holder may turn its interrupts off).
 */
static __attribute__((noinline)) void join_task_holders_wait(struct irqkit_task *t,
							     struct irqkit_cpu *c, unsigned int one)
{
	unsigned int spins = 0;
	unsigned int s = READ_ONCE(c->slot);

	for (;;) {
		unsigned int busy = SLOT_HARDIRQ;

		if (!(t->slot & TASK_SLOT_SOFTIRQ))
			busy |= SLOT_SOFTIRQ;
		if (!(s & busy)) {
			if (a_cas(&c->slot, &s, s + one))
				return;
			continue;
		}
		irqkit__slot_wait(c, s, &spins);
		s = READ_ONCE(c->slot);
	}
}

/* The common case, one compare-and-swap, inline; waiting out of line. */
static inline void join_task_holders(struct irqkit_task *t, struct irqkit_cpu *c, unsigned int one)
{
	unsigned int s = READ_ONCE(c->slot);
	unsigned int busy = (t->slot & TASK_SLOT_SOFTIRQ) ? SLOT_HARDIRQ : SLOT_HARDIRQ | SLOT_SOFTIRQ;

	if (likely(!(s & busy)) && a_cas(&c->slot, &s, s + one))
		return;
	join_task_holders_wait(t, c, one);
}

/*
 * Turning interrupts off on a thread bound to CPU k: join the CPU's
 * interrupts-off holders, which keeps hardirq handlers off k.  A thread
 * running hardirq handlers already owns the CPU: only its flag moves.
 */
void irqkit_local_irq_disable_slow(struct irqkit_task *t)
{
	if (!task_stale(t) && t->cpu && !(t->slot & TASK_SLOT_HARDIRQ)) {
		join_task_holders(t, t->cpu, SLOT_IRQOFF_ONE);
		t->slot |= TASK_SLOT_IRQOFF;
		WRITE_ONCE(t->cpu->irqoff_task, t);	/* who to name in a hard lockup */
	}
	task_set_irqs_off(t, true);
}

/*
 * Turning interrupts back on: the last interrupts-off holder of the CPU takes
 * the interrupts latched meanwhile, on this thread, as a CPU takes them when
 * its interrupt flag comes back.  Pending softirqs do not run here (as in
 * Linux): only at the irq_exit of an interrupt taken now, local_bh_enable,
 * or in ksoftirqd.
 */
void irqkit_local_irq_enable_slow(struct irqkit_task *t)
{
	struct irqkit_cpu *c;
	unsigned int s;

	task_stale(t);
	c = t->cpu;
	task_set_irqs_off(t, false);
	if (!(t->slot & TASK_SLOT_IRQOFF))
		return;		/* in hardirq context: only the flag (the flow warns) */
	t->slot &= ~TASK_SLOT_IRQOFF;
	s = a_fetch_sub(&c->slot, SLOT_IRQOFF_ONE) - SLOT_IRQOFF_ONE;
	irqkit__slot_wake(c);
	/* the full barrier above pairs with the signaller's (dispatch.c lost-wakeup rules) */
	if (!(s & SLOT_IRQOFF_MASK) && !(t->preempt_count & IRQKIT_HARDIRQ_MASK))
		irqkit__cpu_deliver_hardirqs(t, c);
}

/*
 * A port whose interrupt flag is the CPU's own (bare metal), in
 * deterministic mode, where no trap enters the core: bound thread @t turned
 * interrupts back on, so its CPU's pending hardirqs run now, as the trap
 * would have taken them (softirqs wait for their own points).
 */
void irqkit_local_irq_enabled_deliver(struct irqkit_task *t)
{
	if (task_stale(t) || !t->cpu || (t->preempt_count & IRQKIT_HARDIRQ_MASK))
		return;
	irqkit__cpu_deliver_hardirqs(t, t->cpu);
}

/*
 * local_bh_disable on a bound thread: the outermost one joins the CPU's
 * bh-off holders, which keeps softirqs (tasklets, timers) off the CPU.  In
 * PREEMPT_RT mode a preemptible one first takes the CPU's bh_lock, a
 * sleeping lock, so bh-off sections of one CPU exclude each other while
 * the code in them stays preemptible, as RT's softirq_ctrl.lock.
 */
static __attribute__((noinline)) void bh_disable_rt(struct irqkit_task *t)
{
	/* preemptible but for this disable: RT takes the lock only then */
	if (t->preempt_count == IRQKIT_SOFTIRQ_DISABLE_OFFSET && !task_irqs_off(t)) {
		irqkit__rt_word_lock(&t->cpu->bh_lock);
		t->slot |= TASK_SLOT_BHLOCK;
	}
	join_task_holders(t, t->cpu, SLOT_BHOFF_ONE);
	t->slot |= TASK_SLOT_BHOFF;
}

void irqkit_local_bh_disable_slow(struct irqkit_task *t)
{
	bool outermost = !(t->preempt_count & IRQKIT_SOFTIRQ_MASK);

	t->preempt_count += IRQKIT_SOFTIRQ_DISABLE_OFFSET;
	if (outermost && !task_stale(t) && t->cpu &&
	    !(t->slot & (TASK_SLOT_HARDIRQ | TASK_SLOT_SOFTIRQ))) {
		if (unlikely(irqkit__rt.flags & IRQKIT_CFG_PREEMPT_RT)) {
			bh_disable_rt(t);
			return;
		}
		join_task_holders(t, t->cpu, SLOT_BHOFF_ONE);
		t->slot |= TASK_SLOT_BHOFF;
	}
}

/* PREEMPT_RT: the outermost local_bh_enable lets the CPU's bh_lock go. */
static void bh_unlock_rt(struct irqkit_task *t, struct irqkit_cpu *c)
{
	if (unlikely(t->slot & TASK_SLOT_BHLOCK)) {
		t->slot &= ~TASK_SLOT_BHLOCK;
		irqkit__rt_word_unlock(&c->bh_lock);
	}
}

/*
 * local_bh_enable with something to check: a bound thread (leaving the bh-off
 * holders, then running pending softirqs itself), or
 * the misuse Linux warns about (hardirq context, interrupts off).
 */
void irqkit_local_bh_enable_slow(struct irqkit_task *t)
{
	struct irqkit_cpu *c;
	bool bad, deliver;

	task_stale(t);
	c = t->cpu;
	/* read once: neither changes below, and both rule delivery out */
	bad = (t->preempt_count & IRQKIT_HARDIRQ_MASK) || task_irqs_off(t);
	if (unlikely(bad)) {
		WARN_ON_ONCE(t->preempt_count & IRQKIT_HARDIRQ_MASK);
		WARN_ON_ONCE(task_irqs_off(t));
	}
	t->preempt_count -= IRQKIT_SOFTIRQ_DISABLE_OFFSET;
	if (!c || (t->preempt_count & IRQKIT_SOFTIRQ_MASK))
		return;
	deliver = !bad && !t->nodeliver;
	if (t->slot & TASK_SLOT_BHOFF) {
		t->slot &= ~TASK_SLOT_BHOFF;
		/*
		 * The common case in one step: the only bh-off holder, softirqs
		 * pending and no hardirq: the bh-off hold becomes the softirq
		 * hold (one compare-and-swap, where leaving and claiming took two).
		 */
		if (deliver && irqkit__softirq_pending(c) && !hardirq_pending(c) &&
		    irqkit__claim_softirq(t, c, SLOT_BHOFF_ONE)) {
			irqkit__run_softirqs_held(t, c);
			bh_unlock_rt(t, c);
			return;
		}
		a_fetch_sub(&c->slot, SLOT_BHOFF_ONE);
		irqkit__slot_wake(c);
		bh_unlock_rt(t, c);
	}
	if (deliver && irqkit__cpu_pending(c))
		irqkit__cpu_deliver(t, c);
	/* PREEMPT_RT: what is pending when bottom halves come back on is this thread's to run */
	if (irqkit__softirqs_threaded() && deliver && irqkit__softirq_pending(c) &&
	    !(t->slot & TASK_SLOT_SOFTIRQ) && !(t->preempt_count & IRQKIT_PREEMPT_MASK) &&
	    irqkit__claim_softirq(t, c, 0))
		irqkit__run_softirqs_held(t, c);
}

/*
 * might_sleep(): Linux's __might_sleep report for a call that may block made
 * from atomic context or with interrupts off, at most once a second
 * (kernel/sched/core.c, __might_resched).  The call then goes on.  In
 * PREEMPT_RT mode the softirq count is not atomic context: RT keeps it out
 * of preempt_count, since bottom halves run in preemptible tasks there.
 */
void irqkit__might_sleep(const char *file, int line)
{
	unsigned long *prev_jiffy = &irqkit__rt.might_sleep_prev;
	const struct irqkit_task *t = irqkit_arch_current();
	unsigned int pc = t->preempt_count;
	unsigned long now, prev;
	char comm[32];

	if (unlikely(irqkit__rt.flags & IRQKIT_CFG_PREEMPT_RT))
		pc &= ~IRQKIT_SOFTIRQ_MASK;
	if (likely(!pc && !task_irqs_off(t)))
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
	       pc != 0, task_irqs_off(t), irqkit_plat_thread_id(), comm);
	pr_err("preempt_count: %x, expected: 0", pc);
	irqkit__dump_stack();
}
