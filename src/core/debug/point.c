// SPDX-License-Identifier: MIT
/*
 * Interrupt points: the places where an exploration (<irqkit/explore.h>)
 * may make an interrupt arrive.  In deterministic mode the thread that plays
 * its CPU reaches one at each kernel-API call where a real CPU could take an
 * interrupt: a spinlock, reader-writer lock or mutex taken or released with
 * interrupts on (in code built with IRQKIT_LOCKDEP, whose hooks announce
 * them), queue_work, tasklet_schedule, mod_timer, wake_up, complete,
 * free_irq, every delivery point (the end of request_irq and enable_irq,
 * local_bh_enable, irqkit_deliver_pending) and irqkit_sim_point().
 *
 * In simulator mode (mode_switch_at_points()) the same calls are the places where
 * the running thread may give way to another: every thread's, in any
 * context, go to the platform's hook.
 *
 * The core neither counts points nor chooses among them: it calls the hook
 * the platform installed, with what the point is and where the program
 * called it, where the caller plays its CPU with interrupts on, outside
 * hardirq context.  An interrupt the hook raises there is delivered before
 * the point returns, as a real one arriving there would be.
 */
#include "core.h"
#include "cpu.h"
#include "debug.h"

#include <irqkit/explore.h>

HIDDEN irqkit__core_point_fn irqkit__point_hook;

void irqkit__core_explore_hook_set(irqkit__core_point_fn fn)
{
	WRITE_ONCE(irqkit__point_hook, fn);
}

void irqkit__point_slow(const char *what, const void *ip)
{
	struct irqkit_task *t = irqkit_arch_current();
	irqkit__core_point_fn fn = READ_ONCE(irqkit__point_hook);

	/* the simulator: every point of every thread may switch to another thread */
	if (mode_switch_at_points()) {
		if (fn)
			fn(what, ip);
		return;
	}
	/* interrupts raised by the hook reach points of their own: not points */
	if (!fn || t->in_point || !mode_player_delivers() || !t->cpu ||
	    !irqkit__may_deliver_here(t, (unsigned int)t->cpu_id))
		return;
	t->in_point = true;
	fn(what, ip);
	irqkit__deliver_pending_slow(t);
	t->in_point = false;
}

/*
 * The simulator only: a thread that has just taken its place on a CPU gives
 * way there, so that it does not run beside a context of that CPU that
 * cannot be preempted (a thread's CPU is known only once it runs).
 */
void irqkit__point_switch(const char *what, const void *ip)
{
	irqkit__core_point_fn fn = READ_ONCE(irqkit__point_hook);

	if (fn && mode_switch_at_points())
		fn(what, ip);
}

void irqkit_sim_point_irq(const char *what)
{
	irqkit__point(what, __builtin_return_address(0));
}

void irqkit_sim_point(void)
{
	irqkit__point("irqkit_sim_point", __builtin_return_address(0));
}
