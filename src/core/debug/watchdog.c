// SPDX-License-Identifier: MIT
/*
 * The watchdog (threaded mode): Linux's soft-lockup detector, hung-task
 * detector and workqueue watchdog, in their words, on one thread that wakes
 * a few times per threshold.
 *
 * - Soft lockup: a CPU's hardirq or softirq hold taken once (cpu->hold_gen
 *   unchanged) and still held after the threshold means a handler, softirq
 *   action, tasklet or timer callback that has not returned.
 * - Blocked wait: each wait that may not end registers itself
 *   (irqkit__wait_begin/_end) while it sleeps; one older than the threshold
 *   is reported once, naming what it waits for.
 * - Workqueue lockup and the joining of reaped idle workers: workqueue.c,
 *   called from here.
 *
 * The thread sleeps on a word, so stop wakes it at once.
 */
#include "core.h"
#include "cpu.h"
#include "bh/bh.h"
#include "sched/sched.h"
#include "debug.h"
#include "irq/internals.h"
#include <irqkit/workqueue.h>

#define NSEC_PER_MSEC		1000000ull
/* Defaults: a few seconds, as the issue asks; Linux's own are 20 s (soft) and 120 s (hung). */
#define WATCHDOG_MS_DEFAULT	5000u
#define WORKER_IDLE_MS_DEFAULT	300000u		/* Linux's IDLE_WORKER_TIMEOUT, 5 minutes */

static struct irqkit_spinlock wait_lock = IRQKIT_SPINLOCK_INIT;
static struct irqkit__wait *waits;		/* wait_lock */
static struct irqkit_plat_thread *wd_thread;
static unsigned int wd_stop;
/* Stop is freeing the pools: the watchdog keeps off them (irqkit__watchdog_quiesce). */
static unsigned int wd_no_pools, wd_in_pools;

/* ---- blocked waits ------------------------------------------------------------------ */

/*
 * irqkit__wait_begin - the caller is about to sleep in @what until something
 * happens that may never happen.  @w (irqkit__wait_init'ed) lives on the
 * caller's stack until irqkit__wait_end(); calls after the first do nothing.
 * Nothing is recorded when the watchdog is off.
 * Context: process context.
 */
void irqkit__wait_begin_slow(struct irqkit__wait *w, const char *what,
			     enum irqkit__wait_kind kind, const void *obj, unsigned long num)
{
	*w = (struct irqkit__wait){ .what = what, .kind = kind, .obj = obj, .num = num, .fn = w->fn };
	if (!READ_ONCE(irqkit__rt.watchdog_ns))
		return;
	w->since = irqkit_plat_now_ns();
	w->tid = irqkit_plat_thread_id();
	w->registered = true;
	irqkit_spin_lock(&wait_lock);
	w->next = waits;
	if (waits)
		waits->pprev = &w->next;
	w->pprev = &waits;
	waits = w;
	irqkit_spin_unlock(&wait_lock);
}

void irqkit__wait_end_slow(struct irqkit__wait *w)
{
	bool reported;

	irqkit_spin_lock(&wait_lock);
	*w->pprev = w->next;
	if (w->next)
		w->next->pprev = w->pprev;
	reported = w->reported;
	irqkit_spin_unlock(&wait_lock);
	if (reported)
		pr_info("INFO: task %d: %s() finished after all", w->tid, w->what);
	w->registered = false;
}

/* Another thread's stack, as Linux prints a blocked task's. */
static void print_task_stack(int tid)
{
	void *frames[24];
	int n = irqkit_plat_backtrace_of(tid, frames, (int)ARRAY_SIZE(frames));

	if (n <= 0)
		return;
	pr_err("Call Trace:");
	for (int i = 0; i < n; i++)
		pr_err(" %pS", frames[i]);
}

/* The thread that runs a handler of @irq now, on some CPU, if any. */
static const struct irqkit_task *runner_of_irq(unsigned int irq)
{
	const struct irqkit_desc *desc = irq_to_desc(irq);

	for (unsigned int i = 0; desc && i < irqkit__rt.nr_cpus; i++) {
		const struct irqkit_cpu *c = &irqkit__rt.cpus[i];
		const struct irqkit_task *t = READ_ONCE(c->hold_task[HOLD_HARDIRQ]);

		if ((a_load_seq(&c->slot) & SLOT_HARDIRQ) && t && READ_ONCE(t->running) == desc)
			return t;
	}
	return NULL;
}

/* What a report needs of a wait, copied while the waiter is registered. */
struct wait_report {
	struct irqkit__wait	w;
	const void		*fn;	/* the work, tasklet or timer function */
};

