// SPDX-License-Identifier: MIT
/*
 * Cross-CPU function calls (Linux's kernel/smp.c), <irqkit/smp.h>.  Each
 * CPU has a lock-free list of queued calls, newest first; the first call
 * on an empty list raises the CPU's function-call vector (SYSVEC_CAL, a
 * system vector as irq_work's), whose handler takes the list, puts it in
 * the order the calls came and runs each in hardirq context.  A call's
 * descriptor (call_single_data) is locked from its queueing to its end: a
 * waiter's (SYNC) is unlocked after its function returns, which the waiter
 * spins for; another's before, so that the function may queue it again.
 * A call that does not wait uses its CPU's own descriptors (one for a
 * single call, one per target for the many), each waited for before it is
 * used again, as Linux's csd_data and cfd.
 */
#include "core.h"
#include "cpu.h"
#include "bh/bh.h"
#include "sched/sched.h"
#include "time/time.h"

#include <irqkit/smp.h>
#include <irqkit/cpu.h>

#define LOCK	IRQKIT_CSD_FLAG_LOCK
#define SYNC	IRQKIT_CSD_TYPE_SYNC

/* Linux's checks: no waiting for another CPU with interrupts off, or outside task context. */
static void check_context(void)
{
	struct irqkit_cpu *me = irqkit__this_cpu();

	WARN_ONCE(me && irqkit_cpu_online(me->id) && task_irqs_off(irqkit_arch_current()),
		  "smp_call_function with interrupts off: two CPUs doing it at once deadlock");
	WARN_ONCE(!irqkit_in_task(), "smp_call_function outside task context");
}

/* CSD_LOCK_WAIT_DEBUG's timeout (smp.csd_lock_timeout=, 5000 ms), 0: no report */
static unsigned int csd_lock_timeout_ms = 5000;
static unsigned int csd_bug_id;

void irqkit_set_csd_lock_timeout(unsigned int ms)
{
	WRITE_ONCE(csd_lock_timeout_ms, ms);
}

/*
 * Until @csd is unlocked: its call has run (or, not waiting, been taken)
 * on CPU @cpu.  Deterministic mode's player runs the CPUs meanwhile.  A
 * wait past the timeout is reported as Linux's CSD lock debugging does,
 * naming the CPU that does not take its call (its interrupts off, most
 * likely), again at each further timeout, and once more when it ends.
 */
static void csd_lock_wait(struct irqkit_call_single_data *csd, int cpu)
{
	uint64_t start = 0, next = 0;
	unsigned int id = 0;

	while (a_load_acquire(&csd->flags) & LOCK) {
		uint64_t timeout, now;

		if (irqkit__det_run_softirqs())
			continue;
		if (irqkit__det_player()) {
			irqkit__warn(__FILE__, __LINE__,
				     "smp_call_function in deterministic mode where the target CPU cannot run: not waiting");
			return;
		}
		irqkit_cpu_relax();
		timeout = (uint64_t)READ_ONCE(csd_lock_timeout_ms) * 1000000u;
		if (!timeout || cpu < 0)
			continue;
		now = irqkit__now_ns();
		if (!start) {
			start = now;
			next = now + timeout;
		} else if ((int64_t)(now - next) >= 0) {
			if (!id)
				id = a_fetch_add(&csd_bug_id, 1) + 1;
			irqkit_printk(IRQKIT_LOG_ALERT, "csd: %s non-responsive CSD lock (#%u) on CPU#%d, waiting %llu ns for CPU#%02d %pS(%p).",
				 next == start + timeout ? "Detected" : "Continued", id,
				 irqkit_smp_processor_id(), (unsigned long long)(now - start), cpu,
				 (const void *)csd->func, csd->info);
			next += timeout;
		}
	}
	if (id)
		irqkit_printk(IRQKIT_LOG_ALERT, "csd: CSD lock (#%u) got unstuck on CPU#%02d, CPU#%02d released the lock.", id,
			 irqkit_smp_processor_id(), cpu);
}

