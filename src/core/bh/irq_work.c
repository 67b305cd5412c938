// SPDX-License-Identifier: MIT
/*
 * irq_work (Linux's kernel/irq_work.c), <irqkit/irq_work.h>: each CPU has a
 * lock-free list of queued items, newest first; the first item on an empty
 * list raises the CPU's IRQ work vector (SYSVEC_IWI, a system vector as the
 * local timer's), whose handler takes the whole list and runs it in hardirq
 * context.  The item's flags carry its state: PENDING from the claim (the
 * queueing) to the start of its callback, BUSY to its end, so that an item
 * queued again while it runs runs again, and a queueing of a pending item
 * is a no-op.
 *
 * PREEMPT_RT mode, as Linux's: an item not marked IRQ_WORK_HARD_IRQ goes on
 * the CPU's other list instead, run in task context by that CPU's
 * irq_work/N thread, where its callback may take a spinlock_t (which sleeps
 * there).
 */
#include "core.h"
#include "cpu.h"
#include "bh.h"
#include "debug/debug.h"
#include "sched/sched.h"

#include <irqkit/irq_work.h>

void irqkit_init_irq_work(struct irqkit_irq_work *work, void (*fn)(struct irqkit_irq_work *))
{
	*work = (struct irqkit_irq_work){ .func = fn };
}

/* Claim @work for a queueing: false if it is pending already. */
static bool claim(struct irqkit_irq_work *work)
{
	unsigned int old = a_fetch_or(&work->flags, IRQKIT_IRQ_WORK_CLAIMED);

	return !(old & IRQKIT_IRQ_WORK_PENDING);
}

/* Push @work on @list; was the list empty? */
static bool push(struct irqkit_irq_work **list, struct irqkit_irq_work *work)
{
	struct irqkit_irq_work *old = READ_ONCE(*list);

	do
		work->next = old;
	while (!a_cas(list, &old, work));
	return !old;
}

/* Onto @c's list; the first item raises the vector (RT: wakes irq_work/N). */
static void enqueue(struct irqkit_cpu *c, struct irqkit_irq_work *work)
{
	if (unlikely(c->irq_workd) && !(READ_ONCE(work->flags) & IRQKIT_IRQ_WORK_HARD_IRQ)) {
		if (push(&c->irq_work_lazy, work))
			irqkit__seq_wake(&c->irq_workd_seq);
		return;
	}
	if (push(&c->irq_work, work))
		irqkit__cpu_sysvec(c, SYSVEC_IWI);
}

static bool queue_on(struct irqkit_irq_work *work, struct irqkit_cpu *c)
{
	if (WARN_ONCE(!work->func, "irq_work_queue() of irq_work %p with no function "
		      "(init_irq_work() missing?): refused", (void *)work))
		return false;
	if (!claim(work))
		return false;
	irqkit__point("irq_work_queue", __builtin_return_address(0));
	enqueue(c, work);
	return true;
}

bool irqkit_irq_work_queue(struct irqkit_irq_work *work)
{
	struct irqkit_cpu *c = irqkit__this_cpu();

	return c ? queue_on(work, c) : false;
}

bool irqkit_irq_work_queue_on(struct irqkit_irq_work *work, unsigned int cpu)
{
	struct irqkit__runtime *rt = &irqkit__rt;

	if (!rt->cpus)
		return false;
	if (WARN_ONCE(cpu >= rt->nr_cpus, "irq_work_queue_on() to CPU %u of %u: refused", cpu,
		      rt->nr_cpus))
		return false;
	WARN_ONCE(!(irqkit__online_mask() & ((irqkit_cpumask)1 << cpu)),
		  "irq_work_queue_on() to offline CPU %u: it runs when the CPU is back", cpu);
	return queue_on(work, &rt->cpus[cpu]);
}

/*
 * Run the items taken from one of @c's lists, newest first.  Each item's
 * next is read before its PENDING bit goes: from then on another CPU may
 * queue it again, on another list.
 */
static void run_list(struct irqkit_cpu *c, struct irqkit_irq_work *work)
{
	struct irqkit_task *task = irqkit_arch_current();

	while (work) {
		struct irqkit_irq_work *next = work->next;
		void (*fn)(struct irqkit_irq_work *) = work->func;
		const void *outer_fn = task->running_fn;
		unsigned int flags = a_fetch_and(&work->flags, ~IRQKIT_IRQ_WORK_PENDING) &
				     ~IRQKIT_IRQ_WORK_PENDING;

		WRITE_ONCE(task->running_fn, (const void *)fn);
		WRITE_ONCE(c->irq_work_running, work);
		fn(work);
		WRITE_ONCE(c->irq_work_running, NULL);
		WRITE_ONCE(task->running_fn, outer_fn);
		/* not busy any more, unless queued again meanwhile */
		(void)a_cas(&work->flags, &flags, flags & ~IRQKIT_IRQ_WORK_BUSY);
		work = next;
	}
}