static void report_wait(const struct wait_report *r, uint64_t now)
{
	const struct irqkit__wait *w = &r->w;
	char comm[32], who[32];
	const struct irqkit_task *runner;

	irqkit_plat_thread_name_of(w->tid, comm, sizeof(comm));
	pr_err("INFO: task %s:%d blocked for more than %llu seconds.", comm, w->tid,
	       irqkit__secs_up(now - w->since));
	switch (w->kind) {
	case WAIT_IRQ:
		runner = runner_of_irq((unsigned int)w->num);
		if (runner) {
			int tid = READ_ONCE(runner->tid);

			irqkit_plat_thread_name_of(tid, who, sizeof(who));
			pr_err("      %s(%lu) waits for handler %ps running on %s:%d", w->what, w->num,
			       READ_ONCE(runner->running_fn), who, tid);
		} else {
			pr_err("      %s(%lu) waits for the line's handlers and threads", w->what,
			       w->num);
		}
		break;
	case WAIT_WORK:
		pr_err("      %s() waits for work %p (%ps)", w->what, w->obj, r->fn);
		break;
	case WAIT_WORKQUEUE:
		pr_err("      %s(%s) waits for the queue's items", w->what, (const char *)w->obj);
		break;
	case WAIT_TASKLET:
	case WAIT_TIMER:
		pr_err("      %s() waits for %s %p (%ps)", w->what,
		       w->kind == WAIT_TASKLET ? "tasklet" : "timer", w->obj, r->fn);
		break;
	case WAIT_SLEEP:
		pr_err("      in an uninterruptible sleep (%s())", w->what);
		break;
	case WAIT_KTHREAD:
		pr_err("      %s() waits for kthread %s", w->what, (const char *)w->obj);
		break;
	}
	print_task_stack(w->tid);
}

/* The function behind a wait's object: recorded by the waiter, or read while it keeps the object alive. */
static const void *wait_fn(const struct irqkit__wait *w)
{
	const struct irqkit_work *work = w->obj;
	const struct irqkit_tasklet *t = w->obj;
	const struct irqkit_timer_list *tm = w->obj;

	if (w->fn)
		return w->fn;
	switch (w->kind) {
	case WAIT_WORK:
		return irqkit__work_fn(work);
	case WAIT_TASKLET:
		return (const void *)t->callback;	/* func shares its union */
	case WAIT_TIMER:
		return (const void *)tm->function;
	default:
		return NULL;
	}
}

/*
 * Report each wait older than @thresh once; at most a few per pass, outside
 * the lock.  A wait that began after @now was read (the pass reads the
 * clock once, before the CPUs' checks) is not old: its age would wrap.
 */
static void check_waits(uint64_t now, uint64_t thresh)
{
	struct wait_report due[8];
	unsigned int n = 0;

	irqkit_spin_lock(&wait_lock);
	for (struct irqkit__wait *w = waits; w && n < ARRAY_SIZE(due); w = w->next) {
		if (w->reported || now < w->since || now - w->since < thresh)
			continue;
		w->reported = true;
		due[n].w = *w;
		due[n].fn = wait_fn(w);
		n++;
	}
	irqkit_spin_unlock(&wait_lock);
	for (unsigned int i = 0; i < n; i++)
		report_wait(&due[i], now);
}

/* ---- soft lockup ------------------------------------------------------------------------ */

static void report_lockup(struct irqkit_cpu *c, int which, uint64_t stuck)
{
	const struct irqkit_task *t = READ_ONCE(c->hold_task[which]);
	char comm[32];
	int tid = t ? READ_ONCE(t->tid) : 0;

	irqkit_plat_thread_name_of(tid, comm, sizeof(comm));
	pr_emerg("watchdog: BUG: soft lockup - CPU#%u stuck for %llus! [%s:%d]", c->id,
		 irqkit__secs_up(stuck), comm, tid);
	if (!t)
		return;
	if (which == HOLD_HARDIRQ) {
		const struct irqkit_desc *desc = READ_ONCE(t->running);

		pr_emerg("in hardirq: irq %u handler %ps", desc ? irq_desc_get_irq(desc) : 0u,
			 READ_ONCE(t->running_fn));
	} else {
		pr_emerg("in softirq: %ps", READ_ONCE(t->running_fn));
	}
	print_task_stack(tid);
}

bool irqkit__stall_check(struct irqkit__stall *st, bool busy, unsigned long gen,
			 uint64_t now, uint64_t thresh, uint64_t *stuck)
{
	if (!busy || gen != st->gen) {
		*st = (struct irqkit__stall){ .gen = gen, .since = now };
		return false;
	}
	if (st->reported || now - st->since < thresh)
		return false;
	st->reported = true;
	*stuck = now - st->since;
	return true;
}

/*
 * Linux's hard lockup: a CPU that takes no interrupt.  Here, a thread bound
 * to it keeps interrupts off while hardirqs wait for it, and none was taken
 * for the threshold; the last thread to turn them off there is named.
 */
