// SPDX-License-Identifier: MIT
/*
 * The platform's one-shot timer: a thread that sleeps until the programmed
 * deadline and then tells the core, which raises TIMER_SOFTIRQ on the CPUs
 * that have timers due (their local timer interrupt).  It sleeps without a
 * deadline when no timer is armed: an idle runtime does not wake up.  Its
 * timer slack is 1 ns (irqkit_plat_thread_create sets it): it stands for a
 * hardware timer, and the kernel's default 50 us of slack would make every
 * timer that much late.
 *
 * It waits with the platform's own futex waits on a sequence word that each
 * programming bumps, so that under a stacked scheduler it is one of its
 * threads and sleeps in virtual time like the others.
 */
#define _GNU_SOURCE
#include <irqkit-core/platform.h>
#include <irqkit/irqkit.h>

#include "posix.h"

static struct irqkit_plat_thread *thread;
static unsigned int seq;		/* bumped by each programming and by stop */
static uint64_t deadline = UINT64_MAX;
static bool stopping, running;

void irqkit_arch_timer_program(uint64_t deadline_ns)
{
	if (!__atomic_load_n(&running, __ATOMIC_ACQUIRE))
		return;
	/*
	 * The same deadline again (the core programs at every timer change;
	 * most leave it as it was, "none" without the periodic tick): the
	 * thread sleeps for it already, or reads it next.  No wake-up.
	 */
	if (__atomic_exchange_n(&deadline, deadline_ns, __ATOMIC_ACQ_REL) == deadline_ns)
		return;
	__atomic_fetch_add(&seq, 1, __ATOMIC_SEQ_CST);
	irqkit_plat_wake(&seq);
}

static void timer_main(void *arg)
{
	(void)arg;
	irqkit_arch_current()->kthread = true;	/* irqkit_stop() from here is refused */
	for (;;) {
		unsigned int s = __atomic_load_n(&seq, __ATOMIC_SEQ_CST);
		uint64_t d = __atomic_load_n(&deadline, __ATOMIC_ACQUIRE);
		uint64_t now;

		if (__atomic_load_n(&stopping, __ATOMIC_ACQUIRE))
			break;
		if (d == UINT64_MAX) {
			irqkit_plat_wait(&seq, s);
			continue;
		}
		now = irqkit_plat_now_ns();
		if (now < d) {
			irqkit_plat_wait_timeout(&seq, s, d - now);
			continue;
		}
		/* due: unless it was programmed again meanwhile, fire once */
		if (__atomic_compare_exchange_n(&deadline, &d, UINT64_MAX, false, __ATOMIC_ACQ_REL,
						__ATOMIC_ACQUIRE))
			irqkit__core_timer_interrupt();
	}
}

int irqkit__posix_timer_start(void)
{
	int ret;

	__atomic_store_n(&deadline, UINT64_MAX, __ATOMIC_RELAXED);
	__atomic_store_n(&stopping, false, __ATOMIC_RELAXED);
	__atomic_store_n(&running, true, __ATOMIC_RELEASE);
	ret = irqkit_plat_thread_create(&thread, "ktimerd", timer_main, NULL);
	if (ret)
		__atomic_store_n(&running, false, __ATOMIC_RELEASE);
	return ret;
}

void irqkit__posix_timer_stop(void)
{
	if (!__atomic_load_n(&running, __ATOMIC_ACQUIRE))
		return;
	__atomic_store_n(&stopping, true, __ATOMIC_RELEASE);
	__atomic_fetch_add(&seq, 1, __ATOMIC_SEQ_CST);
	irqkit_plat_wake(&seq);
	irqkit_plat_thread_join(thread);
	thread = NULL;
	/* later programming (from a thread that still runs) finds it stopped */
	__atomic_store_n(&running, false, __ATOMIC_RELEASE);
}
