// SPDX-License-Identifier: MIT
/*
 * hrtimers in a program that does not read the jiffies objects: no tick
 * runs, so nothing but the hrtimer machinery itself may wake a CPU for an
 * expiry (with the Linux-name headers the tick would cover a missed one
 * within a jiffy).  Native names only, for that reason.
 */
#include "../../harness.h"

#include <irqkit/hrtimer.h>

#include <stdatomic.h>

static atomic_int runs;
static _Atomic int64_t first_at, second_at;

static enum irqkit_hrtimer_restart restart_once(struct irqkit_hrtimer *t)
{
	int n = atomic_fetch_add(&runs, 1) + 1;

	if (n == 1) {
		atomic_store(&first_at, (int64_t)irqkit_ktime_get_ns());
		irqkit_hrtimer_forward(t, irqkit_hrtimer_now(t), 1000000);	/* 1 ms on */
		return IRQKIT_HRTIMER_RESTART;
	}
	atomic_store(&second_at, (int64_t)irqkit_ktime_get_ns());
	return IRQKIT_HRTIMER_NORESTART;
}

/*
 * A callback that restarts itself earlier than anything its CPU's idle
 * dispatcher waits for (here: nothing), run by a thread bound to the CPU
 * (it was due while that thread had interrupts off, so no kick woke the
 * dispatcher): the dispatcher must be told of the new earliest expiry.
 */
static void test_restart_from_a_bound_thread_reaches_the_idle_dispatcher(void **state)
{
	struct irqkit_hrtimer t;
	unsigned long flags;
	bool ran;

	(void)state;
	atomic_store(&runs, 0);
	irqkit_hrtimer_setup(&t, restart_once, IRQKIT_CLOCK_MONOTONIC, IRQKIT_HRTIMER_MODE_ABS);
	assert_int_equal(irqkit_thread_bind(1), 0);
	flags = irqkit_local_irq_save();
	irqkit_hrtimer_start_range_ns(&t, 0, 0, IRQKIT_HRTIMER_MODE_ABS);	/* due: nobody woken */
	irqkit_local_irq_restore(flags);		/* taken here, on this thread */
	assert_int_equal(atomic_load(&runs), 1);
	assert_int_equal(irqkit_thread_unbind(), 0);
	ran = wait_until(atomic_load(&runs) == 2, 2000);
	irqkit_hrtimer_cancel(&t);	/* off the queue before anything can fail: it is on this stack */
	assert_true(ran);
	assert_true(atomic_load(&second_at) - atomic_load(&first_at) < 500000000);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(
			test_restart_from_a_bound_thread_reaches_the_idle_dispatcher,
			thr_setup, thr_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