static void report_hard_lockup(struct irqkit_cpu *c, uint64_t stuck)
{
	const struct irqkit_task *t = READ_ONCE(c->irqoff_task);
	int tid = t ? READ_ONCE(t->tid) : 0;
	char comm[32];

	irqkit_plat_thread_name_of(tid, comm, sizeof(comm));
	pr_emerg("watchdog: Watchdog detected hard LOCKUP on cpu %u", c->id);
	pr_emerg("interrupts off for %llus with interrupts waiting, by [%s:%d]",
		 irqkit__secs_up(stuck), comm, tid);
	if (t)
		print_task_stack(tid);
}

/*
 * A hold seen with the same generation a threshold apart is one handler,
 * softirq action, tasklet or timer callback that has not returned; a CPU
 * whose interrupts stay off with hardirqs waiting and none taken, a hard
 * lockup.
 */
static void check_cpus(uint64_t now, uint64_t thresh)
{
	for (unsigned int i = 0; i < irqkit__rt.nr_cpus; i++) {
		struct irqkit_cpu *c = &irqkit__rt.cpus[i];
		unsigned int slot = a_load_seq(&c->slot);
		uint64_t stuck;

		if (irqkit__stall_check(&c->wd_irqoff, (slot & SLOT_IRQOFF_MASK) && hardirq_pending(c),
					READ_ONCE(c->hold_gen[HOLD_HARDIRQ]), now, thresh, &stuck))
			report_hard_lockup(c, stuck);

		for (int which = HOLD_HARDIRQ; which <= HOLD_SOFTIRQ; which++) {
			unsigned int bit = which == HOLD_HARDIRQ ? SLOT_HARDIRQ : SLOT_SOFTIRQ;

			if (irqkit__stall_check(&c->wd_hold[which], slot & bit,
						READ_ONCE(c->hold_gen[which]), now, thresh, &stuck))
				report_lockup(c, which, stuck);
		}
	}
}

/* ---- the thread ------------------------------------------------------------------------ */

static void watchdog_main(void *arg)
{
	uint64_t thresh = irqkit__rt.watchdog_ns;
	uint64_t period = thresh / 4 ? thresh / 4 : 1;

	(void)arg;
	irqkit__kthread_bind(-1);
	while (!a_load_seq(&wd_stop)) {
		uint64_t now;

		irqkit_plat_wait_timeout(&wd_stop, 0, period);
		if (a_load_seq(&wd_stop))
			break;
		now = irqkit_plat_now_ns();
		check_cpus(now, thresh);
		check_waits(now, thresh);
		a_store_seq(&wd_in_pools, 1);
		if (!a_load_seq(&wd_no_pools)) {
			irqkit__workqueue_watchdog(now, thresh);
			irqkit__workqueue_reap();
		}
		a_store_seq(&wd_in_pools, 0);
	}
}

/*
 * Stop is about to free the work pools: from now on the watchdog leaves them
 * alone (it still reports lockups and blocked waits, stop's own included).
 * Process context.
 */
void irqkit__watchdog_quiesce(void)
{
	unsigned int spins = 0;

	a_store_seq(&wd_no_pools, 1);
	while (a_load_seq(&wd_in_pools))
		spin_step(&spins);
}

/* Thresholds from the config (set by core_init); start the thread.  Process context. */
int irqkit__watchdog_init(void)
{
	struct irqkit__runtime *rt = &irqkit__rt;

	assert_process_context();
	wd_stop = 0;
	wd_no_pools = 0;
	if (!rt->watchdog_ns)
		return 0;
	return irqkit_plat_thread_create(&wd_thread, "irqkit-watchdog", watchdog_main, NULL);
}

void irqkit__watchdog_exit(void)
{
	if (!wd_thread)
		return;
	a_store_seq(&wd_stop, 1);
	irqkit_plat_wake(&wd_stop);
	irqkit_plat_thread_join(wd_thread);
	wd_thread = NULL;
}

/*
 * The config's watchdog and idle-worker times, in ns.  The simulator has no
 * watchdog: its clock jumps to the next deadline whenever every thread
 * waits, so a watchdog would keep a deadlocked run going instead of letting
 * the simulator report it.  Deterministic mode has one, on the host's clock:
 * the player is a real thread that can spin or block as any other.
 */
void irqkit__watchdog_config(const struct irqkit_config *c)
{
	struct irqkit__runtime *rt = &irqkit__rt;
	unsigned int wd = c->watchdog_ms ? c->watchdog_ms : WATCHDOG_MS_DEFAULT;
	unsigned int idle = c->worker_idle_ms ? c->worker_idle_ms : WORKER_IDLE_MS_DEFAULT;

	rt->watchdog_ns = (rt->m.watchdog_off || c->watchdog_ms == IRQKIT_WATCHDOG_OFF)
			  ? 0 : (uint64_t)wd * NSEC_PER_MSEC;
	rt->worker_idle_ns = rt->m.workers_kept ? 0 : (uint64_t)idle * NSEC_PER_MSEC;
}
