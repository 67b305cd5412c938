// SPDX-License-Identifier: MIT
/*
 * Sleeping and waking (Linux's try_to_wake_up, schedule, schedule_timeout as
 * drivers use them), and the delays of <linux/delay.h>.
 *
 * A sleeper publishes its state, then re-reads it around a wait on its
 * wake_seq word; a waker moves the state to RUNNING with one compare-and-swap
 * and then bumps wake_seq and wakes the word.  The sleeper reads wake_seq
 * before the state, so a wake-up that lands between the two makes the wait
 * return at once: none is lost.
 */
#include "core.h"
#include "cpu.h"
#include "time/time.h"
#include "sched.h"
#include "debug/debug.h"
#include <irqkit/sched.h>
#include <irqkit/signal.h>

struct irqkit_task *irqkit_current(void)
{
	struct irqkit_task *t = irqkit_arch_current();

	irqkit__task_register(t);	/* its pid and comm, and a place on the task list */
	return t;
}

void irqkit_set_current_state(unsigned int state)
{
	a_store_seq(&irqkit_arch_current()->state, state);
}

void irqkit___set_current_state(unsigned int state)
{
	WRITE_ONCE(irqkit_arch_current()->state, state);
}

int irqkit_wake_up_state(struct irqkit_task *p, unsigned int mode)
{
	unsigned int s = a_load_seq(&p->state);

	do {
		if (!(s & mode))
			return 0;
	} while (!a_cas(&p->state, &s, IRQKIT_TASK_RUNNING));
	irqkit__seq_wake(&p->wake_seq);
	return 1;
}

int irqkit_wake_up_process(struct irqkit_task *p)
{
	return irqkit_wake_up_state(p, IRQKIT_TASK_NORMAL);
}

void irqkit_might_sleep(const char *file, int line)
{
	irqkit__might_sleep(file, line);
}

/* Linux's __schedule_bug: a sleep inside a spinlock, a bh-off section or interrupt context. */
static void schedule_debug(struct irqkit_task *t)
{
	char comm[32];

	if (likely(!t->preempt_count))
		return;
	irqkit_plat_thread_name(comm, sizeof(comm));
	pr_err("BUG: scheduling while atomic: %s/%d/0x%08x", comm, irqkit_plat_thread_id(),
	       t->preempt_count);
	irqkit__dump_stack();
}

/* Is the caller the thread that plays its CPU in deterministic mode (it may move the clock)? */
static bool det_clock_owner(const struct irqkit_task *t)
{
	return mode_virtual_clock() && irqkit_started() &&
	       t->cpu && !t->nodeliver;
}

/*
 * Linux's hung-task watchdog looks at uninterruptible sleeps only (not
 * TASK_IDLE's): such a sleep without a limit is a wait the watchdog may
 * report; an interruptible one is not.
 */
static bool hung_task_watched(unsigned int state, uint64_t deadline)
{
	return deadline == UINT64_MAX && (state & IRQKIT_TASK_UNINTERRUPTIBLE) &&
	       !(state & IRQKIT_TASK_NOLOAD);
}

/*
 * Sleep while the state is not RUNNING, until @deadline (nanoseconds since
 * start; UINT64_MAX: none).  A signal that the state lets through ends the
 * sleep as a wake-up does (Linux's schedule() does not sleep then).
 * Return: true when woken or signalled, false when the time ran out (the
 * state is then set back to RUNNING).
 */
static bool sleep_until(struct irqkit_task *t, uint64_t deadline)
{
	struct irqkit__wait w;
	bool woken = true;

	schedule_debug(t);
	irqkit__task_register(t);	/* where routed signals find it */
	irqkit__wait_init(&w);
	/*
	 * Linux's schedule() comes back with interrupts on, whatever the
	 * sleeper had: the next task runs with its own.  Here, a sleeping
	 * thread must not keep its CPU's interrupts out either.
	 */
	if (task_irqs_off(t))
		irqkit_local_irq_enable();
	for (;;) {
		unsigned int seq = a_load_seq(&t->wake_seq);
		unsigned int state = a_load_seq(&t->state);
		uint64_t now;

		if (state == IRQKIT_TASK_RUNNING)
			break;
		if (irqkit__signal_pending_state(state, t)) {
			a_store_seq(&t->state, IRQKIT_TASK_RUNNING);
			break;
		}
		now = irqkit__now_ns();
		if (now >= deadline) {
			a_store_seq(&t->state, IRQKIT_TASK_RUNNING);
			woken = false;
			break;
		}
		if (hung_task_watched(state, deadline))
			irqkit__wait_begin(&w, "schedule", WAIT_SLEEP, NULL, 0);
		if (det_clock_owner(t)) {
			/* one tick at a time: a timer that wakes the sleeper runs here */
			uint64_t step = 1000000000ull / irqkit__rt.hz;

			irqkit_clock_advance(deadline - now < step ? deadline - now : step);
			continue;
		}
		if (deadline == UINT64_MAX)
			irqkit_plat_wait(&t->wake_seq, seq);
		else
			irqkit_plat_wait_timeout(&t->wake_seq, seq, deadline - now);
		irqkit__jiffies_touch();
	}
	irqkit__wait_end(&w);
	return woken;
}

