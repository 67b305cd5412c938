// SPDX-License-Identifier: MIT
/*
 * irq_poll (Linux's lib/irq_poll.c): a driver's interrupt handler hands
 * its completions to a poll function that the IRQ_POLL softirq calls with
 * a weight, on the CPU that scheduled it, until a poll uses less than its
 * weight and completes.  Each CPU keeps its scheduled instances in a list
 * under a lock of its own (Linux relies on interrupts being off on its own
 * CPU; irqkit's unbound threads act for CPU 0 beside it).  The softirq
 * takes the first instance off the lock for its poll, as Linux takes it
 * with interrupts on: new instances only ever join at the tail, and only a
 * poll removes its own.
 */
#include "core.h"
#include "cpu.h"
#include "bh.h"
#include "sched/sched.h"

#include <irqkit/irq_poll.h>
#include <irqkit/kernel.h>

#define SCHED	(1ul << IRQKIT_IRQ_POLL_F_SCHED)
#define DISABLE	(1ul << IRQKIT_IRQ_POLL_F_DISABLE)

static struct irqkit_irq_poll *entry_of(struct irqkit_list_head *l)
{
	return container_of(l, struct irqkit_irq_poll, list);
}

void irqkit_irq_poll_init(struct irqkit_irq_poll *iop, int weight, irqkit_irq_poll_fn *poll)
{
	*iop = (struct irqkit_irq_poll){ .weight = weight, .poll = poll };
	ilist_init(&iop->list);
}

void irqkit_irq_poll_sched(struct irqkit_irq_poll *iop)
{
	struct irqkit_cpu *c;
	unsigned long flags;

	if (a_load_seq(&iop->state) & DISABLE)
		return;
	if (a_fetch_or(&iop->state, SCHED) & SCHED)
		return;
	c = irqkit__this_cpu();
	if (!c) {
		a_fetch_and(&iop->state, ~SCHED);
		return;
	}
	flags = irqkit_spin_lock_irqsave(&c->iopoll_lock);
	ilist_add_tail(&iop->list, &c->iopoll);
	irqkit_spin_unlock_irqrestore(&c->iopoll_lock, flags);
	/* from outside this CPU's interrupt context, ksoftirqd is woken (raise_softirq_irqoff) */
	irqkit_raise_softirq_irqoff(IRQKIT_IRQ_POLL_SOFTIRQ);
}

/* Off the list, not scheduled.  Caller: the list's lock. */
static void poll_complete_locked(struct irqkit_irq_poll *iop)
{
	ilist_del_init(&iop->list);
	a_fetch_and(&iop->state, ~SCHED);	/* a release: the poll's work is seen first */
}

void irqkit_irq_poll_complete(struct irqkit_irq_poll *iop)
{
	struct irqkit_cpu *c = irqkit__this_cpu();
	unsigned long flags;

	if (!c)
		return;
	flags = irqkit_spin_lock_irqsave(&c->iopoll_lock);
	poll_complete_locked(iop);
	irqkit_spin_unlock_irqrestore(&c->iopoll_lock, flags);
}

/* The IRQ_POLL softirq: this CPU's instances, within the budget and one jiffy. */
static void irq_poll_softirq(void)
{
	struct irqkit_cpu *c = irqkit__this_cpu();
	unsigned long start = irqkit_jiffies(), flags;
	int budget = IRQKIT_IRQ_POLL_BUDGET;
	bool rearm = false;

	if (!c)
		return;
	flags = irqkit_spin_lock_irqsave(&c->iopoll_lock);
	while (!ilist_empty(&c->iopoll)) {
		struct irqkit_irq_poll *iop;
		int work = 0, weight;

		if (budget <= 0 || irqkit_time_after(irqkit_jiffies(), start)) {
			rearm = true;
			break;
		}
		iop = entry_of(c->iopoll.next);
		irqkit_spin_unlock_irqrestore(&c->iopoll_lock, flags);
		weight = iop->weight;
		if (a_load_seq(&iop->state) & SCHED)
			work = iop->poll(iop, weight);
		budget -= work;
		flags = irqkit_spin_lock_irqsave(&c->iopoll_lock);
		/* the whole weight used: the instance is still ours to move */
		if (work >= weight) {
			if (a_load_seq(&iop->state) & DISABLE) {
				poll_complete_locked(iop);
			} else {
				ilist_del_init(&iop->list);
				ilist_add_tail(&iop->list, &c->iopoll);
			}
		}
	}
	irqkit_spin_unlock_irqrestore(&c->iopoll_lock, flags);
	if (rearm)
		irqkit_raise_softirq_irqoff(IRQKIT_IRQ_POLL_SOFTIRQ);
}

void irqkit_irq_poll_disable(struct irqkit_irq_poll *iop)
{
	a_fetch_or(&iop->state, DISABLE);
	while (a_fetch_or(&iop->state, SCHED) & SCHED) {
		int turn = det_wait_turn("irq_poll_disable", "the poll");

		if (turn < 0)
			break;
		if (!turn)
			irqkit_msleep(1);
	}
	a_fetch_and(&iop->state, ~DISABLE);
}

void irqkit_irq_poll_enable(struct irqkit_irq_poll *iop)
{
	if (!(a_load_seq(&iop->state) & SCHED))
		irqkit_bug_at(__FILE__, __LINE__);	/* Linux: BUG_ON, an enable without a disable */
	a_fetch_and(&iop->state, ~SCHED);
}

/* CPU @cpu went offline: its instances go to the end of @to's list, IRQ_POLL raised there. */
void irqkit__irq_poll_takeover(unsigned int cpu, unsigned int to)
{
	struct irqkit_cpu *from = &irqkit__rt.cpus[cpu], *c = &irqkit__rt.cpus[to];
	struct irqkit_list_head moved;
	unsigned long flags;

	ilist_init(&moved);
	flags = irqkit_spin_lock_irqsave(&from->iopoll_lock);
	ilist_splice_tail_init(&from->iopoll, &moved);
	irqkit_spin_unlock_irqrestore(&from->iopoll_lock, flags);
	if (ilist_empty(&moved))
		return;
	flags = irqkit_spin_lock_irqsave(&c->iopoll_lock);
	ilist_splice_tail_init(&moved, &c->iopoll);
	irqkit__raise_softirq_on(c, IRQKIT_IRQ_POLL_SOFTIRQ);
	irqkit_spin_unlock_irqrestore(&c->iopoll_lock, flags);
	irqkit__wakeup_softirqd(c);
}

void irqkit__irq_poll_init(void)
{
	for (unsigned int i = 0; i < irqkit__rt.nr_cpus; i++) {
		ilist_init(&irqkit__rt.cpus[i].iopoll);
		irqkit_spin_lock_init(&irqkit__rt.cpus[i].iopoll_lock);
	}
	irqkit_open_softirq(IRQKIT_IRQ_POLL_SOFTIRQ, irq_poll_softirq);
}
