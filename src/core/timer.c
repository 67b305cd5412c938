// SPDX-License-Identifier: MIT
/*
 * Time and the core's one-shot timers: jiffies, the virtual clock of
 * deterministic mode, and a sorted timer list driven by the platform's
 * one-shot timer (or by irqkit_clock_advance()).
 */
#include "internals.h"

#define NSEC_PER_SEC	1000000000ull

uint64_t irqkit__now_ns(void)
{
	if (irqkit__rt.mode == IRQKIT_MODE_DETERMINISTIC)
		return a_load_acquire(&irqkit__rt.virt_ns);
	return irqkit_plat_now_ns() - irqkit__rt.start_ns;
}

unsigned long irqkit_jiffies(void)
{
	uint64_t ns = irqkit__now_ns();
	uint64_t hz = irqkit__rt.hz;

	return (unsigned long)((ns / NSEC_PER_SEC) * hz + (ns % NSEC_PER_SEC) * hz / NSEC_PER_SEC);
}

unsigned int irqkit_hz(void)
{
	return irqkit__rt.hz;
}

/* Tell the platform the earliest expiry.  Timer lock held. */
static void program(void)
{
	struct irqkit__runtime *rt = &irqkit__rt;

	if (rt->mode == IRQKIT_MODE_DETERMINISTIC)
		return;
	irqkit_plat_timer_program(rt->timers ? rt->start_ns + rt->timers->expires_ns : UINT64_MAX);
}

static void unlink_timer(struct irqkit__timer *timer)
{
	struct irqkit__timer **pp = &irqkit__rt.timers;

	while (*pp && *pp != timer)
		pp = &(*pp)->next;
	if (*pp)
		*pp = timer->next;
	timer->pending = false;
}

/* Arm (or re-arm) @timer to run at @expires_ns of irqkit__now_ns().  Any context. */
void irqkit__timer_arm(struct irqkit__timer *timer, uint64_t expires_ns)
{
	struct irqkit__runtime *rt = &irqkit__rt;
	struct irqkit__timer **pp;

	irqkit_spin_lock(&rt->timer_lock);
	if (timer->pending)
		unlink_timer(timer);
	timer->expires_ns = expires_ns;
	for (pp = &rt->timers; *pp && (*pp)->expires_ns <= expires_ns; pp = &(*pp)->next)
		;
	timer->next = *pp;
	*pp = timer;
	timer->pending = true;
	if (rt->timers == timer)
		program();
	irqkit_spin_unlock(&rt->timer_lock);
}

/* Disarm @timer; a callback already running is not waited for.  Any context. */
void irqkit__timer_cancel(struct irqkit__timer *timer)
{
	struct irqkit__runtime *rt = &irqkit__rt;

	irqkit_spin_lock(&rt->timer_lock);
	if (timer->pending) {
		unlink_timer(timer);
		program();
	}
	irqkit_spin_unlock(&rt->timer_lock);
}

/*
 * The platform timer fired: run every expired timer on this thread, in
 * softirq context (SOFTIRQ_OFFSET), as Linux runs timers from TIMER_SOFTIRQ.
 */
void irqkit__timer_interrupt(void)
{
	struct irqkit__runtime *rt = &irqkit__rt;
	struct irqkit_task *t = &irqkit_task_self;
	uint64_t now = irqkit__now_ns();

	t->preempt_count += IRQKIT_SOFTIRQ_OFFSET;
	irqkit_spin_lock(&rt->timer_lock);
	while (rt->timers && rt->timers->expires_ns <= now) {
		struct irqkit__timer *timer = rt->timers;

		rt->timers = timer->next;
		timer->pending = false;
		irqkit_spin_unlock(&rt->timer_lock);
		timer->fn(timer);
		irqkit_spin_lock(&rt->timer_lock);
	}
	program();
	irqkit_spin_unlock(&rt->timer_lock);
	t->preempt_count -= IRQKIT_SOFTIRQ_OFFSET;
}

void irqkit__timers_exit(void)
{
	struct irqkit__runtime *rt = &irqkit__rt;

	irqkit_spin_lock(&rt->timer_lock);
	while (rt->timers)
		unlink_timer(rt->timers);
	program();
	irqkit_spin_unlock(&rt->timer_lock);
}

/*
 * Deterministic mode: step the virtual clock from expiry to expiry, so a timer
 * that re-arms itself inside the interval fires as often as it would in real
 * time, then land on the target.
 */
int irqkit_clock_advance(uint64_t ns)
{
	struct irqkit__runtime *rt = &irqkit__rt;
	uint64_t target;

	if (!irqkit_started() || rt->mode != IRQKIT_MODE_DETERMINISTIC)
		return -IRQKIT_EINVAL;
	target = a_load_acquire(&rt->virt_ns) + ns;
	for (;;) {
		uint64_t next;

		irqkit_spin_lock(&rt->timer_lock);
		next = rt->timers ? rt->timers->expires_ns : UINT64_MAX;
		irqkit_spin_unlock(&rt->timer_lock);
		if (next > target)
			break;
		if (next > a_load_acquire(&rt->virt_ns))
			a_store_release(&rt->virt_ns, next);
		irqkit__timer_interrupt();
	}
	a_store_release(&rt->virt_ns, target);
	return 0;
}