void irqkit_schedule(void)
{
	struct irqkit_task *t = irqkit_arch_current();

	if (READ_ONCE(t->state) == IRQKIT_TASK_RUNNING) {
		schedule_debug(t);
		irqkit_plat_yield();
		irqkit__jiffies_touch();
		return;
	}
	sleep_until(t, UINT64_MAX);
}

long irqkit_schedule_timeout(long timeout)
{
	struct irqkit_task *t = irqkit_arch_current();
	unsigned long expire;
	long left;

	if (timeout == IRQKIT_MAX_SCHEDULE_TIMEOUT) {
		irqkit_schedule();
		return timeout;
	}
	if (timeout < 0) {
		pr_err("schedule_timeout: wrong timeout value %lx", (unsigned long)timeout);
		irqkit__dump_stack();
		a_store_seq(&t->state, IRQKIT_TASK_RUNNING);
		return 0;
	}
	expire = irqkit_jiffies() + (unsigned long)timeout;
	if (READ_ONCE(t->state) != IRQKIT_TASK_RUNNING)
		sleep_until(t, irqkit__jiffies_to_ns(expire));
	else
		irqkit_schedule();
	left = (long)(expire - irqkit_jiffies());
	return left < 0 ? 0 : left;
}

long irqkit_schedule_timeout_interruptible(long timeout)
{
	irqkit_set_current_state(IRQKIT_TASK_INTERRUPTIBLE);
	return irqkit_schedule_timeout(timeout);
}

long irqkit_schedule_timeout_uninterruptible(long timeout)
{
	irqkit_set_current_state(IRQKIT_TASK_UNINTERRUPTIBLE);
	return irqkit_schedule_timeout(timeout);
}

long irqkit_schedule_timeout_killable(long timeout)
{
	irqkit_set_current_state(IRQKIT_TASK_KILLABLE);
	return irqkit_schedule_timeout(timeout);
}

/* ---- delays ------------------------------------------------------------------- */

void irqkit_cpu_relax(void)
{
	irqkit_arch_cpu_relax();
	irqkit__jiffies_touch();
}

/* A busy-wait of @ns: any context.  The virtual clock moves instead in deterministic mode. */
void irqkit_ndelay(unsigned long ns)
{
	uint64_t end;

	if (mode_virtual_clock() && irqkit_started()) {
		irqkit_clock_advance(ns);
		return;
	}
	end = irqkit_plat_now_ns() + ns;
	while (irqkit_plat_now_ns() < end)
		irqkit_arch_cpu_relax();
	irqkit__jiffies_touch();
}

void irqkit_udelay(unsigned long us)
{
	irqkit_ndelay(us * 1000ul);
}

void irqkit_mdelay(unsigned long ms)
{
	irqkit_ndelay(ms * 1000000ul);
}

/* Linux's: sleep in jiffies until the time is up or a signal comes; the milliseconds left. */
unsigned long irqkit_msleep_interruptible(unsigned int ms)
{
	long timeout = (long)irqkit_msecs_to_jiffies(ms) + 1;

	might_sleep();
	while (timeout && !irqkit_signal_pending(irqkit_arch_current()))
		timeout = irqkit_schedule_timeout_interruptible(timeout);
	return irqkit_jiffies_to_msecs((unsigned long)timeout);
}

void irqkit_usleep_range(unsigned long min_us, unsigned long max_us)
{
	(void)max_us;
	irqkit__sleep_ns((uint64_t)min_us * 1000);
}