/* SYSVEC_IWI on @c, in hardirq context (dispatch.c): take the list and run it. */
void irqkit__irq_work_run(struct irqkit_cpu *c)
{
	run_list(c, a_xchg_acquire(&c->irq_work, NULL));
}

/* PREEMPT_RT's irq_work/N: the CPU's items not marked hard, in task context. */
static void irq_workd_main(void *arg)
{
	struct irqkit_cpu *c = arg;

	if (irqkit__kthread_bind((int)c->id))
		irqkit_plat_fatal("irq_work/N cannot bind to its CPU");
	for (;;) {
		unsigned int seq = a_load_seq(&c->irq_workd_seq);
		struct irqkit_irq_work *work;

		if (a_load_seq(&c->irq_workd_stop))
			break;
		work = a_xchg_acquire(&c->irq_work_lazy, NULL);
		if (work) {
			run_list(c, work);
			continue;
		}
		if (!a_load_seq(&c->irq_workd_stop) && !READ_ONCE(c->irq_work_lazy))
			irqkit_plat_wait(&c->irq_workd_seq, seq);
	}
	irqkit_thread_unbind();
}

/* PREEMPT_RT mode: start each CPU's irq_work/N.  Process context. */
int irqkit__irq_work_init(void)
{
	struct irqkit__runtime *rt = &irqkit__rt;

	if (!(rt->flags & IRQKIT_CFG_PREEMPT_RT))
		return 0;
	for (unsigned int i = 0; i < rt->nr_cpus; i++) {
		struct irqkit_cpu *c = &rt->cpus[i];
		char name[24];

		irqkit__snprintf(name, sizeof(name), "irq_work/%u", i);
		if (irqkit_plat_thread_create(&c->irq_workd, name, irq_workd_main, c)) {
			irqkit__irq_work_exit();
			return -IRQKIT_ENOMEM;
		}
	}
	return 0;
}

void irqkit_irq_work_sync(struct irqkit_irq_work *work)
{
	struct irqkit_cpu *c = irqkit__this_cpu();
	struct irqkit__wait w;
	unsigned int spins = 0;

	/* its own callback, in the IRQ work interrupt or (RT) in irq_work/N */
	if (c && READ_ONCE(c->irq_work_running) == work &&
	    READ_ONCE(irqkit_arch_current()->running_fn) == (const void *)work->func) {
		irqkit__warn(__FILE__, __LINE__,
			     "irq_work_sync() called from the irq_work's own callback: it would wait for itself forever; not waiting");
		return;
	}
	might_sleep();
	irqkit__wait_init(&w);
	while (irqkit_irq_work_is_busy(work)) {
		irqkit__wait_begin(&w, "irq_work_sync", WAIT_TIMER, work, 0);
		spin_step(&spins);
	}
	irqkit__wait_end(&w);
}

/* The items of @list, taken whole, onto CPU @to's lists, in their order. */
static void move_list(struct irqkit_irq_work **list, unsigned int to)
{
	struct irqkit_irq_work *work = a_xchg_acquire(list, NULL);
	struct irqkit_irq_work *oldest_first = NULL;

	while (work) {			/* newest first: reverse, so pushing keeps the order */
		struct irqkit_irq_work *next = work->next;

		work->next = oldest_first;
		oldest_first = work;
		work = next;
	}
	while (oldest_first) {
		struct irqkit_irq_work *next = oldest_first->next;

		enqueue(&irqkit__rt.cpus[to], oldest_first);
		oldest_first = next;
	}
}

/* CPU @cpu went offline: what is queued on it (RT's thread's items too) moves to CPU @to. */
void irqkit__irq_work_dead_cpu(unsigned int cpu, unsigned int to)
{
	move_list(&irqkit__rt.cpus[cpu].irq_work, to);
	move_list(&irqkit__rt.cpus[cpu].irq_work_lazy, to);
}

/* Items still queued on @list are dropped, not pending any more (their memory is the caller's). */
static void drop(struct irqkit_irq_work **list)
{
	struct irqkit_irq_work *work = a_xchg_acquire(list, NULL);

	while (work) {
		struct irqkit_irq_work *next = work->next;

		a_fetch_and(&work->flags, ~IRQKIT_IRQ_WORK_CLAIMED);
		work = next;
	}
}

/* At stop: RT's irq_work/N threads end (a running callback first returns), then the lists go. */
void irqkit__irq_work_exit(void)
{
	for (unsigned int i = 0; i < irqkit__rt.nr_cpus; i++) {
		struct irqkit_cpu *c = &irqkit__rt.cpus[i];

		if (!c->irq_workd)
			continue;
		a_store_seq(&c->irq_workd_stop, 1);
		irqkit__seq_wake(&c->irq_workd_seq);
		irqkit_plat_thread_join(c->irq_workd);
		c->irq_workd = NULL;
	}
	for (unsigned int i = 0; i < irqkit__rt.nr_cpus; i++) {
		drop(&irqkit__rt.cpus[i].irq_work);
		drop(&irqkit__rt.cpus[i].irq_work_lazy);
	}
}