/* Claim @csd for a call: wait for its last one to end. */
static void csd_lock(struct irqkit_call_single_data *csd, unsigned int flags, int cpu)
{
	for (;;) {
		unsigned int old = 0;

		if (a_cas(&csd->flags, &old, LOCK | flags))
			return;
		csd_lock_wait(csd, cpu);
	}
}

/* Onto CPU @c's list; the first call raises its vector. */
static void send(struct irqkit_cpu *c, struct irqkit_call_single_data *csd)
{
	struct irqkit_call_single_data *old = READ_ONCE(c->call_list);

	irqkit__point("smp_call_function", __builtin_return_address(0));
	do
		csd->next = old;
	while (!a_cas(&c->call_list, &old, csd));
	if (!old)
		irqkit__cpu_sysvec(c, SYSVEC_CAL);
}

/* A list taken whole (newest first) in the order its calls came. */
static struct irqkit_call_single_data *oldest_first(struct irqkit_call_single_data *list)
{
	struct irqkit_call_single_data *fifo = NULL;

	while (list) {
		struct irqkit_call_single_data *next = list->next;

		list->next = fifo;
		fifo = list;
		list = next;
	}
	return fifo;
}

/* Run @list (newest first) in the order its calls came.  Hardirq context. */
static void run_list(struct irqkit_call_single_data *list)
{
	struct irqkit_call_single_data *fifo = oldest_first(list);

	while (fifo) {
		struct irqkit_call_single_data *next = fifo->next;
		irqkit_smp_call_func_t func = fifo->func;
		void *info = fifo->info;

		if (READ_ONCE(fifo->flags) & SYNC) {
			func(info);
			a_fetch_and(&fifo->flags, ~(LOCK | SYNC));	/* a release: the waiter goes on */
		} else {
			a_fetch_and(&fifo->flags, ~LOCK);		/* may be queued again from func */
			func(info);
		}
		fifo = next;
	}
}

/* SYSVEC_CAL on @c, in hardirq context (dispatch.c). */
void irqkit__smp_call_run(struct irqkit_cpu *c)
{
	run_list(a_xchg_acquire(&c->call_list, NULL));
}

/*
 * CPU @cpu went offline: its queued calls go to @to, in the order they
 * came (Linux runs them on the dying CPU).
 */
void irqkit__smp_call_dead_cpu(unsigned int cpu, unsigned int to)
{
	struct irqkit_call_single_data *list =
		oldest_first(a_xchg_acquire(&irqkit__rt.cpus[cpu].call_list, NULL));

	while (list) {
		struct irqkit_call_single_data *next = list->next;

		send(&irqkit__rt.cpus[to], list);
		list = next;
	}
}

/* At stop: what is still queued is dropped, its descriptors unlocked. */
void irqkit__smp_call_exit(void)
{
	for (unsigned int i = 0; i < irqkit__rt.nr_cpus; i++) {
		struct irqkit_call_single_data *list = a_xchg_acquire(&irqkit__rt.cpus[i].call_list,
									NULL);

		while (list) {
			struct irqkit_call_single_data *next = list->next;

			a_fetch_and(&list->flags, ~(LOCK | SYNC));
			list = next;
		}
	}
}

static bool cpu_ok(int cpu)
{
	return cpu >= 0 && (unsigned int)cpu < irqkit__rt.nr_cpus && irqkit_cpu_online((unsigned int)cpu);
}

static void call_local(irqkit_smp_call_func_t func, void *info)
{
	unsigned long flags = irqkit_local_irq_save();

	func(info);
	irqkit_local_irq_restore(flags);
}

int irqkit_smp_call_function_single(int cpu, irqkit_smp_call_func_t func, void *info, int wait)
{
	struct irqkit_call_single_data stack_csd = { 0 }, *csd;
	struct irqkit_cpu *me = irqkit__this_cpu();

	if (!me || !irqkit__rt.cpus)
		return -IRQKIT_ENXIO;
	check_context();
	if (!cpu_ok(cpu))
		return -IRQKIT_ENXIO;
	if ((unsigned int)cpu == me->id) {
		call_local(func, info);
		return 0;
	}
	if (wait) {
		csd = &stack_csd;
		csd->flags = LOCK | SYNC;
	} else {
		csd = &me->csd_single;
		csd_lock(csd, 0, -1);	/* its last target is not known here */
	}
	csd->func = func;
	csd->info = info;
	send(&irqkit__rt.cpus[cpu], csd);
	if (wait)
		csd_lock_wait(csd, cpu);
	return 0;
}

int irqkit_smp_call_function_single_async(int cpu, struct irqkit_call_single_data *csd)
{
	unsigned int old = 0;

	if (!irqkit__rt.cpus || !cpu_ok(cpu))
		return -IRQKIT_ENXIO;
	if (!a_cas(&csd->flags, &old, LOCK))
		return -IRQKIT_EBUSY;
	send(&irqkit__rt.cpus[cpu], csd);
	return 0;
}

int irqkit_smp_call_function_any(irqkit_cpumask mask, irqkit_smp_call_func_t func, void *info,
				 int wait)
{
	struct irqkit_cpu *me = irqkit__this_cpu();
	irqkit_cpumask online = mask & irqkit__online_mask();

	if (me && (online & ((irqkit_cpumask)1 << me->id)))
		return irqkit_smp_call_function_single((int)me->id, func, info, wait);
	if (!online)
		return -IRQKIT_ENXIO;
	return irqkit_smp_call_function_single(__builtin_ctzll(online), func, info, wait);
}

/* smp_call_function_many_cond: the online CPUs of @mask that @cond picks, this one if @local. */
static void call_many(irqkit_smp_cond_func_t cond, irqkit_smp_call_func_t func, void *info,
		      bool wait, irqkit_cpumask mask, bool local)
{
	struct irqkit_cpu *me = irqkit__this_cpu();
	irqkit_cpumask sent = 0, targets;

	if (!me || !irqkit__rt.cpus)
		return;
	check_context();
	targets = mask & irqkit__online_mask();
	for (irqkit_cpumask m = targets & ~((irqkit_cpumask)1 << me->id); m; m &= m - 1) {
		unsigned int cpu = (unsigned int)__builtin_ctzll(m);
		struct irqkit_call_single_data *csd = &me->csd_many[cpu];

		if (cond && !cond((int)cpu, info))
			continue;
		csd_lock(csd, wait ? SYNC : 0, (int)cpu);
		csd->func = func;
		csd->info = info;
		send(&irqkit__rt.cpus[cpu], csd);
		sent |= (irqkit_cpumask)1 << cpu;
	}
	if (local && (targets & ((irqkit_cpumask)1 << me->id)) && (!cond || cond((int)me->id, info)))
		call_local(func, info);
	if (wait)
		for (; sent; sent &= sent - 1)
			csd_lock_wait(&me->csd_many[__builtin_ctzll(sent)], __builtin_ctzll(sent));
}

void irqkit_smp_call_function_many(irqkit_cpumask mask, irqkit_smp_call_func_t func, void *info,
				   bool wait)
{
	call_many(NULL, func, info, wait, mask, false);
}

void irqkit_smp_call_function(irqkit_smp_call_func_t func, void *info, int wait)
{
	call_many(NULL, func, info, wait, ~(irqkit_cpumask)0, false);
}

void irqkit_on_each_cpu_cond_mask(irqkit_smp_cond_func_t cond, irqkit_smp_call_func_t func,
				  void *info, bool wait, irqkit_cpumask mask)
{
	call_many(cond, func, info, wait, mask, true);
}

void irqkit_on_each_cpu_mask(irqkit_cpumask mask, irqkit_smp_call_func_t func, void *info,
			     bool wait)
{
	call_many(NULL, func, info, wait, mask, true);
}

void irqkit_on_each_cpu(irqkit_smp_call_func_t func, void *info, int wait)
{
	call_many(NULL, func, info, wait, ~(irqkit_cpumask)0, true);
}
